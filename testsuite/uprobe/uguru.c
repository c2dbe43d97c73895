/*
 * uguru.c -- the program the uprobe tier's guru-function test works on
 * (tests/guru.stp, `tapc -g`): the script changes arguments and a return
 * value through the register functions (set_long_arg, set_returnval),
 * writes its memory (set_user_int, set_user_string, set_user_string_arg)
 * and raise()s signals in it: from a uprobe, and from the scheduler's
 * sched_switch tracepoint, where interrupts are off and the signal has to
 * wait for them.  Built -g -O2 (testsuite/uprobe/run); each
 * function is noinline and main prints what it got, so each change shows.
 * Run without probes it prints
 *   sum7(1, 2, 3, 4, 5, 6, 7) = 28
 *   answer() = 41
 *   fill: n=0 buf=
 *   greet: hello world
 *   poke(bad pointer) done
 *   nap: slept
 *   doomed: returned
 * and, past "doomed", "fatal: not killed", exit 0.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* seven arguments: the seventh on the stack */
__attribute__((noinline)) long
sum7(long a, long b, long c, long d, long e, long f, long g)
{
	return a + b + c + d + e + f + g;
}

__attribute__((noinline)) int
answer(void)
{
	return 41;
}

/* the script writes *n and buf */
__attribute__((noinline)) void
fill(int *n, char *buf)
{
	__asm__ volatile("" : : "r"(n), "r"(buf) : "memory");
}

/* the script replaces name's text */
__attribute__((noinline)) void
greet(char *name)
{
	__asm__ volatile("" : : "r"(name) : "memory");
	printf("greet: hello %s\n", name);
}

/* the script writes through a pointer into the first page: an error */
__attribute__((noinline)) void
poke(long *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* the script raises SIGUSR2 when this sleep switches the thread out */
__attribute__((noinline)) void
nap(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

/* the script raises SIGUSR1 here */
__attribute__((noinline)) void
doomed(void)
{
	__asm__ volatile("" ::: "memory");
}

/* the script raises SIGKILL here */
__attribute__((noinline)) void
fatal(void)
{
	__asm__ volatile("" ::: "memory");
}

static volatile sig_atomic_t caught_usr1, caught_usr2;

static void
on_signal(int sig)
{
	if (sig == SIGUSR1)
		caught_usr1 = 1;
	else
		caught_usr2 = 1;
}

int
main(void)
{
	long volatile one = 1;
	int n = 0;
	char buf[16] = "";
	char name[16] = "world";

	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	printf("sum7(1, 2, 3, 4, 5, 6, 7) = %ld\n",
	       sum7(one, 2, 3, 4, 5, 6, 7));
	printf("answer() = %d\n", answer());
	fill(&n, buf);
	printf("fill: n=%d buf=%s\n", n, buf);
	greet(name);
	poke((long *)8);
	printf("poke(bad pointer) done\n");
	nap();
	printf("nap: %s\n", caught_usr2 ? "caught SIGUSR2" : "slept");
	doomed();
	printf("doomed: %s\n", caught_usr1 ? "caught SIGUSR1" : "returned");
	fflush(stdout);
	fatal();
	printf("fatal: not killed\n");
	return 0;
}
