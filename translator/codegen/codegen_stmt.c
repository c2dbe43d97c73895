/*
 * codegen_stmt.c -- pass 3 for statements: every statement kind of the AST
 * becomes C at the writer's current depth.
 *
 * Takes a typed statement. Produces C that first counts the statement
 * toward MAXACTION (TAP_STMT, which names the statement's script location
 * so the limit's error says where), then does its work. Loops count each
 * iteration too, so an empty infinite loop still stops. Script errors jump
 * to g->err_label (a try's catch, or the frame's end); MAXACTION jumps to
 * the frame's end directly, as SystemTap's cannot be caught.
 * Must not: evaluate expressions except through cg_expr().
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"

static void
cg_count(struct cg *g, struct node *n)
{
	const char *near = cg_near(g, n);

	cg_line(&g->w, "TAP_STMT(%s, %s);", cg_c_string(g, near, strlen(near)),
		g->out_label);
}

static void
cg_block(struct cg *g, struct node *n)
{
	int i;

	for (i = 0; i < n->u.block.stmts.n; i++)
		cg_stmt(g, n->u.block.stmts.v[i]);
}

/* Whether a loop body counts toward MAXACTION by itself: then the loop
 * does not count its iterations again, so that a loop costs one action
 * per iteration per statement, about what stap charges. */
static bool
cg_body_counts(struct node *n)
{
	int i;

	if (!n || n->kind == N_NULL_STMT)
		return false;
	if (n->kind != N_BLOCK)
		return true;
	for (i = 0; i < n->u.block.stmts.n; i++)
		if (cg_body_counts(n->u.block.stmts.v[i]))
			return true;
	return false;
}

/* A statement as the body of if/while/for: always braced. */
static void
cg_body(struct cg *g, struct node *n)
{
	if (n)
		cg_stmt(g, n);
}

static void
cg_if(struct cg *g, struct node *n)
{
	/* a branch may take the handler's locks; after the if, only the
	 * runtime knows whether one did */
	bool held = cg_locks_held(g);

	cg_count(g, n);
	cg_open(&g->w, "if (%s)", cg_expr(g, n->u.if_stmt.cond));
	cg_body(g, n->u.if_stmt.then_stmt);
	cg_locks_set_held(g, held);
	if (n->u.if_stmt.else_stmt) {
		cg_close(&g->w, NULL);
		cg_open(&g->w, "else");
		cg_body(g, n->u.if_stmt.else_stmt);
		cg_locks_set_held(g, held);
	}
	cg_close(&g->w, NULL);
}

static void
cg_while(struct cg *g, struct node *n)
{
	cg_count(g, n);
	cg_open(&g->w, "while (%s)", cg_expr(g, n->u.while_stmt.cond));
	if (!cg_body_counts(n->u.while_stmt.body))
		cg_count(g, n);
	cg_body(g, n->u.while_stmt.body);
	cg_close(&g->w, NULL);
}

static void
cg_for(struct cg *g, struct node *n)
{
	struct node *init = n->u.for_stmt.init, *cond = n->u.for_stmt.cond;
	struct node *step = n->u.for_stmt.step;

	cg_count(g, n);
	if (init)
		cg_line(&g->w, "(void)(%s);", cg_expr(g, init));
	cg_open(&g->w, "for (; %s; %s)", cond ? cg_expr(g, cond) : "1",
		step ? cg_fmt(g, "(void)(%s)", cg_expr(g, step)) : "");
	if (!cg_body_counts(n->u.for_stmt.body))
		cg_count(g, n);
	cg_body(g, n->u.for_stmt.body);
	cg_close(&g->w, NULL);
}

static int
cg_stat_field(enum op op)
{
	switch (op) {
	case OP_SUM: return 1;
	case OP_MIN: return 2;
	case OP_MAX: return 3;
	case OP_AVG: return 4;
	default: return 0;	/* @count, stap's default */
	}
}

const char *
cg_iter_storage(struct cg *g, struct symbol *sym)
{
	struct cg_frame *f = g->frame;

	f->iter_slots = arena_grow(g->a, f->iter_slots, sizeof(long),
				   &f->iter_cap, f->niter + 1);
	f->iter_slots[f->niter] = sym->max_entries;
	return cg_fmt(g, "l->__it%d", f->niter++);
}

/* Copy the current entry's keys and value into the loop variables. */
static void
cg_foreach_vars(struct cg *g, struct node *n, struct symbol *sym,
		const char *map, const char *e)
{
	int i;

	for (i = 0; i < n->u.foreach.keys.n; i++) {
		struct symbol *k = n->u.foreach.keys.v[i]->u.symbol.sym;

		if (k->type == TY_STRING)
			cg_line(&g->w, "tap_str_copy(%s, tap_map_key_str(%s, %s, %d));",
				cg_symbol_ref(g, k), map, e, i);
		else
			cg_line(&g->w, "%s = tap_map_key_long(%s, %s, %d);",
				cg_symbol_ref(g, k), map, e, i);
	}
	if (n->u.foreach.value) {
		struct symbol *v = n->u.foreach.value->u.symbol.sym;

		if (sym->type == TY_STRING)
			cg_line(&g->w, "tap_str_copy(%s, tap_map_value_str(%s, %s));",
				cg_symbol_ref(g, v), map, e);
		else if (sym->type == TY_LONG)
			cg_line(&g->w, "%s = *tap_map_value_long(%s, %s);",
				cg_symbol_ref(g, v), map, e);
		else
			cg_unsupported(g, n, "a value variable over statistics");
	}
}

static void
cg_foreach_order(struct cg *g, struct node *n, const char *o)
{
	struct node *arr = n->u.foreach.array;
	const char *slice = "NULL";
	uint32_t wild = 0;

	if (arr->kind == N_INDEX) {
		const char *k;

		cg_line(&g->w, "%s", cg_keys_decl(g, &arr->u.index.keys, &k,
						  &wild));
		slice = k;
	}
	cg_line(&g->w, "struct tap_map_order %s = { .dir = %d, .column = %d, "
		".field = %d, .limit = -1, .slice = %s, .wildcard = 0x%xu };",
		o, n->u.foreach.sort_column < 0 ? 0 : (int)n->u.foreach.sort_dir,
		n->u.foreach.sort_column < 0 ? 0 : n->u.foreach.sort_column,
		cg_stat_field(n->u.foreach.sort_aggr), slice, wild);
	/* A limit of 0 or less runs no iteration, as in SystemTap; the
	 * runtime's -1 means "no limit", so a negative one becomes 0. */
	if (n->u.foreach.limit)
		cg_line(&g->w, "%s.limit = ({ int64_t __l = %s; __l < 0 ? 0 : __l; });",
			o, cg_expr(g, n->u.foreach.limit));
}

/* foreach (i in @hist_log(s)): every bucket index, in order. */
static void
cg_foreach_hist(struct cg *g, struct node *n)
{
	struct node *h = n->u.foreach.array;
	struct node *x = h->u.hist.operand;
	struct symbol *sym = cg_array_symbol(x);
	struct symbol *k = n->u.foreach.keys.n == 1
		? n->u.foreach.keys.v[0]->u.symbol.sym : NULL;
	int id = g->label_seq++;

	if (!sym || !k || n->u.foreach.value) {
		cg_unsupported(g, n, "this foreach over a histogram");
		return;
	}
	cg_open_block(&g->w);
	cg_line(&g->w, "const struct tap_stat_data *__sd%d = %s;", id,
		cg_stat_data(g, x));
	cg_line(&g->w, "int64_t __b%d, __lim%d = %s;", id, id,
		n->u.foreach.limit ? cg_expr(g, n->u.foreach.limit)
				   : "INT64_MAX");
	cg_open(&g->w, "for (__b%d = 0; __sd%d && __sd%d->count && __b%d < "
		"%s->buckets && __b%d < __lim%d; __b%d++)", id, id, id, id,
		x->kind == N_SYMBOL
			? cg_fmt(g, "(&%s.desc)", cg_global_name(sym))
			: cg_fmt(g, "(&%s.agg.stat_desc)", cg_global_name(sym)),
		id, id, id);
	cg_count(g, n);
	cg_line(&g->w, "%s = __b%d;", cg_symbol_ref(g, k), id);
	cg_body(g, n->u.foreach.body);
	cg_close(&g->w, NULL);
	cg_close(&g->w, NULL);
}

static void
cg_foreach(struct cg *g, struct node *n)
{
	struct symbol *sym = cg_array_symbol(n->u.foreach.array);
	int id = g->label_seq++;
	const char *map, *o = cg_fmt(g, "__ord%d", id);
	const char *it = cg_fmt(g, "__iter%d", id), *e = cg_fmt(g, "__ent%d", id);

	cg_count(g, n);
	if (n->u.foreach.array->kind == N_HIST) {
		cg_foreach_hist(g, n);
		return;
	}
	if (!sym || sym->nkeys == 0) {
		cg_unsupported(g, n, "foreach over this kind of expression");
		return;
	}
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_map_iter %s;", it);
	cg_line(&g->w, "struct tap_map_entry *%s;", e);
	cg_foreach_order(g, n, o);
	if (cg_is_stat_array(sym)) {
		const char *rc = cg_fmt(g, "__rc%d", id);

		map = cg_fmt(g, "&%s.agg", cg_global_name(sym));
		cg_line(&g->w, "int %s = tap_pmap_aggregate(&%s);", rc,
			cg_global_name(sym));
		cg_line(&g->w, "if (unlikely(%s)) %s", rc,
			cg_raise(g, "aggregation overflow", cg_near(g, n)));
	} else {
		map = cg_map_ref(g, sym);
	}
	cg_line(&g->w, "tap_map_iter_start(%s, &%s, &%s, %s);", map, o, it,
		cg_iter_storage(g, sym));
	cg_open(&g->w, "while ((%s = tap_map_iter_next(&%s)) != NULL)", e, it);
	if (!cg_body_counts(n->u.foreach.body))
		cg_count(g, n);
	cg_foreach_vars(g, n, sym, map, e);
	cg_body(g, n->u.foreach.body);
	cg_close(&g->w, NULL);
	cg_close(&g->w, NULL);
}

static void
cg_delete_whole(struct cg *g, struct node *n, struct symbol *sym)
{
	const char *ref = cg_symbol_ref(g, sym);

	if (sym->nkeys > 0)
		cg_line(&g->w, "tap_%s_clear(&%s);",
			cg_is_stat_array(sym) ? "pmap" : "map", ref);
	else if (sym->type == TY_STATS)
		cg_line(&g->w, "tap_stat_clear(&%s);", ref);
	else if (sym->type == TY_STRING)
		cg_line(&g->w, "%s[0] = '\\0';", ref);
	else if (sym->type == TY_LONG)
		cg_line(&g->w, "%s = 0;", ref);
	else
		cg_unsupported(g, n, "delete of this kind of variable");
}

static void
cg_delete(struct cg *g, struct node *n)
{
	struct node *t = n->u.del.target;
	struct symbol *sym = cg_array_symbol(t);
	const char *k, *kd, *kind;
	uint32_t wild;

	cg_count(g, n);
	if (!sym) {
		cg_unsupported(g, n, "delete of this kind of expression");
		return;
	}
	if (t->kind == N_SYMBOL) {
		cg_delete_whole(g, n, sym);
		return;
	}
	kind = cg_is_stat_array(sym) ? "pmap" : "map";
	kd = cg_keys_decl(g, &t->u.index.keys, &k, &wild);
	if (wild)
		cg_line(&g->w, "{ %s(void)tap_%s_delete_slice(&%s, %s, 0x%xu); }",
			kd, kind, cg_global_name(sym), k, wild);
	else
		cg_line(&g->w, "{ %s(void)tap_%s_delete(&%s, %s); }", kd, kind,
			cg_global_name(sym), k);
}

static void
cg_return(struct cg *g, struct node *n)
{
	struct node *v = n->u.ret.value;

	cg_count(g, n);
	if (v && (!g->frame->is_function || g->frame->fn->ret == TY_VOID)) {
		cg_line(&g->w, "(void)(%s);", cg_expr(g, v));
	} else if (v) {
		if (v->type == TY_STRING)
			cg_line(&g->w, "tap_str_copy(__ret, %s);", cg_expr(g, v));
		else
			cg_line(&g->w, "__retval = %s;", cg_expr(g, v));
	}
	cg_line(&g->w, "goto %s;", g->out_label);
}

static void
cg_try(struct cg *g, struct node *n)
{
	const char *saved = g->err_label;
	const char *catch_l = cg_new_label(g, "catch");
	const char *end_l = cg_new_label(g, "try_end");
	struct node *var = n->u.try_stmt.catch_var;

	cg_count(g, n);
	cg_open_block(&g->w);
	g->err_label = catch_l;
	cg_body(g, n->u.try_stmt.body);
	g->err_label = saved;
	cg_line(&g->w, "goto %s;", end_l);
	cg_label(&g->w, catch_l);
	cg_line(&g->w, "c->error = false;");
	if (var && var->u.symbol.sym)
		cg_line(&g->w, "tap_str_copy(%s, c->errbuf);",
			cg_symbol_ref(g, var->u.symbol.sym));
	cg_line(&g->w, "c->last_stmt = NULL;");
	cg_body(g, n->u.try_stmt.handler);
	cg_label(&g->w, end_l);
	cg_close(&g->w, NULL);
}

static void
cg_next(struct cg *g, struct node *n)
{
	cg_count(g, n);
	if (g->frame->is_function) {
		/* the handler's end is in another C function: flag it */
		cg_line(&g->w, "c->next = true;");
		cg_line(&g->w, "goto %s;", g->out_label);
		return;
	}
	cg_line(&g->w, "goto %s;", g->out_label);
}

void
cg_stmt(struct cg *g, struct node *n)
{
	cg_locks_before_stmt(g, n);
	switch (n->kind) {
	case N_BLOCK: cg_block(g, n); return;
	case N_NULL_STMT: return;
	case N_EXPR_STMT:
		cg_count(g, n->u.expr_stmt.expr);
		if (cg_counter_stmt(g, n->u.expr_stmt.expr))
			return;
		cg_line(&g->w, "(void)(%s);", cg_expr(g, n->u.expr_stmt.expr));
		return;
	case N_IF: cg_if(g, n); return;
	case N_WHILE: cg_while(g, n); return;
	case N_FOR: cg_for(g, n); return;
	case N_FOREACH: cg_foreach(g, n); return;
	case N_BREAK: cg_count(g, n); cg_line(&g->w, "break;"); return;
	case N_CONTINUE: cg_count(g, n); cg_line(&g->w, "continue;"); return;
	case N_NEXT: cg_next(g, n); return;
	case N_RETURN: cg_return(g, n); return;
	case N_DELETE: cg_delete(g, n); return;
	case N_TRY: cg_try(g, n); return;
	case N_PROBE:
	case N_ALIAS:
	case N_FUNCTION:
	case N_GLOBAL:
	case N_EMBED:
	case N_PROBE_POINT:
	case N_NUMBER:
	case N_STRING:
	case N_SYMBOL:
	case N_TARGET:
	case N_CAST:
	case N_ATVAR:
	case N_AUTOCAST:
	case N_ENTRY:
	case N_DEFINED:
	case N_PROBEWRITE:
	case N_PERF:
	case N_REGISTER:
	case N_DEREF: case N_CONST:
	case N_EMBEDDED_EXPR:
	case N_UNARY:
	case N_CREMENT:
	case N_BINARY:
	case N_COMPARE:
	case N_REGEX:
	case N_LOGICAL:
	case N_TERNARY:
	case N_ASSIGN:
	case N_IN:
	case N_INDEX:
	case N_CALL:
	case N_STAT_OP:
	case N_HIST:
	case N_KIND_COUNT:
		break;
	}
	/* an expression where a statement belongs: evaluate it */
	cg_count(g, n);
	cg_line(&g->w, "(void)(%s);", cg_expr(g, n));
}
