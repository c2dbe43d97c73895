/*
 * workload.c -- a static program the VM tests run so that probes see a
 * known number of events.
 *
 *   workload getppid N     make exactly N getppid() system calls
 *   workload syscalls MS   make cheap system calls for MS milliseconds
 *   workload getuid N      make exactly N getuid() calls (a fixed amount of
 *                          probe output, however fast the host is)
 *   workload sleep MS      sleep MS milliseconds
 *   workload asuser CMD... run CMD as uid/gid 65534 (nobody)
 *   workload badclose N    make exactly N close(999) calls, each failing
 *                          with EBADF (fd 999 is never open here)
 *   workload ia32 N        make N getppid() calls the 32-bit (ia32) way,
 *                          by int $0x80, then an ia32 lseek(fd, 7,
 *                          SEEK_SET) of a file opened the 64-bit way;
 *                          then (ia32_split) the ia32 pread64 of 1 byte
 *                          at 1 << 32 | 9, _llseek to 11, mmap2 of
 *                          page 1 and a fork-like clone (SIGCHLD, tls
 *                          0x7000, child_tid 0x8000) whose child exits 3
 *
 * Must not: make getppid() calls other than the N asked for (tests count
 * them exactly).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

#include "ia32_syscall.h"

/* The ia32 calls whose entry points split, reorder or scale arguments,
 * with known values (tests/syscall-ia32.stp of the bpfvm tier shows them
 * in their x86_64 form), on fd; what they write is at a 32-bit address
 * (MAP_32BIT: a static-pie's own data is not). */
static void
ia32_split(long fd)
{
	char *low = (char *)syscall(SYS_mmap, 0L, 4096L, (long)(PROT_READ | PROT_WRITE),
				    (long)(MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT), -1L, 0L);
	long r;
	int status;

	if (low == MAP_FAILED) {
		perror("workload: mmap MAP_32BIT");
		exit(1);
	}
	/* fd, buf, count, pos_lo, pos_hi; fd, offset_high, offset_low,
	 * result, whence; addr, len, prot, flags, fd, pgoff */
	ia32_syscall6(IA32_PREAD64, fd, (long)low, 1, 9, 1, 0);
	ia32_syscall6(IA32__LLSEEK, fd, 0, 11, (long)low, SEEK_SET, 0);
	r = ia32_syscall6(IA32_MMAP2, 0, 4096, PROT_READ, MAP_PRIVATE, fd, 1) &
		0xffffffff;
	if (r < (-4095L & 0xffffffff))
		syscall(SYS_munmap, r, 4096L);
	/* flags, newsp, parent_tid, tls, child_tid: a fork */
	r = ia32_syscall6(IA32_CLONE, SIGCHLD, 0, 0, 0x7000, 0x8000, 0);
	if (r == 0)
		syscall(SYS_exit_group, 3);
	if (r > 0)
		syscall(SYS_wait4, r, &status, 0, NULL);
	syscall(SYS_munmap, (long)low, 4096L);
}

int
main(int argc, char **argv)
{
	long n, i;
	long long end;

	if (argc >= 3 && strcmp(argv[1], "asuser") == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0) {
			perror("workload: asuser");
			return 2;
		}
		execvp(argv[2], argv + 2);
		perror("workload: asuser: exec");
		return 127;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: workload getppid N | syscalls MS | getuid N | sleep MS | badclose N | ia32 N | asuser CMD...\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 10);
	if (strcmp(argv[1], "getppid") == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (strcmp(argv[1], "syscalls") == 0) {
		end = now_ms() + n;
		while (now_ms() < end)
			syscall(SYS_getuid);
		return 0;
	}
	if (strcmp(argv[1], "getuid") == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_getuid);
		return 0;
	}
	if (strcmp(argv[1], "badclose") == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_close, 999);
		return 0;
	}
	if (strcmp(argv[1], "ia32") == 0) {
		long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY);

		for (i = 0; i < n; i++)
			ia32_syscall(IA32_GETPPID, 0, 0, 0);
		ia32_syscall(IA32_LSEEK, fd, 7, SEEK_SET);
		ia32_split(fd);
		return 0;
	}
	if (strcmp(argv[1], "sleep") == 0) {
		usleep(n * 1000);
		return 0;
	}
	fprintf(stderr, "workload: unknown mode %s\n", argv[1]);
	return 2;
}
