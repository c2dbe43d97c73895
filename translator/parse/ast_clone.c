/*
 * ast_clone.c -- deep copies of syntax trees.
 *
 * Elaboration gives every derived probe its own copy of the bodies it is
 * made of (alias prologues and epilogues, the probe's body), because the
 * copies get different bindings and types: `$count` in one tracepoint is
 * not `$count` in another. Strings are shared; nodes, lists and paths are
 * copied.
 */
#include <string.h>

#include "translator/parse/ast.h"

static struct node_list
clone_list(struct arena *a, const struct node_list *l)
{
	struct node_list out = { 0 };

	for (int i = 0; i < l->n; i++)
		ast_list_push(a, &out, ast_clone(a, l->v[i]));
	return out;
}

static struct target_path
clone_path(struct arena *a, const struct target_path *p)
{
	struct target_path out = *p;

	out.steps = NULL;
	out.nsteps = out.cap = 0;
	for (int i = 0; i < p->nsteps; i++) {
		struct target_step st = p->steps[i];
		st.index = ast_clone(a, st.index);
		ast_path_push(a, &out, st);
	}
	return out;
}

static void
clone_point(struct arena *a, struct node *c, const struct node *n)
{
	c->u.point.comps = NULL;
	c->u.point.ncomps = c->u.point.cap = 0;
	for (int i = 0; i < n->u.point.ncomps; i++) {
		struct pp_component comp = n->u.point.comps[i];
		comp.arg = ast_clone(a, comp.arg);
		ast_point_push(a, c, comp);
	}
	c->u.point.cond = ast_clone(a, n->u.point.cond);
}

static void
clone_children(struct arena *a, struct node *c, const struct node *n)
{
	switch (n->kind) {
	case N_PROBE:
		c->u.probe.points = clone_list(a, &n->u.probe.points);
		c->u.probe.body = ast_clone(a, n->u.probe.body);
		return;
	case N_ALIAS:
		c->u.alias.names = clone_list(a, &n->u.alias.names);
		c->u.alias.points = clone_list(a, &n->u.alias.points);
		c->u.alias.body = ast_clone(a, n->u.alias.body);
		c->u.alias.epilogue_body = ast_clone(a, n->u.alias.epilogue_body);
		return;
	case N_FUNCTION:
		c->u.function.params = clone_list(a, &n->u.function.params);
		c->u.function.body = ast_clone(a, n->u.function.body);
		return;
	case N_GLOBAL:
		c->u.global.init = ast_clone(a, n->u.global.init);
		return;
	case N_PROBE_POINT:
		clone_point(a, c, n);
		return;
	case N_BLOCK:
		c->u.block.stmts = clone_list(a, &n->u.block.stmts);
		return;
	case N_EXPR_STMT:
		c->u.expr_stmt.expr = ast_clone(a, n->u.expr_stmt.expr);
		return;
	case N_IF:
		c->u.if_stmt.cond = ast_clone(a, n->u.if_stmt.cond);
		c->u.if_stmt.then_stmt = ast_clone(a, n->u.if_stmt.then_stmt);
		c->u.if_stmt.else_stmt = ast_clone(a, n->u.if_stmt.else_stmt);
		return;
	case N_WHILE:
		c->u.while_stmt.cond = ast_clone(a, n->u.while_stmt.cond);
		c->u.while_stmt.body = ast_clone(a, n->u.while_stmt.body);
		return;
	case N_FOR:
		c->u.for_stmt.init = ast_clone(a, n->u.for_stmt.init);
		c->u.for_stmt.cond = ast_clone(a, n->u.for_stmt.cond);
		c->u.for_stmt.step = ast_clone(a, n->u.for_stmt.step);
		c->u.for_stmt.body = ast_clone(a, n->u.for_stmt.body);
		return;
	case N_FOREACH:
		c->u.foreach.value = ast_clone(a, n->u.foreach.value);
		c->u.foreach.keys = clone_list(a, &n->u.foreach.keys);
		c->u.foreach.array = ast_clone(a, n->u.foreach.array);
		c->u.foreach.limit = ast_clone(a, n->u.foreach.limit);
		c->u.foreach.body = ast_clone(a, n->u.foreach.body);
		return;
	case N_RETURN:
		c->u.ret.value = ast_clone(a, n->u.ret.value);
		return;
	case N_DELETE:
		c->u.del.target = ast_clone(a, n->u.del.target);
		return;
	case N_TRY:
		c->u.try_stmt.body = ast_clone(a, n->u.try_stmt.body);
		c->u.try_stmt.catch_var = ast_clone(a, n->u.try_stmt.catch_var);
		c->u.try_stmt.handler = ast_clone(a, n->u.try_stmt.handler);
		return;
	case N_TARGET:
		c->u.target.path = clone_path(a, &n->u.target.path);
		return;
	case N_CAST:
		c->u.cast.operand = ast_clone(a, n->u.cast.operand);
		c->u.cast.path = clone_path(a, &n->u.cast.path);
		return;
	case N_ATVAR:
		c->u.atvar.path = clone_path(a, &n->u.atvar.path);
		return;
	case N_AUTOCAST:
		c->u.autocast.operand = ast_clone(a, n->u.autocast.operand);
		c->u.autocast.path = clone_path(a, &n->u.autocast.path);
		return;
	case N_ENTRY: case N_DEFINED: case N_PROBEWRITE: case N_PERF:
	case N_REGISTER: case N_DEREF: case N_CONST:
		c->u.atop.args = clone_list(a, &n->u.atop.args);
		return;
	case N_UNARY:
		c->u.unary.operand = ast_clone(a, n->u.unary.operand);
		return;
	case N_CREMENT:
		c->u.crement.operand = ast_clone(a, n->u.crement.operand);
		return;
	case N_BINARY: case N_COMPARE: case N_REGEX: case N_LOGICAL:
	case N_ASSIGN:
		c->u.binary.lhs = ast_clone(a, n->u.binary.lhs);
		c->u.binary.rhs = ast_clone(a, n->u.binary.rhs);
		return;
	case N_TERNARY:
		c->u.ternary.cond = ast_clone(a, n->u.ternary.cond);
		c->u.ternary.then_expr = ast_clone(a, n->u.ternary.then_expr);
		c->u.ternary.else_expr = ast_clone(a, n->u.ternary.else_expr);
		return;
	case N_IN:
		c->u.in.keys = clone_list(a, &n->u.in.keys);
		c->u.in.array = ast_clone(a, n->u.in.array);
		return;
	case N_INDEX:
		c->u.index.base = ast_clone(a, n->u.index.base);
		c->u.index.keys = clone_list(a, &n->u.index.keys);
		return;
	case N_CALL:
		c->u.call.args = clone_list(a, &n->u.call.args);
		return;
	case N_STAT_OP:
		c->u.stat.operand = ast_clone(a, n->u.stat.operand);
		c->u.stat.shift = ast_clone(a, n->u.stat.shift);
		return;
	case N_HIST:
		c->u.hist.operand = ast_clone(a, n->u.hist.operand);
		c->u.hist.lo = ast_clone(a, n->u.hist.lo);
		c->u.hist.hi = ast_clone(a, n->u.hist.hi);
		c->u.hist.step = ast_clone(a, n->u.hist.step);
		return;
	case N_EMBED: case N_NULL_STMT: case N_BREAK: case N_CONTINUE:
	case N_NEXT: case N_NUMBER: case N_STRING: case N_SYMBOL:
	case N_EMBEDDED_EXPR: case N_KIND_COUNT:
		return;
	}
}

struct node *
ast_clone(struct arena *a, const struct node *n)
{
	struct node *c;

	if (!n)
		return NULL;
	c = arena_alloc(a, sizeof(*c));
	memcpy(c, n, sizeof(*c));
	clone_children(a, c, n);
	return c;
}
