/*
 * mmlock.h -- the current task's mmap lock, read-locked from any probe
 * context without ever waiting or deadlocking: for user stack walks and
 * symbol names (ustack.c) and a file's load bias (umaps.c).
 *
 * Takes: nothing (current->mm).  Produces: the mm read-locked, or NULL
 * (no mm, a kernel thread, NMI, a busy lock, or interrupts off where the
 * unlock could not be made safe); the caller then does without the mm.
 * Must not: be held across anything that sleeps.
 */
#ifndef TAP_LINUX_MMLOCK_H
#define TAP_LINUX_MMLOCK_H

struct mm_struct;

struct mm_struct *tap_mm_read_trylock(void);
void tap_mm_read_unlock(struct mm_struct *mm);
/* At module init, before any probe. */
void tap_mm_lock_init(void);
/* At module exit, after every probe is gone: wait for deferred unlocks. */
void tap_mm_lock_exit(void);

#endif
