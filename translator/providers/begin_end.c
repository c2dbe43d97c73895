/*
 * begin_end.c -- the begin, end, error and never probes.
 *
 * begin runs when the script starts, end when it stops, error when a
 * probe hits a script error; an optional number orders probes of one kind
 * (begin(-1) before begin). never is never registered: it checks that a
 * body elaborates. They offer no context variables.
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

static const struct {
	const char *name;
	enum pdata_kind kind;
} kinds[] = {
	{ "begin", PD_BEGIN }, { "end", PD_END }, { "error", PD_ERROR },
	{ "never", PD_NEVER },
};

static int
kind_index(const struct node *point)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (pp_is(point, 0, kinds[i].name))
			return (int)i;
	return -1;
}

static bool
begin_end_claims(const struct node *point)
{
	return point->u.point.ncomps == 1 && kind_index(point) >= 0;
}

static int
begin_end_match(struct elab *e, struct node *point)
{
	int k = kind_index(point);
	struct pdata_begin_end *pd = arena_alloc(e->s->arena, sizeof(*pd));
	const struct node *arg = pp_arg(point, 0);

	pd->kind = kinds[k].kind;
	if (arg && (arg->kind != N_NUMBER || pd->kind == PD_NEVER)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "%s takes %s", kinds[k].name,
			   pd->kind == PD_NEVER ? "no argument" :
			   "an optional sequence number");
		return -1;
	}
	if (arg)
		pd->sequence = (int64_t)arg->u.number.value;
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

static struct context_var *
begin_end_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	(void)e; (void)dp; (void)name;
	return NULL;
}

static int
begin_end_list(struct elab *e, struct derived_probe *dp,
	       struct context_var ***out)
{
	(void)e; (void)dp;
	*out = NULL;
	return 0;
}

const struct provider provider_begin_end = {
	.name = "begin/end",
	.claims = begin_end_claims,
	.match = begin_end_match,
	.context = begin_end_context,
	.list_context = begin_end_list,
};
