/*
 * probes_timer.c -- timer.s/ms/us/ns/hz/jiffies(N)[.randomize(M)] probes:
 * one hrtimer per probe, running in hard irq context, re-armed from its own
 * callback while the session runs.
 *
 * timer.profile: one pinned hrtimer per CPU, handlers see the interrupted
 * registers.
 *
 * Takes: tap_module.timers and .profiles.  Produces: handler calls every
 * interval.
 * Must not: re-arm once the session is stopping, or be disarmed without
 * hrtimer_cancel (which waits for a running callback).
 */
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>
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

/* Armed before the session turns RUNNING: keep ticking through STARTING. */
static bool
tap_timer_keep_going(void)
{
	int state = atomic_read(&tap_session_state);

	return state == TAP_SESSION_STARTING || state == TAP_SESSION_RUNNING;
}

/* What a timer probe has while armed (its rt, core/abi.h). */
struct tap_timer_state {
	struct hrtimer timer;
	struct tap_timer_probe *probe;
};

static enum hrtimer_restart
tap_timer_fire(struct hrtimer *timer)
{
	struct tap_timer_probe *t = container_of(timer, struct tap_timer_state,
						 timer)->probe;
	struct tap_context *c;

	c = tap_context_enter(&t->probe, TAP_SESSION_RUNNING);
	if (c) {
		t->probe.handler(c);
		tap_context_exit(c);
	}
	if (!tap_timer_keep_going())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(tap_timer_next_ns(t)));
	return HRTIMER_RESTART;
}

/* Process context (the loader's START): the states are allocated here,
 * one array for all, freed by tap_timers_disarm(). */
int
tap_timers_arm(struct tap_timer_probe *t, size_t n)
{
	struct tap_timer_state *st;
	size_t i;

	if (!n)
		return 0;
	st = kcalloc(n, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		st[i].probe = &t[i];
		t[i].rt = &st[i];
		tap_hrtimer_init(&st[i].timer, tap_timer_fire, TAP_HRTIMER_MODE);
		hrtimer_start(&st[i].timer, ns_to_ktime(tap_timer_next_ns(&t[i])),
			      TAP_HRTIMER_MODE);
	}
	return 0;
}

void
tap_timers_disarm(struct tap_timer_probe *t, size_t n)
{
	struct tap_timer_state *st = n ? t[0].rt : NULL;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < n; i++) {
		hrtimer_cancel(&st[i].timer);
		t[i].rt = NULL;
	}
	kfree(st);
}

/* ---- timer.profile ---- */

struct tap_profile_timer {
	struct hrtimer timer;
	struct tap_profile_probe *probe;
};

static enum hrtimer_restart
tap_profile_fire(struct hrtimer *timer)
{
	struct tap_profile_timer *pt = container_of(timer,
					struct tap_profile_timer, timer);
	struct tap_profile_probe *p = pt->probe;
	struct tap_context *c;

	c = tap_context_enter(&p->probe, TAP_SESSION_RUNNING);
	if (c) {
		c->regs = get_irq_regs();
		c->regs_kind = TAP_REGS_INTERRUPTED;
		p->probe.handler(c);
		c->regs_kind = TAP_REGS_CALL;
		tap_context_exit(c);
	}
	if (!tap_timer_keep_going())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(p->interval_ns));
	return HRTIMER_RESTART;
}

/* On each CPU, from on_each_cpu(): pinned timers start where they run. */
static void
tap_profile_start_here(void *data)
{
	struct tap_profile_probe *p = data;
	struct tap_profile_timer *pt;

	pt = (struct tap_profile_timer *)per_cpu_ptr(p->timers,
						      smp_processor_id());
	hrtimer_start(&pt->timer, ns_to_ktime(p->interval_ns),
		      TAP_HRTIMER_MODE_PINNED);
}

int
tap_profiles_arm(struct tap_profile_probe *p, size_t n)
{
	struct tap_profile_timer *pt;
	unsigned int cpu;
	size_t i;

	for (i = 0; i < n; i++) {
		p[i].timers = alloc_percpu(struct tap_profile_timer);
		if (!p[i].timers)
			return -ENOMEM;
		if (!p[i].interval_ns)
			p[i].interval_ns = NSEC_PER_SEC / HZ;
		for_each_possible_cpu(cpu) {
			pt = (struct tap_profile_timer *)per_cpu_ptr(p[i].timers,
								      cpu);
			pt->probe = &p[i];
			tap_hrtimer_init(&pt->timer, tap_profile_fire,
					 TAP_HRTIMER_MODE_PINNED);
		}
		on_each_cpu(tap_profile_start_here, &p[i], 1);
	}
	return 0;
}

void
tap_profiles_disarm(struct tap_profile_probe *p, size_t n)
{
	struct tap_profile_timer *pt;
	unsigned int cpu;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!p[i].timers)
			continue;
		for_each_possible_cpu(cpu) {
			pt = (struct tap_profile_timer *)per_cpu_ptr(p[i].timers,
								      cpu);
			hrtimer_cancel(&pt->timer);
		}
		free_percpu(p[i].timers);
		p[i].timers = NULL;
	}
}
