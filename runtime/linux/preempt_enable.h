/*
 * preempt_enable.h -- tap_preempt_enable(): preempt_enable() with its
 * rare reschedule out of line.
 *
 * Why: where the kernel chooses its preemption model at boot
 * (PREEMPT_DYNAMIC, as in Debian's kernels), every inline
 * preempt_enable() is a static call site that the kernel patches when
 * the module loads -- on 6.1 by text_poke_bp(), three rounds of IPIs to
 * every CPU for each site -- and 51 of a one-probe module's 53 sites
 * were these.  The hot path stays the kernel's (a decrement and a test);
 * only the call to reschedule is shared: tap_preempt_schedule(), in
 * context.c.
 * Must not: skip a reschedule the kernel's preempt_enable() would do.
 */
#ifndef TAP_LINUX_PREEMPT_ENABLE_H
#define TAP_LINUX_PREEMPT_ENABLE_H

#include <linux/preempt.h>

#ifdef CONFIG_PREEMPTION
void tap_preempt_schedule(void);

static __always_inline void
tap_preempt_enable(void)
{
	barrier();
	if (unlikely(preempt_count_dec_and_test()))
		tap_preempt_schedule();
}
#else
#define tap_preempt_enable()	preempt_enable()
#endif

#endif
