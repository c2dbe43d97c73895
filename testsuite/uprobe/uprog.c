/*
 * uprog.c -- the program the uprobe tier probes: functions with known
 * arguments and results, SDT markers (<sys/sdt.h>) with register, stack
 * and global operands, allocations of known sizes from a known call
 * chain, and threads.  Built with -g and frame pointers, dynamically
 * linked (so libc's malloc is probed in the library).
 *
 *   uprog calls     add(3, 4), add(-10, 2), greet("world", 5), markers
 *                   (`guarded` only while its semaphore is raised)
 *   uprog malloc    malloc sizes 16 x 8, 100 x 4, 5000 x 2 (the large
 *                   ones through level1 -> level2 -> level3)
 *   uprog threads   two threads, joined
 *   uprog spin      run on the CPU for 300 ms (perf-process.stp)
 *   uprog pages     touch_pages(64) in main, then touch_pages(32) in a
 *                   thread: each writes to that many fresh anonymous
 *                   pages (a page fault each; @perf, perf-counter.stp)
 *   uprog fork      as `wait`, then fork a child that calls add(7, 8)
 *                   and exits without exec
 *   uprog thread-wait  as `wait`, in a second thread; main joins it and
 *                   exits once the thread has left /proc
 *   uprog entry     triple(3, &out) (changes its parameter), fact(4)
 *                   (recursive; counts in the static uprog_static)
 *   uprog wait      wait (up to 60 s) until a uprobe breakpoint (int3)
 *                   shows in add()'s code, then add(5, 6): for -x PID
 *                   on a process that was running before the probes
 *   uprog forks     add(1, 2), then fork 3 children one after the other,
 *                   each calls add(i, i) and exits without exec
 *   uprog churn     until ./stop exists (at most 60 s): fork children
 *                   that exit, exec `uprog noop` or start and join a
 *                   thread, and start and join threads itself -- the
 *                   events a script arming meanwhile must see whole
 *   uprog noop      nothing
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Markers with semaphores (as dtrace -h would declare them): the kernel
 * raises a marker's semaphore while a uprobe is on it (ref_ctr_offset),
 * so `guarded` fires only when it is probed. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#define UPROG_SEMAPHORE(name) \
	unsigned short uprog_##name##_semaphore \
	__attribute__((unused, section(".probes")))
UPROG_SEMAPHORE(tick);
UPROG_SEMAPHORE(global);
UPROG_SEMAPHORE(text);
UPROG_SEMAPHORE(guarded);

long counter = 41;
static int uprog_static = 7;	/* @var("uprog_static@uprog.c") */

/* .return sees x as it was at entry (3), not as it is at the return */
__attribute__((noinline)) int
triple(int x, int *out)
{
	x = x * 3;
	*out = x;
	return x + 1;
}

/* recursion: each return pairs with its own entry */
__attribute__((noinline)) long
fact(long n)
{
	uprog_static++;
	return n <= 1 ? 1 : n * fact(n - 1);
}

__attribute__((noinline)) int
add(int a, int b)
{
	return a + b;
}

__attribute__((noinline)) long
greet(const char *who, long n)
{
	return (long)strlen(who) + n;
}

static void
entries(void)
{
	int out = 0, r = triple(3, &out);

	fprintf(stderr, "triple=%d out=%d\n", r, out);
	fprintf(stderr, "fact=%ld\n", fact(4));
}

static void
calls(void)
{
	const char *text = "hello";
	int i;

	fprintf(stderr, "add=%d\n", add(3, 4));
	fprintf(stderr, "add=%d\n", add(-10, 2));
	fprintf(stderr, "greet=%ld\n", greet("world", 5));
	for (i = 1; i <= 3; i++)
		STAP_PROBE2(uprog, tick, i, (long)-7 * i);
	STAP_PROBE1(uprog, global, counter);
	counter++;
	STAP_PROBE3(uprog, text, text, counter, (short)-2);
	if (uprog_guarded_semaphore)
		STAP_PROBE1(uprog, guarded, 99);
}

__attribute__((noinline)) static void
level3(size_t n)
{
	void *p = malloc(n);

	memset(p, 0, n);
	free(p);
}

__attribute__((noinline)) static void
level2(size_t n)
{
	level3(n);
}

__attribute__((noinline)) static void
level1(size_t n)
{
	level2(n);
}

static void
allocations(void)
{
	void *small[8];
	int i;

	for (i = 0; i < 8; i++)
		small[i] = malloc(16);
	for (i = 0; i < 8; i++)
		free(small[i]);
	for (i = 0; i < 4; i++)
		free(malloc(100));
	level1(5000);
	level1(5000);
	fputs("malloc done\n", stderr);
}

static void *
worker(void *arg)
{
	return arg;
}

static void
threads(void)
{
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	fputs("threads done\n", stderr);
}

__attribute__((noinline)) static void
touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("uprog: mmap");
		exit(2);
	}
	for (long i = 0; i < n; i++)
		((volatile char *)p)[i * page] = 1;
	munmap(p, n * page);
}

static void *
touch_pages_thread(void *arg)
{
	touch_pages((long)arg);
	return NULL;
}

static void
spin(void)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while ((now.tv_sec - start.tv_sec) * 1000000000L +
	       (now.tv_nsec - start.tv_nsec) < 300000000L);
}

static void
pages(void)
{
	pthread_t t;

	touch_pages(64);
	pthread_create(&t, NULL, touch_pages_thread, (void *)32L);
	pthread_join(t, NULL);
}

/* Whether some byte of add()'s first 20 is an int3: armed. */
static int
add_is_probed(void)
{
	const volatile unsigned char *code =
		(const volatile unsigned char *)(void *)add;
	int i;

	for (i = 0; i < 20; i++)
		if (code[i] == 0xcc)
			return 1;
	return 0;
}

static void
wait_for_probe(void)
{
	int i;

	for (i = 0; i < 6000 && !add_is_probed(); i++)
		usleep(10000);
	fprintf(stderr, "add=%d\n", add(5, 6));
}

/* wait as above, then fork a child that calls add(7, 8) and exits
 * without exec; wait for it */
static void
fork_after_probe(void)
{
	pid_t child;

	wait_for_probe();
	child = fork();
	if (child == 0) {
		fprintf(stderr, "child add=%d\n", add(7, 8));
		_exit(0);
	}
	if (child > 0)
		waitpid(child, NULL, 0);
}

/* add(1, 2), then three children in turn, each add(i, i), no exec */
static void
forks(void)
{
	pid_t child;
	int i;

	add(1, 2);
	for (i = 1; i <= 3; i++) {
		child = fork();
		if (child == 0) {
			add(i, i);
			_exit(0);
		}
		if (child > 0)
			waitpid(child, NULL, 0);
	}
}

/* process and thread events in a tight loop, until ./stop exists */
static void
churn(void)
{
	pthread_t t;
	pid_t child;
	int i;

	for (i = 0; i < 600000 && access("stop", F_OK) != 0; i++) {
		child = fork();
		if (child == 0) {
			if (i % 3 == 0)
				execl("/proc/self/exe", "uprog", "noop",
				      (char *)NULL);
			if (i % 3 == 1 &&
			    pthread_create(&t, NULL, worker, NULL) == 0)
				pthread_join(t, NULL);
			_exit(0);
		}
		if (child > 0)
			waitpid(child, NULL, 0);
		if (pthread_create(&t, NULL, worker, NULL) == 0)
			pthread_join(t, NULL);
	}
}

static pid_t waiter_tid;

static void *
waiter(void *arg)
{
	waiter_tid = (pid_t)syscall(SYS_gettid);
	wait_for_probe();
	return arg;
}

/* a thread waits as above; the main thread joins it, and exits only when
 * the thread is gone: the join returns when the thread has left its
 * memory, before its exit event, and the thread leaves /proc after that
 * event (so its .thread.end comes before the process's .end) */
static void
thread_wait(void)
{
	char task[64];
	pthread_t t;

	pthread_create(&t, NULL, waiter, NULL);
	pthread_join(t, NULL);
	snprintf(task, sizeof(task), "/proc/self/task/%d", (int)waiter_tid);
	while (access(task, F_OK) == 0)
		usleep(1000);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";

	if (!strcmp(mode, "calls"))
		calls();
	else if (!strcmp(mode, "malloc"))
		allocations();
	else if (!strcmp(mode, "threads"))
		threads();
	else if (!strcmp(mode, "pages"))
		pages();
	else if (!strcmp(mode, "spin"))
		spin();
	else if (!strcmp(mode, "wait"))
		wait_for_probe();
	else if (!strcmp(mode, "entry"))
		entries();
	else if (!strcmp(mode, "fork"))
		fork_after_probe();
	else if (!strcmp(mode, "thread-wait"))
		thread_wait();
	else if (!strcmp(mode, "forks"))
		forks();
	else if (!strcmp(mode, "churn"))
		churn();
	else if (!strcmp(mode, "noop"))
		;
	else {
		fprintf(stderr, "usage: uprog calls|malloc|threads|pages|spin|wait|entry|fork|thread-wait|forks|churn|noop\n");
		return 2;
	}
	return 0;
}
