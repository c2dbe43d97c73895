/*
 * sysstruct.c -- user structs of system calls as the text SystemTap's
 * syscall aliases give them (see sysstruct.h).
 *
 * The field names, their order and the punctuation are SystemTap's, so
 * that a script's output reads the same under both; the flag words and
 * signal names come from sysfmt.c.  Where SystemTap's spelling loses or
 * garbles a value, the value wins, and the comment at the function says
 * how the text differs.  A copy of the struct comes in; reading it from
 * user memory, and what to print when that fails, are the caller's.
 */
#include "sysstruct.h"
#include "sysfmt.h"
#include "buf.h"

/* The layouts of sysstruct.h are the x86_64 ABI's: where the last field
 * printed sits. */
_Static_assert(offsetof(struct tap_sys_sigaction, mask) == 24,
	       "struct sigaction layout");
_Static_assert(offsetof(struct tap_sys_sysinfo, procs) == 80,
	       "struct sysinfo layout");
_Static_assert(offsetof(struct tap_sys_timex, tick) == 88,
	       "struct __kernel_timex layout");
_Static_assert(sizeof(struct tap_sys_sched_attr) == 48,
	       "struct sched_attr layout (SCHED_ATTR_SIZE_VER0)");

/* "0x1f", "0x0": the %#lx of SystemTap's runtime, which keeps the 0x
 * for zero. */
static void
put_hex(struct tap_buf *b, uint64_t v)
{
	char tmp[64];
	int n = __tap_utoa_rev(tmp, v, 16, false);

	tap_buf_puts(b, "0x");
	while (n > 0)
		tap_buf_putc(b, tmp[--n]);
}

/* One "name=value" after its separator: sep and name are one literal,
 * ", freq=". */
static void
put_s(struct tap_buf *b, const char *sep_name, int64_t v)
{
	tap_buf_puts(b, sep_name);
	tap_buf_put_s64(b, v);
}

static void
put_u(struct tap_buf *b, const char *sep_name, uint64_t v)
{
	tap_buf_puts(b, sep_name);
	tap_buf_put_u64(b, v);
}

/* A flag word of sysfmt.c decoded in place at the end of b. */
static void
put_set(struct tap_buf *b, enum tap_sysfmt_set set, uint64_t v)
{
	if (b->len + 1 >= b->cap)
		return;
	tap_sysfmt_decode(b->data + b->len, b->cap - b->len, set, (long)v);
	b->len += tap_strlen(b->data + b->len);
}

static void
put_sigset(struct tap_buf *b, uint64_t mask)
{
	int sig;

	if (!mask) {
		tap_buf_puts(b, "[EMPTY]");
		return;
	}
	tap_buf_putc(b, '[');
	for (sig = 1; sig <= 64; sig++) {
		if (!(mask & (1ULL << (sig - 1))))
			continue;
		put_set(b, TAP_SYSFMT_SIGNAL, (uint64_t)sig);
		mask &= ~(1ULL << (sig - 1));
		if (mask)
			tap_buf_putc(b, '|');
	}
	tap_buf_putc(b, ']');
}

/*
 * A signal set: "[SIGINT|SIGTERM]", "[EMPTY]".  In signal-number order,
 * and every signal is there: SystemTap leaves out the ones its table does
 * not name (SIGSTKFLT, the real-time signals), which are numbers here, as
 * _sc_signal() gives them ("[SIGUSR1|34]"); SIGIO is "SIGIO".
 */
void
tap_sysstruct_sigset(char *dst, size_t size, uint64_t mask)
{
	struct tap_buf b;

	tap_buf_init(&b, dst, size);
	put_sigset(&b, mask);
}

/*
 * "SIG_DFL", "SIG_IGN", or the handler, the flags, the restorer and the
 * mask: "0x401a2e, SA_RESTART|SA_RESTORER, 0x401f70, [SIGUSR2]".
 */
void
tap_sysstruct_sigaction(char *dst, size_t size,
			const struct tap_sys_sigaction *act)
{
	struct tap_buf b;

	tap_buf_init(&b, dst, size);
	if (act->handler == 0) {
		tap_buf_puts(&b, "SIG_DFL");
		return;
	}
	if (act->handler == 1) {
		tap_buf_puts(&b, "SIG_IGN");
		return;
	}
	put_hex(&b, act->handler);
	tap_buf_puts(&b, ", ");
	put_set(&b, TAP_SYSFMT_SA_FLAGS, act->flags);
	tap_buf_puts(&b, ", ");
	put_hex(&b, act->restorer);
	tap_buf_puts(&b, ", ");
	put_sigset(&b, act->mask);
}

/* "{uptime=5, loads=[0, 0, 0], totalram=..., procs=70}": mem_unit and
 * the high memory fields are not shown, as in SystemTap. */
void
tap_sysstruct_sysinfo(char *dst, size_t size,
		      const struct tap_sys_sysinfo *si)
{
	struct tap_buf b;

	tap_buf_init(&b, dst, size);
	put_s(&b, "{uptime=", si->uptime);
	put_u(&b, ", loads=[", si->loads[0]);
	put_u(&b, ", ", si->loads[1]);
	put_u(&b, ", ", si->loads[2]);
	put_u(&b, "], totalram=", si->totalram);
	put_u(&b, ", freeram=", si->freeram);
	put_u(&b, ", sharedram=", si->sharedram);
	put_u(&b, ", bufferram=", si->bufferram);
	put_u(&b, ", totalswap=", si->totalswap);
	put_u(&b, ", freeswap=", si->freeswap);
	put_u(&b, ", procs=", si->procs);
	tap_buf_putc(&b, '}');
}

/*
 * "{ADJ_OFFSET|ADJ_STATUS, constant=2, esterror=0, freq=-1200, ...}":
 * the modes, then SystemTap's nine fields in its order.  The fields are
 * signed longs and print signed (SystemTap's %lu turns a negative freq
 * or offset into 18446744073709550416); ADJ_OFFSET_SINGLESHOT is itself,
 * not "ADJ_OFFSET|ADJ_OFFSET_SINGLESHOT", and the modes SystemTap does
 * not name (ADJ_TAI, ADJ_SETOFFSET, ADJ_MICRO, ADJ_NANO) are named.
 */
void
tap_sysstruct_timex(char *dst, size_t size, const struct tap_sys_timex *tx)
{
	struct tap_buf b;

	tap_buf_init(&b, dst, size);
	tap_buf_putc(&b, '{');
	put_set(&b, TAP_SYSFMT_ADJ_MODES, tx->modes);
	put_s(&b, ", constant=", tx->constant);
	put_s(&b, ", esterror=", tx->esterror);
	put_s(&b, ", freq=", tx->freq);
	put_s(&b, ", maxerror=", tx->maxerror);
	put_s(&b, ", offset=", tx->offset);
	put_s(&b, ", precision=", tx->precision);
	put_s(&b, ", status=", tx->status);
	put_s(&b, ", tick=", tx->tick);
	put_s(&b, ", tolerance=", tx->tolerance);
	tap_buf_putc(&b, '}');
}

/* "{size=48, sched_policy=0, sched_flags=0, sched_nice=5, ...}": the
 * policy and flags as numbers, as SystemTap prints them. */
void
tap_sysstruct_sched_attr(char *dst, size_t size,
			 const struct tap_sys_sched_attr *sa)
{
	struct tap_buf b;

	tap_buf_init(&b, dst, size);
	put_u(&b, "{size=", sa->size);
	put_u(&b, ", sched_policy=", sa->sched_policy);
	put_u(&b, ", sched_flags=", sa->sched_flags);
	put_s(&b, ", sched_nice=", sa->sched_nice);
	put_u(&b, ", sched_priority=", sa->sched_priority);
	put_u(&b, ", sched_runtime=", sa->sched_runtime);
	put_u(&b, ", sched_deadline=", sa->sched_deadline);
	put_u(&b, ", sched_period=", sa->sched_period);
	tap_buf_putc(&b, '}');
}
