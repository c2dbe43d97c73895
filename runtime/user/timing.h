/*
 * timing.h -- `tapc -t` on the user target: the clock and the one
 * thread's accumulators (the figures and the report are
 * runtime/core/timing.h's).  Only a program translated with -t calls
 * these; its handlers all run on one thread (main.c), so there is one
 * accumulator per probe and no lock.
 *
 * The clock is the time-stamp counter where the CPU has one (x86: the
 * cycles stap -t counts), else CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef TAP_USER_TIMING_H
#define TAP_USER_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "../core/timing.h"

/* n_timing accumulators; NULL without -t. */
extern struct tap_timing_acc *tap_timing_accs;

int tap_timing_init(void);
void tap_timing_exit(void);
/* After the end and error probes: print the report. */
void tap_timing_report(void);
void tap_timing_skip(const struct tap_probe *p);

static inline uint64_t
tap_timing_start(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* the compiler's builtin, not <x86intrin.h>'s __rdtsc(): that header
	 * brings every SIMD intrinsic, ~40,000 lines that made up half of
	 * the compile of every generated program */
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline void
tap_timing_record(int index, uint64_t start, bool error)
{
	if (tap_timing_accs)
		tap_timing_acc_add(&tap_timing_accs[index],
				   tap_timing_start() - start, error);
}

#endif /* TAP_USER_TIMING_H */
