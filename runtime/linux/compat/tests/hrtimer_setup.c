/* TAPCONF_HRTIMER_SETUP: hrtimer_setup() sets the callback (replaces hrtimer_init). */
#include <linux/hrtimer.h>
static enum hrtimer_restart tapconf_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}
static void __used tapconf_test(struct hrtimer *t)
{
	hrtimer_setup(t, tapconf_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
