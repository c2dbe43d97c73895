/*
 * platform.c - user-space half of the platform shim: which per-CPU slot the
 * calling thread uses and how many slots exist.  The kernel build gets both
 * from the scheduler, so this file compiles to nothing there.
 */
#include "platform.h"

#ifndef __KERNEL__

_Thread_local unsigned int __tap_cpu;
unsigned int __tap_ncpus = 1;

/* Give the calling thread a slot; out-of-range ids fold back in range so a
 * misconfigured caller shares a slot instead of writing out of bounds. */
void
tap_set_cpu_id(unsigned int cpu)
{
	__tap_cpu = cpu % __tap_ncpus;
}

/* Only call before any map or statistic is created: they size their
 * per-CPU storage from this number. */
void
tap_set_num_cpus(unsigned int n)
{
	if (n == 0)
		n = 1;
	if (n > TAP_NR_CPUS)
		n = TAP_NR_CPUS;
	__tap_ncpus = n;
	if (__tap_cpu >= n)
		__tap_cpu = 0;
}

#endif /* !__KERNEL__ */
