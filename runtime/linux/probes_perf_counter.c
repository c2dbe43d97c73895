/*
 * probes_perf_counter.c -- perf.type(T).config(C)[.process("PATH")]
 * .counter("NAME") and @perf("NAME"): a counting perf event per thread.
 *
 * Takes: tap_module.perf_counters (generated) and, per uprobe, the
 * indices of the counters its probe reads (tap_uprobe_probe.counters).
 * Produces: tap_perf_counters_open(), called by the uprobe consumers of
 * probes_uprobe.c before the handler's context is entered, opens each of
 * those counters for the current thread if it has none yet; the handler's
 * @perf then reads the thread's count so far with tap_perf_counter_read()
 * (so a thread's first @perf reads about 0, and differences between two
 * hits are what the counter is for).  Events are made with
 * perf_event_create_kernel_counter(), one per thread and counter (cpu -1,
 * the thread as target), and released when the uprobes are disarmed.
 *
 * Why open there: making a perf event allocates and takes mutexes, so it
 * needs a context that may sleep.  A uprobe consumer runs in the probed
 * thread with nothing held that forbids sleeping (the uprobe's
 * register_rwsem on 6.1, an RCU tasks-trace section on 6.12), and no
 * other place the handler can reach does; the handler itself runs with
 * preemption off.  So @perf is allowed only in process(...).function,
 * .statement and .mark probes (translator/sema/resolve.c).
 *
 * Reading: a thread's event counts only while it runs; reading the
 * current thread's own event needs no lock, only the PMU's read with
 * interrupts off while the event is active on this CPU -- what the
 * kernel's perf_event_read_local() does, which modules cannot call.
 *
 * Table: TAP_PERF_THREADS slots per counter, open addressing on the task
 * pointer.  Slots are claimed under tap_perf_counter_lock and published
 * with a release store of the task; readers look for their own task
 * only, whose slot never changes while it runs (a slot is reused only
 * once its thread has exited).  A full table leaves the thread without a
 * counter: its @perf is a script error saying so.
 *
 * Must not: sleep in tap_perf_counter_read(); leave an event behind at
 * disarm (every slot's event is released after the uprobes are gone).
 */
#include <linux/hash.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "context.h"
#include "probes.h"

static DEFINE_MUTEX(tap_perf_counter_lock);

int
tap_perf_counters_alloc(void)
{
	size_t i;

	for (i = 0; i < tap_module.n_perf_counters; i++) {
		struct tap_perf_counter *pc = &tap_module.perf_counters[i];

		pc->threads = kcalloc(TAP_PERF_THREADS, sizeof(*pc->threads),
				      GFP_KERNEL);
		if (!pc->threads)
			return -ENOMEM;	/* the caller releases */
	}
	return 0;
}

static unsigned int
tap_perf_slot(const struct task_struct *t, unsigned int probe)
{
	return (hash_ptr(t, 16) + probe) % TAP_PERF_THREADS;
}

/* The current thread's slot of pc, or NULL. */
static struct tap_perf_thread *
tap_perf_thread_of(struct tap_perf_counter *pc)
{
	unsigned int i;

	if (!pc->threads)
		return NULL;
	for (i = 0; i < TAP_PERF_THREADS; i++) {
		struct tap_perf_thread *t = &pc->threads[tap_perf_slot(current, i)];
		struct task_struct *task = smp_load_acquire(&t->task);

		if (task == current)
			return t;
		if (!task)	/* slots are filled in probe order */
			return NULL;
	}
	return NULL;
}

/* A slot for the current thread, under the lock: the first in probe
 * order that is free or whose thread has exited. */
static struct tap_perf_thread *
tap_perf_claim(struct tap_perf_counter *pc)
{
	unsigned int i;

	for (i = 0; i < TAP_PERF_THREADS; i++) {
		struct tap_perf_thread *t = &pc->threads[tap_perf_slot(current, i)];

		if (!t->task || (t->task->flags & PF_EXITING))
			return t;
	}
	return NULL;
}

static void
tap_perf_open_one(struct tap_perf_counter *pc)
{
	struct perf_event_attr attr;
	struct tap_perf_thread *t;
	struct perf_event *ev;

	mutex_lock(&tap_perf_counter_lock);
	if (tap_perf_thread_of(pc) || !(t = tap_perf_claim(pc)))
		goto out;	/* open already, or no room (read says so) */
	/* An exited thread's slot keeps its task until the store below:
	 * lookups of the threads behind it in probe order go on past it.
	 * Only the current thread reads its own slot's event. */
	if (t->task) {
		if (!IS_ERR_OR_NULL(t->event))
			perf_event_release_kernel(t->event);
		put_task_struct(t->task);
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = pc->type;
	attr.config = pc->config;
	ev = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	t->event = ev;
	/* held, so that no later thread gets this task_struct's address and
	 * finds this slot */
	get_task_struct(current);
	smp_store_release(&t->task, current);
out:
	mutex_unlock(&tap_perf_counter_lock);
}

void
tap_perf_counters_open(const u16 *idx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct tap_perf_counter *pc = &tap_module.perf_counters[idx[i]];

		if (!tap_perf_thread_of(pc))
			tap_perf_open_one(pc);
	}
}

/* The event's count so far; it belongs to the current thread. */
static u64
tap_perf_event_count(struct perf_event *ev)
{
	unsigned long flags;
	u64 count;

	local_irq_save(flags);
	if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(ev->oncpu) == smp_processor_id())
		ev->pmu->read(ev);
	count = local64_read(&ev->count);
	local_irq_restore(flags);
	return count;
}

int64_t
tap_perf_counter_read(struct tap_context *c, int index)
{
	struct tap_perf_counter *pc = &tap_module.perf_counters[index];
	struct tap_perf_thread *t = tap_perf_thread_of(pc);

	if (!t) {
		tap_error(c, "perf counter '%s': no room to count thread %d (%d threads at once)",
			  pc->name, current->pid, TAP_PERF_THREADS);
		return 0;
	}
	if (IS_ERR(t->event)) {
		int err = (int)PTR_ERR(t->event);

		tap_error(c, "perf counter '%s' (%s): cannot open it for thread %d: %s (%d)",
			  pc->name, pc->point, current->pid,
			  err == -ENOENT || err == -EOPNOTSUPP ?
			  "this machine has no such event" : "refused", err);
		return 0;
	}
	return (int64_t)tap_perf_event_count(t->event);
}

void
tap_perf_counters_release(void)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < tap_module.n_perf_counters; i++) {
		struct tap_perf_counter *pc = &tap_module.perf_counters[i];

		if (!pc->threads)
			continue;
		for (j = 0; j < TAP_PERF_THREADS; j++) {
			struct tap_perf_thread *t = &pc->threads[j];

			if (!t->task)
				continue;
			if (!IS_ERR_OR_NULL(t->event))
				perf_event_release_kernel(t->event);
			put_task_struct(t->task);
		}
		kfree(pc->threads);
		pc->threads = NULL;
	}
}
