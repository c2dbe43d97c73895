/*
 * perf.c -- perf.type(T).config(C)[.sample(N)]: a perf event sampling on
 * every online CPU, the probe running at every N-th event (N 1000000
 * unless given), with the registers of the interrupted code.  T and C are
 * perf_event_attr's type and config (PERF_TYPE_HARDWARE 0 with
 * PERF_COUNT_HW_CPU_CYCLES 0, ...); tapsets/linux/perf.stp names them
 * (perf.hw.cpu_cycles, perf.sw.task_clock ...).  No context variables.
 *
 * SystemTap's per-process forms, .process[("PATH")] and .counter("NAME")
 * read back with @perf("NAME"), are refused as not supported yet: they
 * need counters that follow a program's tasks.
 *
 * What the emitted C may assume (kernel module only; runtime/linux/
 * probes_perf.c): a row of __tap_perfs per probe.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

extern const struct provider provider_perf;

#define PERF_DEFAULT_SAMPLE 1000000

struct pdata_perf {
	int64_t type, config, sample;
};

static bool
perf_claims(const struct node *point)
{
	return pp_is(point, 0, "perf") && pp_is(point, 1, "type");
}

static int
perf_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, point->loc, "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

static int
perf_match(struct elab *e, struct node *point)
{
	struct pdata_perf *pd = arena_alloc(e->s->arena, sizeof(*pd));
	int n = point->u.point.ncomps, i = 3;

	if (!pp_arg_number(point, 1, &pd->type) || pd->type < 0 ||
	    pd->type > 0xffffffffLL || !pp_is(point, 2, "config") ||
	    !pp_arg_number(point, 2, &pd->config))
		return perf_error(e, point, "expected perf.type(NUMBER).config(NUMBER)");
	pd->sample = PERF_DEFAULT_SAMPLE;
	if (i < n && pp_is(point, i, "sample")) {
		if (!pp_arg_number(point, i, &pd->sample) || pd->sample <= 0)
			return perf_error(e, point, "expected .sample(N) with N > 0 events");
		i++;
	}
	if (i < n && (pp_is(point, i, "process") || pp_is(point, i, "counter"))) {
		diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
			   "probe point '%s' is not supported yet (perf counters of one program, .process and .counter with @perf; perf.type(T).config(C)[.sample(N)] samples the whole machine)",
			   pp_to_string(e->s->arena, point));
		return -1;
	}
	if (i != n)
		return perf_error(e, point, "expected nothing after .config(C) but .sample(N)");
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

/* ---- code generation ---- */

static int nperfs;		/* rows of __tap_perfs */

static void
perf_tables(struct cg *g, enum backend b)
{
	struct program *p = g->prog;

	nperfs = 0;
	if (b != BACKEND_KMOD)
		return;
	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_perf *pd = dp->pdata;

		if (dp->provider != &provider_perf)
			continue;
		cg_table_row(g, "__tap_perfs", dp->index,
			     cg_fmt(g, "{ .probe = %s, .type = %lluU, .config = 0x%llxULL, .sample = %lluULL },",
				    cg_probe_record(g, dp),
				    (unsigned long long)pd->type,
				    (unsigned long long)pd->config,
				    (unsigned long long)pd->sample));
	}
	cg_blank(&g->w);
	nperfs = cg_table_write(g, "__tap_perfs", "struct tap_perf_probe");
}

static void
perf_desc(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "perfs", "__tap_perfs", nperfs);
}

static const char *const perf_shapes[] = {
	"perf.type(NUMBER).config(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).sample(NUMBER)", NULL,
};

const struct provider provider_perf = {
	.name = "perf",
	.claims = perf_claims,
	.match = perf_match,
	/* the whole machine's events, every task's registers */
	.privilege = PRIV_STAPSYS,
	.shapes = perf_shapes,
	.kernel_only = true,
	.emit_tables = perf_tables,
	.emit_desc = perf_desc,
};
