/*
 * codegen_locks.c -- pass 3 for the locks of script globals: which globals
 * a handler touches and how, and where in the handler it takes them.
 *
 * Modes (the platforms' struct tap_lock_use): an ordinary global is taken
 * exclusively; an aggregate that the handler only feeds with `<<<` takes
 * just this CPU's lock of it (TAP_LOCK_CPU: the add touches only this
 * CPU's slot, so concurrent adds on other CPUs never meet on a cache
 * line); an aggregate the handler reads, deletes or iterates takes every
 * CPU's lock (TAP_LOCK_ALL), so that no add runs while it merges.
 *
 * Placement: a handler takes all its locks at once, in the program's
 * global order (the one fixed order every handler uses), but only when
 * it reaches the first statement that touches a global. Statements before
 * it run unlocked, and an `if` whose condition touches no global is
 * entered before locking, so `if ($id == 262) s <<< 1` costs no lock for
 * the other syscalls. A handler that cannot get its locks is skipped: the
 * platform counts it and drops the output it made so far. The locks are
 * released at the handler's end.
 *
 * Order: the table lists globals in program order, so every handler takes
 * them in the same order, and the platform takes an aggregate's CPUs in
 * ascending order (TAP_LOCK_ALL); all attempts are bounded try-locks, so
 * a crossing of two handlers ends in a skip, never a deadlock. How many
 * locks a handler holds at once, and what that costs the kernel (the
 * per-CPU locks do not count on the preempt count or lockdep), is
 * runtime/linux/locks.h's concern.
 * Must not: be consulted outside a handler body (functions are generated
 * with no lock state; their globals count toward their callers').
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"

enum cg_use { USE_NONE, USE_ADD, USE_FULL };

struct cg_touch {
	struct cg *g;
	unsigned char *use;		/* by global index, or NULL: any */
	bool any;			/* some global is touched */
	struct function_sym **seen;	/* functions already walked */
	int nseen, cap;
};

static bool touch_node(struct node *n, void *ctx);

static void
touch_global(struct cg_touch *t, struct symbol *sym, enum cg_use use)
{
	struct program *p = t->g->prog;
	int i;

	if (sym->cpu_adds)
		return;		/* counted and read without a lock */
	t->any = true;
	if (!t->use)
		return;
	for (i = 0; i < p->nglobals; i++)
		if (p->globals[i] == sym && t->use[i] < use)
			t->use[i] = (unsigned char)use;
}

static void
touch_function(struct cg_touch *t, struct function_sym *fn)
{
	int i;

	for (i = 0; i < t->nseen; i++)
		if (t->seen[i] == fn)
			return;
	t->seen = arena_grow(t->g->a, t->seen, sizeof(*t->seen), &t->cap,
			     t->nseen + 1);
	t->seen[t->nseen++] = fn;
	if (fn->decl && fn->decl->u.function.body)
		ast_walk(fn->decl->u.function.body, touch_node, NULL, t);
}

static bool
is_global(struct node *n)
{
	return n && n->kind == N_SYMBOL && n->u.symbol.sym &&
	       n->u.symbol.sym->kind == SYM_GLOBAL;
}

/* `s <<< v` and `a[k] <<< v`: an add into the aggregate, nothing else. */
static bool
touch_stat_add(struct cg_touch *t, struct node *n)
{
	struct node *lhs = n->u.binary.lhs;
	int i;

	if (is_global(lhs)) {
		touch_global(t, lhs->u.symbol.sym, USE_ADD);
	} else if (lhs->kind == N_INDEX && is_global(lhs->u.index.base)) {
		touch_global(t, lhs->u.index.base->u.symbol.sym, USE_ADD);
		for (i = 0; i < lhs->u.index.keys.n; i++)
			if (lhs->u.index.keys.v[i])
				ast_walk(lhs->u.index.keys.v[i], touch_node,
					 NULL, t);
	} else {
		ast_walk(lhs, touch_node, NULL, t);
	}
	ast_walk(n->u.binary.rhs, touch_node, NULL, t);
	return false;
}

static bool
touch_node(struct node *n, void *ctx)
{
	struct cg_touch *t = ctx;

	if (n->kind == N_ASSIGN && n->u.binary.op == OP_STAT_ADD)
		return touch_stat_add(t, n);
	if (is_global(n))
		touch_global(t, n->u.symbol.sym, USE_FULL);
	if (n->kind == N_CALL && n->u.call.fn)
		touch_function(t, n->u.call.fn);
	return true;
}

/* Whether `n` (a statement or expression, with the functions it calls)
 * touches any global. */
static bool
cg_touches(struct cg *g, struct node *n)
{
	struct cg_touch t = { .g = g };

	if (n)
		ast_walk(n, touch_node, NULL, &t);
	return t.any;
}

static const char *
lock_mode(struct symbol *sym, enum cg_use use)
{
	if (sym->type != TY_STATS)	/* scalars and arrays of statistics */
		return "TAP_LOCK_EXCL";
	return use == USE_ADD ? "TAP_LOCK_CPU" : "TAP_LOCK_ALL";
}

void
cg_lock_use_entry(struct cg *g, struct symbol *sym, bool reads)
{
	fprintf(g->decls, "\t{ &%s_lock, %s },\n", cg_global_name(sym),
		lock_mode(sym, reads ? USE_FULL : USE_ADD));
}

int
cg_lock_table(struct cg *g, struct derived_probe *dp, int index)
{
	struct program *p = g->prog;
	struct cg_touch t = { .g = g };
	int i, n = 0;

	t.use = arena_alloc(g->a, (size_t)p->nglobals + 1);
	memset(t.use, 0, (size_t)p->nglobals + 1);
	if (dp->body)
		ast_walk(dp->body, touch_node, NULL, &t);
	if (dp->cond)
		ast_walk(dp->cond, touch_node, NULL, &t);
	for (i = 0; i < p->nglobals; i++) {
		if (t.use[i] == USE_NONE)
			continue;
		if (!n++)
			fprintf(g->decls,
				"static const struct tap_lock_use __tap_locks_%d[] = {\n",
				index);
		cg_lock_use_entry(g, p->globals[i], t.use[i] == USE_FULL);
	}
	if (n)
		fprintf(g->decls, "};\n");
	return n;
}

void
cg_locks_begin(struct cg *g, struct cg_locks *l, int index, int nlocks)
{
	l->index = index;
	l->n = nlocks;
	l->held = false;
	g->locks = nlocks ? l : NULL;
}

void
cg_locks_end(struct cg *g)
{
	g->locks = NULL;
}

/* Take the handler's locks here, unless the code before already did. */
static void
cg_locks_take(struct cg *g)
{
	struct cg_locks *l = g->locks;

	cg_line(&g->w,
		"if (!__locked && !(__locked = tap_locks_acquire(c, __tap_locks_%d, %d)))",
		l->index, l->n);
	cg_line(&g->w, "\tgoto %s;	/* skipped and counted */",
		g->out_label);
	l->held = true;
}

void
cg_locks_before_expr(struct cg *g, struct node *n)
{
	if (g->locks && !g->locks->held && cg_touches(g, n))
		cg_locks_take(g);
}

void
cg_locks_before_stmt(struct cg *g, struct node *n)
{
	if (!g->locks || g->locks->held || !cg_touches(g, n))
		return;
	/* look inside: the statements of a block, the branches of an if
	 * whose condition is free of globals, get their own turn */
	if (n->kind == N_BLOCK)
		return;
	if (n->kind == N_IF && !cg_touches(g, n->u.if_stmt.cond))
		return;
	cg_locks_take(g);
}

bool
cg_locks_held(struct cg *g)
{
	return !g->locks || g->locks->held;
}

void
cg_locks_set_held(struct cg *g, bool held)
{
	if (g->locks)
		g->locks->held = held;
}
