/* TAPCONF_HRTIMER_MODE_HARD: HRTIMER_MODE_REL_HARD runs callbacks in hard irq even on PREEMPT_RT. */
#include <linux/hrtimer.h>
static int __used tapconf_test = HRTIMER_MODE_REL_HARD;
