/*
 * context.h -- the per-CPU probe context and the session state.
 *
 * Every probe handler runs inside a struct tap_context that belongs to the
 * CPU it runs on: the handler's output buffer, its error slot, its action and
 * nesting counters, and room for the generated code's locals (the generated
 * code says how much with tap_module.locals_size).  Contexts are allocated
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

#include "../core/limits.h"
#include "../core/core.h"

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
	atomic_t busy;			/* reentrancy guard: >0 inside a handler */
	const struct tap_probe *probe;	/* the probe being handled */
	struct pt_regs *regs;		/* kprobe/kretprobe registers, or NULL */
	void *probe_data;		/* provider data: tracepoint args, ... */
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
	u64 entered_ns;			/* local_clock() at handler entry,
					 * 0 when this one is not timed */
	unsigned long handlers;		/* overload: handlers so far */
	u64 window_start_ns;		/* overload: this CPU's window */
	u64 window_busy_ns;		/* overload: time in handlers in it */
	struct tap_outbuf out;		/* output, committed at handler end */
	/* Generated locals follow: tap_module.locals_size bytes. */
	unsigned long locals[] __aligned(16);
};

extern atomic_t tap_session_state;	/* enum tap_session_state (core/abi.h) */
extern atomic64_t tap_skipped_count;
extern atomic64_t tap_error_count;
extern int tap_target_pid;

int tap_contexts_alloc(size_t locals_size);
void tap_contexts_free(void);

struct tap_context *tap_context_enter(const struct tap_probe *probe,
				      int want_state);
void tap_context_exit(struct tap_context *c);

/* tap_error(), the script error, is core/handler.h's: tap_context_exit()
 * reports it ("ERROR: msg near last_stmt") and past MAXERRORS turns the
 * session to ERROR (error probes run, then it stops). */

/* The script's warn(): a WARNING line on taprun's stderr; no stop. */
__printf(2, 3) void tap_warn(struct tap_context *c, const char *fmt, ...);

/* One more skipped handler; past MAXSKIPPED the script stops. */
void tap_count_skip(void);

#include "../core/handler.h"

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
