/*
 * parse_build.c -- node builders for the grammar's actions.
 *
 * Each builder makes one node, checks what the grammar cannot express, and
 * reports problems without stopping the parse: a builder always returns a
 * usable node.
 */
#include "translator/parse/parse_build.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "translator/common/name_index.h"

static struct arena *
A(struct parser *p)
{
	return p->s->arena;
}

static void
add_item(struct parser *p, struct node *n)
{
	ast_list_push(A(p), &p->file->items, n);
}

static void
check_embedded_allowed(struct parser *p, struct loc at)
{
	if (p->embedded_ok)
		return;
	diag_error(&p->s->diag, at, "E_EMBEDDED_GURU",
		   "embedded C code in a script needs guru mode");
	diag_hint(&p->s->diag, "run tapc with -g if you trust this code");
}

void
build_probe(struct parser *p, struct loc at, struct node_list *points,
	    struct node *body)
{
	struct node *n = ast_new(A(p), N_PROBE, at);

	n->u.probe.points = *points;
	n->u.probe.body = body;
	add_item(p, n);
}

struct node *
build_alias(struct parser *p, struct loc at, struct node_list *names,
	    struct node_list *points, struct node *body, bool epilogue)
{
	struct node *n = ast_new(A(p), N_ALIAS, at);

	for (int i = 0; i < names->n; i++) {
		struct node *pt = names->v[i];
		if (pt->u.point.cond || pt->u.point.optional ||
		    pt->u.point.sufficient)
			diag_error(&p->s->diag, pt->loc, "E_ALIAS_NAME",
				   "an alias name cannot be optional, sufficient or conditional");
		for (int c = 0; c < pt->u.point.ncomps; c++) {
			const struct pp_component *comp = &pt->u.point.comps[c];
			if (strchr(comp->name, '*') || comp->arg)
				diag_error(&p->s->diag, comp->loc, "E_ALIAS_NAME",
					   "an alias name is plain words: no wildcards, no arguments");
		}
	}
	n->u.alias.names = *names;
	n->u.alias.points = *points;
	n->u.alias.body = body;
	n->u.alias.epilogue = epilogue;
	add_item(p, n);
	return n;
}

/* Whether function f declares the same return and parameter types. */
static bool
same_declared_types(const struct node *f, int ret,
		    const struct node_list *params)
{
	if (f->u.function.ret != (enum type)ret)
		return false;
	for (int i = 0; i < params->n; i++)
		if (f->u.function.params.v[i]->u.symbol.decl_type !=
		    params->v[i]->u.symbol.decl_type)
			return false;
	return true;
}

struct node *
build_function(struct parser *p, struct loc at, const struct token *name,
	       int ret, struct node_list *params, int is_private)
{
	struct node *n = ast_new(A(p), N_FUNCTION, at);

	if (!p->functions)
		p->functions = name_index_new(A(p));
	for (const struct name_entry *x = name_index_find(p->functions,
							  name->text);
	     x; x = x->next) {
		struct node *f = x->item;
		if (f->u.function.params.n != params->n)
			continue;
		/* SystemTap takes a second definition with the same arity,
		 * calls using the first: a warning (an error under -W).  Its
		 * calls must also suit the second, so declared types that
		 * differ are an error. */
		if (same_declared_types(f, ret, params))
			diag_warning(&p->s->diag, name->loc, "W_DUP_FUNCTION",
				     "function '%s' with %d parameter%s is defined twice; calls use the first definition",
				     name->text, params->n, params->n == 1 ? "" : "s");
		else
			diag_error(&p->s->diag, name->loc, "E_DUP_FUNCTION",
				   "function '%s' with %d parameter%s is defined twice, with different types",
				   name->text, params->n, params->n == 1 ? "" : "s");
		diag_note(&p->s->diag, f->loc, "first defined here");
		break;
	}
	n->u.function.name = name->text;
	n->u.function.ret = (enum type)ret;
	n->u.function.params = *params;
	for (int i = 0; i < params->n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(params->v[i]->u.symbol.name,
				   params->v[j]->u.symbol.name) == 0)
				diag_error(&p->s->diag, params->v[i]->loc,
					   "E_DUP_PARAM",
					   "parameter '%s' appears twice in function '%s'",
					   params->v[i]->u.symbol.name, name->text);
	n->u.function.is_private = is_private;
	add_item(p, n);
	name_index_add(p->functions, n->u.function.name, n);
	return n;
}

void
build_function_embedded(struct parser *p, struct node *fn,
			const struct token *code)
{
	const char *c = code->text;

	check_embedded_allowed(p, code->loc);
	fn->u.function.embedded = c;
	fn->u.function.pure = strstr(c, "/* pure */") != NULL;
	fn->u.function.unprivileged = strstr(c, "/* unprivileged */") != NULL;
	fn->u.function.guru = strstr(c, "/* guru */") != NULL;
	fn->u.function.unmangled = strstr(c, "/* unmangled */") != NULL;
	fn->u.function.submatches = strstr(c, "/* submatches */") != NULL;
}

void
build_top_embed(struct parser *p, const struct token *code)
{
	struct node *n = ast_new(A(p), N_EMBED, code->loc);

	check_embedded_allowed(p, code->loc);
	n->u.embed.code = code->text;
	add_item(p, n);
}

struct node *
build_global(struct parser *p, const struct token *name, int wrap, int size,
	     struct node *init)
{
	struct node *n = ast_new(A(p), N_GLOBAL, name->loc);

	for (int i = 0; i < p->file->items.n; i++) {
		struct node *g = p->file->items.v[i];
		if (g->kind == N_GLOBAL &&
		    strcmp(g->u.global.name, name->text) == 0) {
			diag_error(&p->s->diag, name->loc, "E_DUP_GLOBAL",
				   "global '%s' is declared twice", name->text);
			diag_note(&p->s->diag, g->loc, "first declared here");
			break;
		}
	}
	if (init && (size || wrap))
		diag_error(&p->s->diag, init->loc, "E_GLOBAL_INIT",
			   "array '%s' cannot be initialised with a scalar",
			   name->text);
	n->u.global.name = name->text;
	n->u.global.wrap = wrap;
	n->u.global.size = size;
	n->u.global.init = init;
	n->u.global.is_private = p->is_private;
	add_item(p, n);
	return n;
}

int
build_array_size(struct parser *p, const struct token *num)
{
	struct node *n = build_number(p, num, false);

	if (n->u.number.value == 0 || n->u.number.value > INT_MAX) {
		diag_error(&p->s->diag, num->loc, "E_ARRAY_SIZE",
			   "array size must be from 1 to %d", INT_MAX);
		return 1;
	}
	return (int)n->u.number.value;
}

int
build_type_name(struct parser *p, const struct token *name)
{
	if (strcmp(name->text, "long") == 0)
		return TY_LONG;
	if (strcmp(name->text, "string") == 0)
		return TY_STRING;
	diag_error(&p->s->diag, name->loc, "E_BAD_TYPE",
		   "unknown type '%s'", name->text);
	diag_hint(&p->s->diag, "the types are 'long' and 'string'");
	return TY_UNKNOWN;
}

/* ---- probe points ---- */

struct node *
build_point(struct parser *p, struct loc at, const struct pp_component *first)
{
	struct node *n = ast_new(A(p), N_PROBE_POINT, at);

	ast_point_push(A(p), n, *first);
	return n;
}

struct node_list
build_points_append(struct parser *p, struct node_list *a, struct node_list *b)
{
	struct node_list out = *a;

	for (int i = 0; i < b->n; i++)
		ast_list_push(A(p), &out, b->v[i]);
	return out;
}

static bool
point_has_suffix(const struct node *pt)
{
	return pt->u.point.optional || pt->u.point.sufficient ||
	       pt->u.point.cond;
}

/* a.{b,c} : every sequence of `a` followed by every sequence of `b`.  A
 * '?', '!' or condition given inside braces belongs to the end of the
 * point, so only `b`'s may have one. */
struct node_list
build_points_product(struct parser *p, struct node_list *a,
		     struct node_list *b)
{
	struct node_list out = { 0 };

	for (int i = 0; i < a->n; i++)
		if (point_has_suffix(a->v[i])) {
			diag_error(&p->s->diag, a->v[i]->loc, "E_SYNTAX",
				   "'?', '!' or a condition may only end a probe point, not come before '.'");
			break;
		}
	for (int i = 0; i < a->n; i++) {
		for (int j = 0; j < b->n; j++) {
			struct node *x = a->v[i], *y = b->v[j];
			struct node *pt = ast_new(A(p), N_PROBE_POINT, x->loc);
			for (int k = 0; k < x->u.point.ncomps; k++)
				ast_point_push(A(p), pt, x->u.point.comps[k]);
			for (int k = 0; k < y->u.point.ncomps; k++)
				ast_point_push(A(p), pt, y->u.point.comps[k]);
			pt->u.point.optional = y->u.point.optional;
			pt->u.point.sufficient = y->u.point.sufficient;
			pt->u.point.cond = y->u.point.cond;
			ast_list_push(A(p), &out, pt);
		}
	}
	if (out.n > 10000)
		diag_error(&p->s->diag, a->v[0]->loc, "E_PROBE_EXPANSION",
			   "probe point alternatives expand to %d points", out.n);
	return out;
}

/* The '?' or '!' (flag 1 or 2) and condition after a point or after one
 * alternative in braces; those inside braces stay when none is given
 * after them, and both is an error, as in SystemTap. */
struct node_list
build_points_finish(struct parser *p, struct node_list *l, int flag,
		    struct node *cond)
{
	for (int i = 0; i < l->n; i++) {
		struct node *pt = l->v[i];
		if ((flag && (pt->u.point.optional || pt->u.point.sufficient)) ||
		    (cond && pt->u.point.cond)) {
			diag_error(&p->s->diag, pt->loc, "E_SYNTAX",
				   "'%s' given both inside and after the braces",
				   cond && pt->u.point.cond ? "if" :
				   flag == 1 ? "?" : "!");
			break;
		}
		if (flag) {
			pt->u.point.optional = flag == 1;
			pt->u.point.sufficient = flag == 2;
		}
		if (cond)
			pt->u.point.cond = cond;
	}
	return *l;
}

struct pp_component
build_component(struct parser *p, const struct token *name, struct node *arg)
{
	(void)p;
	return (struct pp_component){ name->text, arg, name->loc };
}

/* Probe point names are written without spaces: `sys_*`, `**`. */
struct token
build_join_name(struct parser *p, const struct token *a,
		const struct token *b)
{
	struct token t = *a;

	if (b->space_before || b->loc.line != a->loc.line ||
	    b->loc.col != a->loc.col + (int)a->len)
		diag_error(&p->s->diag, b->loc, "E_SYNTAX",
			   "unexpected %s in a probe point", lex_kind_name(b->kind));
	t.text = arena_printf(A(p), "%s%s", a->text, b->text);
	t.len = a->len + b->len;
	return t;
}

/* ---- statements ---- */

struct node *
build_block(struct parser *p, struct loc at, struct node_list *stmts)
{
	struct node *n = ast_new(A(p), N_BLOCK, at);

	n->u.block.stmts = *stmts;
	return n;
}

struct node *
build_if(struct parser *p, struct loc at, struct node *cond,
	 struct node *then_stmt, struct node *else_stmt)
{
	struct node *n = ast_new(A(p), N_IF, at);

	n->u.if_stmt.cond = cond;
	n->u.if_stmt.then_stmt = then_stmt;
	n->u.if_stmt.else_stmt = else_stmt;
	return n;
}

struct node *
build_while(struct parser *p, struct loc at, struct node *cond,
	    struct node *body)
{
	struct node *n = ast_new(A(p), N_WHILE, at);

	n->u.while_stmt.cond = cond;
	n->u.while_stmt.body = body;
	return n;
}

struct node *
build_for(struct parser *p, struct loc at, struct node *init,
	  struct node *cond, struct node *step, struct node *body)
{
	struct node *n = ast_new(A(p), N_FOR, at);

	n->u.for_stmt.init = init;
	n->u.for_stmt.cond = cond;
	n->u.for_stmt.step = step;
	n->u.for_stmt.body = body;
	return n;
}

struct node *
build_try(struct parser *p, struct loc at, struct node *body,
	  struct node *var, struct node *handler)
{
	struct node *n = ast_new(A(p), N_TRY, at);

	n->u.try_stmt.body = body;
	n->u.try_stmt.catch_var = var;
	n->u.try_stmt.handler = handler;
	return n;
}

struct node *
build_expr_stmt(struct parser *p, struct node *expr)
{
	struct node *n = ast_new(A(p), N_EXPR_STMT, expr->loc);

	n->u.expr_stmt.expr = expr;
	return n;
}

struct node *
build_return(struct parser *p, struct loc at, struct node *value)
{
	struct node *n = ast_new(A(p), N_RETURN, at);

	n->u.ret.value = value;
	return n;
}

static bool
is_storage(const struct node *n)
{
	switch (n->kind) {
	case N_SYMBOL: case N_TARGET: case N_CAST: case N_ATVAR:
		return true;
	case N_INDEX:
		return n->u.index.base->kind == N_SYMBOL;
	default:
		return false;
	}
}

struct node *
build_delete(struct parser *p, struct loc at, struct node *target)
{
	struct node *n = ast_new(A(p), N_DELETE, at);

	if (!is_storage(target))
		diag_error(&p->s->diag, target->loc, "E_DELETE",
			   "'delete' takes a variable, an array or an array element");
	n->u.del.target = target;
	return n;
}

/* ---- foreach ---- */

struct fe_vars *
fe_new(struct parser *p)
{
	return arena_alloc(A(p), sizeof(struct fe_vars));
}

void
fe_add_key(struct parser *p, struct fe_vars *fe, struct node *key)
{
	ast_list_push(A(p), &fe->keys, key);
}

void
fe_set_value(struct parser *p, struct fe_vars *fe, struct node *value)
{
	(void)p;
	fe->value = value;
}

void
fe_note_sort(struct parser *p, struct node *n, int dir)
{
	if (dir == SORT_NONE)
		return;
	if (p->nmarks == (int)(sizeof(p->marks) / sizeof(p->marks[0])))
		return;
	p->marks[p->nmarks++] = (struct sort_mark){ n, dir, n->loc };
}

void
fe_note_aggregate(struct parser *p, const struct token *at)
{
	static const struct {
		const char *name;
		enum op op;
	} aggrs[] = {
		{ "@count", OP_COUNT }, { "@sum", OP_SUM }, { "@min", OP_MIN },
		{ "@max", OP_MAX }, { "@avg", OP_AVG },
		{ "@variance", OP_VARIANCE },
	};

	for (size_t i = 0; i < sizeof(aggrs) / sizeof(aggrs[0]); i++)
		if (strcmp(at->text, aggrs[i].name) == 0) {
			p->sort_aggr = aggrs[i].op;
			return;
		}
	diag_error(&p->s->diag, at->loc, "E_FOREACH_SORT",
		   "expected @count, @sum, @min, @max, @avg or @variance to sort statistics by");
}

static int
take_mark(struct parser *p, const struct node *n)
{
	for (int i = 0; i < p->nmarks; i++)
		if (p->marks[i].node == n)
			return p->marks[i].dir;
	return SORT_NONE;
}

static void
resolve_sort(struct parser *p, struct node *fe)
{
	int dir;

	fe->u.foreach.sort_column = -1;
	if (p->nmarks > 1)
		diag_error(&p->s->diag, p->marks[1].loc, "E_FOREACH_SORT",
			   "only one sort marker (+ or -) is allowed in a foreach");
	if ((dir = take_mark(p, fe->u.foreach.value))) {
		fe->u.foreach.sort_column = 0;
		fe->u.foreach.sort_dir = dir;
	}
	if ((dir = take_mark(p, fe->u.foreach.array))) {
		fe->u.foreach.sort_column = 0;
		fe->u.foreach.sort_dir = dir;
		fe->u.foreach.sort_on_array = true;
	}
	for (int i = 0; i < fe->u.foreach.keys.n; i++) {
		if ((dir = take_mark(p, fe->u.foreach.keys.v[i]))) {
			fe->u.foreach.sort_column = i + 1;
			fe->u.foreach.sort_dir = dir;
		}
	}
	p->nmarks = 0;
}

struct node *
build_foreach(struct parser *p, struct fe_vars *fe, struct node *array,
	      struct node *limit)
{
	struct node *n = ast_new(A(p), N_FOREACH, array->loc);

	n->u.foreach.value = fe->value;
	n->u.foreach.keys = fe->keys;
	n->u.foreach.keys_bracketed = fe->bracketed;
	n->u.foreach.array = array;
	n->u.foreach.limit = limit;
	if (fe->keys.n > 9)
		diag_error(&p->s->diag, fe->keys.v[9]->loc, "E_TOO_MANY_KEYS",
			   "an array has at most 9 keys");
	if (array->kind == N_HIST)
		parser_allow_hist(p, array);
	else if (array->kind != N_SYMBOL && array->kind != N_INDEX)
		diag_error(&p->s->diag, array->loc, "E_FOREACH_ARRAY",
			   "foreach iterates over an array or a histogram");
	resolve_sort(p, n);
	if (p->sort_aggr != OP_NONE && !(n->u.foreach.sort_column == 0 &&
					 n->u.foreach.sort_on_array))
		diag_error(&p->s->diag, array->loc, "E_FOREACH_SORT",
			   "%s after the array must be followed by a sort direction (+ or -)",
			   op_spelling(p->sort_aggr));
	n->u.foreach.sort_aggr = p->sort_aggr;
	p->sort_aggr = OP_NONE;
	return n;
}
