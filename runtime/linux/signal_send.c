/*
 * signal_send.c -- sending a signal to the current task from a probe (see
 * signal_send.h), for the guru-mode raise().
 *
 * send_sig() takes the target's siglock and, to wake it, its pi_lock and a
 * runqueue lock, all with interrupts disabled.  A probe that runs with
 * interrupts on cannot be inside any of them, so there the signal goes at
 * once.  A probe with interrupts off may be (a kprobe in the signal code, a
 * tracepoint under the runqueue lock), as may an NMI: there the signal is
 * handed to this CPU's irq_work, which runs when interrupts are back on --
 * before the task returns to user space, so a signal meant to stop it
 * still does.  PREEMPT_RT makes siglock a sleeping lock, which a handler
 * (preemption off) may not take at all: there it is always deferred, and
 * RT runs the irq_work from a kernel thread, a little later.
 * Part of runtime.c's translation unit.
 */
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "signal_send.h"

struct tap_signal_slot {
	struct irq_work work;
	struct task_struct *task;	/* a reference, dropped after sending */
	int sig;
};

static DEFINE_PER_CPU(struct tap_signal_slot, tap_signal_slot);

static void
tap_signal_fn(struct irq_work *w)
{
	struct tap_signal_slot *s = container_of(w, struct tap_signal_slot,
						 work);

	send_sig(s->sig, s->task, 0);
	put_task_struct(s->task);
}

void
tap_signal_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(&per_cpu(tap_signal_slot, cpu).work,
			      tap_signal_fn);
}

int
tap_signal_current(int sig)
{
	struct tap_signal_slot *s;

	if (sig <= 0 || !valid_signal(sig))
		return -EINVAL;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && !irqs_disabled() && !in_nmi())
		return send_sig(sig, current, 0);
	s = this_cpu_ptr(&tap_signal_slot);
	if (irq_work_is_pending(&s->work)) {
		/* queued, not started: the same signal for the same task is
		 * already on its way (standard signals do not queue twice) */
		return s->task == current && s->sig == sig ? 0 : -EBUSY;
	}
	if (irq_work_is_busy(&s->work))
		return -EBUSY;	/* running on RT's thread, preempted */
	s->task = get_task_struct(current);
	s->sig = sig;
	irq_work_queue(&s->work);
	return 0;
}

void
tap_signal_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu(tap_signal_slot, cpu).work);
}
