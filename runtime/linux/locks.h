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
 * (TAP_LOCK_ALL), so that no add runs while it merges.
 *
 * A handler never nests on its CPU (the reentrancy guard), so a lock is
 * never retaken by an interrupt on the CPU that holds it.  The locks are
 * raw spinlocks: handlers run in hard irq context, also on PREEMPT_RT.
 * Must not: block, or be held past the handler's end.
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
	raw_spinlock_t lock;
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

bool tap_locks_acquire(struct tap_context *c, const struct tap_lock_use *locks,
		       size_t n);
void tap_locks_release(const struct tap_lock_use *locks, size_t n);

#endif /* TAP_LINUX_LOCKS_H */
