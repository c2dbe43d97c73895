/*
 * fworkload.c -- the fault campaign's workload (testsuite/faults): a
 * static program that makes system calls of a known shape for as long as
 * a scenario needs, and exits or execs while its threads are inside them.
 *
 *   fworkload getppid N           getppid() exactly N times
 *   fworkload getppid-for SECS    getppid() in a loop for SECS seconds
 *   fworkload threads-exec T MS   T threads openat() a missing file in a
 *                                 loop; after MS ms the main thread execs
 *                                 `fworkload threads-exit T MS` (by
 *                                 argv[0], so that the name stays)
 *   fworkload threads-exit T MS   the same, then exit_group() after MS ms
 *                                 with every thread still in its loop
 *   fworkload rename-read SECS    read a file for SECS seconds while a
 *                                 child renames a directory above it
 *                                 back and forth (RENAME_DIR/{a,c}/b/f)
 *   fworkload asuser CMD...       run CMD as uid/gid 65534 (nobody)
 *
 * Raw syscall() calls, so that the C library adds or changes nothing; the
 * open loops name MISSING, which scenarios filter on.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MISSING "/nonexistent-tapc-fault"
#define RENAME_DIR "/tmp/tf-rename"

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The clock is read every 1024 calls: the loop is almost all syscalls. */
static void
getppid_for(long secs)
{
	long end = now_ms() + secs * 1000;

	do {
		for (int i = 0; i < 1024; i++)
			syscall(SYS_getppid);
	} while (now_ms() < end);
}

static void *
open_loop(void *unused)
{
	(void)unused;
	for (;;)
		syscall(SYS_openat, AT_FDCWD, MISSING, O_RDONLY);
	return NULL;
}

/* A path walked while it changes: every read of the open file has its
 * path taken by the probe while the child's renames bump rename_lock's
 * sequence, so the walk must retry (where the kernel's d_path() takes
 * rename_lock, a sleeping lock on PREEMPT_RT).  Raw renames, no mv: a
 * fork and exec per rename made the race too rare to hit. */
static int
rename_read(long secs)
{
	long end = now_ms() + secs * 1000, reads = 0;
	char byte;
	pid_t child;
	int fd;

	mkdir(RENAME_DIR, 0755);
	mkdir(RENAME_DIR "/a", 0755);
	mkdir(RENAME_DIR "/a/b", 0755);
	fd = open(RENAME_DIR "/a/b/f", O_CREAT | O_RDWR, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		perror("fworkload: rename-read");
		return 2;
	}
	child = fork();
	if (child == 0)
		for (;;) {
			rename(RENAME_DIR "/a", RENAME_DIR "/c");
			rename(RENAME_DIR "/c", RENAME_DIR "/a");
		}
	do {
		for (int i = 0; i < 256; i++, reads++)
			(void)pread(fd, &byte, 1, 0);
	} while (now_ms() < end);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("reads %ld\n", reads);
	return 0;
}

/* Threads in their syscall loop, then the whole process goes at once:
 * by exec (every other thread is killed mid-loop) or by exit_group. */
static int
threads_then(const char *self, long threads, long ms, int do_exec)
{
	pthread_t t;
	char nthreads[24], nms[24];

	for (long i = 0; i < threads; i++)
		if (pthread_create(&t, NULL, open_loop, NULL) != 0) {
			perror("fworkload: pthread_create");
			return 2;
		}
	sleep_ms(ms);
	if (do_exec) {
		snprintf(nthreads, sizeof(nthreads), "%ld", threads);
		snprintf(nms, sizeof(nms), "%ld", ms);
		execlp(self, self, "threads-exit", nthreads, nms, (char *)NULL);
		perror("fworkload: exec");
		return 127;
	}
	syscall(SYS_exit_group, 0);
	return 0;
}

int
main(int argc, char **argv)
{
	long n = argc >= 3 ? atol(argv[2]) : 0;

	if (argc >= 3 && strcmp(argv[1], "asuser") == 0) {
		/* root's supplementary groups go too: only "other" bits
		 * may let nobody in */
		if (setgroups(0, NULL) != 0 || setgid(65534) != 0 ||
		    setuid(65534) != 0) {
			perror("fworkload: asuser");
			return 2;
		}
		execvp(argv[2], argv + 2);
		perror("fworkload: asuser: exec");
		return 127;
	}
	if (argc >= 3 && strcmp(argv[1], "getppid") == 0) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (argc >= 3 && strcmp(argv[1], "getppid-for") == 0) {
		getppid_for(n);
	} else if (argc >= 3 && strcmp(argv[1], "rename-read") == 0) {
		return rename_read(n);
	} else if (argc >= 4 && strcmp(argv[1], "threads-exec") == 0) {
		return threads_then(argv[0], n, atol(argv[3]), 1);
	} else if (argc >= 4 && strcmp(argv[1], "threads-exit") == 0) {
		return threads_then(argv[0], n, atol(argv[3]), 0);
	} else {
		fprintf(stderr, "usage: fworkload getppid|getppid-for|rename-read|threads-exec|threads-exit N [MS] | asuser CMD...\n");
		return 2;
	}
	return 0;
}
