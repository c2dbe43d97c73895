/*
 * locks.h -- locks for script globals.  A handler takes the locks of the
 * globals it touches, in one fixed order (the translator sorts them), with
 * try-lock and a bounded wait; a handler that cannot get them all within
 * TAP_MAXTRYLOCK attempts releases what it holds, is skipped and counted.
 * A handler never nests on its CPU (the reentrancy guard), so a lock is
 * never retaken by an interrupt on the CPU that holds it.
 * Must not: block, or be held past the handler's end.
 */
#ifndef TAP_LINUX_LOCKS_H
#define TAP_LINUX_LOCKS_H

#include <linux/spinlock.h>

#ifndef TAP_MAXTRYLOCK
#define TAP_MAXTRYLOCK		1000	/* attempts, TAP_TRYLOCKDELAY_NS apart */
#endif
#ifndef TAP_TRYLOCKDELAY_NS
#define TAP_TRYLOCKDELAY_NS	1000
#endif

struct tap_context;

/* raw: handlers run in hard irq context, also on PREEMPT_RT. */
struct tap_lock {
	raw_spinlock_t lock;
};
#define TAP_LOCK_INIT(name) { .lock = __RAW_SPIN_LOCK_UNLOCKED(name.lock) }

bool tap_locks_acquire(struct tap_context *c, struct tap_lock *const *locks,
		       size_t n);
void tap_locks_release(struct tap_lock *const *locks, size_t n);

#endif /* TAP_LINUX_LOCKS_H */
