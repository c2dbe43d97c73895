/*
 * checks.c -- the last checks of pass 2, on the typed program: printf
 * formats against their arguments, regular expressions that must compile,
 * arrays changed while a foreach walks them (directly, or through a
 * function the loop calls), and one histogram shape per statistic (the
 * runtime keeps one set of buckets for it, so @hist_log and @hist_linear,
 * or two different @hist_linear ranges, of one statistic would print the
 * same buckets twice), and no more linear buckets than the runtime
 * allows. SystemTap makes most of these checks in pass 2 too, so a
 * script that fails them never reaches code generation.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/format.h"
#include "translator/sema/elab.h"
#include "translator/parse/strlit.h"

struct checker {
	struct elab *e;
	struct node **hists;		/* the first @hist_* of each statistic */
	int nhists, cap_hists;
	struct symbol **iterating;	/* arrays of the enclosing foreachs */
	int niter, cap_iter;
	struct function_sym *fn;	/* when computing write sets */
};

static struct diag *
D(struct checker *k)
{
	return &k->e->s->diag;
}

/* ---- formats ---- */

static void
check_format(struct checker *k, struct node *call)
{
	struct node_list *args = &call->u.call.args;
	size_t len;
	unsigned int off = 0;

	if (args->n == 0 || args->v[0]->kind != N_STRING)
		return;
	const char *fmt = strlit_unescape(k->e->s->arena, args->v[0]->u.string.raw,
					  &len);
	unsigned int max = tap_fmt_count_pieces(fmt) + 1;
	struct tap_fmt_piece *pieces = arena_alloc(k->e->s->arena,
						   sizeof(*pieces) * max);
	struct tap_fmt f;
	if (tap_fmt_compile(&f, fmt, pieces, max, &off) != TAP_OK) {
		diag_error(D(k), args->v[0]->loc, "E_FORMAT",
			   "invalid format directive at offset %u of the format", off);
		return;
	}
	unsigned int want = 0;
	while (tap_fmt_arg_type(&f, want) != TAP_T_NONE)
		want++;
	if ((unsigned int)args->n - 1 != want) {
		diag_error(D(k), call->loc, "E_PRINT_ARGS",
			   "the format of %s takes %u argument%s, given %d",
			   call->u.call.name, want, want == 1 ? "" : "s",
			   args->n - 1);
		return;
	}
	for (unsigned int i = 0; i < want; i++) {
		struct node *a = args->v[i + 1];
		enum type expect = tap_fmt_arg_type(&f, i) == TAP_T_STRING ?
				   TY_STRING : TY_LONG;
		if (a->type != TY_UNKNOWN && a->type != expect)
			diag_error(D(k), a->loc, "E_TYPE",
				   "format directive %u of %s takes a %s, given a %s",
				   i + 1, call->u.call.name, type_name(expect),
				   type_name(a->type));
	}
}

/* ---- regular expressions ---- */

static void
check_regex(struct checker *k, struct node *n)
{
	struct node *re = n->u.binary.rhs;
	size_t len;
	regex_t compiled;
	char msg[128];

	if (re->kind != N_STRING)
		return;
	const char *pat = strlit_unescape(k->e->s->arena, re->u.string.raw, &len);
	int rc = regcomp(&compiled, pat, REG_EXTENDED | REG_NOSUB);
	if (rc == 0) {
		regfree(&compiled);
		return;
	}
	regerror(rc, &compiled, msg, sizeof(msg));
	diag_error(D(k), re->loc, "E_REGEX", "invalid regular expression: %s",
		   msg);
}

/* ---- arrays changed while a foreach walks them ---- */

/* The global array an element write (assignment, crement, delete of an
 * element, <<<) targets. Deleting the whole array is allowed, as in
 * SystemTap. */
static struct symbol *
written_array(struct node *target)
{
	if (target->kind == N_INDEX && target->u.index.base->kind == N_SYMBOL)
		return target->u.index.base->u.symbol.sym;
	return NULL;
}

static struct symbol *
write_target(struct node *n)
{
	switch (n->kind) {
	case N_ASSIGN: return written_array(n->u.binary.lhs);
	case N_CREMENT: return written_array(n->u.crement.operand);
	case N_DELETE: return written_array(n->u.del.target);
	default: return NULL;
	}
}

static bool
being_iterated(struct checker *k, struct symbol *s)
{
	for (int i = 0; i < k->niter; i++)
		if (k->iterating[i] == s)
			return true;
	return false;
}

static bool
function_writes(const struct function_sym *f, struct symbol *s)
{
	for (int i = 0; f && i < f->nwrites; i++)
		if (f->writes[i] == s)
			return true;
	return false;
}

/* ---- one histogram shape per statistic ---- */

static struct symbol *
hist_symbol(const struct node *hist)
{
	const struct node *x = hist->u.hist.operand;

	if (x && x->kind == N_INDEX)
		x = x->u.index.base;
	return x && x->kind == N_SYMBOL ? x->u.symbol.sym : NULL;
}

static bool
same_number(const struct node *a, const struct node *b)
{
	if (!a || !b || a->kind != N_NUMBER || b->kind != N_NUMBER)
		return a == b;
	return a->u.number.value == b->u.number.value;
}

static bool
same_hist_shape(const struct node *a, const struct node *b)
{
	if (a->u.hist.kind != b->u.hist.kind)
		return false;
	return a->u.hist.kind == HIST_LOG ||
	       (same_number(a->u.hist.lo, b->u.hist.lo) &&
		same_number(a->u.hist.hi, b->u.hist.hi) &&
		same_number(a->u.hist.step, b->u.hist.step));
}

/* The most buckets a linear histogram may have, under- and overflow
 * included: the runtime's TAP_HIST_MAX_BUCKETS (128, SystemTap's
 * STP_MAX_BUCKETS), or what -DTAP_HIST_MAX_BUCKETS=N makes it. */
static long long
hist_max_buckets(struct checker *k)
{
	const struct options *o = &k->e->s->opts;
	long long max = 128;

	for (int i = 0; i < o->ndefines; i++)
		if (strcmp(o->defines[i].name, "TAP_HIST_MAX_BUCKETS") == 0 &&
		    o->defines[i].value)
			max = strtoll(o->defines[i].value, NULL, 0);
	return max;
}

/* A linear histogram with more buckets than the runtime allows would
 * stop the module from loading ("Argument list too long"): say so here,
 * at the histogram.  SystemTap refuses it at load time, with a warning. */
/* A histogram parameter as a signed constant: a number, or a negated
 * one (constants are folded only after these checks). */
static bool
hist_constant(const struct node *n, long long *v)
{
	if (n && n->kind == N_NUMBER) {
		*v = (long long)n->u.number.value;
		return true;
	}
	if (n && n->kind == N_UNARY && n->u.unary.op == OP_NEG &&
	    n->u.unary.operand->kind == N_NUMBER) {
		*v = (long long)(0ULL - n->u.unary.operand->u.number.value);
		return true;
	}
	return false;
}

static void
check_hist_buckets(struct checker *k, struct node *n)
{
	long long max = hist_max_buckets(k), buckets, lo, hi, step;

	if (n->u.hist.kind != HIST_LINEAR ||
	    !hist_constant(n->u.hist.lo, &lo) ||
	    !hist_constant(n->u.hist.hi, &hi) ||
	    !hist_constant(n->u.hist.step, &step))
		return;
	/* SystemTap warns at load time and the module does not start;
	 * the constants are known here, so say it at the histogram. */
	if (step <= 0) {
		diag_error(D(k), n->u.hist.step->loc, "E_HIST_RANGE",
			   "histogram: interval %s; it must be above 0",
			   step == 0 ? "cannot be zero" : "is negative");
		return;
	}
	if (hi < lo) {
		diag_error(D(k), n->u.hist.hi->loc, "E_HIST_RANGE",
			   "histogram: stop (%lld) is below start (%lld)",
			   hi, lo);
		return;
	}
	buckets = (long long)(((unsigned long long)hi - (unsigned long long)lo) /
			      (unsigned long long)step);
	if (buckets < 0 || buckets > max - 3)
		diag_error(D(k), n->loc, "E_HIST_BUCKETS",
			   "this linear histogram needs %lld buckets, under- and overflow included; at most %lld are allowed (-DTAP_HIST_MAX_BUCKETS=N raises the limit)",
			   buckets < 0 || buckets > INT64_MAX - 3 ?
			   (long long)INT64_MAX : buckets + 3, max);
}

static void
check_hist(struct checker *k, struct node *n)
{
	struct symbol *s = hist_symbol(n);

	check_hist_buckets(k, n);
	if (!s)
		return;
	for (int i = 0; i < k->nhists; i++) {
		if (hist_symbol(k->hists[i]) != s)
			continue;
		if (!same_hist_shape(k->hists[i], n)) {
			diag_error(D(k), n->loc, "E_HIST_MIXED", "statistic '%s' is given two different histograms", s->name);
			diag_note(D(k), k->hists[i]->loc, "its first histogram is here; one statistic has one set of buckets");
		}
		return;
	}
	k->hists = arena_grow(k->e->s->arena, k->hists, sizeof(*k->hists),
			      &k->cap_hists, k->nhists + 1);
	k->hists[k->nhists++] = n;
}

static bool check_pre(struct node *n, void *ctx);
static bool check_post(struct node *n, void *ctx);

static void
modified_in_loop(struct checker *k, struct node *n, struct symbol *s,
		 const char *how)
{
	diag_error(D(k), n->loc, "E_FOREACH_MODIFY",
		   "array '%s' is %s inside a foreach over it", s->name, how);
}

static bool
check_pre(struct node *n, void *ctx)
{
	struct checker *k = ctx;
	struct symbol *s;

	switch (n->kind) {
	case N_CALL:
		if (!n->u.call.fn && (strcmp(n->u.call.name, "printf") == 0 ||
				      strcmp(n->u.call.name, "sprintf") == 0))
			check_format(k, n);
		for (int i = 0; i < k->niter; i++)
			if (function_writes(n->u.call.fn, k->iterating[i]))
				modified_in_loop(k, n, k->iterating[i],
						 "changed by a function called");
		return true;
	case N_REGEX:
		check_regex(k, n);
		return true;
	case N_HIST:
		check_hist(k, n);
		return true;
	case N_FOREACH: {
		struct node *a = n->u.foreach.array;
		struct node *base = a->kind == N_INDEX ? a->u.index.base : a;
		ast_walk(a, check_pre, check_post, k);
		ast_walk(n->u.foreach.limit, check_pre, check_post, k);
		s = base->kind == N_SYMBOL ? base->u.symbol.sym : NULL;
		k->iterating = arena_grow(k->e->s->arena, k->iterating,
					  sizeof(*k->iterating), &k->cap_iter,
					  k->niter + 1);
		k->iterating[k->niter++] = s;
		ast_walk(n->u.foreach.body, check_pre, check_post, k);
		k->niter--;
		return false;
	}
	default:
		s = write_target(n);
		if (s && being_iterated(k, s))
			modified_in_loop(k, n, s, "changed");
		return true;
	}
}

static bool
check_post(struct node *n, void *ctx)
{
	(void)n;
	(void)ctx;
	return true;
}

/* ---- write sets of functions, to a fixed point through calls ---- */

static void
add_write(struct elab *e, struct function_sym *f, struct symbol *s,
	  bool *changed)
{
	if (!s || s->kind != SYM_GLOBAL || function_writes(f, s))
		return;
	f->writes = arena_grow(e->s->arena, f->writes, sizeof(*f->writes),
			       &f->cap_writes, f->nwrites + 1);
	f->writes[f->nwrites++] = s;
	*changed = true;
}

struct write_walk {
	struct elab *e;
	struct function_sym *f;
	bool changed;
};

static bool
collect_writes_pre(struct node *n, void *ctx)
{
	struct write_walk *w = ctx;

	add_write(w->e, w->f, write_target(n), &w->changed);
	if (n->kind == N_CALL && n->u.call.fn)
		for (int i = 0; i < n->u.call.fn->nwrites; i++)
			add_write(w->e, w->f, n->u.call.fn->writes[i],
				  &w->changed);
	return true;
}

static void
compute_write_sets(struct elab *e)
{
	struct program *p = e->prog;
	struct write_walk w = { .e = e, .changed = true };

	for (int round = 0; w.changed && round < 64; round++) {
		w.changed = false;
		for (int i = 0; i < p->nfunctions; i++) {
			w.f = p->functions[i];
			ast_walk(w.f->decl->u.function.body, collect_writes_pre,
				 NULL, &w);
		}
	}
}

/* ---- probe point conditions: read globals, change nothing ---- */

static bool
condition_pre(struct node *n, void *ctx)
{
	struct checker *k = ctx;

	switch (n->kind) {
	case N_ASSIGN: case N_CREMENT: case N_CALL: case N_EMBEDDED_EXPR:
		diag_error(D(k), n->loc, "E_PROBE_COND",
			   "a probe point condition cannot change anything or call functions");
		return false;
	case N_SYMBOL:
		if (n->u.symbol.sym && n->u.symbol.sym->kind != SYM_GLOBAL)
			diag_error(D(k), n->loc, "E_PROBE_COND",
				   "a probe point condition can only read globals, and '%s' is not one",
				   n->u.symbol.name);
		return false;
	default:
		return true;
	}
}

bool
checks_run(struct elab *e)
{
	struct program *p = e->prog;
	struct checker k = { .e = e };
	int errors = e->s->diag.errors;

	compute_write_sets(e);
	for (int i = 0; i < p->nprobes; i++) {
		ast_walk(p->probes[i]->cond, condition_pre, NULL, &k);
		ast_walk(p->probes[i]->body, check_pre, check_post, &k);
	}
	for (int i = 0; i < p->nfunctions; i++)
		ast_walk(p->functions[i]->decl->u.function.body, check_pre,
			 check_post, &k);
	return e->s->diag.errors == errors;
}
