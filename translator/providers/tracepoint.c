/*
 * tracepoint.c -- kernel.trace("NAME"): static tracepoints, found in the
 * target kernel's BTF (btf_trace_* types), with subsystem names from the
 * headers or tracefs. NAME may be "sched_switch", "sched:sched_switch" or
 * a glob of either ("sched:*", "*"). The tracepoint's arguments become
 * context variables ($prev, $next, ...) of type long (pointers are
 * addresses, read through kernel_string() and friends), typed by BTF so
 * that $next->pid, $prev$ and $$parms work (tvar_btf.c): the callback
 * copies each argument to its slot of c->probe_data (TA_BASE_SLOT).
 */
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/tracepoints.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"
#include "translator/sema/tvar_btf.h"

static bool
tracepoint_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "trace");
}

struct match_ctx {
	struct elab *e;
	struct node *point;
	const struct btf *btf;
	int count;
};

/* How to read argument i: slot i, as BTF types it. */
static void
type_arg(struct elab *e, const struct btf *btf, const struct tp_arg *a,
	 int i, struct context_var *cv)
{
	cv->access = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_SLOT,
							    .index = i });
	cv->access->type_name = cv->c_type;
	if (!btf || !a->type || a->is_aggregate)
		return;
	tbtf_set_scalar_result(btf, a->type, cv->access);
	cv->btf = btf;
	cv->btf_type = a->type;
}

static struct pdata_tracepoint *
make_pdata(struct elab *e, const struct btf *btf, const struct tracepoint *tp)
{
	struct pdata_tracepoint *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->kind = PD_TRACEPOINT;
	pd->system = tp->system;
	pd->name = tp->name;
	pd->nargs = tp->nargs;
	pd->args = arena_alloc(e->s->arena,
			       sizeof(*pd->args) * (size_t)(tp->nargs + 1));
	for (int i = 0; i < tp->nargs; i++) {
		const struct tp_arg *a = &tp->args[i];
		struct context_var *cv = elab_new_context_var(
			e, a->name, TY_LONG, a->type_text);
		cv->arg_index = i;
		cv->is_pointer = a->is_pointer;
		cv->is_signed = a->is_signed;
		cv->size = (int)a->size;
		type_arg(e, btf, a, i, cv);
		pd->args[i] = cv;
	}
	return pd;
}

static bool
add_one(const struct tracepoint *tp, void *ctx)
{
	struct match_ctx *m = ctx;
	struct elab *e = m->e;
	const char *name = *tp->system ?
		arena_printf(e->s->arena, "kernel.trace(\"%s:%s\")",
			     tp->system, tp->name) :
		arena_printf(e->s->arena, "kernel.trace(\"%s\")", tp->name);

	elab_add_probe(e, m->point, name, make_pdata(e, m->btf, tp));
	m->count++;
	return true;
}

/* "sched:x" finds nothing when the kernel's subsystem names are unknown
 * (no tracefs mounted, no headers): say so rather than leave the user to
 * guess. */
static bool
systems_unknown(const struct tracepoints *tps)
{
	size_t tracefs, headers, unknown;

	tracepoints_system_stats(tps, &tracefs, &headers, &unknown);
	return unknown > 0 && tracefs + headers == 0;
}

static int
tracepoint_match(struct elab *e, struct node *point)
{
	const char *spec = pp_arg_string(point, 1);
	char err[256];

	if (!spec || point->u.point.ncomps != 2) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected kernel.trace(\"NAME\") or kernel.trace(\"SUBSYSTEM:NAME\")");
		return -1;
	}
	struct kernel_target *kt = elab_kernel(e, point->loc);
	if (!kt)
		return -1;
	struct tracepoints *tps = kernel_tracepoints(kt, err, sizeof(err));
	if (!tps) {
		diag_error(&e->s->diag, point->loc, "E_NO_TRACEPOINTS",
			   "cannot list the kernel's tracepoints: %s", err);
		return -1;
	}
	struct match_ctx m = { e, point, kernel_btf(kt, err, sizeof(err)), 0 };
	tracepoints_foreach(tps, spec, add_one, &m);
	if (m.count == 0 && strchr(spec, ':') && !e->listing &&
	    !point->u.point.optional && systems_unknown(tps)) {
		diag_error(&e->s->diag, point->loc, "E_NO_MATCH",
			   "probe point '%s' matches nothing",
			   pp_to_string(e->s->arena, point));
		diag_hint(&e->s->diag,
			  "this kernel's tracepoint subsystems are unknown (no tracefs, no headers): name the tracepoint without 'SUBSYSTEM:' or use -r KREL");
		return -1;
	}
	return m.count;
}

static struct context_var *
tracepoint_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_tracepoint *pd = dp->pdata;

	(void)e;	/* $$parms and $$vars: resolve_target.c */
	for (int i = 0; i < pd->nargs; i++)
		if (strcmp(pd->args[i]->name, name) == 0)
			return pd->args[i];
	return NULL;
}

static int
tracepoint_list(struct elab *e, struct derived_probe *dp,
		struct context_var ***out)
{
	struct pdata_tracepoint *pd = dp->pdata;

	(void)e;
	*out = pd->args;
	return pd->nargs;
}

const struct provider provider_tracepoint = {
	.name = "tracepoint",
	.claims = tracepoint_claims,
	.match = tracepoint_match,
	.context = tracepoint_context,
	.list_context = tracepoint_list,
};
