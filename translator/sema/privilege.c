/*
 * privilege.c -- what --privilege=stapusr and stapsys refuse: probe
 * points of families above the level, and code that reads what the level
 * may not see.
 *
 * Takes the elaboration in progress; produces errors (E_PRIVILEGE_PROBE,
 * E_PRIVILEGE_FUNC) and nothing else: it never changes the program.
 *
 * Probe points: each provider says the lowest level that may use its
 * family (provider.h, `privilege`); elaborate.c asks before the provider
 * matches a point, so a refused kernel.function("pat") is refused
 * without debug information and whatever pat matches.  Optional points
 * ('?', '!') are dropped quietly, as SystemTap does.
 *
 * Code: every builtin (builtins.h) is allowed at every level.  A library
 * function written in embedded C needs stapsys unless its code carries
 * the C comment "unprivileged" (parse_build.c sets
 * n->u.function.unprivileged; SystemTap's tapsets use the same mark, so
 * theirs keep their meaning under -I): the tapset author's word that it
 * reads only the current task's identity, clocks or the script's own
 * values (a process probe's user memory is not among them, although
 * the runtime now fires a stapusr module's process probes only in the
 * user's own processes, runtime/linux/owner.h: which of the user-memory
 * functions may then be allowed is a decision not taken here).
 * A script-language function needs the most any
 * function it calls needs, and stapsys for an embedded expression (%{ %})
 * or an @cast of a kernel type in its body: those read kernel memory.
 * Guru-only functions and constructs are refused by -g's own checks
 * (E_GURU_FUNC, E_GURU_ONLY) and -g needs stapdev (options.c).
 *
 * Errors are reported where the script's own code calls: a library
 * function's body is not the user's to change, so the call to it is the
 * place, with a note naming the embedded function or construct deep
 * inside that is the reason.
 */
#include <string.h>

#include "translator/providers/provider.h"
#include "translator/sema/elab.h"

#define A(e) ((e)->s->arena)

/* ---- probe points ---- */

int
privilege_check_point(struct elab *e, const struct provider *p,
		      struct node *pt)
{
	enum privilege have = privilege_level(e->s->opts.privilege);
	enum privilege need = provider_privilege(p, pt);
	struct node *user = e->cur_point ? e->cur_point : pt;

	if (need <= have)
		return 1;
	/* The user's own '?' or '!', not e->cur_optional: that is also set
	 * while a wildcard's expansions are tried, and when all of them are
	 * refused the error held from the first is what explains it. */
	if (user->u.point.optional || user->u.point.sufficient || e->listing)
		return 0;
	/* One error per point the user wrote, however many aliases and
	 * wildcard expansions lead to refused points. */
	if (e->priv_refused == user)
		return -1;
	e->priv_refused = user;
	diag_error(&e->s->diag, user->loc, "E_PRIVILEGE_PROBE",
		   "probe point '%s' needs --privilege=%s; the script is built for --privilege=%s",
		   e->cur_written, privilege_name(need), privilege_name(have));
	if (user != pt)
		diag_note(&e->s->diag, pt->loc, "it expands to '%s' (%s probes)",
			  pp_to_string(A(e), pt), p->name);
	return -1;
}

/* ---- code ---- */

/* What one function needs, computed once (by its index in the program). */
struct fn_need {
	enum privilege level;	/* PRIV_UNSET: not computed yet */
	bool busy;		/* being computed: a recursive call */
	struct node *why;	/* the embedded function's declaration, the
				 * %{ %} or the @cast that sets `level` */
};

struct priv_walk {
	struct elab *e;
	struct fn_need *needs;
	/* while computing a need: the highest found, and where */
	enum privilege level;
	struct node *why;
	/* while checking the user's code: the level it is built for */
	enum privilege have;
	struct loc *reported;	/* call sites reported, once each: a probe
				 * body is cloned for every derived probe */
	int nreported, cap_reported;
};

static void fn_need_of(struct priv_walk *w, struct function_sym *f);

/* @cast of a type in the kernel or a kernel module (not in a program
 * named by its path) reads kernel memory. */
static bool
cast_reads_kernel(const struct node *n)
{
	const char *m = n->u.cast.module;

	return !m || m[0] != '/';
}

static void
raise_need(struct priv_walk *w, enum privilege level, struct node *why)
{
	if (level > w->level) {
		w->level = level;
		w->why = why;
	}
}

/* ast_walk visitor: the highest level the code under a node needs. */
static bool
need_pre(struct node *n, void *ctx)
{
	struct priv_walk *w = ctx;

	switch (n->kind) {
	case N_CALL:
		if (n->u.call.fn) {
			struct function_sym *f = n->u.call.fn;
			fn_need_of(w, f);
			raise_need(w, w->needs[f->index].level,
				   w->needs[f->index].why);
		}
		return true;
	case N_EMBEDDED_EXPR:
		raise_need(w, PRIV_STAPSYS, n);
		return true;
	case N_CAST:
		if (cast_reads_kernel(n))
			raise_need(w, PRIV_STAPSYS, n);
		return true;
	default:
		return true;
	}
}

static void
fn_need_of(struct priv_walk *w, struct function_sym *f)
{
	struct fn_need *fn = &w->needs[f->index];
	struct node *d = f->decl;

	if (fn->level != PRIV_UNSET || fn->busy)
		return;		/* known, or recursion: the outer call
				 * counts what the cycle needs */
	if (d->u.function.embedded) {
		fn->level = d->u.function.unprivileged ? PRIV_STAPUSR :
							 PRIV_STAPSYS;
		fn->why = d;
		return;
	}
	enum privilege saved_level = w->level;
	struct node *saved_why = w->why;
	fn->busy = true;
	w->level = PRIV_STAPUSR;
	w->why = NULL;
	ast_walk(d->u.function.body, need_pre, NULL, w);
	fn->level = w->level;
	fn->why = w->why;
	fn->busy = false;
	w->level = saved_level;
	w->why = saved_why;
}

/* Whether the call site or construct at `at` was reported already. */
static bool
reported_before(struct priv_walk *w, struct loc at)
{
	for (int i = 0; i < w->nreported; i++)
		if (w->reported[i].src == at.src &&
		    w->reported[i].line == at.line &&
		    w->reported[i].col == at.col)
			return true;
	w->reported = arena_grow(A(w->e), w->reported, sizeof(*w->reported),
				 &w->cap_reported, w->nreported + 1);
	w->reported[w->nreported++] = at;
	return false;
}

/* The note under an error: what deep inside needs the level. */
static void
note_why(struct priv_walk *w, const struct node *why, const char *called)
{
	struct diag *d = &w->e->s->diag;

	if (!why)
		return;
	if (why->kind == N_FUNCTION && (!called ||
					strcmp(called, why->u.function.name)))
		diag_note(d, why->loc, "it calls '%s', embedded C not marked /* unprivileged */",
			  why->u.function.name);
	else if (why->kind == N_FUNCTION)
		diag_note(d, why->loc, "'%s' is embedded C not marked /* unprivileged */",
			  why->u.function.name);
	else if (why->kind == N_EMBEDDED_EXPR)
		diag_note(d, why->loc, "it uses an embedded C expression here");
	else if (why->kind == N_CAST)
		diag_note(d, why->loc, "it uses @cast of a kernel type here");
}

/* ast_walk visitor over the user's code: report each call or construct
 * that needs more than the level. */
static bool
check_pre(struct node *n, void *ctx)
{
	struct priv_walk *w = ctx;
	struct diag *d = &w->e->s->diag;
	const char *have = privilege_name(w->have);

	/* A call to the script's own function is not the place: its body
	 * is checked itself, where it calls the library. */
	if (n->kind == N_CALL && n->u.call.fn && n->u.call.fn->from_tapset) {
		struct fn_need *fn = &w->needs[n->u.call.fn->index];
		fn_need_of(w, n->u.call.fn);
		if (fn->level <= w->have || reported_before(w, n->loc))
			return true;
		diag_error(d, n->loc, "E_PRIVILEGE_FUNC",
			   "function '%s' needs --privilege=%s; the script is built for --privilege=%s",
			   n->u.call.name, privilege_name(fn->level), have);
		note_why(w, fn->why, n->u.call.name);
	} else if (n->kind == N_CAST && cast_reads_kernel(n) &&
		   w->have < PRIV_STAPSYS && !reported_before(w, n->loc)) {
		diag_error(d, n->loc, "E_PRIVILEGE_FUNC",
			   "@cast of a kernel type reads kernel memory: it needs --privilege=stapsys; the script is built for --privilege=%s",
			   have);
	}
	return true;
}

bool
privilege_check_program(struct elab *e)
{
	struct program *p = e->prog;
	int errors = e->s->diag.errors;
	struct priv_walk w = {
		.e = e,
		.have = privilege_level(e->s->opts.privilege),
	};

	if (w.have == PRIV_STAPDEV)
		return true;
	w.needs = arena_alloc(A(e), sizeof(*w.needs) *
				    (size_t)(p->nfunctions + 1));
	for (int i = 0; i < p->nprobes; i++) {
		ast_walk(p->probes[i]->cond, check_pre, NULL, &w);
		ast_walk(p->probes[i]->body, check_pre, NULL, &w);
	}
	/* The script's own functions; the library's are reached through
	 * the calls above (their callers are the place to report). */
	for (int i = 0; i < p->nfunctions; i++)
		if (!p->functions[i]->from_tapset)
			ast_walk(p->functions[i]->decl->u.function.body,
				 check_pre, NULL, &w);
	return e->s->diag.errors == errors;
}
