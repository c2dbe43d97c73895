/*
 * perf.c -- perf.type(T).config(C)[.sample(N)]: a perf event sampling on
 * every online CPU, the probe running at every N-th event (N 1000000
 * unless given), with the registers of the interrupted code.  T and C are
 * perf_event_attr's type and config (PERF_TYPE_HARDWARE 0 with
 * PERF_COUNT_HW_CPU_CYCLES 0, ...); tapsets/linux/perf.stp names them
 * (perf.hw.cpu_cycles, perf.sw.task_clock ...).  No context variables.
 *
 * perf.type(T).config(C)[.process("PATH")].counter("NAME") is no probe
 * but a counter: a counting event per thread, opened by a process probe
 * that reads it with @perf("NAME") (resolve.c checks the reads) at the
 * thread's first hit of such a probe, so @perf is the thread's count of
 * events since then.  With .process("PATH") only probes of PATH may read
 * it.  A body on a counter never runs (warned), nor does a .sample(N)
 * before .counter change anything (a counter counts every event).
 * .process("PATH") alone samples PATH's threads: the machine-wide
 * events above, the probe run only for the samples that land while a
 * thread of PATH runs (about one per N of PATH's events, as with events
 * of its own, which would need opening for every thread as it starts).
 * .process without a path is the -c command's program, as for process
 * probes (SystemTap: the -c/-x target process itself; -x is not taken).
 *
 * What the emitted C may assume (kernel module only; runtime/linux/
 * probes_perf.c): a row of __tap_perfs per probe, a row of
 * __tap_perf_counters per counter, in program.counters' order.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/process.h"
#include "translator/providers/provider.h"
#include "translator/debuginfo/elf_syms.h"

extern const struct provider provider_perf;

#define PERF_DEFAULT_SAMPLE 1000000

struct pdata_perf {
	int64_t type, config, sample;
	const char *path;	/* .process("PATH"): samples in its threads */
};

static bool
perf_claims(const struct node *point)
{
	return pp_is(point, 0, "perf") && pp_is(point, 1, "type");
}

/* Where to report about point: as the user wrote it, not the alias. */
static struct loc
perf_loc(const struct elab *e, const struct node *point)
{
	return e->cur_point ? e->cur_point->loc : point->loc;
}

static int
perf_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, perf_loc(e, point), "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

/* The canonical path of .process("PATH"), component i, or of .process
 * alone: -c CMD's program; NULL after an error. */
static const char *
perf_program(struct elab *e, struct node *point, int i)
{
	const char *path, *canon;

	if (!pp_arg(point, i))	/* -c CMD's, as process probes take it */
		return process_command_program(e, e->cur_point ? e->cur_point :
					       point);
	if (!(path = pp_arg_string(point, i))) {
		perf_error(e, point, "expected .process(\"PATH\")");
		return NULL;
	}
	if (!(canon = elf_resolve_program(e->s->arena, path)))
		diag_error(&e->s->diag, perf_loc(e, point), "E_PROCESS_PATH",
			   "%s: no program '%s' (not a file, nor found in PATH)",
			   pp_to_string(e->s->arena, point), path);
	return canon;
}

/* The rest of the point from component i: [.process("PATH")].counter("NAME"). */
static int
perf_counter_match(struct elab *e, struct node *point,
		   const struct pdata_perf *pd, int i)
{
	struct program *p = e->prog;
	struct perf_counter *pc = arena_alloc(e->s->arena, sizeof(*pc));
	int n = point->u.point.ncomps;
	const char *path = NULL, *name;

	if (pp_is(point, i, "process")) {
		if (!(path = perf_program(e, point, i)))
			return -1;
		i++;
	}
	if (i >= n || !pp_is(point, i, "counter"))
		return perf_error(e, point, "expected .counter(\"NAME\") after .process(\"PATH\"), or nothing");
	if (!(name = pp_arg_string(point, i)) || !*name)
		return perf_error(e, point, "expected .counter(\"NAME\") with a name");
	if (i + 1 != n)
		return perf_error(e, point, "expected nothing after .counter(\"NAME\")");
	if (program_counter(p, name)) {
		diag_error(&e->s->diag, perf_loc(e, point), "E_PROBE_ARG",
			   "%s: a perf counter named '%s' exists already",
			   pp_to_string(e->s->arena, point), name);
		return -1;
	}
	if (!opt_is_empty(e->cur_body))
		diag_warning(&e->s->diag, perf_loc(e, point), "W_NO_EFFECT",
			     "the body of perf counter '%s' never runs: @perf(\"%s\") in a process probe reads the counter",
			     name, name);
	pc->name = name;
	pc->point = pp_to_string(e->s->arena, point);
	pc->path = path;
	pc->type = pd->type;
	pc->config = pd->config;
	pc->loc = perf_loc(e, point);
	pc->index = p->ncounters;
	p->counters = arena_grow(e->s->arena, p->counters, sizeof(*p->counters),
				 &p->counters_cap, p->ncounters + 1);
	p->counters[p->ncounters++] = pc;
	return 1;
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
	if (i < n && pp_is(point, i, "process") && i + 1 == n) {
		if (!(pd->path = perf_program(e, point, i)))
			return -1;
		i++;
	}
	if (i < n && (pp_is(point, i, "process") || pp_is(point, i, "counter")))
		return perf_counter_match(e, point, pd, i);
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
			     cg_fmt(g, "{ .probe = %s, .type = %lluU, .config = 0x%llxULL, .sample = %lluULL, .path = %s },",
				    cg_probe_record(g, dp),
				    (unsigned long long)pd->type,
				    (unsigned long long)pd->config,
				    (unsigned long long)pd->sample,
				    pd->path ? cg_c_string(g, pd->path, strlen(pd->path)) : "NULL"));
	}
	cg_blank(&g->w);
	nperfs = cg_table_write(g, "__tap_perfs", "struct tap_perf_probe");
	if (!p->ncounters)
		return;
	cg_open(&g->w, "static struct tap_perf_counter __tap_perf_counters[] =");
	for (int i = 0; i < p->ncounters; i++) {
		const struct perf_counter *pc = p->counters[i];
		cg_line(&g->w, "{ .name = %s, .point = %s, .type = %lluU, .config = 0x%llxULL },",
			cg_c_string(g, pc->name, strlen(pc->name)),
			cg_c_string(g, pc->point, strlen(pc->point)),
			(unsigned long long)pc->type,
			(unsigned long long)pc->config);
	}
	cg_close(&g->w, ";");
}

static void
perf_desc(struct cg *g, enum backend b)
{
	if (b != BACKEND_KMOD)
		return;
	cg_desc_array(g, "perfs", "__tap_perfs", nperfs);
	cg_desc_array(g, "perf_counters", "__tap_perf_counters",
		      g->prog->ncounters);
}

static const char *const perf_shapes[] = {
	"perf.type(NUMBER).config(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).sample(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).process(STRING)",
	"perf.type(NUMBER).config(NUMBER).sample(NUMBER).process(STRING)",
	"perf.type(NUMBER).config(NUMBER).counter(STRING)",
	"perf.type(NUMBER).config(NUMBER).process(STRING).counter(STRING)", NULL,
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
