/*
 * unwind.c -- the program the uprobe tier's unwind tests walk the stack
 * of.  Built with -O2 -fomit-frame-pointer -g (and once more with
 * -fno-asynchronous-unwind-tables, so its CFI is in .debug_frame only):
 * no function keeps a frame pointer, so only call frame information
 * finds the callers.
 *
 *   unwind chain   main -> a -> b -> c -> d; d calls getppid() (a probe
 *                  on the syscall walks the stack from the kernel)
 *   unwind qsort   main -> qsort -> (libc) -> by_value, the callback
 *   unwind signal  main -> raise; the SIGUSR1 handler calls d (a walk
 *                  through the kernel's signal frame, __restore_rt)
 *   unwind loop N [R]  the chain N times, R rounds (default 1), for
 *                  bench/vm-ubt: prints the fastest round's ns per call
 *   unwind tail N  main -> tail_outer, which ends in a tail call (a jump)
 *                  to tail_inner, N times: with .return probes on both,
 *                  the two return instances share one stack slot, and
 *                  the kernel handles them as one chain (tailcall.stp)
 *
 * Each function of the chain has a stack frame of its own (a local
 * array the compiler cannot drop) and uses its callee's result, so that
 * none is inlined, cloned or turned into a tail call; tail_outer alone
 * is one on purpose.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STEP __attribute__((noipa))

static volatile int sink;
/* `unwind nap`: d sleeps this many times, so that the scheduler sees it
 * there; more than once, because a walk from one switch can lose its
 * try-lock on the mmap lock on a busy host and fall back to frame
 * pointers, which stop in libc */
static int napping;

STEP static long
d(long x)
{
	volatile long frame[4] = { x, x + 1, x + 2, x + 3 };

	for (int i = 0; i < napping; i++)
		usleep(1000);
	return frame[x & 3] + getppid();
}

STEP static long
c(long x)
{
	volatile long frame[4] = { x, 0, 0, 0 };

	return d(frame[0] + 1) + frame[1];
}

STEP static long
b(long x)
{
	volatile long frame[4] = { x, 0, 0, 0 };

	return c(frame[0] + 1) + frame[2];
}

STEP static long
a(long x)
{
	volatile long frame[4] = { x, 0, 0, 0 };

	return b(frame[0] + 1) + frame[3];
}

STEP static long
tail_inner(long x)
{
	volatile long frame[4] = { x, x + 1, x + 2, x + 3 };

	return frame[x & 3] * 3;
}

/* Nothing left to do after the call: -O2 makes it `jmp tail_inner`. */
STEP static long
tail_outer(long x)
{
	return tail_inner(x + 1);
}

STEP static int
by_value(const void *x, const void *y)
{
	int l = *(const int *)x, r = *(const int *)y;

	return (l > r) - (l < r);
}

STEP static void
on_signal(int sig)
{
	sink = (int)d(sig);
}

static int
sort_some(void)
{
	int v[8] = { 5, 3, 8, 1, 7, 2, 6, 4 };

	qsort(v, 8, sizeof(v[0]), by_value);
	return v[0];
}

static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The chain n times a round; the fastest of rounds, per call. */
static void
loop(long n, long rounds)
{
	long long best = -1, t;

	for (long r = 0; r < rounds; r++) {
		t = now_ns();
		for (long i = n; i > 0; i--)
			sink = (int)a(i);
		t = now_ns() - t;
		if (best < 0 || t < best)
			best = t;
	}
	printf("loop calls=%ld rounds=%ld ns_call=%lld\n", n, rounds,
	       n > 0 ? best / n : 0);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "chain";

	if (strcmp(mode, "chain") == 0) {
		sink = (int)a(1);
	} else if (strcmp(mode, "nap") == 0) {
		napping = 20;
		sink = (int)a(1);
	} else if (strcmp(mode, "qsort") == 0) {
		sink = sort_some();
	} else if (strcmp(mode, "signal") == 0) {
		signal(SIGUSR1, on_signal);
		raise(SIGUSR1);
	} else if (strcmp(mode, "loop") == 0 && argc > 2) {
		loop(strtol(argv[2], NULL, 10),
		     argc > 3 ? strtol(argv[3], NULL, 10) : 1);
	} else if (strcmp(mode, "tail") == 0 && argc > 2) {
		for (long i = strtol(argv[2], NULL, 10); i > 0; i--)
			sink = (int)tail_outer(i);
	} else {
		fprintf(stderr, "usage: unwind chain|nap|qsort|signal|loop N [ROUNDS]|tail N\n");
		return 2;
	}
	return 0;
}
