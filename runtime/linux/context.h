/*
 * context.h -- the per-CPU probe context and the session state.
 *
 * Every probe handler runs inside a struct tap_context that belongs to the
 * CPU it runs on: the handler's output buffer, its error slot, its action and
 * nesting counters, its last regular-expression match (core/match.h), and
 * room for the generated code's locals (the generated code says how much
 * with tap_module.locals_size).  Contexts are allocated
 * once at module init, never in a handler.
 *
 * A handler is bracketed by tap_context_enter() / tap_context_exit().  Enter
 * refuses (returns NULL) when the session is not in the state the probe runs
 * in, or when this CPU is already inside a handler (the reentrancy guard);
 * the latter is counted as skipped.  Between the two, preemption is off.
 * Must not: sleep or allocate.
 */
#ifndef TAP_LINUX_CONTEXT_H
#define TAP_LINUX_CONTEXT_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/preempt.h>
#include "preempt_enable.h"

#include "../core/limits.h"
#include "../core/core.h"
#include "../core/abi.h"

#ifndef TAP_OUTBUF_SIZE
#define TAP_OUTBUF_SIZE		8192	/* one handler's output before a commit */
#endif
#ifndef TAP_OVERLOAD_INTERVAL_NS
#define TAP_OVERLOAD_INTERVAL_NS	1000000000ULL	/* measuring window */
#endif
#ifndef TAP_OVERLOAD_SAMPLE	/* time one handler in this many */
#define TAP_OVERLOAD_SAMPLE		16
#endif
#ifndef TAP_OVERLOAD_THRESHOLD_NS
#define TAP_OVERLOAD_THRESHOLD_NS	500000000ULL	/* in handlers, per window */
#endif
#define TAP_ERRBUF_SIZE		256

struct tap_probe;

struct tap_outbuf {
	size_t len;
	char data[TAP_OUTBUF_SIZE];
};

struct tap_context {
	int busy;			/* reentrancy guard: 1 inside a handler */
	const struct tap_probe *probe;	/* the probe being handled */
	struct pt_regs *regs;		/* kprobe/kretprobe registers, or NULL */
	u8 regs_kind;			/* what regs are: TAP_REGS_* (below);
					 * set and cleared by the providers
					 * of the last two kinds only */
	void *probe_data;		/* provider data: tracepoint args, ... */
	int64_t probe_args[TAP_CONTEXT_ARGS_MAX];	/* where a tracepoint's
						 * callback puts them */
	unsigned long actions;		/* statements so far, for MAXACTION */
	unsigned long maxaction;	/* this handler's limit */
	int nesting;			/* call depth, for MAXNESTING */
	bool error;			/* the handler hit a script error */
	bool next;			/* `next` in a function: end the handler */
	const char *last_stmt;		/* "operator '/' at f.stp:1:2", or NULL */
	char errbuf[TAP_ERRBUF_SIZE];	/* its message, for catch */
	char msgbuf[TAP_ERRBUF_SIZE + 128];	/* ERROR/WARNING text: off the
						 * kernel stack */
	struct tap_tokenizer tok;	/* tokenize()'s position */
	struct tap_match match;		/* the last =~ or !~: matched() */
	u64 entered_ns;			/* local_clock() at handler entry,
					 * 0 when this one is not timed */
	unsigned long handlers;		/* overload: handlers so far */
	u64 window_start_ns;		/* overload: this CPU's window */
	u64 window_busy_ns;		/* overload: time in handlers in it */
	u64 window_max_ns;		/* overload: its longest timed handler */
	struct tap_outbuf out;		/* output, committed at handler end */
	/* Generated locals follow: tap_module.locals_size bytes. */
	unsigned long locals[] __aligned(16);
};

/*
 * c->regs_kind, for the tapsets that read or change arguments by position
 * (registers.stp): a function's entry or return, where the C calling
 * convention holds (kprobes, kretprobes, uprobes: the default, 0); a
 * system call's user registers (syscall.*: the syscall convention, 32-bit
 * for an ia32 call); code a perf sample, a profile tick or a hardware
 * breakpoint interrupted at any instruction, whose registers are not to
 * be written.
 */
#define TAP_REGS_CALL		0
#define TAP_REGS_SYSCALL	1
#define TAP_REGS_INTERRUPTED	2

extern atomic_t tap_session_state;	/* enum tap_session_state (core/abi.h) */
extern atomic64_t tap_skipped_count;
extern atomic64_t tap_error_count;
extern int tap_target_pid;

int tap_contexts_alloc(size_t locals_size);
void tap_contexts_free(void);

/* The slow parts of leaving a handler (context.c). */
void tap_check_overload(struct tap_context *c);
void tap_report_error(struct tap_context *c);
void tap_output_commit(struct tap_context *c);

/* tap_error(), the script error, is core/handler.h's: tap_context_exit()
 * reports it ("ERROR: msg near last_stmt") and past MAXERRORS turns the
 * session to ERROR (error probes run, then it stops). */

/* The script's warn(): a WARNING line on taprun's stderr; no stop. */
__printf(2, 3) void tap_warn(struct tap_context *c, const char *fmt, ...);

/* One more skipped handler; past MAXSKIPPED the script stops. */
void tap_count_skip(void);
/* -t: the skip counted against probe p too (timing.c; nothing without
 * -t).  Any context, an NMI's included. */
void tap_timing_skip(const struct tap_probe *p);

#include "../core/handler.h"

extern struct tap_context **tap_contexts;	/* one per possible CPU */

/*
 * Entering and leaving a handler are inline: every event pays them, and
 * the runtime is compiled apart from the handlers (kbuild.c), so a call
 * would cost an out-of-line call each way.  What is rare (a skip, an
 * error, output to commit, a timed handler) stays out of line.
 */
static inline struct tap_context *
tap_context_enter(const struct tap_probe *probe, int want_state)
{
	struct tap_context *c;

	/* Some callers are preemptible (begin/end; syscall tracepoints on
	 * newer kernels): the context belongs to this CPU until exit. */
	preempt_disable();
	/*
	 * The state is read only now, with preemption off.  The stop path
	 * (module.c) sets STOPPING, disarms, then synchronize_rcu() waits
	 * for every preemption-disabled section that had begun.  Read
	 * before preempt_disable(), a preemptible caller could see RUNNING,
	 * be preempted through that whole grace period, and run its
	 * handler after the end probes, during teardown.  Read here, either
	 * this section began before the grace period (stop waits for it) or
	 * after it, and then it sees STOPPING.
	 */
	if (unlikely(atomic_read(&tap_session_state) != want_state ||
		     !tap_contexts)) {
		tap_preempt_enable();
		return NULL;
	}
	c = tap_contexts[smp_processor_id()];
	/*
	 * The reentrancy guard needs no atomic: only this CPU touches its
	 * context's flag.  An interrupt (or NMI) that hits between the test
	 * and the store finds it clear, runs its handler to the end and
	 * clears it again before this one goes on.
	 */
	if (unlikely(READ_ONCE(c->busy))) {
		/* This CPU is already in a handler (an interrupt or a
		 * probe hit inside a handler): never nest. */
		tap_preempt_enable();
		tap_count_skip();
		tap_timing_skip(probe);
		return NULL;
	}
	WRITE_ONCE(c->busy, 1);
	barrier();
	c->probe = probe;
	c->regs = NULL;
	c->probe_data = NULL;
	c->actions = 0;
	c->maxaction = want_state == TAP_SESSION_RUNNING ?
		       TAP_MAXACTION : TAP_MAXACTION_INTERRUPTIBLE;
	c->nesting = 0;
	c->error = false;
	c->next = false;
	c->last_stmt = NULL;	/* errbuf is read only after an error sets it */
	c->out.len = 0;
#ifndef TAP_NO_OVERLOAD
	/* a clock read costs about what a small handler does: time one
	 * handler in TAP_OVERLOAD_SAMPLE, count it that many times */
	c->entered_ns = unlikely(++c->handlers % TAP_OVERLOAD_SAMPLE == 0) ?
			local_clock() : 0;
#endif
	return c;
}

static inline void
tap_context_exit(struct tap_context *c)
{
	if (c->out.len)
		tap_output_commit(c);
#ifndef TAP_NO_OVERLOAD
	if (unlikely(c->entered_ns))
		tap_check_overload(c);
#endif
	if (unlikely(c->error))
		tap_report_error(c);
	c->probe = NULL;
	barrier();
	WRITE_ONCE(c->busy, 0);
	tap_preempt_enable();
}

/* The script's exit(): stop the session soon, from any context. */
void tap_request_exit(void);
/* Too many errors: error probes instead of end probes, then stop. */
void tap_session_error(void);

/* Script-visible facts the tapset builtins read (any context). */
int64_t tap_gettimeofday_ns(void);
/* Inline: handlers call them often, and the runtime is compiled apart
 * from the handlers (translator/build/kbuild.c). */
static inline int64_t
tap_pid(void)
{
	return current->tgid;
}

static inline int64_t
tap_tid(void)
{
	return current->pid;
}

static inline const char *
tap_execname(void)
{
	return current->comm;
}

#endif /* TAP_LINUX_CONTEXT_H */
