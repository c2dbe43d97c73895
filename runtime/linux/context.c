/*
 * context.c -- per-CPU probe contexts, the reentrancy guard, the session
 * state and script errors (see context.h).
 *
 * Takes: the probe a handler is about to run.  Produces: the CPU's context,
 * or NULL when the handler must not run; at handler end, commits output and
 * reports errors and skip counts to the loader, stopping the script when a
 * limit is passed (errors, skipped probes, time spent in handlers).  Must not: allocate or sleep outside tap_contexts_alloc.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/sched/clock.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include "context.h"
#include "output.h"
#include "probes.h"
#include "transport.h"

atomic_t tap_session_state = ATOMIC_INIT(TAP_SESSION_STARTING);
atomic64_t tap_skipped_count = ATOMIC64_INIT(0);
atomic64_t tap_error_count = ATOMIC64_INIT(0);
int tap_target_pid;

struct tap_context **tap_contexts;	/* one per possible CPU */

int
tap_contexts_alloc(size_t locals_size)
{
	unsigned int cpu;

	tap_contexts = kcalloc(nr_cpu_ids, sizeof(*tap_contexts), GFP_KERNEL);
	if (!tap_contexts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tap_contexts[cpu] = kvzalloc(sizeof(struct tap_context) +
					     locals_size, GFP_KERNEL);
		if (!tap_contexts[cpu]) {
			tap_contexts_free();
			return -ENOMEM;
		}
	}
	return 0;
}

void
tap_contexts_free(void)
{
	unsigned int cpu;

	if (!tap_contexts)
		return;
	for_each_possible_cpu(cpu)
		kvfree(tap_contexts[cpu]);
	kfree(tap_contexts);
	tap_contexts = NULL;
}

/*
 * SystemTap's words, as runtime/user prints them.  Stopping for skips is
 * not a script error: it is not counted in "Number of errors" (as in
 * SystemTap), but it still makes the exit status 1 (tap_session_stop).
 */
void
tap_count_skip(void)
{
	static const char msg[] = "Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.";

	if (atomic64_inc_return(&tap_skipped_count) == TAP_MAXSKIPPED + 1) {
		tap_ctl_send_atomic(TAP_MSG_ERROR, msg, sizeof(msg) - 1);
		tap_session_error();
	}
}

#ifdef CONFIG_PREEMPTION
/* The one call to reschedule that tap_preempt_enable() shares (the
 * kernel's own: a static call where the model is chosen at boot).  Never
 * inlined: the runtime is one compilation unit, and an inlined copy
 * would be a call site again. */
noinline void
tap_preempt_schedule(void)
{
	__preempt_schedule();
}
#endif

void
tap_report_error(struct tap_context *c)
{
	int n;

	/* SystemTap's shape; error() names no statement. */
	if (c->last_stmt)
		n = scnprintf(c->msgbuf, sizeof(c->msgbuf), "%s near %s",
			      c->errbuf, c->last_stmt);
	else
		n = scnprintf(c->msgbuf, sizeof(c->msgbuf), "%s", c->errbuf);
	tap_ctl_send_atomic(TAP_MSG_ERROR, c->msgbuf, n);
	if (atomic64_inc_return(&tap_error_count) > TAP_MAXERRORS)
		tap_session_error();
}

/*
 * A CPU that spends more than TAP_OVERLOAD_THRESHOLD_NS of a window in
 * handlers stops the script: the machine is being slowed down too much.
 * The time is sampled (one handler in TAP_OVERLOAD_SAMPLE is timed and
 * counted that many times), so that the common handler reads no clock.
 * One timed handler that stalls (its vCPU descheduled by the host, an NMI
 * or SMI storm) would then count for TAP_OVERLOAD_SAMPLE stalls: 40 ms
 * became 640 ms, past the threshold, for a script of cheap handlers.  So
 * a window's longest timed handler counts once, for itself alone, and
 * the others stand for their neighbours.  A handler that is really slow
 * is slow every time, and the rest of the window's samples still see it
 * (testsuite/kernel/tests/overload.stp, overload_stall.stp).
 * Define TAP_NO_OVERLOAD to turn this off.
 */
void
tap_check_overload(struct tap_context *c)
{
#ifndef TAP_NO_OVERLOAD
	static const char msg[] = "probe overhead exceeded threshold (overload)";
	u64 now, took, busy;

	if (!c->entered_ns)	/* not a sampled handler */
		return;
	now = local_clock();
	took = now - c->entered_ns;
	c->window_busy_ns += took * TAP_OVERLOAD_SAMPLE;
	if (took > c->window_max_ns)
		c->window_max_ns = took;
	if (now - c->window_start_ns < TAP_OVERLOAD_INTERVAL_NS)
		return;
	busy = c->window_busy_ns - c->window_max_ns * (TAP_OVERLOAD_SAMPLE - 1);
	if (busy > TAP_OVERLOAD_THRESHOLD_NS && c->window_start_ns) {
		atomic64_inc(&tap_error_count);
		tap_ctl_send_atomic(TAP_MSG_ERROR, msg, sizeof(msg) - 1);
		tap_session_error();
	}
	c->window_start_ns = now;
	c->window_busy_ns = 0;
	c->window_max_ns = 0;
#endif
}

void
tap_warn(struct tap_context *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(c->msgbuf, sizeof(c->msgbuf), fmt, ap);
	va_end(ap);
	tap_ctl_send_atomic(TAP_MSG_WARNING, c->msgbuf, n);
}

/* NMI-safe clock: handlers may run anywhere. */
int64_t
tap_gettimeofday_ns(void)
{
	return ktime_get_real_fast_ns();
}

