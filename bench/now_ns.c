/*
 * now_ns.c -- print the time in nanoseconds: CLOCK_REALTIME, or with -m
 * CLOCK_MONOTONIC.  For bench/vm-bench -L, in a guest whose busybox date
 * has no %N: the load-to-first-hit time is the probe's gettimeofday_ns()
 * less this, taken just before the loader starts.  For
 * bench/bpf-first-event, -m is what bpftrace's nsecs reads.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	clockid_t clock = argc > 1 && strcmp(argv[1], "-m") == 0 ?
			  CLOCK_MONOTONIC : CLOCK_REALTIME;

	clock_gettime(clock, &ts);
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
