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
 *   kworkload getppid N [MS]  getppid() exactly N times, print
 *                             "getppid N pid PID ret PPID", then sleep MS
 *                             milliseconds (so a script can end first)
 *   kworkload tick N MS       N times: getppid(), sleep MS milliseconds
 *   kworkload spin MS         burn MS milliseconds of CPU in user mode
 *   kworkload asuser CMD...   run CMD as uid/gid 65534 (nobody)
 *   kworkload udp N PORT      send N one-byte datagrams on a UDP socket
 *                             connected to 127.0.0.1:PORT, where another
 *                             socket receives them (send errors, such as
 *                             a packet a netfilter hook dropped, ignored)
 *   kworkload tcp PORT        connect to a listening socket on
 *                             127.0.0.1:PORT, send one byte, close both
 *   kworkload tcpsynloss PORT a second connect() to a listener on
 *                             127.0.0.1:PORT whose accept queue is full:
 *                             the kernel drops its SYN, the client sends
 *                             it again after ~1 s (a retransmission);
 *                             waits 1.5 s, closes all
 *   kworkload writev N        N writev() calls to /dev/null, each with
 *                             iovecs of 1, 2 and 3 bytes
 *   kworkload mmap N          mmap N anonymous pages, write to each once,
 *                             munmap them
 *   kworkload lseek           lseek() a regular file to 5, 1, 3 and 2,
 *                             then to 3 by the 32-bit (ia32) int $0x80,
 *                             then print what each returned and where
 *                             the file is
 *   kworkload ia32            getppid() twice, then three times by int
 *                             $0x80 (ia32), a pread64 of 1 byte at 9,
 *                             then an ia32 lseek to 7; then the ia32
 *                             calls whose entry points take arguments
 *                             differently (ia32_split_calls): pread64 at
 *                             1 << 32 | 9, ftruncate64 of a /tmp file to
 *                             0x1234, fstat64 of it, mmap2 of page 1,
 *                             _llseek to 11, and a fork-like clone
 *                             (SIGCHLD, tls 0x7000, child_tid 0x8000)
 *   kworkload signals         in this order: sigaction() a handler for
 *                             SIGUSR1 (blocking SIGUSR2 while it runs)
 *                             and for SIGUSR2 (blocking nothing);
 *                             rt_sigprocmask(SIG_BLOCK, {SIGUSR2});
 *                             SIGUSR1 to itself by kill, tkill, tgkill
 *                             and rt_sigqueueinfo (si_code SI_QUEUE),
 *                             each handled at once; tkill SIGUSR2 (stays
 *                             pending); rt_sigpending;
 *                             rt_sigprocmask(SIG_UNBLOCK, {SIGUSR2})
 *                             (handled); a POSIX timer sends SIGUSR1
 *                             once (SI_TIMER, send_sigqueue); then a
 *                             child whose SIGUSR2 handler runs on an
 *                             unreadable sigaltstack tkills itself
 *                             SIGUSR2: the frame cannot be written, the
 *                             kernel force_sigsegv()s it and it dies of
 *                             SIGSEGV.  Exits 1 if a count differs.
 *   kworkload sysstruct       the calls whose user struct SystemTap's
 *                             aliases decode, each with known contents,
 *                             a NULL and an unreadable (0x10) pointer:
 *                             rt_sigaction (a fake handler and restorer,
 *                             never run: SA_RESTART, mask SIGUSR2,
 *                             SIGTERM and signal 40; SIG_IGN; SIG_DFL),
 *                             sysinfo, adjtimex and clock_adjtime
 *                             (read-only: modes 0) with the struct filled
 *                             with marks beforehand, sched_setattr
 *                             (SCHED_OTHER, nice 5), sched_getattr,
 *                             rt_sigprocmask (block SIGUSR2 and signal
 *                             40, unblock nothing, then them)
 *
 * Raw syscall() calls, so that the C library adds or changes nothing
 * (sigaction() excepted: the C library supplies the signal return code).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timex.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

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

static void
sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* The return value is printed so that a return probe can be checked
 * against what the caller really got. */
static void
getppid_calls(long n, long linger_ms)
{
	long ret = 0;

	for (long i = 0; i < n; i++)
		ret = syscall(SYS_getppid);
	printf("getppid %ld pid %ld ret %ld\n", n, (long)getpid(), ret);
	fflush(stdout);
	if (linger_ms > 0)
		sleep_ms(linger_ms);
}

/* Only the clock is asked for, every million rounds: almost all of the
 * time is spent in user mode, where timer.profile finds it. */
static void
spin(long ms)
{
	volatile unsigned long x = 0;
	long end = now_ms() + ms;

	do {
		for (int i = 0; i < 1000000; i++)
			x += i;
	} while (now_ms() < end);
}

/* Datagrams to 127.0.0.1:port on a connected socket, so that the socket
 * itself holds both ends' addresses.  A socket bound to the port receives
 * them (unread): with nobody there, each arriving datagram's ICMP "port
 * unreachable" would fail the connected socket's next send. */
static void
udp_sends(long n, int port)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int rx = socket(AF_INET, SOCK_DGRAM, 0);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rx < 0 || bind(rx, (struct sockaddr *)&to, sizeof(to)) != 0 ||
	    fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof(to)) != 0) {
		perror("kworkload: udp");
		exit(2);
	}
	for (long i = 0; i < n; i++)
		(void)syscall(SYS_sendto, fd, "x", 1, 0, NULL, 0);
	close(fd);
	close(rx);
}

/* A SYN the listener drops: listen(0) queues one connection, the first
 * connect() fills the queue (nobody accepts), so the second's SYN is
 * dropped and retransmitted by its timer (TCP_TIMEOUT_INIT, 1 s). */
static void
tcp_syn_loss(int port)
{
	struct sockaddr_in at = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0);
	int first = socket(AF_INET, SOCK_STREAM, 0);
	int second = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	struct timespec wait = { .tv_sec = 1, .tv_nsec = 500000000 };

	at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || first < 0 || second < 0 ||
	    bind(ls, (struct sockaddr *)&at, sizeof(at)) != 0 ||
	    listen(ls, 0) != 0 ||
	    connect(first, (struct sockaddr *)&at, sizeof(at)) != 0) {
		perror("kworkload: tcpsynloss");
		exit(2);
	}
	/* EINPROGRESS: the SYN is out, and dropped */
	(void)connect(second, (struct sockaddr *)&at, sizeof(at));
	nanosleep(&wait, NULL);
	close(second);
	close(first);
	close(ls);
}

/* One TCP connection over lo: handshake, one byte of data, close. */
static void
tcp_once(int port)
{
	struct sockaddr_in at = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int one = 1, ls = socket(AF_INET, SOCK_STREAM, 0);
	int cs = socket(AF_INET, SOCK_STREAM, 0), as;
	char c;

	at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || cs < 0 ||
	    bind(ls, (struct sockaddr *)&at, sizeof(at)) != 0 ||
	    listen(ls, 1) != 0 ||
	    connect(cs, (struct sockaddr *)&at, sizeof(at)) != 0 ||
	    (as = accept(ls, NULL, NULL)) < 0 || write(cs, "x", 1) != 1 ||
	    read(as, &c, 1) != 1) {
		perror("kworkload: tcp");
		exit(2);
	}
	close(cs);
	close(as);
	close(ls);
}

static void
writev_calls(long n)
{
	struct iovec iov[3] = { { buf, 1 }, { buf, 2 }, { buf, 3 } };
	long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);

	for (long i = 0; i < n; i++)
		syscall(SYS_writev, fd, iov, 3);
}

static void
mmap_touch(long pages)
{
	long size = pages * 4096;
	char *p = (char *)syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("kworkload: mmap");
		exit(2);
	}
	for (long i = 0; i < pages; i++)
		((volatile char *)p)[i * 4096] = 1;
	syscall(SYS_munmap, p, size);
}

static volatile sig_atomic_t caught[_NSIG];

static void
on_signal(int sig)
{
	caught[sig]++;
}

/* The child of signal_calls(): its SIGUSR2 frame cannot be written. */
static void
sigsegv_child(void)
{
	struct sigaction sa;
	stack_t ss;

	ss.ss_sp = (void *)syscall(SYS_mmap, NULL, 65536, PROT_NONE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	syscall(SYS_sigaltstack, &ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);
	syscall(SYS_tkill, syscall(SYS_gettid), SIGUSR2);
	_exit(0);	/* not reached: SIGSEGV */
}

static int
signal_calls(void)
{
	unsigned long usr2 = 1UL << (SIGUSR2 - 1), pending = 0;
	long pid = syscall(SYS_getpid), tid = syscall(SYS_gettid);
	struct itimerspec its = { .it_value = { 0, 1000000 } };
	struct sigaction sa;
	struct sigevent sev;
	siginfo_t si;
	int timer = -1, status = 0;
	pid_t child;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &usr2, NULL, 8);
	syscall(SYS_kill, pid, SIGUSR1);
	syscall(SYS_tkill, tid, SIGUSR1);
	syscall(SYS_tgkill, pid, tid, SIGUSR1);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = pid;
	si.si_uid = getuid();
	syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si);
	syscall(SYS_tkill, tid, SIGUSR2);
	syscall(SYS_rt_sigpending, &pending, 8);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &usr2, NULL, 8);

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &timer);
	syscall(SYS_timer_settime, timer, 0, &its, NULL);
	for (int i = 0; i < 5000 && caught[SIGUSR1] < 5; i++)
		sleep_ms(1);
	syscall(SYS_timer_delete, timer);

	child = fork();
	if (child == 0)
		sigsegv_child();
	waitpid(child, &status, 0);

	if (caught[SIGUSR1] != 5 || caught[SIGUSR2] != 1 || pending != usr2 ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGSEGV) {
		fprintf(stderr, "kworkload: signals: SIGUSR1 %d SIGUSR2 %d pending %#lx status %#x\n",
			(int)caught[SIGUSR1], (int)caught[SIGUSR2], pending,
			status);
		return 1;
	}
	return 0;
}

#include "../vm/ia32_syscall.h"

/* lseek to 5, 1, 3 and 2, then to 3 the ia32 way: a guru-mode script
 * changes the first call's offset and the second's return value by
 * kernel.function probes, the third's offset and the fourth's return
 * value by syscall probes, and the ia32 call's offset too
 * (tests/guru.stp) */
static void
lseek_calls(void)
{
	static const long to[] = { 5, 1, 3, 2 };
	long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY);
	long got[4], got32;

	for (int i = 0; i < 4; i++)
		got[i] = syscall(SYS_lseek, fd, to[i], SEEK_SET);
	got32 = ia32_syscall(IA32_LSEEK, fd, 3, SEEK_SET);
	for (int i = 0; i < 4; i++)
		printf("lseek to %ld returned %ld\n", to[i], got[i]);
	printf("ia32 lseek to 3 returned %ld\n", got32);
	printf("the file is at %ld\n", (long)syscall(SYS_lseek, fd, 0L, SEEK_CUR));
}

/* The ia32 calls whose entry points split, reorder or scale arguments
 * (sys_ia32_pread64, compat_sys_ia32_clone, ...), each with known values,
 * which the syscall.* probes show in their x86_64 form (tests/ia32.stp);
 * and what each returned, checked the 64-bit way. */
static void
ia32_split_calls(long fd)
{
	const char *tmp = "/tmp/kworkload-ia32";
	long fd2 = syscall(SYS_openat, AT_FDCWD, tmp, O_RDWR | O_CREAT | O_TRUNC,
			   0600);
	/* what the ia32 calls write is in buf: a 32-bit address (non-PIE
	 * static), and no new static to move the others */
	char *page0 = malloc(4096);
	long r, size, addr;
	long long llseek_result;
	int status = -1;

	/* fd, buf, count, pos_lo, pos_hi: past the end of the file */
	buf[0] = 0;
	r = ia32_syscall6(IA32_PREAD64, fd, (long)buf, 1, 9, 1, 0);
	printf("ia32 pread64 at 1 << 32 | 9 returned %ld, byte %d\n", r,
	       buf[0]);
	r = ia32_syscall6(IA32_FTRUNCATE64, fd2, 0x1234, 0, 0, 0, 0);
	fstat((int)fd2, &st);
	printf("ia32 ftruncate64 to 0x1234 returned %ld, size %#lx\n", r,
	       (long)st.st_size);
	/* an ia32 struct stat64: 96 bytes, st_size at 44 (packed) */
	r = ia32_syscall6(IA32_FSTAT64, fd2, (long)buf, 0, 0, 0, 0);
	memcpy(&size, buf + 44, sizeof(size));
	printf("ia32 fstat64 returned %ld, st_size %#lx\n", r, size);
	/* addr, len, prot, flags, fd, pgoff */
	addr = ia32_syscall6(IA32_MMAP2, 0, 4096, PROT_READ, MAP_PRIVATE, fd,
			     1) & 0xffffffff;
	syscall(SYS_pread64, fd, buf, 4096L, 4096L);
	syscall(SYS_pread64, fd, page0, 4096L, 0L);
	if (addr >= (-4095L & 0xffffffff))
		printf("ia32 mmap2 failed: %ld\n", addr - 0x100000000L);
	else {
		printf("ia32 mmap2 of page 1 mapped %s\n",
		       memcmp((void *)addr, buf, 4096) == 0 ? "page 1" :
		       memcmp((void *)addr, page0, 4096) == 0 ? "page 0" :
		       "neither page 0 nor 1");
		syscall(SYS_munmap, addr, 4096L);
	}
	/* fd, offset_high, offset_low, result, whence */
	r = ia32_syscall6(IA32__LLSEEK, fd, 0, 11, (long)buf, SEEK_SET, 0);
	memcpy(&llseek_result, buf, sizeof(llseek_result));
	printf("ia32 _llseek to 11 returned %ld, result %lld\n", r,
	       llseek_result);
	/* flags, newsp, parent_tid, tls, child_tid: a fork, tls and
	 * child_tid unused without their CLONE_ flags */
	r = ia32_syscall6(IA32_CLONE, SIGCHLD, 0, 0, 0x7000, 0x8000, 0);
	if (r == 0)
		syscall(SYS_exit_group, 3);
	if (r > 0)
		syscall(SYS_wait4, r, &status, 0, NULL);
	printf("ia32 clone: the child exited with %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	syscall(SYS_close, fd2);
	syscall(SYS_unlinkat, AT_FDCWD, tmp, 0);
	free(page0);
}

/* getppid() twice the 64-bit way and three times the ia32 way, a
 * pread64 at 9, then an ia32 lseek(fd, 7, SEEK_SET) on a file opened the
 * 64-bit way */
static void
ia32_calls(void)
{
	long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/exe", O_RDONLY);
	long ppid = syscall(SYS_getppid), ok = 0;

	syscall(SYS_getppid);
	for (int i = 0; i < 3; i++)
		ok += ia32_syscall(IA32_GETPPID, 0, 0, 0) == ppid;
	/* a 64-bit call with a fourth argument: in r10, not rcx */
	syscall(SYS_pread64, fd, buf, 1L, 9L);
	printf("ia32 getppid agreed %ld of 3 times\n", ok);
	printf("ia32 lseek to 7 returned %ld\n",
	       ia32_syscall(IA32_LSEEK, fd, 7, SEEK_SET));
	ia32_split_calls(fd);
}

/* The x86_64 layouts (runtime/core/sysstruct.h): the C library's
 * struct sigaction is not the kernel's, and sched_attr has no header. */
struct k_sigaction_abi {
	unsigned long handler, flags, restorer, mask;
};

struct sched_attr_abi {
	unsigned int size, sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime, sched_deadline, sched_period;
};

static void
sysstruct_calls(void)
{
	void *bad = (void *)0x10;
	struct k_sigaction_abi act = {
		.handler = 0x10000, .flags = SA_RESTART | 0x04000000,
		.restorer = 0x20000,
		.mask = 1UL << (SIGUSR2 - 1) | 1UL << (SIGTERM - 1) |
			1UL << (40 - 1),
	};
	struct sysinfo_abi {
		long uptime;
		unsigned long loads[3], totalram, freeram, sharedram,
			bufferram, totalswap, freeswap;
		unsigned short procs;
		char rest[30];
	} si = { 1, { 2, 3, 4 }, 5, 6, 7, 8, 9, 10, 11, { 0 } };
	struct timex tx;
	struct sched_attr_abi attr = {
		.size = sizeof(attr), .sched_policy = 0 /* SCHED_OTHER */,
		.sched_nice = 5,
	};

	syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, 8);
	act.handler = (unsigned long)SIG_IGN;
	syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, 8);
	act.handler = (unsigned long)SIG_DFL;
	syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, 8);
	syscall(SYS_rt_sigaction, SIGUSR1, NULL, &act, 8);
	syscall(SYS_rt_sigaction, SIGUSR1, bad, NULL, 8);

	syscall(SYS_sysinfo, &si);
	syscall(SYS_sysinfo, NULL);
	syscall(SYS_sysinfo, bad);

	memset(&tx, 0, sizeof(tx));
	tx.modes = 0;
	tx.offset = -7;
	tx.freq = -1200;
	tx.maxerror = 3;
	tx.esterror = 4;
	tx.status = 64;
	tx.constant = 2;
	tx.precision = 1;
	tx.tolerance = 5;
	tx.tick = 10000;
	syscall(SYS_adjtimex, &tx);
	syscall(SYS_adjtimex, bad);
	/* the same marks again: adjtimex wrote the clock's state back */
	tx.modes = 0;
	tx.offset = -7;
	tx.freq = -1200;
	tx.maxerror = 3;
	tx.esterror = 4;
	tx.status = 64;
	tx.constant = 2;
	tx.precision = 1;
	tx.tolerance = 5;
	tx.tick = 10000;
	syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);
	syscall(SYS_clock_adjtime, CLOCK_REALTIME, NULL);

	syscall(SYS_sched_setattr, 0, &attr, 0);
	syscall(SYS_sched_setattr, 0, bad, 0);
	attr.sched_nice = -3;
	attr.sched_period = 42;
	syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0);

	act.mask = 1UL << (SIGUSR2 - 1) | 1UL << (40 - 1);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &act.mask, NULL, 8);
	act.handler = 0;
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &act.handler, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &act.mask, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, NULL, &act.mask, 8);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, bad, NULL, 8);
}

int
main(int argc, char **argv)
{
	long n = argc >= 3 ? atol(argv[2]) : 0;

	if (argc >= 3 && strcmp(argv[1], "asuser") == 0) {
		if (setgid(65534) != 0 || setuid(65534) != 0) {
			perror("kworkload: asuser");
			return 2;
		}
		execvp(argv[2], argv + 2);
		perror("kworkload: asuser: exec");
		return 127;
	}
	if (argc >= 2 && strcmp(argv[1], "openmissing") == 0)
		open_missing(n);
	else if (argc >= 2 && strcmp(argv[1], "argstr") == 0)
		argstr_calls();
	else if (argc >= 2 && strcmp(argv[1], "fork") == 0)
		fork_children(n);
	else if (argc >= 3 && strcmp(argv[1], "getppid") == 0)
		getppid_calls(n, argc >= 4 ? atol(argv[3]) : 0);
	else if (argc >= 4 && strcmp(argv[1], "tick") == 0) {
		for (long i = 0; i < n; i++) {
			syscall(SYS_getppid);
			sleep_ms(atol(argv[3]));
		}
	} else if (argc >= 3 && strcmp(argv[1], "spin") == 0)
		spin(n);
	else if (argc >= 3 && strcmp(argv[1], "write") == 0) {
		long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);

		for (long done = 0; done < n; done += sizeof(buf))
			syscall(SYS_write, fd, buf,
				n - done < (long)sizeof(buf) ? n - done
							      : (long)sizeof(buf));
	} else if (argc >= 4 && strcmp(argv[1], "udp") == 0)
		udp_sends(n, atoi(argv[3]));
	else if (argc >= 3 && strcmp(argv[1], "tcp") == 0)
		tcp_once(atoi(argv[2]));
	else if (argc >= 3 && strcmp(argv[1], "tcpsynloss") == 0)
		tcp_syn_loss(atoi(argv[2]));
	else if (argc >= 3 && strcmp(argv[1], "writev") == 0)
		writev_calls(n);
	else if (argc >= 3 && strcmp(argv[1], "mmap") == 0)
		mmap_touch(n);
	else if (argc >= 2 && strcmp(argv[1], "signals") == 0)
		return signal_calls();
	else if (argc >= 2 && strcmp(argv[1], "lseek") == 0)
		lseek_calls();
	else if (argc >= 2 && strcmp(argv[1], "ia32") == 0)
		ia32_calls();
	else if (argc >= 2 && strcmp(argv[1], "sysstruct") == 0)
		sysstruct_calls();
	else {
		fprintf(stderr, "usage: kworkload openmissing|argstr|fork|write|getppid|tick|spin N [MS] | udp N PORT | tcp PORT | tcpsynloss PORT | writev N | mmap N | signals | lseek | ia32 | sysstruct | asuser CMD...\n");
		return 2;
	}
	return 0;
}
