/*
 * tap_bpf.h - what the BPF C pass 3 writes for --runtime=bpf includes:
 * the shared maps (session globals, per-CPU frames, the ring buffer), the
 * record layout the user-space side reads (user_bpf.c), and the string
 * and map helpers a handler calls.
 *
 * Compiled by clang -target bpf only.  Strings are fixed TAP_BPF_STRLEN
 * byte buffers, always NUL-padded to their end, so that a buffer can be a
 * hash-map key as it is.  Every loop here is bounded by TAP_BPF_STRLEN so
 * that the verifier accepts it.
 * Must not: use anything but BPF helpers (no libc); change the record
 * layout without user_bpf.c.
 */
#ifndef TAP_BPF_H
#define TAP_BPF_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>	/* timer.profile, timer.hz */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "tap_bpf_abi.h"
#include "../core/limits.h"	/* TAP_MAXERRORS from -DMAXERRORS */

typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;

/* x86-64's user registers at a system call, relocated by CO-RE against
 * the running kernel's struct pt_regs (the ___tap suffix is ignored when
 * libbpf matches the name). */
struct pt_regs___tap {
	unsigned long di, si, dx, cx, r10, r8, r9, orig_ax, ax;
	/* the rest, for USDT operands (process(...).mark) */
	unsigned long bx, bp, sp, r11, r12, r13, r14, r15, ip;
} __attribute__((preserve_access_index));

/* The format records of the classic tracepoints raw_syscalls/sys_enter
 * and sys_exit (tracefs events/raw_syscalls/NAME/format), relocated by
 * CO-RE against the kernel's struct trace_event_raw_NAME: the common
 * header before them differs between kernels (PREEMPT_RT adds fields). */
struct trace_event_raw_sys_enter___tap {
	long id;
	unsigned long args[6];
} __attribute__((preserve_access_index));

struct trace_event_raw_sys_exit___tap {
	long id;
	long ret;
} __attribute__((preserve_access_index));

/* -D TAP_BPF_TEST_RAW_REFUSED, for the tier's test of the fallback
 * after a refused load (bpf_emit.c writes the call only then): a raw_tp
 * or tp_btf program reads past its arguments, which the verifier
 * refuses. */
#define TAP_BPF_TEST_REFUSE(ctx) \
	do { if (((volatile __u64 *)(ctx))[100]) return 0; } while (0)

/* x86's per-thread status word (arch/x86 thread_info, embedded in the
 * task): TS_COMPAT while the thread is in a system call made the 32-bit
 * (ia32) way. */
struct thread_info___tap {
	__u32 status;
} __attribute__((preserve_access_index));
#define TAP_TS_COMPAT	0x0002

/* The current task's parent (ppid()) and status, relocated by CO-RE. */
struct task_struct___tap {
	struct thread_info___tap thread_info;
	int tgid;
	struct task_struct___tap *real_parent;
} __attribute__((preserve_access_index));

/* Whether the current system call is an ia32 one (syscall.* probes:
 * its number is the 32-bit table's, its arguments in ebx, ecx, ...). */
static __always_inline int
tap_ia32_syscall(void)
{
	struct task_struct___tap *t = (void *)bpf_get_current_task();

	return (BPF_CORE_READ(t, thread_info.status) & TAP_TS_COMPAT) != 0;
}

static __always_inline int64_t
tap_ppid(void)
{
	struct task_struct___tap *t = (void *)bpf_get_current_task();

	return BPF_CORE_READ(t, real_parent, tgid);
}

/* Scratch of one handler run: this CPU's frame and the session state. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TAP_BPF_RINGBUF_BYTES);
} tap_ringbuf SEC(".maps");

/* Drops and the exit flag (user_bpf.c reads them). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tap_bpf_session);
} tap_session SEC(".maps");

/* A zeroed accumulator to insert (too big for the BPF stack). */
static const struct tap_bpf_stat_log tap_stat_log_zero;

static __always_inline void
tap_count_drop(struct tap_bpf_session *ss)
{
	__sync_fetch_and_add(&ss->drops, 1);
}

struct tap_bpf_rec_error;

/* The flags a print record is submitted with.  By default the kernel
 * wakes the reader for every record the reader has not caught up with,
 * which in a steady stream is nearly every one: a wakeup costs the
 * event more than its record.  Print records wake the reader only when
 * TAP_BPF_WAKEUP_BYTES wait; the reader also drains the ring every
 * TAP_BPF_READ_MS on its own (user_bpf.c).  Control records (exit,
 * error) always wake it. */
static __always_inline __u64
tap_print_wakeup(void)
{
	return bpf_ringbuf_query(&tap_ringbuf, BPF_RB_AVAIL_DATA) >= TAP_BPF_WAKEUP_BYTES ?
		BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* A control record (exit, error) on the ring buffer. */
static __always_inline void
tap_control(struct tap_bpf_session *ss, __u32 type, __u32 id)
{
	struct tap_bpf_rec_hdr *r;

	r = bpf_ringbuf_reserve(&tap_ringbuf, sizeof(*r), 0);
	if (!r) {
		tap_count_drop(ss);
		if (type == TAP_BPF_REC_EXIT || type == TAP_BPF_REC_ERROR)
			ss->lost_control = 1;
		return;
	}
	r->type = type;
	r->id = id;
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

/* exit(): user space stops the session when the record arrives; until
 * then further handlers do nothing (as after stap's exit(), no new
 * events are handled once the session is stopping). */
static __always_inline void
tap_exit(struct tap_bpf_session *ss)
{
	ss->stopping = 1;
	tap_control(ss, TAP_BPF_REC_EXIT, 0);
}

/* A script error: the message and location are the table entry `id`
 * of the user-space side, addr the faulting address when the message
 * shows one; the handler returns after calling this.  As with stap's
 * -DMAXERRORS=N, the first N errors only end their handler; the one
 * after them stops the session (user space counts the records too, and
 * stops it when the record arrives). */
static __always_inline void
tap_error_at(struct tap_bpf_session *ss, __u32 id, uint64_t addr)
{
	struct tap_bpf_rec_error *r;

	if (__sync_fetch_and_add(&ss->errors, 1) >= TAP_MAXERRORS)
		ss->stopping = 1;
	r = bpf_ringbuf_reserve(&tap_ringbuf, sizeof(*r), 0);
	if (!r) {
		tap_count_drop(ss);
		ss->lost_control = 1;
		return;
	}
	r->h.type = TAP_BPF_REC_ERROR;
	r->h.id = id;
	r->addr = addr;
	bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
}

static __always_inline void
tap_error(struct tap_bpf_session *ss, __u32 id)
{
	tap_error_at(ss, id, 0);
}

/* *dst = the size bytes at addr (kernel memory); 0 or a negative errno. */
static __always_inline long
tap_kread(void *dst, uint32_t size, uint64_t addr)
{
	return bpf_probe_read_kernel(dst, size, (const void *)addr);
}

/* Signed / and % as C's (truncating), built on the unsigned division
 * BPF has (no sdiv before -mcpu=v4).  d is never 0 here. */
static __always_inline int64_t
tap_div(int64_t n, int64_t d)
{
	uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
	uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
	uint64_t q = un / ud;

	return (n < 0) != (d < 0) ? (int64_t)-q : (int64_t)q;
}

static __always_inline int64_t
tap_mod(int64_t n, int64_t d)
{
	uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
	uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
	uint64_t r = un % ud;

	return n < 0 ? (int64_t)-r : (int64_t)r;
}

static __always_inline void
tap_str_clear(char *dst)
{
	__builtin_memset(dst, 0, TAP_BPF_STRLEN);
}

/* dst = src (src NUL-terminated within TAP_BPF_STRLEN or cut there),
 * NUL-padded to the end.  A helper copies: a byte loop here costs the
 * verifier a state per byte. */
static __always_inline void
tap_str_copy(char *dst, const char *src)
{
	if (dst == src)
		return;
	__builtin_memset(dst, 0, TAP_BPF_STRLEN);
	bpf_probe_read_kernel_str(dst, TAP_BPF_STRLEN, src);
}

/* dst = a . b, cut at TAP_BPF_STRLEN - 1 bytes.  dst is a frame
 * temporary: the frame ends with TAP_BPF_STRLEN bytes of slack, so the
 * verifier, which bounds dst + off and the size separately, sees the
 * second copy inside the frame (it never writes past dst's end). */
static __always_inline void
tap_str_concat(char *dst, const char *a, const char *b)
{
	long n;

	__builtin_memset(dst, 0, TAP_BPF_STRLEN);
	n = bpf_probe_read_kernel_str(dst, TAP_BPF_STRLEN, a);
	if (n < 1)
		n = 1;
	n = (n - 1) & (TAP_BPF_STRLEN - 1);
	if (n < TAP_BPF_STRLEN - 1)
		bpf_probe_read_kernel_str(dst + n, TAP_BPF_STRLEN - n, b);
}

/* strcmp's sign. */
static __always_inline int64_t
tap_str_compare(const char *a, const char *b)
{
	int i;

	for (i = 0; i < TAP_BPF_STRLEN; i++) {
		unsigned char x = a[i], y = b[i];

		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			return 0;
	}
	return 0;
}

static __always_inline int64_t
tap_str_len(const char *s)
{
	int i;

	for (i = 0; i < TAP_BPF_STRLEN; i++)
		if (!s[i])
			return i;
	return TAP_BPF_STRLEN - 1;
}

/* user_string(addr): 0 or a negative errno; dst is "" on failure. */
static __always_inline long
tap_read_user_str(char *dst, uint64_t addr)
{
	long n;

	tap_str_clear(dst);
	n = bpf_probe_read_user_str(dst, TAP_BPF_STRLEN, (const void *)addr);
	if (n < 0)
		tap_str_clear(dst);
	return n < 0 ? n : 0;
}

static __always_inline long
tap_read_kernel_str(char *dst, uint64_t addr)
{
	long n;

	tap_str_clear(dst);
	n = bpf_probe_read_kernel_str(dst, TAP_BPF_STRLEN, (const void *)addr);
	if (n < 0)
		tap_str_clear(dst);
	return n < 0 ? n : 0;
}

/* user_string_quoted(addr): the bytes read, and how user space must
 * render them (tap_bpf_qstr). */
static __always_inline void
tap_read_user_qstr(struct tap_bpf_qstr *q, uint64_t addr)
{
	q->addr = addr;
	if (!addr) {
		q->state = TAP_BPF_QSTR_NULL;
		tap_str_clear(q->s);
		return;
	}
	q->state = tap_read_user_str(q->s, addr) ? TAP_BPF_QSTR_UNREADABLE
						: TAP_BPF_QSTR_OK;
}

static __always_inline void
tap_execname(char *dst)
{
	tap_str_clear(dst);
	bpf_get_current_comm(dst, 16);
}

/* a[k] += delta for a hash map of int64_t: 0, or TAP_BPF_EFULL when a new
 * key does not fit.  *old gets the value before. */
static __always_inline int
tap_hash_add(void *map, const void *key, int64_t delta, int64_t *old)
{
	int64_t *v = bpf_map_lookup_elem(map, key);
	int64_t zero = 0;
	long rc;

	if (v) {
		*old = __sync_fetch_and_add(v, delta);
		return 0;
	}
	rc = bpf_map_update_elem(map, key, &zero, BPF_NOEXIST);
	if (rc && rc != -17 /* EEXIST: another CPU inserted it */)
		return TAP_BPF_EFULL;
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		return TAP_BPF_EFULL;
	*old = __sync_fetch_and_add(v, delta);
	return 0;
}

/* a[k] = value (value points at the map's value type). */
static __always_inline int
tap_hash_set(void *map, const void *key, const void *value)
{
	long rc = bpf_map_update_elem(map, key, value, BPF_ANY);

	return rc ? TAP_BPF_EFULL : 0;
}

/* This CPU's accumulator of a[k] (a per-CPU map's value), inserted as
 * `zero` on first use; NULL when a new key does not fit. */
static __always_inline void *
tap_stat_slot(void *map, const void *key, const void *zero)
{
	void *st = bpf_map_lookup_elem(map, key);

	if (!st) {
		long rc = bpf_map_update_elem(map, key, zero, BPF_NOEXIST);

		if (rc && rc != -17)	/* EEXIST: inserted meanwhile */
			return NULL;
		st = bpf_map_lookup_elem(map, key);
	}
	return st;
}

/* count, sum, min and max, which every accumulator starts with. */
static __always_inline void
tap_stat_update(struct tap_bpf_stat *st, int64_t v)
{
	if (!st->count || v < st->min)
		st->min = v;
	if (!st->count || v > st->max)
		st->max = v;
	st->count++;
	st->sum += v;
}

/* s <<< v; TAP_BPF_EFULL when a new key does not fit. */
static __always_inline int
tap_stat_add(void *map, const void *key, int64_t v)
{
	static const struct tap_bpf_stat zero;
	struct tap_bpf_stat *st = tap_stat_slot(map, key, &zero);

	if (!st)
		return TAP_BPF_EFULL;
	tap_stat_update(st, v);
	return 0;
}

/* a / b for b > 0, truncated toward zero as C's signed division (BPF
 * before v4 has only unsigned division). */
static __always_inline long long
tap_sdiv(long long a, long long b)
{
	unsigned long long q = (a < 0 ? -(unsigned long long)a
				      : (unsigned long long)a) /
			       (unsigned long long)b;

	return a < 0 ? -(long long)q : (long long)q;
}

/* runtime/core/stat.c's Welford update on v scaled by 2^shift, in its
 * integer rounding (the arithmetic wraps, as tap_add/tap_mul do there);
 * `count` is the accumulator's, v already counted. */
static __always_inline void
tap_welford_update(struct tap_bpf_welford *w, long long count, int64_t v,
		   int shift)
{
	long long vs = (long long)((unsigned long long)v << shift), delta;

	if (count == 1) {
		w->avg_s = vs;
		w->m2 = 0;
		return;
	}
	delta = (long long)((unsigned long long)vs - (unsigned long long)w->avg_s);
	w->avg_s = (long long)((unsigned long long)w->avg_s +
			       (unsigned long long)tap_sdiv(delta, count));
	w->m2 = (long long)((unsigned long long)w->m2 +
			    (unsigned long long)delta *
			    ((unsigned long long)vs - (unsigned long long)w->avg_s));
	w->variance_s = tap_sdiv(w->m2, count - 1);
}

/* s <<< v for a statistic @variance reads and no histogram prints. */
static __always_inline int
tap_stat_add_var(void *map, const void *key, int64_t v, int shift)
{
	static const struct tap_bpf_stat_var zero;
	struct tap_bpf_stat_var *st = tap_stat_slot(map, key, &zero);

	if (!st)
		return TAP_BPF_EFULL;
	tap_stat_update((struct tap_bpf_stat *)st, v);
	tap_welford_update((struct tap_bpf_welford *)&st->avg_s, st->count, v, shift);
	return 0;
}

/* runtime/core's tap_hist_log_bucket() without clz, which BPF lacks. */
static __always_inline int
tap_hist_log_bucket(int64_t v)
{
	uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int bits = 0;

	if (!v)
		return 64;
	if (mag >> 32) { bits += 32; mag >>= 32; }
	if (mag >> 16) { bits += 16; mag >>= 16; }
	if (mag >> 8) { bits += 8; mag >>= 8; }
	if (mag >> 4) { bits += 4; mag >>= 4; }
	if (mag >> 2) { bits += 2; mag >>= 2; }
	if (mag >> 1) { bits += 1; mag >>= 1; }
	bits += (int)mag;		/* 1 for 1, 2 for 2..3, ... */
	return v < 0 ? 64 - bits : 64 + bits;
}

/* s <<< v for a statistic that @hist_log prints. */
static __always_inline int
tap_stat_add_log(void *map, const void *key, int64_t v)
{
	struct tap_bpf_stat_log *st = tap_stat_slot(map, key, &tap_stat_log_zero);

	if (!st)
		return TAP_BPF_EFULL;
	tap_stat_update((struct tap_bpf_stat *)st, v);
	st->hist[tap_hist_log_bucket(v) & (TAP_BPF_HIST_LOG_BUCKETS - 1)]++;
	return 0;
}

#endif /* TAP_BPF_H */
