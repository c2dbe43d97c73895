/*
 * tap_bpf_abi.h - the layout both halves of a --runtime=bpf program
 * agree on: the BPF side (tap_bpf.h, compiled by clang -target bpf) and
 * the user-space side (user_bpf.c, compiled into the runtime/user
 * program).  Records on the ring buffer, the session map's value, the
 * statistics accumulator and the string size.
 * Must not: use types that differ between the two compilers (only fixed
 * width integers and char arrays).
 */
#ifndef TAP_BPF_ABI_H
#define TAP_BPF_ABI_H

/* Bytes of a string in a BPF handler (a power of two: indexes are
 * masked with it).  Longer strings are cut, as MAXSTRINGLEN cuts. */
#ifndef TAP_BPF_STRLEN
#define TAP_BPF_STRLEN		128
#endif
#ifndef TAP_BPF_RINGBUF_BYTES
#define TAP_BPF_RINGBUF_BYTES	(4 << 20)
#endif
/* Print records wake the reader once this much waits (tap_bpf.h's
 * tap_print_wakeup); it drains the ring every TAP_BPF_READ_MS anyway. */
#ifndef TAP_BPF_WAKEUP_BYTES
#define TAP_BPF_WAKEUP_BYTES	(TAP_BPF_RINGBUF_BYTES / 8)
#endif
#ifndef TAP_BPF_READ_MS
#define TAP_BPF_READ_MS		20
#endif

#define TAP_BPF_EFULL		1	/* a map had no room for a new key */

/* Record types (tap_bpf_rec_hdr.type). */
#define TAP_BPF_REC_PRINT	1	/* id: the print site; then its args */
#define TAP_BPF_REC_EXIT	2	/* exit() */
#define TAP_BPF_REC_ERROR	3	/* id: the error site */

struct tap_bpf_rec_hdr {
	unsigned int type;
	unsigned int id;
};

/* TAP_BPF_REC_ERROR: the address a read faulted at, for messages that
 * show it ("kernel read fault at 0x..."). */
struct tap_bpf_rec_error {
	struct tap_bpf_rec_hdr h;
	unsigned long long addr;
};

/* tap_session[0]. */
struct tap_bpf_session {
	unsigned long long drops;	/* records the ring buffer refused */
	unsigned long long lost_control;/* an exit/error record was lost */
	unsigned long long stopping;	/* exit() or an error: handlers
					 * do nothing more */
	long long target_pid;		/* target(), set by user space */
	long long realtime_offset;	/* CLOCK_REALTIME - CLOCK_MONOTONIC
					 * (bpf_ktime_get_ns), ns */
	unsigned long long errors;	/* script errors raised, for
					 * MAXERRORS (tap_error_at) */
};

/* One CPU's `<<<` accumulator: what @count @sum @min @max @avg need. */
struct tap_bpf_stat {
	long long count, sum, min, max;
};

/* ... with @hist_log's buckets (runtime/core/stat.h's layout: bucket 64
 * holds 0, 64 + n the values of n bits, 64 - n their negatives). */
#define TAP_BPF_HIST_LOG_BUCKETS	128
struct tap_bpf_stat_log {
	long long count, sum, min, max;
	long long hist[TAP_BPF_HIST_LOG_BUCKETS];
};

/* ... with Welford's state for @variance, as runtime/core/stat.h keeps
 * it per CPU (values scaled by 2^shift): user space merges the CPUs'
 * states as runtime/core merges its slots. */
struct tap_bpf_stat_var {
	long long count, sum, min, max;
	long long avg_s, m2, variance_s;
};

/* The same Welford state after a histogram's buckets, for a statistic
 * that @variance reads and a histogram prints ('h' and 'n' maps: the
 * accumulator's last bytes). */
struct tap_bpf_welford {
	long long avg_s, m2, variance_s;
};

/* A string array's value. */
struct tap_bpf_strval {
	char s[TAP_BPF_STRLEN];
};

/* Loop rounds in one handler before the MAXACTION error: SystemTap's
 * -D MAXACTION=N sets it here too.  The verifier walks a loop round by
 * round, so a large bound can make a program too big to load (E2BIG,
 * user_bpf.c says so). */
#ifndef TAP_BPF_MAXACTION
#ifdef MAXACTION
#define TAP_BPF_MAXACTION	MAXACTION
#else
#define TAP_BPF_MAXACTION	1000
#endif
#endif

/* user_string_quoted(): the state decides how user space renders it. */
#define TAP_BPF_QSTR_OK		0	/* "text" with escapes */
#define TAP_BPF_QSTR_NULL	1	/* NULL */
#define TAP_BPF_QSTR_UNREADABLE	2	/* 0x<addr> */
struct tap_bpf_qstr {
	long long state;
	unsigned long long addr;
	char s[TAP_BPF_STRLEN];
};

#endif /* TAP_BPF_ABI_H */
