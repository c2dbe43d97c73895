/*
 * mmlock.c -- read-locking the current task's mmap lock from a probe
 * (see mmlock.h).
 *
 * A probe can run with interrupts off: a kprobe's int3, or a tracepoint
 * inside the scheduler with this CPU's runqueue lock held (sched_switch).
 * There mmap_read_unlock() may wake a waiting writer, and a wakeup that
 * needs the held runqueue lock never finishes.  So with interrupts off the
 * unlock is deferred to this CPU's irq_work, which runs as soon as
 * interrupts are back on -- before the task runs on, so its mm is still
 * there -- and a walk before it ran does without the lock.  PREEMPT_RT's
 * mmap lock is an rt_mutex rwsem whose contended unlock turns interrupts
 * back on: with interrupts off it is not taken at all.  Never in NMI.
 */
#include <linux/irq_work.h>
#include <linux/mmap_lock.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include "mmlock.h"

struct tap_mm_unlock {
	struct irq_work work;
	struct mm_struct *mm;
};

static void
tap_mm_unlock_fn(struct irq_work *w)
{
	struct tap_mm_unlock *u = container_of(w, struct tap_mm_unlock, work);

	mmap_read_unlock_non_owner(u->mm);	/* taken by the probe */
}

static DEFINE_PER_CPU(struct tap_mm_unlock, tap_mm_unlock);

void
tap_mm_lock_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(&per_cpu(tap_mm_unlock, cpu).work,
			      tap_mm_unlock_fn);
}

struct mm_struct *
tap_mm_read_trylock(void)
{
	struct mm_struct *mm = current->mm;

	struct tap_mm_unlock *u = this_cpu_ptr(&tap_mm_unlock);

	if (!mm || in_nmi() || (current->flags & PF_KTHREAD))
		return NULL;
	if (irqs_disabled()) {
		if (IS_ENABLED(CONFIG_PREEMPT_RT))
			return NULL;
		/* An unlock queued here and not started yet (interrupts have
		 * stayed off) means the lock is still held for this mm: a
		 * walk and then its names, in one handler, share it. */
		if (irq_work_is_busy(&u->work))
			return irq_work_is_pending(&u->work) && u->mm == mm ?
				mm : NULL;
	}
	return mmap_read_trylock(mm) ? mm : NULL;
}

void
tap_mm_read_unlock(struct mm_struct *mm)
{
	struct tap_mm_unlock *u;

	if (!irqs_disabled()) {
		mmap_read_unlock(mm);
		return;
	}
	u = this_cpu_ptr(&tap_mm_unlock);
	if (irq_work_is_pending(&u->work) && u->mm == mm)
		return;		/* the queued unlock covers this use too */
	u->mm = mm;
	irq_work_queue(&u->work);
}

void
tap_mm_lock_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu(tap_mm_unlock, cpu).work);
}
