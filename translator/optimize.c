/*
 * optimize.c -- the optimisations of pass 2 (skipped with -u): globals the
 * script never uses are dropped with a warning, as SystemTap does, and
 * arithmetic on constants is folded. Folding keeps SystemTap's semantics:
 * 64-bit wrapping, and a division by zero is left for run time to report.
 */
#include "translator/elab.h"

static bool
fold_binary(struct node *n)
{
	struct node *l = n->u.binary.lhs, *r = n->u.binary.rhs;
	uint64_t a, b, v;

	if (l->kind != N_NUMBER || r->kind != N_NUMBER)
		return false;
	a = l->u.number.value;
	b = r->u.number.value;
	switch (n->u.binary.op) {
	case OP_ADD: v = a + b; break;
	case OP_SUB: v = a - b; break;
	case OP_MUL: v = a * b; break;
	case OP_BAND: v = a & b; break;
	case OP_BOR: v = a | b; break;
	case OP_BXOR: v = a ^ b; break;
	default: return false;
	}
	n->kind = N_NUMBER;
	n->u.number.value = v;
	n->u.number.text = NULL;
	n->type = TY_LONG;
	return true;
}

static bool
fold_post(struct node *n, void *ctx)
{
	struct elab *e = ctx;

	if (n->kind == N_BINARY && fold_binary(n))
		n->u.number.text = arena_printf(e->s->arena, "%lld",
						(long long)n->u.number.value);
	return true;
}

static void
drop_unused_globals(struct elab *e)
{
	struct program *p = e->prog;
	int kept = 0;

	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *g = p->globals[i];
		if (!g->read && !g->written && !g->cmdline_value) {
			diag_warning(&e->s->diag, g->decl->loc, "W_UNUSED_VAR",
				     "eliding unused global '%s'", g->name);
			continue;
		}
		g->index = kept;
		p->globals[kept++] = g;
	}
	p->nglobals = kept;
}

void
optimize_program(struct elab *e)
{
	struct program *p = e->prog;

	drop_unused_globals(e);
	for (int i = 0; i < p->nprobes; i++)
		ast_walk(p->probes[i]->body, NULL, fold_post, e);
	for (int i = 0; i < p->nfunctions; i++)
		ast_walk(p->functions[i]->decl->u.function.body, NULL,
			 fold_post, e);
}
