/*
 * timing.h -- `tapc -t`, the part both platforms share: what the report
 * names each probe by, one probe's figures, how a handler's cycles are
 * added to them, and the report's text (timing.c).
 *
 * The platforms own the clock and the storage: runtime/linux/timing.h
 * (get_cycles(), per-CPU accumulators) and runtime/user/timing.c (the
 * time-stamp counter, one thread).  Only a program translated with -t
 * uses any of it: its handlers call tap_timing_start() at entry and
 * tap_timing_record() at their end, and tap_module.timing names its
 * probes by index.
 */
#ifndef TAP_CORE_TIMING_H
#define TAP_CORE_TIMING_H

#include "platform.h"

struct tap_context;

/* What the report names a probe by; generated, one per probe index. */
struct tap_timing_probe {
	const char *point;	/* the probe point, as derived */
	const char *location;	/* script file:line:col */
	const char *derivation;	/* " from: ALIAS", as stap's line has it */
};

#define TAP_TIMING_SUMSQ_OVERFLOW	((uint64_t)-1)

/* One probe's figures (on one CPU, or all together). */
struct tap_timing_acc {
	uint64_t hits;
	uint64_t sum;		/* cycles */
	uint64_t sumsq;		/* for the variance; saturates */
	uint64_t min, max;
	uint64_t errors;	/* handlers that ended in a script error */
	uint64_t skipped;	/* hits not handled (reentrancy, a lock not
				 * taken); the kernel adds to it with
				 * this_cpu_inc() only, so that an interrupt's
				 * skip cannot tear a handler's update of the
				 * fields above */
};

/* One handler's `cycles`, and whether it ended in an error. */
static inline void
tap_timing_acc_add(struct tap_timing_acc *a, uint64_t cycles, bool error)
{
	uint64_t sq;

	if (!a->hits || cycles < a->min)
		a->min = cycles;
	if (cycles > a->max)
		a->max = cycles;
	a->hits++;
	a->sum += cycles;
	if (__builtin_mul_overflow(cycles, cycles, &sq) ||
	    __builtin_add_overflow(a->sumsq, sq, &a->sumsq))
		a->sumsq = TAP_TIMING_SUMSQ_OVERFLOW;	/* and stays */
	if (error)
		a->errors++;
}

/* `part` (one CPU's) added to `total`. */
void tap_timing_acc_merge(struct tap_timing_acc *total,
			  const struct tap_timing_acc *part);

/*
 * The report, into c's output: SystemTap's "probe hit report", then, when
 * a probe had errors or skips, tapc's "probe error report".  `sum` gives
 * probe i's figures, all CPUs together.  Format: tapc(1), -t.
 */
void tap_timing_print(struct tap_context *c,
		      void (*sum)(size_t index, struct tap_timing_acc *t));

#endif /* TAP_CORE_TIMING_H */
