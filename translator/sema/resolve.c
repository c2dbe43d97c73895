/*
 * resolve.c -- binding every name of the elaborated program.
 *
 * In each derived probe and each function that is called, a name is a
 * local (of that probe or function), else a global (the script's, or the
 * library's, pulled in on first use; a private one only from its own
 * file), else a new local. Calls bind to a script function, else a library
 * function, by name and arity; functions are resolved when first called.
 * $names bind to the probe's context variables through its provider;
 * @defined(...) becomes 1 or 0 here. Types are left to types.c.
 */
#include <string.h>

#include "translator/common/name_index.h"
#include "translator/sema/builtins.h"
#include "translator/sema/elab.h"
#include "translator/providers/process.h"
#include "translator/providers/provider.h"
#include "translator/sema/resolve_tvar.h"
#include "translator/sema/tvar_access.h"

struct scope {
	struct symbol **v;
	int n, cap;
};

struct resolver {
	struct elab *e;
	struct derived_probe *dp;	/* NULL inside a function */
	struct function_sym *fn;	/* NULL inside a probe */
	struct scope *locals;
	int in_entry;			/* inside @entry(...) */
	struct function_sym **queue;	/* functions pulled in, to resolve */
	int nqueue, cap_queue;
};

static struct arena *
A(struct resolver *r)
{
	return r->e->s->arena;
}

static const char *const print_family[] = {
	"printf", "sprintf", "print", "println", "printd", "printdln",
	"sprint", "sprintln", "sprintd", "sprintdln", NULL,
};

bool
sema_is_print_family(const char *name)
{
	for (int i = 0; print_family[i]; i++)
		if (strcmp(name, print_family[i]) == 0)
			return true;
	return false;
}

static struct symbol *
new_symbol(struct resolver *r, const char *name, enum sym_kind kind,
	   struct node *decl)
{
	struct symbol *s = arena_alloc(A(r), sizeof(*s));

	s->name = name;
	s->kind = kind;
	s->decl = decl;
	return s;
}

static void
scope_add(struct resolver *r, struct scope *sc, struct symbol *s)
{
	sc->v = arena_grow(A(r), sc->v, sizeof(*sc->v), &sc->cap, sc->n + 1);
	s->index = sc->n;
	sc->v[sc->n++] = s;
}

static struct symbol *
scope_find(struct scope *sc, const char *name)
{
	for (int i = 0; sc && i < sc->n; i++)
		if (strcmp(sc->v[i]->name, name) == 0)
			return sc->v[i];
	return NULL;
}

/* ---- globals ---- */

static bool
visible_from(const struct node *decl, bool is_private, struct loc use)
{
	return !is_private || decl->loc.src == use.src;
}

static struct symbol *
global_for_decl(struct resolver *r, struct node *decl)
{
	struct program *p = r->e->prog;

	for (const struct name_entry *x = name_index_find(r->e->global_syms,
					decl->u.global.name); x; x = x->next)
		if (((struct symbol *)x->item)->decl == decl)
			return x->item;
	struct symbol *s = new_symbol(r, decl->u.global.name, SYM_GLOBAL, decl);
	s->max_entries = decl->u.global.size;
	s->wrap = decl->u.global.wrap;
	s->init = decl->u.global.init;
	s->is_private = decl->u.global.is_private;
	s->index = p->nglobals;
	p->globals = arena_grow(A(r), p->globals, sizeof(*p->globals),
				&p->globals_cap,
				p->nglobals + 1);
	p->globals[p->nglobals++] = s;
	name_index_add(r->e->global_syms, s->name, s);
	return s;
}

static struct symbol *
find_global(struct resolver *r, const char *name, struct loc use)
{
	for (const struct name_entry *x = name_index_find(r->e->globals_by_name,
							  name); x; x = x->next) {
		struct node *g = x->item;
		if (visible_from(g, g->u.global.is_private, use))
			return global_for_decl(r, g);
	}
	return NULL;
}

static void
bind_symbol(struct resolver *r, struct node *n)
{
	const char *name = n->u.symbol.name;
	struct symbol *s = scope_find(r->locals, name);

	if (!s)
		s = find_global(r, name, n->loc);
	if (!s) {
		s = new_symbol(r, name, SYM_LOCAL, n);
		scope_add(r, r->locals, s);
	}
	n->u.symbol.sym = s;
}

/* ---- functions ---- */

static struct function_sym *
function_for_decl(struct resolver *r, struct node *decl)
{
	struct program *p = r->e->prog;

	for (const struct name_entry *x = name_index_find(r->e->function_syms,
					decl->u.function.name); x; x = x->next)
		if (((struct function_sym *)x->item)->decl == decl)
			return x->item;
	struct function_sym *f = arena_alloc(A(r), sizeof(*f));
	f->name = decl->u.function.name;
	f->decl = decl;
	f->ret = decl->u.function.ret;
	f->from_tapset = decl->loc.src && decl->loc.src->is_tapset;
	f->index = p->nfunctions;
	p->functions = arena_grow(A(r), p->functions, sizeof(*p->functions),
				  &p->functions_cap, p->nfunctions + 1);
	p->functions[p->nfunctions++] = f;
	name_index_add(r->e->function_syms, f->name, f);
	r->queue = arena_grow(A(r), r->queue, sizeof(*r->queue),
			      &r->cap_queue, r->nqueue + 1);
	r->queue[r->nqueue++] = f;
	return f;
}

static struct node *
find_function_decl(struct resolver *r, const char *name, int nargs,
		   struct loc use, bool *wrong_arity)
{
	*wrong_arity = false;
	for (const struct name_entry *x = name_index_find(
			r->e->functions_by_name, name); x; x = x->next) {
		struct node *f = x->item;
		if (!visible_from(f, f->u.function.is_private, use))
			continue;
		if (f->u.function.params.n == nargs)
			return f;
		*wrong_arity = true;
	}
	return NULL;
}

static void
hint_function(struct resolver *r, const char *name)
{
	struct elab *e = r->e;
	const char *best = NULL;
	int best_d = 3;

	for (int i = 0; i < e->nfunctions; i++) {
		if (e->functions[i]->u.function.is_private)
			continue;
		int d = elab_edit_distance(name, e->functions[i]->u.function.name);
		if (d < best_d) {
			best_d = d;
			best = e->functions[i]->u.function.name;
		}
	}
	if (best)
		diag_hint(&e->s->diag, "did you mean '%s'?", best);
}

/* After E_ARITY: where the visible definitions of `name` are, each with
 * its parameter count (functions may be overloaded by it). */
static void
note_arities(struct resolver *r, const char *name, struct loc use)
{
	struct elab *e = r->e;

	for (int i = 0; i < e->nfunctions; i++) {
		struct node *f = e->functions[i];
		int np = f->u.function.params.n;
		if (strcmp(f->u.function.name, name) == 0 &&
		    visible_from(f, f->u.function.is_private, use))
			diag_note(&e->s->diag, f->loc,
				  "'%s' with %d parameter%s is defined here",
				  name, np, np == 1 ? "" : "s");
	}
}

static void
bind_call(struct resolver *r, struct node *n)
{
	bool wrong_arity;

	if (sema_is_print_family(n->u.call.name))
		return;
	struct node *decl = find_function_decl(r, n->u.call.name,
					       n->u.call.args.n, n->loc,
					       &wrong_arity);
	if (decl) {
		n->u.call.fn = function_for_decl(r, decl);
		/* A library function marked guru (set_kernel_long, ...)
		 * may be called by the library, by a script only with -g. */
		if (decl->u.function.guru && !r->e->s->opts.guru &&
		    !(n->loc.src && n->loc.src->is_tapset))
			diag_error(&r->e->s->diag, n->loc, "E_GURU_FUNC",
				   "function '%s' may only be called in guru mode (-g)",
				   n->u.call.name);
		return;
	}
	/* The intrinsics code generation writes inline (exit, execname,
	 * strlen, ...): a script or tapset function of the same name and
	 * arity, found above, wins. */
	const struct builtin *b = builtin_lookup(n->u.call.name);
	if (b && b->nparams == n->u.call.args.n) {
		n->u.call.builtin = b;
		return;
	}
	if (wrong_arity) {
		diag_error(&r->e->s->diag, n->loc, "E_ARITY",
			   "function '%s' does not take %d argument%s",
			   n->u.call.name, n->u.call.args.n,
			   n->u.call.args.n == 1 ? "" : "s");
		note_arities(r, n->u.call.name, n->loc);
		return;
	}
	diag_error(&r->e->s->diag, n->loc, "E_UNRESOLVED_FUNC",
		   "unresolved function '%s'", n->u.call.name);
	hint_function(r, n->u.call.name);
}

/* ---- context variables ---- */

static struct context_var *
lookup_target(struct resolver *r, const char *name)
{
	struct derived_probe *dp = r->dp;

	if (!dp || !dp->provider)
		return NULL;
	/* the probe's own, when an earlier $name made it: some providers
	 * (syscall) make a new variable at each lookup, and one $return
	 * read twice is one context variable */
	for (int i = 0; i < dp->nctxvars; i++)
		if (strcmp(dp->ctxvars[i]->name, name + 1) == 0)
			return dp->ctxvars[i];
	return provider_context(r->e, dp, name + 1);
}

static void
note_ctxvar(struct resolver *r, struct context_var *cv)
{
	struct derived_probe *dp = r->dp;

	for (int i = 0; i < dp->nctxvars; i++)
		if (dp->ctxvars[i] == cv)
			return;
	dp->ctxvars = arena_grow(A(r), dp->ctxvars, sizeof(*dp->ctxvars),
				 &dp->ctxvars_cap, dp->nctxvars + 1);
	dp->ctxvars[dp->nctxvars++] = cv;
}

static void
hint_targets(struct resolver *r)
{
	struct context_var **vars;
	char list[512] = "";
	int n = r->dp ? provider_list_context(r->e, r->dp, &vars) : 0;

	for (int i = 0; i < n && strlen(list) < sizeof(list) - 80; i++) {
		strcat(list, i ? " $" : "$");
		strcat(list, vars[i]->name);
	}
	const char *why = provider_untyped_reason(r->dp);
	if (n)
		diag_hint(&r->e->s->diag, "this probe has: %s", list);
	else if (why)
		diag_hint(&r->e->s->diag, "its parameters are unknown: %s", why);
	else
		diag_hint(&r->e->s->diag, "this probe point has no context variables");
}

static bool resolve_pre(struct node *n, void *ctx);

/* Index expressions inside a $var's or @cast's path. */
static void
resolve_path(struct resolver *r, struct target_path *path)
{
	for (int i = 0; i < path->nsteps; i++)
		if (path->steps[i].kind == STEP_INDEX)
			ast_walk(path->steps[i].index, resolve_pre, NULL, r);
}

static void bind_target(struct resolver *r, struct node *n);

/* In a kernel.function(...).return probe a parameter means its value at
 * entry, as in SystemTap: `$file->f_pos` becomes `@entry($file->f_pos)`. */
static void
wrap_in_entry(struct resolver *r, struct node *n)
{
	struct node *inner = ast_new(A(r), N_TARGET, n->loc);
	struct node *entry = ast_new(A(r), N_ENTRY, n->loc);

	*inner = *n;
	entry->u.atop.name = "@entry";
	ast_list_push(A(r), &entry->u.atop.args, inner);
	*n = *entry;
	r->in_entry++;
	bind_target(r, inner);
	r->in_entry--;
	n->type = inner->type;
}

static bool script_value_plain(struct resolver *r, struct node *n);

static void
bind_target(struct resolver *r, struct node *n)
{
	if (!r->dp) {
		diag_error(&r->e->s->diag, n->loc, "E_TARGET_CONTEXT",
			   "context variable '%s' used in a function; pass it as an argument",
			   n->u.target.name);
		return;
	}
	resolve_path(r, &n->u.target.path);
	if (target_is_meta(n->u.target.name)) {
		if (!r->in_entry &&
		    target_meta_needs_entry(r->dp, n->u.target.name))
			wrap_in_entry(r, n);
		else
			target_bind_meta(r->e, r->dp, n, r->in_entry > 0);
		return;
	}
	struct context_var *cv = lookup_target(r, n->u.target.name);
	if (!cv && r->e->s->opts.skip_badvars) {
		diag_warning(&r->e->s->diag, n->loc, "W_BAD_TARGET_ZERO",
			     "probe %s has no context variable '%s': read as 0 (--skip-badvars)",
			     r->dp->name, n->u.target.name);
		n->kind = N_NUMBER;	/* $foo->bar[1] included: all of it */
		n->u.number.value = 0;
		n->u.number.text = "0";
		n->type = TY_LONG;
		return;
	}
	if (!cv) {
		diag_error(&r->e->s->diag, n->loc, "E_UNRESOLVED_TARGET",
			   "probe %s has no context variable '%s'",
			   r->dp->name, n->u.target.name);
		hint_targets(r);
		return;
	}
	if (cv->script_value && !script_value_plain(r, n))
		return;
	if (cv->write_only) {
		diag_error(&r->e->s->diag, n->loc, "E_TARGET_READ",
			   "context variable '%s' of probe %s is only assigned ('=' or '.='), never read",
			   n->u.target.name, r->dp->name);
		return;
	}
	if (!r->in_entry && target_needs_entry(r->dp, cv)) {
		wrap_in_entry(r, n);
		return;
	}
	n->u.target.cv = cv;
	n->type = cv->type;
	note_ctxvar(r, cv);
	target_bind_access(r->e, cv, n);
}

/* A script_value variable is a plain string: no ->member, [i], $ or &. */
static bool
script_value_plain(struct resolver *r, struct node *n)
{
	const struct target_path *path = &n->u.target.path;

	if (!path->nsteps && !path->pretty && !path->addr_of)
		return true;
	diag_error(&r->e->s->diag, n->loc, "E_TARGET_STRING",
		   "'%s' is a string: it has no members, elements or address",
		   n->u.target.name);
	return false;
}

/* A store into a script_value variable: a string the handler hands
 * over, no guru mode (sema.h). */
static bool
bind_script_value(struct resolver *r, struct node *lhs, struct context_var *cv)
{
	if (!script_value_plain(r, lhs))
		return true;
	lhs->u.target.cv = cv;
	lhs->type = cv->type;
	note_ctxvar(r, cv);
	return true;
}

/* Whether @perf("NAME") n can be read where it is: in a process probe
 * on a uprobe (the runtime opens the thread's counters as such a probe
 * is hit, where it may sleep), of the counter's program if it names one.
 * If not, and report, an E_PERF_COUNTER error says why. */
static bool
perf_readable(struct resolver *r, struct node *n, bool report)
{
	struct diag *d = &r->e->s->diag;
	const struct node *arg = n->u.atop.args.v[0];
	const char *name = arg->kind == N_STRING ? arg->u.string.raw : "";
	const struct perf_counter *pc = program_counter(r->e->prog, name);
	const struct pdata_uprobe *pd = r->dp ? process_uprobe_of(r->dp) : NULL;

	if (!pc) {
		if (report)
			diag_error(d, n->loc, "E_PERF_COUNTER",
				   "no perf counter named '%s': declare one, probe perf.type(T).config(C).process(\"PATH\").counter(\"%s\") {}",
				   name, name);
		return false;
	}
	if (!pd) {
		if (report)
			diag_error(d, n->loc, "E_PERF_COUNTER",
				   "@perf(\"%s\") outside a process(...).function, .statement or .mark probe's own body: only those open a thread's counters",
				   name);
		return false;
	}
	if (pc->path && strcmp(pc->path, pd->path) != 0) {
		if (report)
			diag_error(d, n->loc, "E_PERF_COUNTER",
				   "perf counter '%s' counts in %s, and this probe is in %s",
				   name, pc->path, pd->path);
		return false;
	}
	return true;
}

/* @defined(x) is 1 when x resolves, else 0, decided here. */
static void
fold_defined(struct resolver *r, struct node *n)
{
	struct node *arg = n->u.atop.args.v[0];
	bool defined = false;

	/* @entry(x) is defined when x is: it is x, read at the entry */
	while (arg->kind == N_ENTRY)
		arg = arg->u.atop.args.v[0];
	if (arg->kind == N_AUTOCAST) {
		/* known once the operand's type is: types.c folds it */
		ast_walk(arg, resolve_pre, NULL, r);
		return;
	}
	if (arg->kind == N_TARGET && r->dp &&
	    target_is_meta(arg->u.target.name))
		defined = true;
	else if (arg->kind == N_TARGET && r->dp)
		/* a DWARF variable with no location at this probe is not */
		defined = target_defined(r->e, lookup_target(r, arg->u.target.name),
					 arg);
	else if (arg->kind == N_CAST)
		defined = target_defined(r->e, NULL, arg);
	else if (arg->kind == N_ATVAR)
		defined = target_atvar_defined(r->e, r->dp, arg);
	else if (arg->kind == N_PERF)
		defined = perf_readable(r, arg, false);
	n->kind = N_NUMBER;
	n->u.number.value = defined;
	n->u.number.text = defined ? "1" : "0";
}

/* "...->a[]" for messages about an autocast write. */
static const char *
autocast_text(struct resolver *r, const struct node *n)
{
	const struct target_path *p = &n->u.autocast.path;
	const char *s = "...";

	for (int i = 0; i < p->nsteps; i++)
		s = p->steps[i].kind == STEP_MEMBER ?
			arena_printf(A(r), "%s->%s", s, p->steps[i].member) :
			arena_printf(A(r), "%s[]", s);
	return s;
}

/* Context variables are read-only unless the user takes responsibility
 * with -g (as SystemTap: "write to target variable not permitted").  In
 * guru mode a $var, @var or @cast on the left of =, op=, ++ or -- is
 * bound here, before the rest of the assignment, so that what it reads
 * can be checked for a place to store into.  True when the operand has
 * been walked (the caller then walks only the rest). */
static bool
check_target_write(struct resolver *r, struct node *lhs)
{
	struct diag *d = &r->e->s->diag;
	const char *what = lhs->kind == N_TARGET ? lhs->u.target.name :
			   lhs->kind == N_ATVAR ? "@var" :
			   lhs->kind == N_AUTOCAST ? autocast_text(r, lhs) :
			   "@cast";
	struct context_var *cv = NULL;
	const struct ta_access *t;
	const char *why = NULL;
	int errors = d->errors;

	if (lhs->kind != N_TARGET && lhs->kind != N_ATVAR &&
	    lhs->kind != N_CAST && lhs->kind != N_AUTOCAST)
		return false;
	if (lhs->kind == N_TARGET) {
		if (target_is_meta(lhs->u.target.name))
			cv = NULL;
		else if (!(cv = lookup_target(r, lhs->u.target.name))) {
			if (!r->e->s->opts.skip_badvars || !r->dp)
				return false;	/* reported as unresolved */
			diag_error(d, lhs->loc, "E_UNRESOLVED_TARGET",
				   "probe %s has no context variable '%s' to assign to (--skip-badvars replaces only reads)",
				   r->dp->name, what);
			return true;
		}
		if (!cv || !cv->writable) {
			diag_error(d, lhs->loc, "E_TARGET_WRITE",
				   "context variable '%s' is read-only", what);
			return false;
		}
		if (cv->script_value)
			return bind_script_value(r, lhs, cv);
	}
	if (!r->e->s->opts.guru) {
		diag_error(d, lhs->loc, "E_TARGET_WRITE",
			   "write to target variable '%s' not permitted; it needs guru mode (-g)",
			   what);
		return false;
	}
	ast_walk(lhs, resolve_pre, NULL, r);
	if (d->errors != errors || lhs->kind == N_AUTOCAST)
		return true;	/* an autocast is checked once typed */
	t = lhs->kind == N_TARGET ? lhs->u.target.access :
	    lhs->kind == N_ATVAR ? lhs->u.atvar.access :
	    lhs->kind == N_CAST ? lhs->u.cast.access : NULL;
	if (lhs->kind == N_ENTRY)
		why = "a .return probe reads it as it was at entry (@entry)";
	else if (t && !ta_writable(t, &why))
		;
	else if (!t && !(lhs->kind == N_TARGET && cv->arg_index < 0 &&
			 strcmp(cv->name, "return") == 0))
		why = "tapc does not know where it is stored";
	else
		return true;
	diag_error(d, lhs->loc, "E_TARGET_WRITE",
		   "'%s' cannot be written: %s", what, why);
	return true;
}

/* @entry(x) evaluates x when the function was entered: only meaningful in
 * a .return probe. */
static void
check_entry(struct resolver *r, struct node *n)
{
	const struct provider *p = r->dp ? r->dp->provider : NULL;

	if (provider_is_return(r->dp))
		return;
	if (p && p->needs_entry_half && p->needs_entry_half(r->dp)) {
		diag_error(&r->e->s->diag, n->loc, "E_ENTRY_CONTEXT",
			   "@entry here takes only context variables, constants and function calls, and not in a probe condition");
		return;
	}
	/* judged once the statements without effect are elided */
	struct elab *e = r->e;
	e->stray_entries = arena_grow(e->s->arena, e->stray_entries,
				      sizeof(*e->stray_entries),
				      &e->cap_stray_entries,
				      e->nstray_entries + 1);
	e->stray_entries[e->nstray_entries++] = n;
}

static bool
report_stray_entry_pre(struct node *n, void *ctx)
{
	struct elab *e = ctx;

	if (n->kind != N_ENTRY)
		return true;
	for (int i = 0; i < e->nstray_entries; i++)
		if (e->stray_entries[i] == n) {
			diag_error(&e->s->diag, n->loc, "E_ENTRY_CONTEXT",
				   "@entry is only meaningful in a .return probe");
			break;
		}
	return true;
}

bool
resolve_check_stray_entries(struct elab *e)
{
	struct program *p = e->prog;
	int errors = e->s->diag.errors;

	if (e->nstray_entries == 0)
		return true;
	for (int i = 0; i < p->nprobes; i++) {
		ast_walk(p->probes[i]->cond, report_stray_entry_pre, NULL, e);
		ast_walk(p->probes[i]->body, report_stray_entry_pre, NULL, e);
	}
	for (int i = 0; i < p->nfunctions; i++)
		ast_walk(p->functions[i]->decl->u.function.body,
			 report_stray_entry_pre, NULL, e);
	return e->s->diag.errors == errors;
}

/* Fold the @defined()s of a condition; then, if the condition is a
 * constant, the branch not taken is never resolved (it may name what does
 * not exist here: that is what @defined is for). Returns the taken branch
 * (which may be NULL) or `n` itself if the condition is not constant. */

static bool
fold_defined_pre(struct node *n, void *ctx)
{
	if (n->kind == N_DEFINED) {
		fold_defined(ctx, n);
		return false;
	}
	return true;
}

static bool
constant_condition(struct resolver *r, struct node *cond, bool *value)
{
	ast_walk(cond, fold_defined_pre, NULL, r);
	if (cond->kind == N_UNARY && cond->u.unary.op == OP_NOT &&
	    cond->u.unary.operand->kind == N_NUMBER) {
		*value = cond->u.unary.operand->u.number.value == 0;
		return true;
	}
	if (cond->kind != N_NUMBER)
		return false;
	*value = cond->u.number.value != 0;
	return true;
}

/* Replace `n` by `with` in place (or by an empty statement). */
static void
replace_node(struct resolver *r, struct node *n, struct node *with)
{
	if (with) {
		*n = *with;
		return;
	}
	struct node *empty = ast_new(A(r), N_NULL_STMT, n->loc);
	*n = *empty;
}

static bool
prune_constant(struct resolver *r, struct node *n)
{
	bool v;

	if (n->kind == N_TERNARY &&
	    constant_condition(r, n->u.ternary.cond, &v)) {
		replace_node(r, n, v ? n->u.ternary.then_expr
				     : n->u.ternary.else_expr);
		return true;
	}
	if (n->kind == N_IF && constant_condition(r, n->u.if_stmt.cond, &v)) {
		replace_node(r, n, v ? n->u.if_stmt.then_stmt
				     : n->u.if_stmt.else_stmt);
		return true;
	}
	return false;
}

/* ---- the walk ---- */

static bool
resolve_pre(struct node *n, void *ctx)
{
	struct resolver *r = ctx;

	if ((n->kind == N_TERNARY || n->kind == N_IF) && prune_constant(r, n)) {
		ast_walk(n, resolve_pre, NULL, r);
		return false;
	}
	switch (n->kind) {
	case N_SYMBOL:
		bind_symbol(r, n);
		return false;
	case N_CALL:
		bind_call(r, n);
		return true;
	case N_TARGET:
		bind_target(r, n);
		return false;
	case N_DEFINED:
		fold_defined(r, n);
		return false;
	case N_ASSIGN:
		if (!check_target_write(r, n->u.binary.lhs))
			return true;
		ast_walk(n->u.binary.rhs, resolve_pre, NULL, r);
		return false;
	case N_CREMENT:
		return !check_target_write(r, n->u.crement.operand);
	case N_DELETE:
		if (n->u.del.target->kind == N_TARGET ||
		    n->u.del.target->kind == N_ATVAR ||
		    n->u.del.target->kind == N_CAST)
			diag_error(&r->e->s->diag, n->u.del.target->loc,
				   "E_TARGET_WRITE",
				   "delete cannot be applied to a target variable");
		return true;
	case N_ENTRY:
		check_entry(r, n);
		r->in_entry++;
		ast_walk(n->u.atop.args.v[0], resolve_pre, NULL, r);
		r->in_entry--;
		return false;
	case N_CAST:
		ast_walk(n->u.cast.operand, resolve_pre, NULL, r);
		resolve_path(r, &n->u.cast.path);
		target_bind_cast(r->e, n);
		return false;
	case N_ATVAR:
		resolve_path(r, &n->u.atvar.path);
		target_bind_atvar(r->e, r->dp, n);
		return false;
	case N_AUTOCAST:	/* typed and bound by types.c */
		ast_walk(n->u.autocast.operand, resolve_pre, NULL, r);
		resolve_path(r, &n->u.autocast.path);
		return false;
	case N_PERF:
		perf_readable(r, n, true);
		return false;
	case N_REGISTER: case N_DEREF: case N_CONST: case N_PROBEWRITE:
		diag_error(&r->e->s->diag, n->loc, "E_UNSUPPORTED",
			   "%s is not supported yet", ast_kind_name(n->kind));
		return false;
	case N_EMBEDDED_EXPR:
		if (r->fn && r->fn->from_tapset)
			return false;
		if (!r->e->s->opts.guru)
			diag_error(&r->e->s->diag, n->loc, "E_EMBEDDED_GURU",
				   "embedded C code in a script needs guru mode");
		return false;
	default:
		return true;
	}
}

static void
resolve_function(struct resolver *r, struct function_sym *f)
{
	struct scope *sc = arena_alloc(A(r), sizeof(*sc));
	struct node *decl = f->decl;

	r->dp = NULL;
	r->fn = f;
	r->locals = sc;
	f->nparams = decl->u.function.params.n;
	for (int i = 0; i < f->nparams; i++) {
		struct node *p = decl->u.function.params.v[i];
		struct symbol *s = new_symbol(r, p->u.symbol.name, SYM_PARAM, p);
		s->type = p->u.symbol.decl_type;
		p->u.symbol.sym = s;
		scope_add(r, sc, s);
	}
	f->params = sc->v;
	ast_walk(decl->u.function.body, resolve_pre, NULL, r);
	f->locals = sc->v;
	f->nlocals = sc->n;
	f->params = sc->v;
}

static void
resolve_probe(struct resolver *r, struct derived_probe *dp)
{
	struct scope *sc = arena_alloc(A(r), sizeof(*sc));

	r->dp = dp;
	r->fn = NULL;
	r->locals = sc;
	ast_walk(dp->cond, resolve_pre, NULL, r);
	ast_walk(dp->body, resolve_pre, NULL, r);
	dp->locals = sc->v;
	dp->nlocals = sc->n;
}

/* Every global the user declared is part of the program, used or not
 * (optimize.c drops the unused ones with a warning). */
static void
declare_user_globals(struct resolver *r)
{
	struct file_ast *f = r->e->s->user_file;

	for (int i = 0; i < f->items.n; i++)
		if (f->items.v[i]->kind == N_GLOBAL)
			global_for_decl(r, f->items.v[i]);
}

static void
apply_cmdline_globals(struct resolver *r)
{
	struct session *s = r->e->s;
	struct program *p = r->e->prog;

	for (int i = 0; i < s->opts.nglobals; i++) {
		const struct global_opt *g = &s->opts.globals[i];
		struct symbol *sym = NULL;
		for (int j = 0; j < p->nglobals; j++)
			if (strcmp(p->globals[j]->name, g->name) == 0)
				sym = p->globals[j];
		if (!sym) {
			diag_fatal_noloc(&s->diag,
					 "-G %s: the script has no global '%s'",
					 g->name, g->name);
			continue;
		}
		sym->cmdline_value = g->value;
		sym->written = true;
	}
}

bool
resolve_program(struct elab *e)
{
	struct resolver r = { .e = e };
	int errors = e->s->diag.errors;

	declare_user_globals(&r);
	for (int i = 0; i < e->prog->nprobes; i++)
		resolve_probe(&r, e->prog->probes[i]);
	for (int i = 0; i < r.nqueue; i++)
		resolve_function(&r, r.queue[i]);
	apply_cmdline_globals(&r);
	return e->s->diag.errors == errors;
}

int
elab_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins)
					   : (del < ins ? del : ins);
			prev = cur;
		}
	}
	return row[lb];
}
