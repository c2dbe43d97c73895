/*
 * stat_bench.c -- the classic tracer benchmark's workload: THREADS threads,
 * each calling stat(PATH) CALLS times, started together; repeated REPEAT
 * times, keeping the fastest round.
 *
 *   stat_bench [-t THREADS] [-n CALLS] [-r REPEAT] [-p PATH]
 *
 * Prints one line of key=value pairs:
 *   ns_call    wall time of the round / (THREADS * CALLS): the machine's
 *              time per call, comparable across thread counts when the
 *              vCPUs are interleaved (single-threaded TCG);
 *   ns_thread  wall time / CALLS: the time one thread sees per call;
 *   pid, calls (stat() calls made in all rounds, for counting events).
 * Built static: it runs in the VM's busybox initramfs.  Never asserts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long ncalls = 100000;
static const char *path = "/tmp";
static pthread_barrier_t go;

struct worker {
	pthread_t thread;
	double start, end;	/* seconds, CLOCK_MONOTONIC */
	int failed;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct stat st;
	long i;

	pthread_barrier_wait(&go);
	w->start = now();
	for (i = 0; i < ncalls; i++)
		if (stat(path, &st) != 0)
			w->failed = 1;
	w->end = now();
	return NULL;
}

/* One round: returns its wall time in seconds, or -1. */
static double
round_once(struct worker *w, int nthreads)
{
	double first, last;
	int i;

	pthread_barrier_init(&go, NULL, nthreads);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&w[i].thread, NULL, work, &w[i]) != 0) {
			perror("stat_bench: pthread_create");
			exit(1);
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(w[i].thread, NULL);
	pthread_barrier_destroy(&go);
	first = w[0].start;
	last = w[0].end;
	for (i = 0; i < nthreads; i++) {
		if (w[i].failed)
			return -1;
		if (w[i].start < first)
			first = w[i].start;
		if (w[i].end > last)
			last = w[i].end;
	}
	return last - first;
}

int
main(int argc, char **argv)
{
	int nthreads = 1, repeat = 3, opt, r;
	struct worker *w;
	double best = -1, t;

	while ((opt = getopt(argc, argv, "t:n:r:p:")) != -1) {
		switch (opt) {
		case 't': nthreads = atoi(optarg); break;
		case 'n': ncalls = atol(optarg); break;
		case 'r': repeat = atoi(optarg); break;
		case 'p': path = optarg; break;
		default:
			fprintf(stderr, "usage: stat_bench [-t THREADS] [-n CALLS] [-r REPEAT] [-p PATH]\n");
			return 2;
		}
	}
	if (nthreads < 1 || ncalls < 1 || repeat < 1) {
		fprintf(stderr, "stat_bench: THREADS, CALLS and REPEAT must be positive\n");
		return 2;
	}
	w = calloc(nthreads, sizeof(*w));
	if (!w)
		return 1;
	for (r = 0; r < repeat; r++) {
		memset(w, 0, nthreads * sizeof(*w));
		t = round_once(w, nthreads);
		if (t < 0) {
			fprintf(stderr, "stat_bench: stat(\"%s\") failed\n", path);
			return 1;
		}
		if (best < 0 || t < best)
			best = t;
	}
	printf("stat_bench threads=%d ns_call=%.0f ns_thread=%.0f pid=%d calls=%ld\n",
	       nthreads, best * 1e9 / ((double)nthreads * ncalls),
	       best * 1e9 / ncalls, (int)getpid(),
	       (long)repeat * nthreads * ncalls);
	free(w);
	return 0;
}
