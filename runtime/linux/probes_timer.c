/*
 * probes_timer.c -- timer.s/ms/us/ns/hz/jiffies(N)[.randomize(M)] probes:
 * one hrtimer per probe, running in hard irq context, re-armed from its own
 * callback while the session runs.
 *
 * Takes: tap_module.timers.  Produces: handler calls every interval.
 * Must not: re-arm once the session leaves RUNNING, or be disarmed without
 * hrtimer_cancel (which waits for a running callback).
 */
#include <linux/hrtimer.h>
#include <linux/random.h>
#include "compat/compat.h"
#include "context.h"
#include "probes.h"

static u64
tap_timer_next_ns(const struct tap_timer_probe *t)
{
	u64 ns = t->interval_ns;

	if (t->randomize_ns) {
		u64 span = 2 * t->randomize_ns + 1;
		ns = ns - t->randomize_ns + (get_random_u32() % span);
	}
	return ns ? ns : 1;
}

static enum hrtimer_restart
tap_timer_fire(struct hrtimer *timer)
{
	struct tap_timer_probe *t = container_of(timer, struct tap_timer_probe,
						 timer);
	struct tap_context *c;

	c = tap_context_enter(&t->probe, TAP_SESSION_RUNNING);
	if (c) {
		t->probe.handler(c);
		tap_context_exit(c);
	}
	if (atomic_read(&tap_session_state) != TAP_SESSION_RUNNING)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(tap_timer_next_ns(t)));
	return HRTIMER_RESTART;
}

int
tap_timers_arm(struct tap_timer_probe *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		tap_hrtimer_init(&t[i].timer, tap_timer_fire);
		hrtimer_start(&t[i].timer, ns_to_ktime(tap_timer_next_ns(&t[i])),
			      TAP_HRTIMER_MODE);
		t[i].armed = true;
	}
	return 0;
}

void
tap_timers_disarm(struct tap_timer_probe *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!t[i].armed)
			continue;
		hrtimer_cancel(&t[i].timer);
		t[i].armed = false;
	}
}
