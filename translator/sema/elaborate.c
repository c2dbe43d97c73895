/*
 * elaborate.c -- pass 2's driver and the first step of elaboration: turning
 * each `probe P1, P2 { body }` into derived probes.
 *
 * A probe point is first matched against the probe aliases (the user's
 * and the library's; a point longer than an alias name passes its extra
 * components on to the alias's targets). Wildcards in component names
 * (`syscall.*`, `kerne*.funct*("f").*`) are expanded first, against the
 * names the aliases and providers know (point_glob.c); each expansion is an
 * optional point. Each alias adds its body before the probe's (`=`) or
 * after it (`+=`), and its targets are expanded the same way, so aliases
 * of aliases work. A point that names no alias goes to its provider. `?`
 * lets a point match nothing, `!` stops at the first point that matches,
 * `if (cond)` guards the handler.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/common/name_index.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/parse/parse.h"
#include "translator/sema/point_glob.h"
#include "translator/providers/provider.h"
#include "translator/parse/tapset.h"

#define ALIAS_MAX_DEPTH 32

static struct arena *
A(struct elab *e)
{
	return e->s->arena;
}

static void
push_node(struct elab *e, struct node ***v, int *n, int *cap, struct node *x)
{
	*v = arena_grow(A(e), *v, sizeof(**v), cap, *n + 1);
	(*v)[(*n)++] = x;
}

void
elab_expansion_capped(struct elab *e, const struct node *point, int max)
{
	diag_warning(&e->s->diag, point->loc, "W_TOO_MANY_PROBES",
		     "'%s' matches more than %d probe points; only the first %d are used",
		     pp_to_string(e->s->arena, point), max, max);
	if (!e->capped_point) {
		e->capped_point = point;
		e->capped_at = max;
	}
}

struct derived_probe *
elab_add_probe(struct elab *e, struct node *point, const char *name,
	       void *pdata)
{
	struct program *p = e->prog;
	struct derived_probe *dp = arena_alloc(A(e), sizeof(*dp));

	dp->provider = provider_for(point);
	dp->point = point;
	dp->name = name ? name : pp_to_string(A(e), point);
	dp->written = e->cur_written;
	dp->alias_name = e->cur_alias;
	dp->origin = e->cur_origin;
	dp->body = ast_clone(A(e), e->cur_body);
	dp->cond = ast_clone(A(e), e->cur_cond);
	dp->pdata = pdata;
	dp->index = p->nprobes;
	p->probes = arena_grow(A(e), p->probes, sizeof(*p->probes),
			       &p->probes_cap, p->nprobes + 1);
	p->probes[p->nprobes++] = dp;
	return dp;
}

struct perf_counter *
program_counter(const struct program *p, const char *name)
{
	for (int i = 0; i < p->ncounters; i++)
		if (strcmp(p->counters[i]->name, name) == 0)
			return p->counters[i];
	return NULL;
}

struct context_var *
elab_new_context_var(struct elab *e, const char *name, enum type type,
		     const char *c_type)
{
	struct context_var *cv = arena_alloc(A(e), sizeof(*cv));

	cv->name = name;
	cv->type = type;
	cv->c_type = c_type;
	return cv;
}

struct kernel_target *
elab_kernel(struct elab *e, struct loc at)
{
	if (e->s->kernel)
		return e->s->kernel;
	diag_error(&e->s->diag, at, "E_NO_KERNEL",
			   "no kernel to resolve this probe point against (%s)",
			   e->s->opts.kernel_release ? e->s->opts.kernel_release :
			   "the running kernel has no /lib/modules build tree");
	diag_hint(&e->s->diag,
		  "install linux-headers for the target, or name one with -r KREL");
	return NULL;
}

/* ---- alias matching ---- */

/* The first `n` components of `pt` are alias name `name` (which has
 * exactly `n`); wildcards in names went through point_glob.c before. */
static bool
prefix_matches(const struct node *pt, const struct node *name, int n)
{
	if (pt->u.point.ncomps < n)
		return false;
	for (int i = 0; i < n; i++) {
		const struct pp_component *pc = &pt->u.point.comps[i];
		const struct pp_component *nc = &name->u.point.comps[i];
		if (strcmp(pc->name, nc->name) != 0)
			return false;
		if (!pp_args_equal(pc->arg, nc->arg))
			return false;
	}
	return true;
}

/* An alias target with the point's extra components appended. */
static struct node *
with_suffix(struct elab *e, const struct node *target, const struct node *pt,
	    int from)
{
	struct node *n = ast_clone(A(e), target);

	for (int i = from; i < pt->u.point.ncomps; i++)
		ast_point_push(A(e), n, pt->u.point.comps[i]);
	return n;
}

/* The alias name with the point's extra components: syscall.open.return */
static const char *
with_suffix_name(struct elab *e, const struct node *name,
		 const struct node *pt, int from)
{
	return pp_to_string(A(e), with_suffix(e, name, pt, from));
}

static struct node *
join_blocks(struct elab *e, struct node *first, struct node *second)
{
	struct node *b = ast_new(A(e), N_BLOCK, first ? first->loc :
				 second->loc);

	if (first)
		ast_list_push(A(e), &b->u.block.stmts, first);
	if (second)
		ast_list_push(A(e), &b->u.block.stmts, second);
	return b;
}

static struct node *
and_conditions(struct elab *e, struct node *a, struct node *b)
{
	if (!a || !b)
		return a ? a : b;
	struct node *n = ast_new(A(e), N_LOGICAL, a->loc);
	n->u.binary.op = OP_ANDAND;
	n->u.binary.lhs = a;
	n->u.binary.rhs = b;
	return n;
}

static int expand_point(struct elab *e, struct node *pt);
static int expand_optional(struct elab *e, struct node *pt);

/* --check-version: whether `at` lies inside a preprocessor conditional
 * that tests systemtap_v (the preprocessor noted them). */
static bool
version_dependent(const struct session *s, struct loc at)
{
	for (int i = 0; i < s->nversion_ranges; i++) {
		const struct version_range *r = &s->version_ranges[i];
		if (r->from.src != at.src)
			continue;
		if ((at.line > r->from.line ||
		     (at.line == r->from.line && at.col >= r->from.col)) &&
		    (at.line < r->to.line ||
		     (at.line == r->to.line && at.col <= r->to.col)))
			return true;
	}
	return false;
}

/* A W_VERSION_DEPENDENT warning: shown where it points into the library
 * too (which keeps its other warnings to itself): the user asked. */
static void __attribute__((format(printf, 3, 4)))
warn_version(struct elab *e, struct loc at, const char *fmt, ...)
{
	struct diag *d = &e->s->diag;
	bool saved = d->library_warnings;
	va_list ap;

	d->library_warnings = true;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_WARNING, at, "W_VERSION_DEPENDENT", fmt, ap);
	va_end(ap);
	d->library_warnings = saved;
}

struct version_scan {
	const struct session *s;
	bool found;
};

static bool
version_scan_pre(struct node *n, void *ctx)
{
	struct version_scan *vs = ctx;

	if (version_dependent(vs->s, n->loc))
		vs->found = true;
	return !vs->found;
}

/* Whether declaration `n` lies in such a conditional or has one inside
 * (a statement of an alias's or function's body). */
static bool
decl_version_dependent(const struct session *s, struct node *n)
{
	struct version_scan vs = { s, false };

	if (s->nversion_ranges == 0)
		return false;
	ast_walk(n, version_scan_pre, NULL, &vs);
	return vs.found;
}

/* --check-version: an alias the script goes through that lies in such a
 * conditional or holds one, named once. */
static void
check_version_alias(struct elab *e, struct node *al)
{
	if (!e->s->opts.check_version || !decl_version_dependent(e->s, al))
		return;
	for (int i = 0; i < e->nversion_warned; i++)
		if (e->version_warned[i] == al)
			return;
	e->version_warned = arena_grow(e->s->arena, e->version_warned,
				       sizeof(*e->version_warned),
				       &e->cap_version_warned,
				       e->nversion_warned + 1);
	e->version_warned[e->nversion_warned++] = al;
	warn_version(e, al->loc, "this probe alias depends on the SystemTap version (it is in or holds a %%( systemtap_v ... %%) conditional)");
}

/* --check-version: the functions and globals the program keeps that lie
 * in such a conditional (or, for functions, hold one). */
static void
check_version_program(struct elab *e)
{
	struct program *p = e->prog;

	if (!e->s->opts.check_version)
		return;
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *g = p->globals[i];
		if (g->decl && version_dependent(e->s, g->decl->loc))
			warn_version(e, g->decl->loc, "global '%s' depends on the SystemTap version (it is inside a %%( systemtap_v ... %%) conditional)",
				     g->name);
	}
	for (int i = 0; i < p->nfunctions; i++) {
		struct function_sym *f = p->functions[i];
		if (f->decl && decl_version_dependent(e->s, f->decl))
			warn_version(e, f->decl->loc, "function '%s' depends on the SystemTap version (it is in or holds a %%( systemtap_v ... %%) conditional)",
				     f->name);
	}
}

/* Expand `pt` through alias `al` whose name matched its first `n`
 * components. */
static int
expand_through_alias(struct elab *e, struct node *pt, struct node *al, int n)
{
	struct node *saved_body = e->cur_body, *saved_cond = e->cur_cond;
	int total = 0;

	check_version_alias(e, al);
	e->cur_body = al->u.alias.epilogue ?
		join_blocks(e, saved_body, al->u.alias.body) :
		join_blocks(e, al->u.alias.body, saved_body);
	if (al->u.alias.epilogue_body)
		e->cur_body = join_blocks(e, e->cur_body,
					  al->u.alias.epilogue_body);
	for (int i = 0; i < al->u.alias.points.n; i++) {
		struct node *t = with_suffix(e, al->u.alias.points.v[i], pt, n);
		bool optional = e->cur_optional;
		int k;

		e->cur_cond = and_conditions(e, saved_cond, t->u.point.cond);
		/* a target marked '?' or '!' that does not resolve (with the
		 * point's suffix: `a = begin ?` as a.maxactive(10)) is
		 * dropped, as the user's own optional point is */
		if ((t->u.point.optional || t->u.point.sufficient) &&
		    !e->listing) {
			e->cur_optional = true;
			k = expand_optional(e, t);
		} else {
			k = expand_point(e, t);
		}
		e->cur_optional = optional;
		if (k < 0) {
			total = -1;
			break;
		}
		total += k;
		if (k > 0 && t->u.point.sufficient)
			break;
	}
	e->cur_body = saved_body;
	e->cur_cond = saved_cond;
	return total;
}

/* Expand `pt` through alias `al`, whose name `nm` covers the point's
 * first `n` components; the outermost alias names the derived probes. */
static int
expand_alias_named(struct elab *e, struct node *pt, struct node *al,
		   struct node *nm, int n)
{
	const char *saved_alias = e->cur_alias;

	if (e->alias_depth == 1)
		e->cur_alias = with_suffix_name(e, nm, pt, n);
	int k = expand_through_alias(e, pt, al, n);
	e->cur_alias = saved_alias;
	return k;
}

/* Aliases whose names match the whole point, or failing that the longest
 * prefix of it. Returns how many derived probes they gave, or -2 if no
 * alias matched at all. */
static int
expand_aliases(struct elab *e, struct node *pt)
{
	int best = 0, total = 0;
	bool any = false;

	for (int i = 0; i < e->naliases; i++)
		for (int j = 0; j < e->aliases[i]->u.alias.names.n; j++) {
			struct node *nm = e->aliases[i]->u.alias.names.v[j];
			int n = nm->u.point.ncomps;
			if (n > best && prefix_matches(pt, nm, n) &&
			    (n == pt->u.point.ncomps || best < n))
				best = n;
		}
	if (best == 0)
		return -2;
	for (int i = 0; i < e->naliases; i++) {
		struct node *al = e->aliases[i];
		for (int j = 0; j < al->u.alias.names.n; j++) {
			struct node *nm = al->u.alias.names.v[j];
			if (nm->u.point.ncomps != best ||
			    !prefix_matches(pt, nm, best))
				continue;
			any = true;
			int k = expand_alias_named(e, pt, al, nm, best);
			if (k < 0)
				return -1;
			total += k;
			break;
		}
	}
	return any ? total : -2;
}

/* "did you mean" for a probe point no alias or provider knows. */
static void
hint_probe_point(struct elab *e, const struct node *point)
{
	const char *written = pp_to_string(e->s->arena, point);
	const char *best = NULL;
	int best_d = 4;

	for (int i = 0; i < e->naliases; i++) {
		const struct node_list *names = &e->aliases[i]->u.alias.names;
		for (int j = 0; j < names->n; j++) {
			const char *cand = pp_to_string(e->s->arena, names->v[j]);
			int d = elab_edit_distance(written, cand);
			if (d < best_d) {
				best_d = d;
				best = cand;
			}
		}
	}
	if (best)
		diag_hint(&e->s->diag, "did you mean '%s'?", best);
	else
		diag_hint(&e->s->diag,
			  "probe points start with begin, end, error, never, timer, kernel.trace, kprobe, or a tapset alias such as syscall.*");
}

static int
expand_by_provider(struct elab *e, struct node *pt)
{
	const struct provider *p = provider_for(pt);

	if (!p) {
		if (e->cur_optional)
			return 0;	/* `nosuch.point ?` drops quietly */
		diag_error(&e->s->diag, pt->loc, "E_UNKNOWN_PROBE",
			   "unknown probe point '%s'", pp_to_string(A(e), pt));
		hint_probe_point(e, pt);
		return -1;
	}
	int allowed = privilege_check_point(e, p, pt);
	if (allowed <= 0)
		return allowed;
	return p->match(e, pt);
}

/* ---- wildcards in component names (point_glob.c) ---- */

/* What a failed expansion of a wildcard point said, kept in case every
 * expansion fails and those words are the only explanation. */
struct glob_failure {
	char *text;
	int errors;
};

/* An expansion tried speculatively: what it reports is held (diag_hold),
 * and when it fails its errors are uncounted and the probes it had made
 * are dropped. */
struct trial {
	struct diag_mark mark;
	int nprobes;
};

static void
trial_start(struct elab *e, struct trial *t)
{
	t->nprobes = e->prog->nprobes;
	diag_hold(&e->s->diag, &t->mark);
}

/* The end of trial_start(): `k` as the expansion returned it, or -1 when
 * it failed (k < 0 or an error); then `failure`, if given, keeps what it
 * said. What a success said (warnings) is passed on. */
static int
trial_end(struct elab *e, struct trial *t, int k,
	  struct glob_failure *failure)
{
	struct diag *d = &e->s->diag;
	bool failed = k < 0 || diag_held_errors(d, &t->mark) > 0;

	if (failed && failure) {
		failure->errors = diag_held_errors(d, &t->mark);
		failure->text = arena_strdup(A(e), diag_held_text(&t->mark));
	}
	diag_release(d, &t->mark, !failed);
	if (failed)
		e->prog->nprobes = t->nprobes;
	return failed ? -1 : k;
}

/* One expansion of a wildcard point. As in SystemTap each is optional:
 * it may match nothing, and when it fails its errors are held back (into
 * `failure`) and the probes it had made are dropped; -1 then. What it
 * says when it succeeds (warnings) is passed on. */
static int
expand_glob_match(struct elab *e, struct pp_glob_match *m,
		  struct glob_failure *failure)
{
	struct trial trial;
	bool optional = e->cur_optional;
	bool point_optional = m->point->u.point.optional;

	trial_start(e, &trial);
	e->cur_optional = true;
	m->point->u.point.optional = true;
	int k = m->alias ? expand_alias_named(e, m->point, m->alias,
					      m->alias_name, m->prefix) :
			   expand_by_provider(e, m->point);
	e->cur_optional = optional;
	m->point->u.point.optional = point_optional;
	return trial_end(e, &trial, k, failure);
}

static const char *
glob_match_name(struct elab *e, const struct pp_glob_match *m)
{
	return m->alias ? with_suffix_name(e, m->alias_name, m->point,
					   m->prefix) :
			  pp_to_string(A(e), m->point);
}

/* What a wildcard point expanded to, for the hint when none of it
 * matched: "a, b, c and 4 more". */
static const char *
glob_expansions_text(struct elab *e, struct pp_glob_match *m, int n)
{
	const char *s = "";

	for (int i = 0; i < n && i < 4; i++)
		s = arena_printf(A(e), "%s%s'%s'", s, i ? ", " : "",
				 glob_match_name(e, &m[i]));
	return n > 4 ? arena_printf(A(e), "%s and %d more", s, n - 4) : s;
}

/* A point with wildcards in its component names: every known name it
 * matches (aliases and the providers' shapes), each expanded as an
 * optional point. The user's own point (not a library alias's target)
 * that comes to nothing says why: the errors of its expansions, or where
 * no known name matched. */
/* The alias named exactly `pt` (every component), or NULL. */
static struct node *
alias_named(struct elab *e, const struct node *pt)
{
	for (int i = 0; i < e->naliases; i++)
		for (int j = 0; j < e->aliases[i]->u.alias.names.n; j++) {
			const struct node *nm = e->aliases[i]->u.alias.names.v[j];

			if (nm->u.point.ncomps == pt->u.point.ncomps &&
			    prefix_matches(pt, nm, nm->u.point.ncomps))
				return e->aliases[i];
		}
	return NULL;
}

/* Where a renaming alias leads: follow `al` while it is an alias of
 * exactly one other alias (syscall.pread = syscall.pread64 { ... },
 * nd_syscall.pread = syscall.pread); *depth counts the steps. */
static struct node *
alias_root(struct elab *e, struct node *al, int *depth)
{
	*depth = 0;
	while (*depth < 16 && al->u.alias.points.n == 1) {
		struct node *next = alias_named(e, al->u.alias.points.v[0]);

		if (!next || next == al)
			break;
		al = next;
		++*depth;
	}
	return al;
}

/*
 * A wildcard sees each event once.  An alias that only renames another
 * (SystemTap's syscall.pread for the kernel's pread64) would have
 * syscall.* count every pread64 twice: of the aliases a wildcard matches
 * that lead to the same alias, only the one nearest it is expanded.
 * The names stay for a point that names them, and -l lists them all.
 * Marks the matches to leave out in skip[].
 */
static void
skip_renames(struct elab *e, struct pp_glob_match *m, int n, bool *skip)
{
	struct node **root = arena_alloc(A(e), sizeof(*root) * (size_t)(n + 1));
	int *depth = arena_alloc(A(e), sizeof(*depth) * (size_t)(n + 1));

	for (int i = 0; i < n; i++)
		root[i] = m[i].alias && m[i].prefix == m[i].point->u.point.ncomps ?
			  alias_root(e, m[i].alias, &depth[i]) : NULL;
	for (int i = 0; i < n; i++)
		for (int j = 0; root[i] && j < n && !skip[i]; j++)
			if (j != i && root[j] == root[i] && depth[j] < depth[i])
				skip[i] = true;
	/* an alias (or the rename of one) of several aliases that lead
	 * where others the wildcard has lead (syscall.ni_syscall =
	 * syscall._sysctl, syscall.afs_syscall, ...) */
	for (int i = 0; i < n; i++) {
		const struct node_list *pts;
		int found = 0, d;

		if (skip[i] || !root[i] || (pts = &root[i]->u.alias.points)->n < 2)
			continue;
		for (int t = 0; t < pts->n; t++) {
			struct node *target = alias_named(e, pts->v[t]);
			struct node *r = target ? alias_root(e, target, &d) : NULL;

			for (int j = 0; r && j < n; j++)
				if (j != i && root[j] == r) {
					found++;
					break;
				}
		}
		skip[i] = found == pts->n;
	}
}

static int
expand_glob(struct elab *e, struct node *pt)
{
	struct pp_glob_match *m;
	struct pp_glob_miss miss;
	int n = pp_glob_expand(e, pt, &m, &miss), total = 0, failed = 0;
	struct glob_failure first = { NULL, 0 };
	bool *skip = arena_alloc(A(e), sizeof(*skip) * (size_t)(n + 1));

	if (!e->listing)
		skip_renames(e, m, n, skip);
	for (int i = 0; i < n; i++) {
		struct glob_failure f = { NULL, 0 };

		if (skip[i])
			continue;
		int k = expand_glob_match(e, &m[i], &f);
		if (k > 0)
			total += k;
		if (k < 0 && !failed++)
			first = f;
	}
	if (total > 0 || e->alias_depth > 1 || e->cur_optional ||
	    e->listing)
		return total;
	if (n == 0) {
		diag_error(&e->s->diag, miss.at, "E_NO_MATCH",
			   "probe point '%s' matches nothing",
			   pp_to_string(A(e), pt));
		if (miss.hint)
			diag_hint(&e->s->diag, "%s", miss.hint);
		return -1;
	}
	/* every expansion an error (process.* without a process, say):
	 * the first one's errors say why; else matching nothing is the
	 * news */
	if (failed == n && first.errors) {
		diag_replay(&e->s->diag, first.text, first.errors);
		return -1;
	}
	diag_error(&e->s->diag, pt->loc, "E_NO_MATCH",
		   "probe point '%s' matches nothing",
		   pp_to_string(A(e), pt));
	diag_hint(&e->s->diag, "it expands to %s; %s",
		  glob_expansions_text(e, m, n),
		  n == 1 ? "that matches nothing" :
		  "none of them matches anything");
	return -1;
}

static int
expand_point(struct elab *e, struct node *pt)
{
	if (e->alias_depth > ALIAS_MAX_DEPTH) {
		diag_error(&e->s->diag, pt->loc, "E_ALIAS_LOOP",
			   "probe aliases nest too deeply (an alias that expands to itself?)");
		return -1;
	}
	e->alias_depth++;
	int n = pp_glob_in_names(pt) ? expand_glob(e, pt) :
		expand_aliases(e, pt);
	e->alias_depth--;
	if (n != -2)
		return n;
	return expand_by_provider(e, pt);
}

/* A point marked '?' or '!': as in SystemTap, one that fails to resolve
 * (a module that is not there, a function without debug info) is
 * dropped like one that matches nothing; -v says why. */
static int
expand_optional(struct elab *e, struct node *pt)
{
	struct trial trial;
	struct glob_failure why = { 0 };

	trial_start(e, &trial);
	int n = trial_end(e, &trial, expand_point(e, pt), &why);
	if (n >= 0)
		return n;
	if (e->s->opts.verbose && why.text) {
		int len = (int)strlen(why.text);
		if (len > 0 && why.text[len - 1] == '\n')
			len--;	/* diag_info() ends the line */
		diag_info(&e->s->diag, "optional probe point '%s' dropped:%s%.*s",
			  e->cur_written, len ? "\n" : "", len, why.text);
	}
	return 0;
}

bool
elab_derive_probe(struct elab *e, struct node *probe)
{
	bool ok = true;

	e->cur_origin = probe;
	for (int i = 0; i < probe->u.probe.points.n; i++) {
		struct node *pt = probe->u.probe.points.v[i];
		e->cur_written = pp_to_string(A(e), pt);
		e->cur_point = pt;
		e->cur_optional = pt->u.point.optional || pt->u.point.sufficient;
		e->cur_body = probe->u.probe.body;
		e->cur_cond = pt->u.point.cond;
		int errors = e->s->diag.errors;
		int n;
		if (e->cur_optional && !e->listing) {
			n = expand_optional(e, pt);
		} else {
			n = expand_point(e, pt);
		}
		if (n < 0 || e->s->diag.errors > errors) {
			ok = false;
			continue;
		}
		if (n == 0 && !pt->u.point.optional && !pt->u.point.sufficient) {
			diag_error(&e->s->diag, pt->loc, "E_NO_MATCH",
				   "probe point '%s' matches nothing",
				   e->cur_written);
			ok = false;
		}
		if (n > 0 && pt->u.point.sufficient)
			break;
	}
	return ok;
}

/* ---- the driver ---- */

void
elab_declare_global(struct elab *e, struct node *g)
{
	push_node(e, &e->globals, &e->nglobals, &e->cap_globals, g);
	name_index_add(e->globals_by_name, g->u.global.name, g);
}

static void
index_file(struct elab *e, struct file_ast *f)
{
	for (int i = 0; i < f->items.n; i++) {
		struct node *n = f->items.v[i];
		switch (n->kind) {
		case N_ALIAS:
			push_node(e, &e->aliases, &e->naliases,
				  &e->cap_aliases, n);
			break;
		case N_FUNCTION:
			push_node(e, &e->functions, &e->nfunctions,
				  &e->cap_functions, n);
			name_index_add(e->functions_by_name,
				       n->u.function.name, n);
			break;
		case N_GLOBAL:
			elab_declare_global(e, n);
			break;
		default:
			break;
		}
	}
}

struct elab *
elab_new(struct session *s)
{
	struct elab *e = arena_alloc(s->arena, sizeof(*e));

	e->s = s;
	e->prog = arena_alloc(s->arena, sizeof(*e->prog));
	s->program = e->prog;
	e->functions_by_name = name_index_new(s->arena);
	e->globals_by_name = name_index_new(s->arena);
	e->function_syms = name_index_new(s->arena);
	e->global_syms = name_index_new(s->arena);
	if (s->user_file)
		index_file(e, s->user_file);
	for (int i = 0; i < s->nlibrary; i++)
		index_file(e, s->library[i]);
	return e;
}

static void
collect_embeds_of(struct elab *e, struct file_ast *f, int *cap)
{
	struct program *p = e->prog;

	for (int i = 0; i < f->items.n; i++)
		if (f->items.v[i]->kind == N_EMBED) {
			p->embeds = arena_grow(A(e), p->embeds,
					       sizeof(*p->embeds), cap,
					       p->nembeds + 1);
			p->embeds[p->nembeds++] = f->items.v[i];
		}
}

/* Top-level %{ %} blocks: the library's (its helpers for embedded-C
 * functions), then the script's. */
static void
collect_embeds(struct elab *e)
{
	int cap = 0;

	for (int i = 0; i < e->s->nlibrary; i++)
		collect_embeds_of(e, e->s->library[i], &cap);
	collect_embeds_of(e, e->s->user_file, &cap);
}

/* ---- the library's own probes ---- */

struct name_search {
	const char *name;
	enum node_kind kind;	/* N_SYMBOL or N_CALL */
	bool found;
};

static bool
find_name(struct node *n, void *ctx)
{
	struct name_search *ns = ctx;

	if (n->kind == ns->kind &&
	    strcmp(ns->kind == N_CALL ? n->u.call.name : n->u.symbol.name,
		   ns->name) == 0)
		ns->found = true;
	return !ns->found;
}

/* Whether the script names `name` as a variable (kind N_SYMBOL) or calls
 * it (N_CALL), in its probes as derived (with their aliases' code and
 * macros) or its functions; a script global of that name is its own. */
static bool
script_names(struct elab *e, const char *name, enum node_kind kind)
{
	struct file_ast *f = e->s->user_file;
	struct name_search ns = { name, kind, false };

	for (int i = 0; i < f->items.n; i++) {
		struct node *n = f->items.v[i];
		if (kind == N_SYMBOL && n->kind == N_GLOBAL &&
		    strcmp(n->u.global.name, name) == 0)
			return false;
		if (n->kind == N_FUNCTION)
			ast_walk(n->u.function.body, find_name, NULL, &ns);
	}
	for (int i = 0; i < e->prog->nprobes && !ns.found; i++) {
		ast_walk(e->prog->probes[i]->body, find_name, NULL, &ns);
		ast_walk(e->prog->probes[i]->cond, find_name, NULL, &ns);
	}
	return ns.found;
}

static bool
library_file_used(struct elab *e, struct file_ast *f)
{
	for (int j = 0; j < f->items.n; j++) {
		struct node *n = f->items.v[j];
		if ((n->kind == N_GLOBAL &&
		     script_names(e, n->u.global.name, N_SYMBOL)) ||
		    (n->kind == N_FUNCTION &&
		     script_names(e, n->u.function.name, N_CALL)))
			return true;
	}
	return false;
}

/* A library file's probes run when the script uses one of the file's
 * globals or functions: they set them up (argv.stp's begin probe fills
 * argv) or serve them (json.stp's metadata.json). */
static bool
derive_library_probes(struct elab *e)
{
	bool ok = true;

	for (int i = 0; i < e->s->nlibrary; i++) {
		struct file_ast *f = e->s->library[i];
		bool has_probes = false;
		for (int j = 0; j < f->items.n; j++)
			has_probes |= f->items.v[j]->kind == N_PROBE;
		if (!has_probes || !library_file_used(e, f))
			continue;
		for (int j = 0; j < f->items.n; j++)
			if (f->items.v[j]->kind == N_PROBE)
				ok &= elab_derive_probe(e, f->items.v[j]);
	}
	return ok;
}

bool
pass_elaborate(struct session *s)
{
	if (!tapset_load_library(s))
		return false;
	struct elab *e = elab_new(s);
	struct file_ast *f = s->user_file;
	bool ok = true;

	for (int i = 0; i < f->items.n; i++)
		if (f->items.v[i]->kind == N_PROBE)
			ok &= elab_derive_probe(e, f->items.v[i]);
	if (ok)
		ok = derive_library_probes(e);
	collect_embeds(e);
	if (!ok || s->diag.errors)
		return false;
	if (e->prog->nprobes == 0) {
		diag_error(&s->diag, (struct loc){ f->src, 1, 1 }, "E_NO_PROBES",
			   "the script has no probes");
		return false;
	}
	if (!s->opts.unoptimized) {
		optimize_fold_early(e);
		optimize_pure_statements(e);
	}
	entry_split_program(e);
	if (!resolve_program(e) || !privilege_check_program(e))
		return false;
	if (!s->opts.unoptimized)
		optimize_dead_code(e);
	if (!resolve_check_stray_entries(e))
		return false;
	if (!types_infer(e) || !checks_run(e))
		return false;
	if (!s->opts.unoptimized) {
		optimize_program(e);
		optimize_empty_probes(e);
		if (e->prog->nprobes == 0) {
			diag_error(&s->diag, (struct loc){ f->src, 1, 1 },
				   "E_NO_PROBES",
				   "no probes left: every probe's body is empty");
			return false;
		}
	}
	check_version_program(e);
	return s->diag.errors == 0;
}
