/*
 * parse_at.c -- building the @-operators: @cast, @var, @entry, @defined,
 * @probewrite, @perf, @kregister/@uregister, @kderef/@uderef, the
 * statistics extractors and the histograms. Each has a fixed shape, which
 * is checked here so that later passes can rely on it.
 */
#include <string.h>

#include "translator/parse/parse_build.h"

static struct arena *
A(struct parser *p)
{
	return p->s->arena;
}

static const struct {
	const char *name;
	enum op op;
} stat_ops[] = {
	{ "@count", OP_COUNT }, { "@sum", OP_SUM }, { "@min", OP_MIN },
	{ "@max", OP_MAX }, { "@avg", OP_AVG }, { "@variance", OP_VARIANCE },
};

static bool
arity_ok(struct parser *p, const struct token *t, int nargs, int min, int max)
{
	if (nargs >= min && nargs <= max)
		return true;
	if (min == max)
		diag_error(&p->s->diag, t->loc, "E_AT_ARGS",
			   "%s takes %d argument%s", t->text, min,
			   min == 1 ? "" : "s");
	else
		diag_error(&p->s->diag, t->loc, "E_AT_ARGS",
			   "%s takes %d to %d arguments", t->text, min, max);
	return false;
}

static const char *
string_arg(struct parser *p, const struct token *t, struct node_list *args,
	   int i)
{
	if (i >= args->n)
		return NULL;
	if (args->v[i]->kind != N_STRING) {
		diag_error(&p->s->diag, args->v[i]->loc, "E_AT_ARGS",
			   "argument %d of %s must be a literal string", i + 1,
			   t->text);
		return "";
	}
	return args->v[i]->u.string.raw;
}

static struct node *
placeholder(struct parser *p, struct loc at)
{
	struct node *n = ast_new(A(p), N_NUMBER, at);

	n->u.number.text = "0";
	return n;
}

static struct node *
build_cast(struct parser *p, const struct token *t, struct node_list *args)
{
	struct node *n = ast_new(A(p), N_CAST, t->loc);

	if (arity_ok(p, t, args->n, 2, 3)) {
		n->u.cast.operand = args->v[0];
		n->u.cast.type_name = string_arg(p, t, args, 1);
		n->u.cast.module = string_arg(p, t, args, 2);
	} else {
		n->u.cast.operand = args->n ? args->v[0] :
			placeholder(p, t->loc);
		n->u.cast.type_name = "";
	}
	return n;
}

static struct node *
build_atvar(struct parser *p, const struct token *t, struct node_list *args)
{
	struct node *n = ast_new(A(p), N_ATVAR, t->loc);

	n->u.atvar.name = "";
	if (arity_ok(p, t, args->n, 1, 2)) {
		n->u.atvar.name = string_arg(p, t, args, 0);
		n->u.atvar.module = string_arg(p, t, args, 1);
	}
	return n;
}

static struct node *
build_hist(struct parser *p, const struct token *t, struct node_list *args)
{
	bool linear = strcmp(t->text, "@hist_linear") == 0;
	struct node *n = ast_new(A(p), N_HIST, t->loc);
	int want = linear ? 4 : 1;

	n->u.hist.kind = linear ? HIST_LINEAR : HIST_LOG;
	if (arity_ok(p, t, args->n, want, want)) {
		n->u.hist.operand = args->v[0];
		if (linear) {
			n->u.hist.lo = args->v[1];
			n->u.hist.hi = args->v[2];
			n->u.hist.step = args->v[3];
		}
	} else {
		n->u.hist.operand = ast_new(A(p), N_SYMBOL, t->loc);
		n->u.hist.operand->u.symbol.name = "_";
		if (linear) {
			struct node *z = ast_new(A(p), N_NUMBER, t->loc);
			z->u.number.text = "0";
			n->u.hist.lo = n->u.hist.hi = n->u.hist.step = z;
		}
	}
	return n;
}

/* @entry, @defined, @probewrite, @perf, @k/uregister, @k/uderef */
static struct node *
build_atop(struct parser *p, const struct token *t, struct node_list *args,
	   enum node_kind kind, int nargs)
{
	struct node *n = ast_new(A(p), kind, t->loc);

	n->u.atop.name = t->text;
	if (arity_ok(p, t, args->n, nargs, nargs))
		n->u.atop.args = *args;
	else
		for (int i = 0; i < nargs; i++) {
			struct node *z = ast_new(A(p), N_NUMBER, t->loc);
			z->u.number.text = "0";
			ast_list_push(A(p), &n->u.atop.args, z);
		}
	if (kind == N_PERF) {
		const char *c = string_arg(p, t, &n->u.atop.args, 0);
		if (c && !*c)
			diag_error(&p->s->diag, t->loc, "E_AT_ARGS",
				   "@perf needs the name of a perf counter");
	}
	if (kind == N_PROBEWRITE && n->u.atop.args.v[0]->kind != N_SYMBOL)
		diag_error(&p->s->diag, n->u.atop.args.v[0]->loc, "E_AT_ARGS",
			   "@probewrite takes a variable name");
	return n;
}

static struct node *
build_stat(struct parser *p, const struct token *t, struct node_list *args,
	   enum op op)
{
	struct node *n = ast_new(A(p), N_STAT_OP, t->loc);

	n->u.stat.op = op;
	if (arity_ok(p, t, args->n, 1, op == OP_VARIANCE ? 2 : 1)) {
		n->u.stat.operand = args->v[0];
		n->u.stat.shift = args->n > 1 ? args->v[1] : NULL;
	}
	if (!n->u.stat.operand) {
		n->u.stat.operand = ast_new(A(p), N_SYMBOL, t->loc);
		n->u.stat.operand->u.symbol.name = "_";
	}
	return n;
}

static void
require_guru(struct parser *p, const struct token *t)
{
	if (p->s->opts.guru)
		return;
	diag_error(&p->s->diag, t->loc, "E_GURU_ONLY",
		   "%s reads raw registers or memory and needs guru mode", t->text);
	diag_hint(&p->s->diag, "run tapc with -g if you mean it");
}

struct node *
build_at(struct parser *p, const struct token *t, struct node_list *args)
{
	const char *name = t->text;

	if (!args) {
		diag_error(&p->s->diag, t->loc, "E_AT_ARGS",
			   "expected '(' after %s", name);
		return placeholder(p, t->loc);
	}
	if (strcmp(name, "@cast") == 0)
		return build_cast(p, t, args);
	if (strcmp(name, "@var") == 0)
		return build_atvar(p, t, args);
	if (strncmp(name, "@hist_", 6) == 0)
		return build_hist(p, t, args);
	for (size_t i = 0; i < sizeof(stat_ops) / sizeof(stat_ops[0]); i++)
		if (strcmp(name, stat_ops[i].name) == 0)
			return build_stat(p, t, args, stat_ops[i].op);
	if (strcmp(name, "@entry") == 0)
		return build_atop(p, t, args, N_ENTRY, 1);
	if (strcmp(name, "@defined") == 0)
		return build_atop(p, t, args, N_DEFINED, 1);
	if (strcmp(name, "@probewrite") == 0)
		return build_atop(p, t, args, N_PROBEWRITE, 1);
	if (strcmp(name, "@perf") == 0)
		return build_atop(p, t, args, N_PERF, 1);
	if (strcmp(name, "@kregister") == 0 || strcmp(name, "@uregister") == 0) {
		require_guru(p, t);
		return build_atop(p, t, args, N_REGISTER, 1);
	}
	if (strcmp(name, "@kderef") == 0 || strcmp(name, "@uderef") == 0) {
		require_guru(p, t);
		return build_atop(p, t, args, N_DEREF, 2);
	}
	if (strcmp(name, "@const") == 0) {
		if (!p->embedded_ok) {
			diag_error(&p->s->diag, t->loc, "E_GURU_ONLY",
				   "@const evaluates C code and needs guru mode");
			diag_hint(&p->s->diag, "run tapc with -g if you mean it");
		}
		struct node *n = build_atop(p, t, args, N_CONST, 1);
		string_arg(p, t, &n->u.atop.args, 0);
		return n;
	}
	diag_error(&p->s->diag, t->loc, "E_UNSUPPORTED",
		   "%s is not supported yet", name);
	return placeholder(p, t->loc);
}
