/*
 * platform.h - the only door from runtime/core to the outside world.
 *
 * The core is compiled twice: as ordinary user-space objects (unit tests,
 * the user-space target) and inside a kernel module (when __KERNEL__ is
 * defined).  Every core file includes this header instead of any libc or
 * kernel header, and calls only what is declared here: fixed-width types,
 * memory and string primitives, init-time allocation, and the identity of
 * the current CPU.  It must not grow anything that sleeps or allocates in a
 * probe handler; tap_alloc() is for init paths only.
 *
 * CPU slots: per-CPU data is indexed by tap_cpu_id(), which is always below
 * tap_num_cpus().  In the kernel these are smp_processor_id() (the caller
 * runs with preemption disabled, as every probe handler does) and
 * nr_cpu_ids.  In user space there is no such guarantee, so the user
 * runtime gives each of its threads a slot with tap_set_cpu_id() and says
 * how many slots exist with tap_set_num_cpus() before creating any map or
 * statistic; both default to a single slot 0.
 *
 * tap_spin_t: a lock for the few places where CPUs must take turns on
 * shared data for a handful of instructions (cmap.c's fallback).  Never
 * taken twice on one CPU: a handler never nests inside another there.
 */
#ifndef TAP_CORE_PLATFORM_H
#define TAP_CORE_PLATFORM_H

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048
#endif

#define TAP_CACHELINE 64

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/limits.h>
#include <linux/spinlock.h>

#ifndef TAP_NR_CPUS
#define TAP_NR_CPUS NR_CPUS
#endif

#define tap_memcpy(d, s, n)	memcpy((d), (s), (n))
#define tap_memmove(d, s, n)	memmove((d), (s), (n))
#define tap_memset(d, c, n)	memset((d), (c), (n))
#define tap_memcmp(a, b, n)	memcmp((a), (b), (n))
#define tap_strlen(s)		strlen(s)
#define tap_strnlen(s, n)	strnlen((s), (n))
#define tap_strcmp(a, b)	strcmp((a), (b))

static inline void *
tap_alloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void
tap_free(void *p)
{
	kvfree(p);
}

static inline unsigned int
tap_cpu_id(void)
{
	return smp_processor_id();
}

static inline unsigned int
tap_num_cpus(void)
{
	return nr_cpu_ids;
}

typedef raw_spinlock_t tap_spin_t;
#define tap_spin_init(l)	raw_spin_lock_init(l)
#define tap_spin_lock(l)	raw_spin_lock(l)
#define tap_spin_unlock(l)	raw_spin_unlock(l)

#else /* user space */

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>	/* vsnprintf, for tap_error() (handler.h) */

#ifndef TAP_NR_CPUS
#define TAP_NR_CPUS 256
#endif

#define tap_memcpy(d, s, n)	memcpy((d), (s), (n))
#define tap_memmove(d, s, n)	memmove((d), (s), (n))
#define tap_memset(d, c, n)	memset((d), (c), (n))
#define tap_memcmp(a, b, n)	memcmp((a), (b), (n))
#define tap_strlen(s)		strlen(s)
#define tap_strnlen(s, n)	strnlen((s), (n))
#define tap_strcmp(a, b)	strcmp((a), (b))

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

extern _Thread_local unsigned int __tap_cpu;
extern unsigned int __tap_ncpus;

static inline void *
tap_alloc(size_t size)
{
	return calloc(1, size);
}

static inline void
tap_free(void *p)
{
	free(p);
}

static inline unsigned int
tap_cpu_id(void)
{
	return __tap_cpu;
}

static inline unsigned int
tap_num_cpus(void)
{
	return __tap_ncpus;
}

void tap_set_cpu_id(unsigned int cpu);
void tap_set_num_cpus(unsigned int n);

typedef struct { int held; } tap_spin_t;

static inline void
tap_spin_init(tap_spin_t *l)
{
	l->held = 0;
}

static inline void
tap_spin_lock(tap_spin_t *l)
{
	while (__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->held, __ATOMIC_RELAXED))
			;
}

static inline void
tap_spin_unlock(tap_spin_t *l)
{
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

#endif /* __KERNEL__ */

/* Round n up to a multiple of a (a power of two). */
#define TAP_ALIGN_UP(n, a)	(((n) + ((a) - 1)) & ~((size_t)(a) - 1))

#endif /* TAP_CORE_PLATFORM_H */
