/*
 * now_ns.c -- print CLOCK_REALTIME in nanoseconds, for bench/vm-bench -L
 * in a guest whose busybox date has no %N: the load-to-first-hit time is
 * the probe's gettimeofday_ns() less this, taken just before the loader
 * starts.
 */
#include <stdio.h>
#include <time.h>

int
main(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
