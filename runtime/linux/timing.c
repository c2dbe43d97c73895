/*
 * timing.c -- `tapc -t`: the per-CPU accumulators' life and the report
 * (see timing.h).
 *
 * The report is SystemTap's "probe hit report", in the script's output
 * (stdout, or -o's file) as stap prints it, once, after the end and
 * error probes:
 *
 *   ----- probe hit report:
 *   POINT, (FILE:LINE:COL), hits: N, cycles: MINmin/AVGavg/MAXmax,
 *     variance: V, from: ALIAS, index: I           (one line per probe)
 *
 * Probes that never ran have no line (stap's neither).  Then, only when
 * some handler ended in a script error or a hit was skipped (reentrancy,
 * a global's lock not taken), a "----- probe error report:" with a line
 * for each probe that had either:
 *
 *   POINT, (FILE:LINE:COL), errors: E, skipped: S, index: I
 */
#include <linux/percpu.h>
#include <linux/math64.h>
#include "context.h"
#include "output.h"
#include "timing.h"

struct tap_timing_acc __percpu *tap_timing_accs;

int
tap_timing_init(void)
{
	if (!tap_module.timing || !tap_module.n_timing)
		return 0;
	tap_timing_accs = __alloc_percpu(sizeof(struct tap_timing_acc) *
					 tap_module.n_timing,
					 __alignof__(struct tap_timing_acc));
	return tap_timing_accs ? 0 : -ENOMEM;
}

void
tap_timing_skip(const struct tap_probe *p)
{
	if (!tap_timing_accs || !p || p->timing_index < 0 ||
	    (size_t)p->timing_index >= tap_module.n_timing)
		return;
	this_cpu_inc((tap_timing_accs + p->timing_index)->skipped);
}

void
tap_timing_exit(void)
{
	free_percpu(tap_timing_accs);
	tap_timing_accs = NULL;
}

/* Probe `index`'s figures, all CPUs together. */
static void
tap_timing_sum(size_t index, struct tap_timing_acc *t)
{
	int cpu;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		const struct tap_timing_acc *a =
			per_cpu_ptr(tap_timing_accs, cpu) + index;
		t->skipped += a->skipped;
		if (!a->hits)
			continue;
		if (!t->hits || a->min < t->min)
			t->min = a->min;
		if (a->max > t->max)
			t->max = a->max;
		t->hits += a->hits;
		t->sum += a->sum;
		t->errors += a->errors;
		if (a->sumsq == U64_MAX ||
		    check_add_overflow(t->sumsq, a->sumsq, &t->sumsq))
			t->sumsq = U64_MAX;
	}
}

/* The sample variance, -1 when the squares did not fit in 64 bits. */
static s64
tap_timing_variance(const struct tap_timing_acc *t, u64 avg)
{
	u64 spread;

	if (t->sumsq == U64_MAX)
		return -1;
	if (t->hits < 2)
		return 0;
	spread = t->sumsq - min_t(u64, t->sumsq, avg * t->sum);
	return div64_u64(spread, t->hits - 1);
}

void
tap_timing_report(void)
{
	static const struct tap_probe report = {
		.point = "-t report", .location = "", .handler = NULL,
		.timing_index = -1,
	};
	struct tap_context *c;
	struct tap_timing_acc t;
	u64 errors = 0, skipped = 0;
	size_t i;

	if (!tap_timing_accs)
		return;
	c = tap_context_enter(&report, atomic_read(&tap_session_state));
	if (!c)
		return;
	tap_printf(c, "----- probe hit report: \n");
	for (i = 0; i < tap_module.n_timing; i++) {
		const struct tap_timing_probe *p = &tap_module.timing[i];
		u64 avg;

		tap_timing_sum(i, &t);
		errors += t.errors;
		skipped += t.skipped;
		if (!t.hits)
			continue;
		avg = div64_u64(t.sum, t.hits);
		tap_printf(c, "%s, (%s), hits: %llu, cycles: %llumin/%lluavg/%llumax, variance: %lld,%s, index: %zu\n",
			   p->point, p->location, t.hits, t.min, avg, t.max,
			   tap_timing_variance(&t, avg), p->derivation, i);
	}
	if (errors || skipped) {
		tap_printf(c, "----- probe error report:\n");
		for (i = 0; i < tap_module.n_timing; i++) {
			tap_timing_sum(i, &t);
			if (t.errors || t.skipped)
				tap_printf(c, "%s, (%s), errors: %llu, skipped: %llu, index: %zu\n",
					   tap_module.timing[i].point,
					   tap_module.timing[i].location,
					   t.errors, t.skipped, i);
		}
	}
	tap_context_exit(c);
}
