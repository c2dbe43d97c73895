/*
 * locks.h -- locks for script globals.  A handler takes the locks of the
 * globals it touches, in one fixed order (the translator sorts them), with
 * try-lock and a bounded wait; a handler that cannot get them all within
 * TAP_MAXTRYLOCK attempts releases what it holds, drops the output it made
 * so far, is skipped and counted.
 *
 * An ordinary global has one lock, taken exclusively (TAP_LOCK_EXCL).  An
 * aggregate (statistics, scalar or array) has one lock per CPU instead: a
 * handler that only adds to it with `<<<` takes its own CPU's (TAP_LOCK_CPU)
 * -- no cache line shared with other CPUs, which add into their own slots --
 * and one that reads, iterates or deletes it takes every CPU's in CPU order
 * (TAP_LOCK_ALL), so that no add runs while it merges: the reader sees every
 * CPU's part frozen for the whole handler, as SystemTap's write lock gives
 * (two reads of one aggregate in a handler agree).
 *
 * Order (deadlock freedom): a handler takes the locks of its globals in the
 * program's global order, an aggregate's CPUs in ascending CPU order, all
 * at once before its first access to a global and none later (merging
 * takes no lock); every attempt is a try-lock with a bounded wait, so two
 * handlers that each hold what the other wants wait at most TAP_MAXTRYLOCK
 * attempts -- one of them gives up and is skipped -- and a handler that
 * holds its locks never waits for another lock.
 *
 * Depth: TAP_LOCK_ALL holds one lock per possible CPU at once, 288 or more
 * on some machines.  Those are arch spinlocks (arch_spinlock_t), as the
 * kernel's former lglock held its per-CPU locks: taking one adds nothing
 * to the preempt count (whose nesting field is 8 bits: 256 raw spinlocks
 * overflowed it into the softirq bits) nor to lockdep's held-lock stack
 * (48 deep).  That is safe because a handler already runs with preemption
 * off (tap_context_enter) and releases everything before its end.  The
 * ordinary globals' locks stay raw spinlocks, one per global, visible to
 * lockdep: a handler's lock depth grows with the ordinary globals it
 * touches, never with the CPUs.  The per-CPU locks are not checked by
 * lockdep; their order is the one above.
 *
 * A handler never nests on its CPU (the reentrancy guard), so a lock is
 * never retaken by an interrupt on the CPU that holds it.  The locks spin:
 * handlers run in hard irq context, also on PREEMPT_RT.
 * Must not: block, be held past the handler's end, or be taken outside a
 * handler (preemption must be off while an arch spinlock is held).
 */
#ifndef TAP_LINUX_LOCKS_H
#define TAP_LINUX_LOCKS_H

#include <linux/spinlock.h>
#include <linux/percpu.h>

#ifndef TAP_MAXTRYLOCK
#define TAP_MAXTRYLOCK		1000	/* attempts, TAP_TRYLOCKDELAY_NS apart */
#endif
#ifndef TAP_TRYLOCKDELAY_NS
#define TAP_TRYLOCKDELAY_NS	1000
#endif

struct tap_context;

struct tap_cpu_lock {
	arch_spinlock_t lock;	/* not counted on the preempt count: above */
};

struct tap_lock {
	raw_spinlock_t lock;			/* TAP_LOCK_EXCL */
	struct tap_cpu_lock __percpu *cpu;	/* aggregates: per CPU, or NULL */
};
#define TAP_LOCK_INIT(name) { .lock = __RAW_SPIN_LOCK_UNLOCKED(name.lock) }

enum tap_lock_mode {
	TAP_LOCK_EXCL,		/* an ordinary global */
	TAP_LOCK_CPU,		/* `<<<` into an aggregate: this CPU's lock */
	TAP_LOCK_ALL,		/* reading an aggregate: every CPU's lock */
};

/* One entry of a handler's lock table (generated, in the global order). */
struct tap_lock_use {
	struct tap_lock *lock;
	enum tap_lock_mode mode;
};

/* The per-CPU locks of an aggregate, at module init; 0 or -ENOMEM.  Free
 * works on a lock whose init failed or never ran. */
int tap_lock_percpu_init(struct tap_lock *l);
void tap_lock_percpu_free(struct tap_lock *l);

bool tap_lock_take_slow(const struct tap_lock_use *u);
void tap_lock_give_all(struct tap_lock *l);
bool tap_locks_fail(struct tap_context *c, const struct tap_lock_use *locks,
		    size_t i);

/* The mode `u` really uses: per-CPU locks exist only for aggregates. */
static inline enum tap_lock_mode
tap_lock_mode_of(const struct tap_lock_use *u)
{
	return u->lock->cpu ? u->mode : TAP_LOCK_EXCL;
}

/* Inline from here on: every handler that touches a global runs them,
 * and the runtime is compiled apart from the handlers (kbuild.c).  The
 * first try is made here; a busy lock, or a reader's every-CPU lock of
 * an aggregate, takes locks.c's bounded wait. */
static inline bool
tap_lock_take(const struct tap_lock_use *u)
{
	switch (tap_lock_mode_of(u)) {
	case TAP_LOCK_CPU:
		/* preemption is off in a handler: this CPU stays ours */
		if (arch_spin_trylock(&this_cpu_ptr(u->lock->cpu)->lock))
			return true;
		break;
	case TAP_LOCK_EXCL:
		if (raw_spin_trylock(&u->lock->lock))
			return true;
		break;
	default:
		break;
	}
	return tap_lock_take_slow(u);
}

static inline void
tap_lock_give(const struct tap_lock_use *u)
{
	switch (tap_lock_mode_of(u)) {
	case TAP_LOCK_CPU:
		arch_spin_unlock(&this_cpu_ptr(u->lock->cpu)->lock);
		break;
	case TAP_LOCK_ALL:
		tap_lock_give_all(u->lock);
		break;
	case TAP_LOCK_EXCL:
	default:
		raw_spin_unlock(&u->lock->lock);
		break;
	}
}

static inline void
tap_locks_release(const struct tap_lock_use *locks, size_t n)
{
	while (n--)
		tap_lock_give(&locks[n]);
}

/* All of the handler's locks, in order, or none (a skipped probe). */
static inline bool
tap_locks_acquire(struct tap_context *c, const struct tap_lock_use *locks,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (unlikely(!tap_lock_take(&locks[i])))
			return tap_locks_fail(c, locks, i);
	return true;
}

#endif /* TAP_LINUX_LOCKS_H */
