/*
 * codegen_counters.c -- pass 3's choice of the scalar globals that probes
 * only add into, each on its own CPU, without a lock (sym->cpu_adds):
 * integers become per-CPU counters (runtime/linux/counter.h); statistics
 * are per-CPU already (runtime/core/stat.h) and only lose their locks.
 *
 * An integer qualifies when some probe counts it (`n++`, `++n`, `n--`,
 * `n += x`, `n -= x` as statements), and no handler that can run beside
 * another writes it in any other way.  Only the begin,
 * end and error probes run alone (the session state admits no other
 * handler then: runtime/linux/context.h), so they may store into it; any
 * other probe, and any function (which may be called from anywhere), may
 * only count it or read it.  `delete n`, and use as a foreach or catch
 * variable, disqualify it everywhere.  A statistic qualifies when some
 * probe feeds it (`s <<< v`) and only begin/end/error probes do anything
 * else with it (@count(s), print(@hist_log(s)), delete s): a reader that
 * runs beside the adds needs every CPU's lock (codegen_locks.c), and so
 * the adds need theirs.
 *
 * Then a count is one add into this CPU's delta, with no lock; a read is
 * the base plus every CPU's delta, also with no lock (the value an
 * ordinary global would have had at some moment during the read); a
 * store in begin/end/error sets the base so that the value reads as
 * stored.  The global's lock is never taken for it (codegen_locks.c).
 * Why: the exclusive lock of an ordinary global was most of what `n++`
 * cost a handler (issue 18), and two CPUs counting waited on it.
 *
 * An array of integers (no `%` wrap) qualifies when some probe counts an
 * element (`a[k]++`, `a[k] += x` ... as statements) and nothing but the
 * begin, end and error probes does anything else with it: no read, store,
 * delete, `in` or foreach in another probe or in any function, and no
 * count in a function (a begin or end probe could call it and then read
 * the array).  Then a probe's count goes into this CPU's delta map with
 * no lock (runtime/core/cmap.c), and every begin/end/error handler, and
 * autoprint's, starts by folding the deltas into the ordinary map, which
 * it then uses as any other array.  Reads anywhere else would need every
 * CPU's map merged on each read: those arrays keep their lock.
 *
 * Must not: promote a global whose value a running handler depends on
 * reading back exactly what it just wrote (`x = x + 1; if (x == ...)`
 * is an ordinary store, so it disqualifies).
 */
#include "translator/codegen/codegen_int.h"

struct cnt_scan {
	struct program *p;
	bool alone;		/* in a begin/end/error probe */
	bool in_function;
	bool *counted;		/* by global index: a probe counts it */
	bool *bad;		/* written some other way where it must not */
};

static int
cnt_index(struct cnt_scan *s, struct node *n)
{
	int i;

	if (!n || n->kind != N_SYMBOL || !n->u.symbol.sym ||
	    n->u.symbol.sym->kind != SYM_GLOBAL)
		return -1;
	for (i = 0; i < s->p->nglobals; i++)
		if (s->p->globals[i] == n->u.symbol.sym)
			return i;
	return -1;
}

static void
cnt_mark(struct cnt_scan *s, struct node *n, bool *flags)
{
	int i = cnt_index(s, n);

	if (i >= 0)
		flags[i] = true;
}

/* What `x++`, `--x`, `x += d` or `x -= d` counts into (x), and by what
 * (d, NULL for one; negated for -- and -=); NULL for any other
 * expression. */
static struct node *
count_target(struct node *e, struct node **delta, bool *negate)
{
	if (e->kind == N_CREMENT) {
		*delta = NULL;
		*negate = e->u.crement.op == OP_DEC;
		return e->u.crement.operand;
	}
	if (e->kind == N_ASSIGN && (e->u.binary.op == OP_ADD_ASSIGN ||
				    e->u.binary.op == OP_SUB_ASSIGN)) {
		*delta = e->u.binary.rhs;
		*negate = e->u.binary.op == OP_SUB_ASSIGN;
		return e->u.binary.lhs;
	}
	return NULL;
}

bool
cg_counter_add_parts(struct node *stmt_expr, struct symbol **sym,
		     struct node **delta, bool *negate)
{
	struct node *x = count_target(stmt_expr, delta, negate);

	if (!x || x->kind != N_SYMBOL || !x->u.symbol.sym ||
	    x->u.symbol.sym->kind != SYM_GLOBAL ||
	    x->u.symbol.sym->nkeys != 0 || x->u.symbol.sym->type != TY_LONG)
		return false;
	*sym = x->u.symbol.sym;
	return true;
}

/* `a[k]++`, `a[k] += x` and the like on an integer array global, as a
 * statement: its symbol, the N_INDEX, and what to add (NULL: one). */
static bool
cnt_array_add_parts(struct node *stmt_expr, struct symbol **sym,
		    struct node **idx, struct node **delta, bool *negate)
{
	struct node *x = count_target(stmt_expr, delta, negate), *base;
	int i;

	if (!x || x->kind != N_INDEX)
		return false;
	base = x->u.index.base;
	if (base->kind != N_SYMBOL || !base->u.symbol.sym ||
	    base->u.symbol.sym->kind != SYM_GLOBAL ||
	    base->u.symbol.sym->nkeys == 0 ||
	    base->u.symbol.sym->type != TY_LONG)
		return false;
	for (i = 0; i < x->u.index.keys.n; i++)
		if (!x->u.index.keys.v[i])
			return false;
	*sym = base->u.symbol.sym;
	*idx = x;
	return true;
}

static bool
cnt_node(struct node *n, void *ctx)
{
	struct cnt_scan *s = ctx;
	struct symbol *sym;
	struct node *delta, *idx;
	bool negate;
	int i;

	switch (n->kind) {
	case N_EXPR_STMT:
		if (cnt_array_add_parts(n->u.expr_stmt.expr, &sym, &idx,
					&delta, &negate)) {
			if (s->in_function)
				cnt_mark(s, idx->u.index.base, s->bad);
			else if (!s->alone)
				cnt_mark(s, idx->u.index.base, s->counted);
			for (i = 0; i < idx->u.index.keys.n; i++)
				ast_walk(idx->u.index.keys.v[i], cnt_node,
					 NULL, s);
			if (delta)
				ast_walk(delta, cnt_node, NULL, s);
			return false;
		}
		if (!cg_counter_add_parts(n->u.expr_stmt.expr, &sym, &delta,
					  &negate))
			return true;
		if (!s->alone)
			cnt_mark(s, n->u.expr_stmt.expr->kind == N_CREMENT
				    ? n->u.expr_stmt.expr->u.crement.operand
				    : n->u.expr_stmt.expr->u.binary.lhs,
				 s->counted);
		if (delta)
			ast_walk(delta, cnt_node, NULL, s);
		return false;
	case N_ASSIGN:
		if (n->u.binary.op == OP_STAT_ADD &&
		    cnt_index(s, n->u.binary.lhs) >= 0) {
			if (!s->alone)
				cnt_mark(s, n->u.binary.lhs, s->counted);
			ast_walk(n->u.binary.rhs, cnt_node, NULL, s);
			return false;
		}
		if (!s->alone && n->u.binary.op != OP_STAT_ADD)
			cnt_mark(s, n->u.binary.lhs, s->bad);
		return true;
	case N_CREMENT:
		if (!s->alone)
			cnt_mark(s, n->u.crement.operand, s->bad);
		return true;
	case N_DELETE:
		/* an integer's delete stores past the counter; a statistic's
		 * clears every CPU's slot, and an array's the map its deltas
		 * were folded into: fine where they run alone */
		if (!s->alone || n->u.del.target->kind != N_SYMBOL ||
		    !n->u.del.target->u.symbol.sym ||
		    (n->u.del.target->u.symbol.sym->type != TY_STATS &&
		     n->u.del.target->u.symbol.sym->nkeys == 0))
			cnt_mark(s, n->u.del.target, s->bad);
		return true;
	case N_FOREACH:
		cnt_mark(s, n->u.foreach.value, s->bad);
		for (i = 0; i < n->u.foreach.keys.n; i++)
			cnt_mark(s, n->u.foreach.keys.v[i], s->bad);
		return true;
	case N_TRY:
		cnt_mark(s, n->u.try_stmt.catch_var, s->bad);
		return true;
	case N_SYMBOL:
		/* a statistic read beside the adds needs the locks; an
		 * array's deltas are folded only where handlers run alone */
		if (!s->alone && n->u.symbol.sym &&
		    (n->u.symbol.sym->type == TY_STATS ||
		     n->u.symbol.sym->nkeys > 0))
			cnt_mark(s, n, s->bad);
		return true;
	default:
		return true;
	}
}

void
cg_choose_counters(struct cg *g)
{
	struct program *p = g->prog;
	struct cnt_scan s = { .p = p };
	int i;

	s.counted = arena_alloc(g->a, sizeof(bool) * (size_t)(p->nglobals + 1));
	s.bad = arena_alloc(g->a, sizeof(bool) * (size_t)(p->nglobals + 1));
	for (i = 0; i <= p->nglobals; i++)
		s.counted[i] = s.bad[i] = false;
	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];

		s.alone = dp->provider == &provider_begin_end;
		if (dp->body)
			ast_walk(dp->body, cnt_node, NULL, &s);
		if (dp->cond)
			ast_walk(dp->cond, cnt_node, NULL, &s);
	}
	/* a function may be called from any probe */
	s.alone = false;
	s.in_function = true;
	for (i = 0; i < p->nfunctions; i++) {
		struct node *decl = p->functions[i]->decl;

		if (decl && decl->u.function.body)
			ast_walk(decl->u.function.body, cnt_node, NULL, &s);
	}
	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		/* Part of a program (the BPF backend's user half): what the
		 * other part does with a global is not visible here. */
		sym->cpu_adds = !p->whole && s.counted[i] && !s.bad[i] &&
				(sym->nkeys == 0 ?
				 sym->type == TY_LONG || sym->type == TY_STATS :
				 sym->type == TY_LONG && !sym->wrap);
	}
}

const char *
cg_counter_deltas(struct cg *g, struct symbol *sym)
{
	return cg_fmt(g, "%s__cpu", cg_global_name(sym));
}

const char *
cg_counter_read(struct cg *g, struct symbol *sym)
{
	return cg_fmt(g, "TAP_COUNTER_READ(%s, %s)", cg_global_name(sym),
		      cg_counter_deltas(g, sym));
}

/* A scalar global's value as an expression, counter or not. */
const char *
cg_scalar_value(struct cg *g, struct symbol *sym)
{
	if (sym->cpu_adds && sym->type == TY_LONG)
		return cg_counter_read(g, sym);
	return cg_global_name(sym);
}

const char *
cg_counter_store(struct cg *g, struct symbol *sym, const char *val)
{
	return cg_fmt(g, "TAP_COUNTER_STORE(%s, %s, %s)", cg_global_name(sym),
		      cg_counter_deltas(g, sym), val);
}

/* `a[k]++` and the like as a statement, in a probe that may run beside
 * others: into this CPU's deltas.  Keys, then the delta, are evaluated
 * in the order an ordinary array's count evaluates them. */
static bool
cg_array_count_stmt(struct cg *g, struct node *stmt_expr)
{
	struct symbol *sym;
	struct node *idx, *delta;
	bool negate;
	const char *k, *kd, *v, *rc;

	if (!cnt_array_add_parts(stmt_expr, &sym, &idx, &delta, &negate) ||
	    !sym->cpu_adds || g->alone)
		return false;
	kd = cg_keys_decl(g, &idx->u.index.keys, &k, NULL);
	v = cg_fmt(g, "__t%d", g->label_seq++);
	rc = cg_fmt(g, "__rc%d", g->label_seq++);
	cg_line(&g->w, "{ %sint64_t %s = %s; int %s = tap_cmap_add(&%s, %s, "
		"%s%s); %s }", kd, v, delta ? cg_expr(g, delta) : "1", rc,
		cg_counter_deltas(g, sym), k,
		negate ? "(int64_t)0 - (uint64_t)" : "", v,
		cg_raise_rc(g, rc, sym, cg_near(g, idx)));
	return true;
}

void
cg_fold_counted_arrays(struct cg *g, struct symbol *only,
		       const char *exit_label)
{
	struct program *p = g->prog;
	const char *saved = g->err_label;
	int i;

	g->err_label = exit_label;
	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];
		const char *rc, *near;

		if (!sym->cpu_adds || sym->nkeys == 0 || (only && sym != only))
			continue;
		rc = cg_fmt(g, "__rc%d", g->label_seq++);
		near = cg_where(g, sym->decl->loc,
				cg_fmt(g, "identifier '%s'", sym->name));
		cg_line(&g->w, "{ int %s = tap_cmap_fold(&%s); %s }", rc,
			cg_counter_deltas(g, sym), cg_raise_rc(g, rc, sym, near));
	}
	g->err_label = saved;
}

/* `n++` and the like as a statement: true when it was generated here. */
bool
cg_counter_stmt(struct cg *g, struct node *stmt_expr)
{
	struct symbol *sym;
	struct node *delta;
	bool negate;
	const char *v;

	if (cg_array_count_stmt(g, stmt_expr))
		return true;
	if (!cg_counter_add_parts(stmt_expr, &sym, &delta, &negate) ||
	    !sym->cpu_adds || sym->type != TY_LONG)
		return false;
	if (!delta) {
		cg_line(&g->w, "TAP_COUNTER_ADD(%s, %s);",
			cg_counter_deltas(g, sym), negate ? "-1" : "1");
		return true;
	}
	v = cg_fmt(g, "__t%d", g->label_seq++);
	cg_line(&g->w, "{ int64_t %s = %s; TAP_COUNTER_ADD(%s, %s%s); }", v,
		cg_expr(g, delta), cg_counter_deltas(g, sym),
		negate ? "-(uint64_t)" : "", v);
	return true;
}
