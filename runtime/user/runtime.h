/*
 * runtime.h - what generated code sees of the user-space platform: the
 * probe context, output and script errors; the registration table is
 * core/abi.h's, shared with the kernel platform.
 *
 * The names and shapes follow runtime/linux/runtime.h so that the code
 * pass 3 writes compiles against either platform: a generated program
 * includes "runtime.h", defines its handlers (void handler(struct
 * tap_context *c)), its probe arrays and `struct tap_module_desc
 * tap_module`, and ends with #include "runtime.c".  The user platform adds
 * what the kernel one gets from its loader: error probes, the -G table and
 * main() (runtime/user/main.c), which parses the program's own argv.
 *
 * Handlers never run concurrently here: tap_context_enter() takes one
 * process-wide mutex, so there is a single context and globals need no
 * locks of their own.  Must not: grow anything the kernel platform could
 * not offer under the same name.
 */
#ifndef TAP_USER_RUNTIME_H
#define TAP_USER_RUNTIME_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* gettid(), program_invocation_short_name */
#endif

#ifndef TAP_OUTBUF_SIZE		/* one handler's output before a flush;
				 * a whole histogram (128 rows) must fit */
#define TAP_OUTBUF_SIZE		65536
#endif
#include "../core/limits.h"
#define TAP_ERRBUF_SIZE		256

#include "../core/core.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/abi.h"	/* struct tap_probe, the timers, the module
				 * descriptor, the session states */

/* timer.jiffies(N): the user platform's jiffy is 4 ms, as with Debian's
 * CONFIG_HZ=250 (the translator's limit check assumes the same:
 * translator/driver/kernel_facts.c). */
#define TAP_JIFFIES_NS(n) ((uint64_t)(n) * 4000000u)

struct tap_outbuf {
	size_t len;
	char data[TAP_OUTBUF_SIZE];
};

struct tap_context {
	int busy;			/* reentrancy guard */
	const struct tap_probe *probe;	/* the probe being handled */
	void *probe_data;		/* provider data */
	unsigned long actions;		/* statements so far, for MAXACTION */
	unsigned long maxaction;	/* this handler's limit */
	int nesting;			/* call depth, for MAXNESTING */
	bool error;			/* the handler hit a script error */
	bool next;			/* `next` in a function: end the handler */
	const char *last_stmt;		/* "operator '/' at f.stp:1:2", or NULL */
	char errbuf[TAP_ERRBUF_SIZE];	/* the error's message, for catch */
	struct tap_outbuf out;		/* output, committed at handler end */
	struct tap_tokenizer tok;	/* tokenize()'s position */
	struct tap_match match;		/* the last =~ or !~: matched() */
	/* Generated locals follow: tap_module.locals_size bytes. */
	unsigned long locals[] __attribute__((aligned(16)));
};

extern int tap_session_state;	/* enum tap_session_state (core/abi.h) */
extern int64_t tap_skipped_count;
extern int64_t tap_error_count;
extern int tap_target_pid;
extern FILE *tap_out_file;
/* -o FILE's name, or NULL for stdout (switch_file() opens FILE.N). */
extern const char *tap_out_path;

int tap_contexts_alloc(size_t locals_size);
void tap_contexts_free(void);
struct tap_context *tap_context_enter(const struct tap_probe *probe,
				      int want_state);
void tap_context_exit(struct tap_context *c);

#include "../core/handler.h"
#include "timing.h"

#ifdef TAP_BPF
/* --runtime=bpf: the BPF half's hooks (runtime/bpf/user_bpf.c), which
 * main.c calls around the session. */
int tap_bpf_load(void);		/* before begin: open, verify, load */
int tap_bpf_start(void);	/* after begin: push globals, attach, read */
void tap_bpf_sync(void);	/* before timer probes: maps -> globals */
void tap_bpf_stop(void);	/* before end probes: detach, drain, copy */
void tap_bpf_close(void);
#endif

/* Globals' locks.  Handlers never overlap in user space, so these only
 * keep the generated code the same as the kernel's (runtime/linux/locks.h):
 * a lock table per handler, taken in a fixed order where the handler first
 * touches a global. */
struct tap_lock {
	int unused;
};
#define TAP_LOCK_INIT(name)	{ 0 }

enum tap_lock_mode { TAP_LOCK_EXCL, TAP_LOCK_CPU, TAP_LOCK_ALL };

struct tap_lock_use {
	struct tap_lock *lock;
	enum tap_lock_mode mode;
};

static inline int
tap_lock_percpu_init(struct tap_lock *l)
{
	(void)l;
	return 0;
}

static inline void
tap_lock_percpu_free(struct tap_lock *l)
{
	(void)l;
}

static inline bool
tap_locks_acquire(struct tap_context *c, const struct tap_lock_use *locks,
		  size_t n)
{
	(void)c; (void)locks; (void)n;
	return true;
}

static inline void
tap_locks_release(const struct tap_lock_use *locks, size_t n)
{
	(void)locks; (void)n;
}

/* Per-CPU counters (runtime/linux/counter.h): one CPU here, so the
 * deltas are one variable; the arithmetic wraps as the kernel's does. */
#define TAP_COUNTER_DEFINE(name)	static int64_t name
#define TAP_COUNTER_ADD(name, v) \
	((name) = (int64_t)((uint64_t)(name) + (uint64_t)(int64_t)(v)))
#define TAP_COUNTER_READ(base, name) \
	((int64_t)((uint64_t)(base) + (uint64_t)(name)))
#define TAP_COUNTER_STORE(base, name, v) \
	((base) = (int64_t)((uint64_t)(int64_t)(v) - (uint64_t)(name)), \
	 (int64_t)((uint64_t)(base) + (uint64_t)(name)))

/* The script's exit(): the current handler finishes, then end probes run. */
void tap_request_exit(void);

/* Output of the current handler. */
void tap_print(struct tap_context *c, const char *s, size_t len);
void tap_puts(struct tap_context *c, const char *s);
void tap_output_commit(struct tap_context *c);
/* A print that did not fit even in an empty buffer: counted. */
void tap_output_cut(struct tap_context *c);
extern uint64_t tap_output_cut_count;

/* Script-visible facts the tapset builtins read. */
int64_t tap_gettimeofday_ns(void);
int64_t tap_monotonic_ns(void);
int64_t tap_pid(void);
int64_t tap_tid(void);
const char *tap_execname(void);

#endif /* TAP_USER_RUNTIME_H */
