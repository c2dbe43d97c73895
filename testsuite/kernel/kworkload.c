/*
 * kworkload.c -- a static program with known system call shapes for the
 * kernel tapset tests (testsuite/kernel/run).
 *
 *   kworkload openmissing N   openat() a missing file exactly N times
 *   kworkload argstr          one call each of a fixed set of syscalls whose
 *                             arguments strace and argstr both print; every
 *                             pointer is a static (non-PIE) address or NULL
 *                             so the output is the same on every run
 *   kworkload fork N          fork N children that exit at once
 *   kworkload write N         write N bytes to /dev/null
 *
 * Raw syscall() calls, so that the C library adds or changes nothing.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define MISSING "/nonexistent-tapc"

static struct stat st;
static char buf[4096];
/* Escapes of every kind, and longer than the 32 bytes strace shows. */
static const char msg[] = "hi \"tapc\"\n\t\\ \0017\033 and some more bytes";

static void
open_missing(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_openat, AT_FDCWD, MISSING, O_RDONLY);
}

static void
argstr_calls(void)
{
	void *fixed = (void *)0x10000000;
	long fd;

	fd = syscall(SYS_openat, AT_FDCWD, "/tmp/kw-file",
		     O_WRONLY | O_CREAT | O_TRUNC, 0644);
	syscall(SYS_write, fd, msg, sizeof(msg) - 1);
	syscall(SYS_write, fd, buf, 3);
	syscall(SYS_lseek, fd, 0, SEEK_END);
	syscall(SYS_close, fd);
	syscall(SYS_openat, AT_FDCWD, "/tmp/kw-file", O_RDONLY | O_CLOEXEC);
	syscall(SYS_open, MISSING, O_RDWR | O_NONBLOCK);
	syscall(SYS_access, "/tmp/kw-file", R_OK | W_OK);
	syscall(SYS_access, MISSING, F_OK);
	syscall(SYS_newfstatat, AT_FDCWD, "/tmp/kw-file", &st,
		AT_SYMLINK_NOFOLLOW);
	syscall(SYS_mmap, fixed, 8192, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	syscall(SYS_mprotect, fixed, 4096, PROT_READ);
	syscall(SYS_munmap, fixed, 8192);
	syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	syscall(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	syscall(SYS_mkdirat, AT_FDCWD, "/tmp/kw-dir", 0755);
	syscall(SYS_unlinkat, AT_FDCWD, "/tmp/kw-dir", AT_REMOVEDIR);
	syscall(SYS_unlinkat, AT_FDCWD, "/tmp/kw-file", 0);
	syscall(SYS_kill, 0, 0);
}

static void
fork_children(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
	}
}

int
main(int argc, char **argv)
{
	long n = argc >= 3 ? atol(argv[2]) : 0;

	if (argc >= 2 && strcmp(argv[1], "openmissing") == 0)
		open_missing(n);
	else if (argc >= 2 && strcmp(argv[1], "argstr") == 0)
		argstr_calls();
	else if (argc >= 2 && strcmp(argv[1], "fork") == 0)
		fork_children(n);
	else if (argc >= 3 && strcmp(argv[1], "write") == 0) {
		long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);

		for (long done = 0; done < n; done += sizeof(buf))
			syscall(SYS_write, fd, buf,
				n - done < (long)sizeof(buf) ? n - done
							      : (long)sizeof(buf));
	} else {
		fprintf(stderr, "usage: kworkload openmissing|argstr|fork|write N\n");
		return 2;
	}
	return 0;
}
