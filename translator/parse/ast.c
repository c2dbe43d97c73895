/*
 * ast.c -- constructors, operator spellings and the generic walker for the
 * syntax tree. Nothing here interprets a script; see ast.h for the shape.
 */
#include "translator/parse/ast.h"

static const char *const op_names[OP_COUNT_] = {
	[OP_NONE] = "?",
	[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
	[OP_MOD] = "%", [OP_SHL] = "<<", [OP_SHR] = ">>",
	[OP_BAND] = "&", [OP_BOR] = "|", [OP_BXOR] = "^", [OP_CONCAT] = ".",
	[OP_NEG] = "-", [OP_PLUS] = "+", [OP_NOT] = "!", [OP_BNOT] = "~",
	[OP_ADDR] = "&",
	[OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=",
	[OP_GT] = ">", [OP_GE] = ">=", [OP_MATCH] = "=~", [OP_NOMATCH] = "!~",
	[OP_ANDAND] = "&&", [OP_OROR] = "||",
	[OP_INC] = "++", [OP_DEC] = "--",
	[OP_ASSIGN] = "=", [OP_ADD_ASSIGN] = "+=", [OP_SUB_ASSIGN] = "-=",
	[OP_MUL_ASSIGN] = "*=", [OP_DIV_ASSIGN] = "/=",
	[OP_MOD_ASSIGN] = "%=", [OP_SHL_ASSIGN] = "<<=",
	[OP_SHR_ASSIGN] = ">>=", [OP_AND_ASSIGN] = "&=",
	[OP_OR_ASSIGN] = "|=", [OP_XOR_ASSIGN] = "^=",
	[OP_CONCAT_ASSIGN] = ".=", [OP_STAT_ADD] = "<<<",
	[OP_COUNT] = "@count", [OP_SUM] = "@sum", [OP_MIN] = "@min",
	[OP_MAX] = "@max", [OP_AVG] = "@avg", [OP_VARIANCE] = "@variance",
};

const char *
op_spelling(enum op op)
{
	if ((int)op < 0 || op >= OP_COUNT_ || !op_names[op])
		return "?";
	return op_names[op];
}

const char *
type_name(enum type t)
{
	switch (t) {
	case TY_UNKNOWN: return "unknown";
	case TY_LONG: return "long";
	case TY_STRING: return "string";
	case TY_STATS: return "stats";
	case TY_VOID: return "void";
	}
	return "?";
}

static const char *const kind_names[N_KIND_COUNT] = {
	"probe", "alias", "function", "global", "embed", "probe point",
	"block", "null statement", "expression statement", "if", "while",
	"for", "foreach", "break", "continue", "next", "return", "delete",
	"try", "number", "string", "symbol", "target variable", "@cast",
	"@var", "autocast", "@entry", "@defined", "@probewrite", "@perf", "register",
	"deref", "@const", "embedded expression", "unary", "crement", "binary",
	"comparison", "regex match", "logical", "ternary", "assignment", "in",
	"index", "call", "statistic", "histogram",
};

const char *
ast_kind_name(enum node_kind kind)
{
	if ((int)kind < 0 || kind >= N_KIND_COUNT)
		return "?";
	return kind_names[kind];
}

struct node *
ast_new(struct arena *a, enum node_kind kind, struct loc loc)
{
	struct node *n = arena_alloc(a, sizeof(*n));

	n->kind = kind;
	n->loc = loc;
	return n;
}

void
ast_list_push(struct arena *a, struct node_list *l, struct node *n)
{
	l->v = arena_grow(a, l->v, sizeof(*l->v), &l->cap, l->n + 1);
	l->v[l->n++] = n;
}

void
ast_path_push(struct arena *a, struct target_path *p, struct target_step step)
{
	p->steps = arena_grow(a, p->steps, sizeof(*p->steps), &p->cap,
			      p->nsteps + 1);
	p->steps[p->nsteps++] = step;
}

void
ast_point_push(struct arena *a, struct node *point, struct pp_component comp)
{
	point->u.point.comps = arena_grow(a, point->u.point.comps,
					  sizeof(comp), &point->u.point.cap,
					  point->u.point.ncomps + 1);
	point->u.point.comps[point->u.point.ncomps++] = comp;
}

struct walker {
	ast_visit_fn pre, post;
	void *ctx;
};

static void walk(struct walker *w, struct node *n);

static void
walk_list(struct walker *w, struct node_list *l)
{
	for (int i = 0; i < l->n; i++)
		walk(w, l->v[i]);
}

static void
walk_path(struct walker *w, struct target_path *p)
{
	for (int i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_INDEX)
			walk(w, p->steps[i].index);
}

static void
walk_point(struct walker *w, struct node *n)
{
	for (int i = 0; i < n->u.point.ncomps; i++)
		walk(w, n->u.point.comps[i].arg);
	walk(w, n->u.point.cond);
}

static void
walk_children(struct walker *w, struct node *n)
{
	switch (n->kind) {
	case N_PROBE:
		walk_list(w, &n->u.probe.points);
		walk(w, n->u.probe.body);
		return;
	case N_ALIAS:
		walk_list(w, &n->u.alias.names);
		walk_list(w, &n->u.alias.points);
		walk(w, n->u.alias.body);
		walk(w, n->u.alias.epilogue_body);
		return;
	case N_FUNCTION:
		walk_list(w, &n->u.function.params);
		walk(w, n->u.function.body);
		return;
	case N_GLOBAL:
		walk(w, n->u.global.init);
		return;
	case N_PROBE_POINT:
		walk_point(w, n);
		return;
	case N_BLOCK:
		walk_list(w, &n->u.block.stmts);
		return;
	case N_EXPR_STMT:
		walk(w, n->u.expr_stmt.expr);
		return;
	case N_IF:
		walk(w, n->u.if_stmt.cond);
		walk(w, n->u.if_stmt.then_stmt);
		walk(w, n->u.if_stmt.else_stmt);
		return;
	case N_WHILE:
		walk(w, n->u.while_stmt.cond);
		walk(w, n->u.while_stmt.body);
		return;
	case N_FOR:
		walk(w, n->u.for_stmt.init);
		walk(w, n->u.for_stmt.cond);
		walk(w, n->u.for_stmt.step);
		walk(w, n->u.for_stmt.body);
		return;
	case N_FOREACH:
		walk(w, n->u.foreach.value);
		walk_list(w, &n->u.foreach.keys);
		walk(w, n->u.foreach.array);
		walk(w, n->u.foreach.limit);
		walk(w, n->u.foreach.body);
		return;
	case N_RETURN:
		walk(w, n->u.ret.value);
		return;
	case N_DELETE:
		walk(w, n->u.del.target);
		return;
	case N_TRY:
		walk(w, n->u.try_stmt.body);
		walk(w, n->u.try_stmt.catch_var);
		walk(w, n->u.try_stmt.handler);
		return;
	case N_TARGET:
		walk_path(w, &n->u.target.path);
		return;
	case N_CAST:
		walk(w, n->u.cast.operand);
		walk_path(w, &n->u.cast.path);
		return;
	case N_ATVAR:
		walk_path(w, &n->u.atvar.path);
		return;
	case N_AUTOCAST:
		walk(w, n->u.autocast.operand);
		walk_path(w, &n->u.autocast.path);
		return;
	case N_ENTRY: case N_DEFINED: case N_PROBEWRITE: case N_PERF:
	case N_REGISTER: case N_DEREF: case N_CONST:
		walk_list(w, &n->u.atop.args);
		return;
	case N_UNARY:
		walk(w, n->u.unary.operand);
		return;
	case N_CREMENT:
		walk(w, n->u.crement.operand);
		return;
	case N_BINARY: case N_COMPARE: case N_REGEX: case N_LOGICAL:
	case N_ASSIGN:
		walk(w, n->u.binary.lhs);
		walk(w, n->u.binary.rhs);
		return;
	case N_TERNARY:
		walk(w, n->u.ternary.cond);
		walk(w, n->u.ternary.then_expr);
		walk(w, n->u.ternary.else_expr);
		return;
	case N_IN:
		walk_list(w, &n->u.in.keys);
		walk(w, n->u.in.array);
		return;
	case N_INDEX:
		walk(w, n->u.index.base);
		walk_list(w, &n->u.index.keys);
		return;
	case N_CALL:
		walk_list(w, &n->u.call.args);
		return;
	case N_STAT_OP:
		walk(w, n->u.stat.operand);
		walk(w, n->u.stat.shift);
		return;
	case N_HIST:
		walk(w, n->u.hist.operand);
		walk(w, n->u.hist.lo);
		walk(w, n->u.hist.hi);
		walk(w, n->u.hist.step);
		return;
	case N_EMBED: case N_NULL_STMT: case N_BREAK: case N_CONTINUE:
	case N_NEXT: case N_NUMBER: case N_STRING: case N_SYMBOL:
	case N_EMBEDDED_EXPR: case N_KIND_COUNT:
		return;
	}
}

static void
walk(struct walker *w, struct node *n)
{
	if (!n)
		return;
	if (w->pre && !w->pre(n, w->ctx))
		return;
	walk_children(w, n);
	if (w->post)
		w->post(n, w->ctx);
}

void
ast_walk(struct node *n, ast_visit_fn pre, ast_visit_fn post, void *ctx)
{
	struct walker w = { pre, post, ctx };

	walk(&w, n);
}
