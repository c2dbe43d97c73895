/*
 * locks.c -- ordered try-locks with a bounded wait for script globals (see
 * locks.h).  Takes: the handler's lock list, already in the global order.
 * Produces: all of them held, or none and one more skipped probe.
 */
#include <linux/delay.h>
#include "context.h"
#include "locks.h"

static bool
tap_lock_try(struct tap_lock *l)
{
	int tries;

	for (tries = 0; tries < TAP_MAXTRYLOCK; tries++) {
		if (raw_spin_trylock(&l->lock))
			return true;
		ndelay(TAP_TRYLOCKDELAY_NS);
	}
	return false;
}

bool
tap_locks_acquire(struct tap_context *c, struct tap_lock *const *locks,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!tap_lock_try(locks[i])) {
			tap_locks_release(locks, i);
			tap_count_skip();
			return false;
		}
	}
	return true;
}

void
tap_locks_release(struct tap_lock *const *locks, size_t n)
{
	while (n--)
		raw_spin_unlock(&locks[n]->lock);
}
