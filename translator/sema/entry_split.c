/*
 * entry_split.c -- @entry(x) in .return probes of families that have no
 * entry half of their own (kernel.syscall("NAME").return: the sys_exit
 * tracepoint knows nothing of the sys_enter that came before).
 *
 * Such a family says which of its probes need one (needs_entry_half) and
 * adds it (add_entry_half): a probe on the entry of the same event.  Each @entry(x) of the return probe then becomes a
 * global array keyed by tid(): the entry half stores x there, the return
 * probe takes it out (and deletes it, so the array only holds the tasks
 * inside the call) into a local before its body runs, and reads that
 * local where @entry(x) was.  A task is in one such call at a time, so
 * tid() is key enough.  Runs before names are resolved, on the derived
 * probes' own copies of their bodies.
 *
 * Not done: @entry in a probe's condition (if (...) after the point), and
 * @entry of a script variable (the entry half has no such variable): both
 * stay @entry and get resolve.c's E_ENTRY_CONTEXT.
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

#define A(e) ((e)->s->arena)

/* The outermost @entry(...)s of one body, and whether any names a
 * script variable. */
struct entry_uses {
	struct arena *a;
	struct node **v;
	int n, cap;
};

static bool
collect_entry(struct node *n, void *ctx)
{
	struct entry_uses *u = ctx;

	if (n->kind != N_ENTRY)
		return true;
	u->v = arena_grow(u->a, u->v, sizeof(*u->v), &u->cap, u->n + 1);
	u->v[u->n++] = n;
	return false;
}

static bool
find_symbol(struct node *n, void *ctx)
{
	bool *found = ctx;

	if (n->kind == N_SYMBOL)
		*found = true;
	return !*found;
}

/* An @entry inside @entry: also a value at entry, so just its operand. */
static bool
strip_entry(struct node *n, void *ctx)
{
	(void)ctx;
	while (n->kind == N_ENTRY)
		*n = *n->u.atop.args.v[0];
	return true;
}

static struct node *
symbol(struct elab *e, const char *name, struct loc at)
{
	struct node *n = ast_new(A(e), N_SYMBOL, at);

	n->u.symbol.name = name;
	return n;
}

/* G[tid()] */
static struct node *
slot_of(struct elab *e, const char *global, struct loc at)
{
	struct node *n = ast_new(A(e), N_INDEX, at);
	struct node *tid = ast_new(A(e), N_CALL, at);

	tid->u.call.name = "tid";
	n->u.index.base = symbol(e, global, at);
	ast_list_push(A(e), &n->u.index.keys, tid);
	return n;
}

static struct node *
statement(struct elab *e, struct node *expr)
{
	struct node *s = ast_new(A(e), N_EXPR_STMT, expr->loc);

	s->u.expr_stmt.expr = expr;
	return s;
}

static struct node *
assign(struct elab *e, struct node *lhs, struct node *rhs)
{
	struct node *n = ast_new(A(e), N_ASSIGN, lhs->loc);

	n->u.binary.op = OP_ASSIGN;
	n->u.binary.lhs = lhs;
	n->u.binary.rhs = rhs;
	return n;
}

static void
declare_global(struct elab *e, const char *name, struct loc at)
{
	struct node *g = ast_new(A(e), N_GLOBAL, at);

	g->u.global.name = name;
	elab_declare_global(e, g);
}

/* The global of each @entry as written: the probes one wildcard or alias
 * makes (syscall.*.return) share it, since a thread is in one call at a
 * time. */
struct saved_values {
	struct arena *a;
	struct saved { const struct node *origin; struct loc at; } *v;
	int n, cap;
};

static int
saved_index(struct saved_values *sv, const struct node *origin,
	    struct loc at, bool *is_new)
{
	for (int i = 0; i < sv->n; i++)
		if (sv->v[i].origin == origin && sv->v[i].at.src == at.src &&
		    sv->v[i].at.line == at.line && sv->v[i].at.col == at.col) {
			*is_new = false;
			return i;
		}
	sv->v = arena_grow(sv->a, sv->v, sizeof(*sv->v), &sv->cap, sv->n + 1);
	sv->v[sv->n] = (struct saved){ origin, at };
	*is_new = true;
	return sv->n++;
}

/* Whether one of the first `i` uses (already replaced by their locals)
 * has value number k. */
static bool
taken_before(struct node **uses, int i, int k, struct saved_values *sv)
{
	const char *local = arena_printf(sv->a, "__entry_value_%d", k);

	for (int j = 0; j < i; j++)
		if (uses[j]->kind == N_SYMBOL &&
		    strcmp(uses[j]->u.symbol.name, local) == 0)
			return true;
	return false;
}

/* Split one return probe: returns its entry half's body, or NULL when it
 * has no @entry this file can take. */
static struct node *
split_probe(struct elab *e, struct derived_probe *dp, struct saved_values *sv)
{
	struct entry_uses u = { .a = A(e) };
	struct node *entry_body, *prologue;

	ast_walk(dp->body, collect_entry, NULL, &u);
	if (u.n == 0)
		return NULL;
	entry_body = ast_new(A(e), N_BLOCK, dp->body->loc);
	prologue = ast_new(A(e), N_BLOCK, dp->body->loc);
	for (int i = 0; i < u.n; i++) {
		struct node *use = u.v[i];
		struct node *x = use->u.atop.args.v[0];
		struct loc at = use->loc;
		bool names_variable = false;

		ast_walk(x, find_symbol, NULL, &names_variable);
		if (names_variable)
			continue;	/* resolve.c reports it */
		bool is_new;
		int k = saved_index(sv, dp->origin, at, &is_new);
		const char *global = arena_printf(A(e), "__entry_saved_%d", k);
		const char *local = arena_printf(A(e), "__entry_value_%d", k);

		if (is_new)
			declare_global(e, global, at);
		*use = *symbol(e, local, at);
		if (taken_before(u.v, i, k, sv))
			continue;	/* the same @entry twice (a macro's) */
		x = ast_clone(A(e), x);
		ast_walk(x, strip_entry, NULL, NULL);
		ast_list_push(A(e), &entry_body->u.block.stmts,
			      statement(e, assign(e, slot_of(e, global, at), x)));
		ast_list_push(A(e), &prologue->u.block.stmts,
			      statement(e, assign(e, symbol(e, local, at),
						  slot_of(e, global, at))));
		struct node *del = ast_new(A(e), N_DELETE, at);
		del->u.del.target = slot_of(e, global, at);
		ast_list_push(A(e), &prologue->u.block.stmts, del);
	}
	if (entry_body->u.block.stmts.n == 0)
		return NULL;
	/* The values are taken before the body (and any alias prologue in
	 * it) runs, so a `next` in it leaves nothing behind. */
	ast_list_push(A(e), &prologue->u.block.stmts, dp->body);
	dp->body = prologue;
	return entry_body;
}

void
entry_split_program(struct elab *e)
{
	int nprobes = e->prog->nprobes;
	struct saved_values sv = { .a = A(e) };

	for (int i = 0; i < nprobes; i++) {
		struct derived_probe *dp = e->prog->probes[i];
		const struct provider *p = dp->provider;
		if (!p || !p->needs_entry_half || !p->needs_entry_half(dp))
			continue;
		struct node *body = split_probe(e, dp, &sv);
		if (!body)
			continue;
		e->cur_origin = dp->origin;
		e->cur_written = dp->written;
		e->cur_alias = dp->alias_name;
		e->cur_body = body;
		e->cur_cond = NULL;
		p->add_entry_half(e, dp);
	}
}
