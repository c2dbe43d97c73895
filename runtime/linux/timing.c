/*
 * timing.c -- `tapc -t` on the kernel: the per-CPU accumulators' life,
 * skips counted per probe, and the report printed once, after the end and
 * error probes, in the script's output (stdout or -o's file: where stap's
 * _stp_printf puts it).  Format: runtime/core/timing.c.
 */
#include <linux/percpu.h>
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
tap_timing_exit(void)
{
	free_percpu(tap_timing_accs);
	tap_timing_accs = NULL;
}

void
tap_timing_skip(const struct tap_probe *p)
{
	if (!tap_timing_accs || !p || p->timing_index < 0 ||
	    (size_t)p->timing_index >= tap_module.n_timing)
		return;
	this_cpu_inc((tap_timing_accs + p->timing_index)->skipped);
}

/* Probe `index`'s figures, all CPUs together. */
static void
tap_timing_sum(size_t index, struct tap_timing_acc *t)
{
	int cpu;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu)
		tap_timing_acc_merge(t, per_cpu_ptr(tap_timing_accs, cpu) +
				     index);
}

void
tap_timing_report(void)
{
	static const struct tap_probe report = {
		.point = "-t report", .location = "", .timing_index = -1,
	};
	struct tap_context *c;

	if (!tap_timing_accs)
		return;
	c = tap_context_enter(&report, atomic_read(&tap_session_state));
	if (!c)
		return;
	tap_timing_print(c, tap_timing_sum);
	tap_context_exit(c);
}
