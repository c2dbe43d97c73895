/*
 * timing.h -- `tapc -t`: per-probe hit counts and handler cycles.
 *
 * Only a module translated with -t uses this: its handlers call
 * tap_timing_start() at entry and tap_timing_record() at their `out`
 * label, and its descriptor points tap_module.timing at one
 * struct tap_timing_probe per probe (by index).  Without -t no handler
 * touches it and the runtime allocates nothing.
 *
 * The accumulators are per CPU (no lock, no atomic): a handler runs with
 * preemption off and the context's reentrancy guard keeps an interrupt's
 * handler from running on the same CPU meanwhile, so only one writer ever
 * touches a CPU's slot.  timing.c sums them after the end probes and
 * prints SystemTap's "probe hit report".
 */
#ifndef TAP_LINUX_TIMING_H
#define TAP_LINUX_TIMING_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/timex.h>	/* get_cycles() */
#include <linux/overflow.h>

/* What the report names a probe by; generated, one per probe index. */
struct tap_timing_probe {
	const char *point;	/* the probe point, as derived */
	const char *location;	/* script file:line:col */
	const char *derivation;	/* " from: ALIAS", as stap's line has it */
};

/* One CPU's figures for one probe. */
struct tap_timing_acc {
	u64 hits;
	u64 sum;		/* cycles */
	u64 sumsq;		/* for the variance; saturates */
	u64 min, max;
	u64 errors;		/* handlers that ended in a script error */
	u64 skipped;		/* hits not handled (reentrancy, a lock not
				 * taken): this_cpu_inc() only, so that an
				 * interrupt's skip cannot tear a handler's
				 * update of the fields above */
};

/* nprobes accumulators per CPU; NULL without -t or before init. */
extern struct tap_timing_acc __percpu *tap_timing_accs;

int tap_timing_init(void);
void tap_timing_exit(void);
/* After the end probes, process context: print the report. */
void tap_timing_report(void);

static inline cycles_t
tap_timing_start(void)
{
	return get_cycles();
}

static inline void
tap_timing_record(int index, cycles_t start, bool error)
{
	u64 d = get_cycles() - start, sq;
	struct tap_timing_acc *a;

	if (unlikely(!tap_timing_accs))
		return;
	a = this_cpu_ptr(tap_timing_accs) + index;
	if (!a->hits || d < a->min)
		a->min = d;
	if (d > a->max)
		a->max = d;
	a->hits++;
	a->sum += d;
	if (check_mul_overflow(d, d, &sq) ||
	    check_add_overflow(a->sumsq, sq, &a->sumsq))
		a->sumsq = U64_MAX;	/* stays: the variance is unknown */
	if (error)
		a->errors++;
}

#endif /* TAP_LINUX_TIMING_H */
