/*
 * locks.c -- ordered try-locks with a bounded wait for script globals (see
 * locks.h).  Takes: the handler's lock table, already in the global order.
 * Produces: all of them held, or none, the handler's output so far dropped
 * and one more skipped probe.  An aggregate's per-CPU locks are arch
 * spinlocks, taken without touching the preempt count (locks.h: Depth).
 * The first try and the releases are inline in locks.h: every handler
 * that touches a global runs them, and the runtime is compiled apart
 * from the handlers (translator/build/kbuild.c).
 */
#include <linux/delay.h>
#include <linux/cpumask.h>
#include "context.h"
#include "locks.h"

int
tap_lock_percpu_init(struct tap_lock *l)
{
	int cpu;

	l->cpu = alloc_percpu(struct tap_cpu_lock);
	if (!l->cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(l->cpu, cpu)->lock =
			(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	return 0;
}

void
tap_lock_percpu_free(struct tap_lock *l)
{
	free_percpu(l->cpu);
	l->cpu = NULL;
}

static bool
tap_lock_try(raw_spinlock_t *l)
{
	int tries;

	for (tries = 0; tries < TAP_MAXTRYLOCK; tries++) {
		if (raw_spin_trylock(l))
			return true;
		ndelay(TAP_TRYLOCKDELAY_NS);
	}
	return false;
}

/* The same for one CPU's lock of an aggregate; preemption is already off
 * in a handler, so the lock adds nothing to the preempt count. */
static bool
tap_cpu_lock_try(struct tap_cpu_lock *l)
{
	int tries;

	for (tries = 0; tries < TAP_MAXTRYLOCK; tries++) {
		if (arch_spin_trylock(&l->lock))
			return true;
		ndelay(TAP_TRYLOCKDELAY_NS);
	}
	return false;
}

static void
tap_cpu_lock_give(struct tap_cpu_lock *l)
{
	arch_spin_unlock(&l->lock);
}

/* Unlock every CPU's lock of `l` below `upto` (nr_cpu_ids: all). */
static void
tap_lock_release_cpus(struct tap_lock *l, int upto)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (cpu >= upto)
			break;
		tap_cpu_lock_give(per_cpu_ptr(l->cpu, cpu));
	}
}

/* tap_lock_take()'s (locks.h) way when the first try failed, or for a
 * reader of an aggregate: from the start, with the bounded wait. */
bool
tap_lock_take_slow(const struct tap_lock_use *u)
{
	int cpu;

	switch (tap_lock_mode_of(u)) {
	case TAP_LOCK_CPU:
		/* preemption is off in a handler: this CPU stays ours */
		return tap_cpu_lock_try(this_cpu_ptr(u->lock->cpu));
	case TAP_LOCK_ALL:
		for_each_possible_cpu(cpu) {
			if (!tap_cpu_lock_try(per_cpu_ptr(u->lock->cpu, cpu))) {
				tap_lock_release_cpus(u->lock, cpu);
				return false;
			}
		}
		return true;
	case TAP_LOCK_EXCL:
	default:
		return tap_lock_try(&u->lock->lock);
	}
}

/* A reader's release of an aggregate: every CPU's lock. */
void
tap_lock_give_all(struct tap_lock *l)
{
	tap_lock_release_cpus(l, nr_cpu_ids);
}

/* tap_locks_acquire() (locks.h) could not take locks[i]: give back the
 * ones before it, drop the output so far and count a skipped probe. */
bool
tap_locks_fail(struct tap_context *c, const struct tap_lock_use *locks,
	       size_t i)
{
	tap_locks_release(locks, i);
	/* skipped: as if it never ran, output included */
	c->out.len = 0;
	tap_count_skip();
	tap_timing_skip(c->probe);
	return false;
}
