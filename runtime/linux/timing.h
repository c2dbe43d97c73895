/*
 * timing.h -- `tapc -t` on the kernel: get_cycles() and per-CPU
 * accumulators (the figures and the report are runtime/core/timing.h's).
 *
 * Only a module translated with -t uses this: its handlers call
 * tap_timing_start() at entry and tap_timing_record() at their `out`
 * label.  Without -t no handler touches it and the runtime allocates
 * nothing.  The accumulators need no lock and no atomic: a handler runs
 * with preemption off and the context's reentrancy guard keeps an
 * interrupt's handler off the same CPU meanwhile, so one writer per CPU.
 */
#ifndef TAP_LINUX_TIMING_H
#define TAP_LINUX_TIMING_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/timex.h>	/* get_cycles() */
#include "../core/timing.h"

/* n_timing accumulators per CPU; NULL without -t or before init. */
extern struct tap_timing_acc __percpu *tap_timing_accs;

int tap_timing_init(void);
void tap_timing_exit(void);
/* After the end probes, process context: print the report. */
void tap_timing_report(void);

static inline uint64_t
tap_timing_start(void)
{
	return get_cycles();
}

static inline void
tap_timing_record(int index, uint64_t start, bool error)
{
	if (likely(tap_timing_accs))
		tap_timing_acc_add(this_cpu_ptr(tap_timing_accs) + index,
				   get_cycles() - start, error);
}

#endif /* TAP_LINUX_TIMING_H */
