/*
 * context.c - the user platform's probe context, output and script errors
 * (see runtime.h).
 *
 * Takes: the probe a handler is about to run.  Produces: the one context,
 * or NULL when the session is not in the state the probe runs in; at
 * handler end, writes the handler's output in one piece and reports its
 * error as SystemTap does ("ERROR: msg near stmt"), ending the session
 * past MAXERRORS.  Every handler runs on the session thread (main.c), so
 * nothing here locks.  Must not: allocate after tap_contexts_alloc().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>

int tap_session_state = TAP_SESSION_STARTING;
int64_t tap_skipped_count;
int64_t tap_error_count;
int tap_target_pid;
FILE *tap_out_file;			/* stdout or -o FILE */
const char *tap_out_path;		/* -o FILE, or NULL */
static bool tap_exit_requested;
static struct tap_context *tap_the_context;

int
tap_contexts_alloc(size_t locals_size)
{
	tap_the_context = calloc(1, sizeof(struct tap_context) + locals_size);
	return tap_the_context ? 0 : TAP_ENOMEM;
}

void
tap_contexts_free(void)
{
	free(tap_the_context);
	tap_the_context = NULL;
}

struct tap_context *
tap_context_enter(const struct tap_probe *probe, int want_state)
{
	struct tap_context *c = tap_the_context;

	if (tap_session_state != want_state || !c)
		return NULL;
	if (c->busy) {
		tap_skipped_count++;
		tap_timing_skip(probe);
		return NULL;
	}
	c->busy = 1;
	c->probe = probe;
	c->probe_data = NULL;
	c->actions = 0;
	c->maxaction = want_state == TAP_SESSION_RUNNING
		? TAP_MAXACTION : TAP_MAXACTION_INTERRUPTIBLE;
	c->nesting = 0;
	c->error = false;
	c->last_stmt = NULL;
	c->errbuf[0] = '\0';
	c->out.len = 0;
	return c;
}

/* stap's shape: "ERROR: msg near stmt", or just the message when the
 * error came from error(), which names no statement. */
static void
tap_report_error(struct tap_context *c)
{
	tap_output_commit(c);
	if (c->last_stmt)
		fprintf(stderr, "ERROR: %s near %s\n", c->errbuf,
			c->last_stmt);
	else
		fprintf(stderr, "ERROR: %s\n", c->errbuf);
	fflush(stderr);
	tap_error_count++;
	if (tap_error_count > TAP_MAXERRORS) {
		tap_session_state = TAP_SESSION_ERROR;
		tap_exit_requested = true;
	}
}

void
tap_context_exit(struct tap_context *c)
{
	tap_output_commit(c);
	if (unlikely(c->error))
		tap_report_error(c);
	if (tap_skipped_count > TAP_MAXSKIPPED &&
	    tap_session_state == TAP_SESSION_RUNNING) {
		fprintf(stderr, "ERROR: Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.\n");
		tap_session_state = TAP_SESSION_ERROR;
		tap_exit_requested = true;
	}
	c->probe = NULL;
	c->busy = 0;
}

void
tap_request_exit(void)
{
	if (tap_session_state == TAP_SESSION_STARTING ||
	    tap_session_state == TAP_SESSION_RUNNING)
		tap_session_state = TAP_SESSION_STOPPING;
	tap_exit_requested = true;
}

void
tap_print(struct tap_context *c, const char *s, size_t len)
{
	/* A handler printing more than the buffer holds flushes early:
	 * in user space nothing else can interleave with it. */
	if (c->out.len + len > sizeof(c->out.data)) {
		tap_output_commit(c);
		if (len > sizeof(c->out.data)) {
			fwrite(s, 1, len, tap_out_file);
			return;
		}
	}
	memcpy(c->out.data + c->out.len, s, len);
	c->out.len += len;
}

void
tap_puts(struct tap_context *c, const char *s)
{
	tap_print(c, s, strlen(s));
}

uint64_t tap_output_cut_count;

void
tap_output_cut(struct tap_context *c)
{
	tap_output_cut_count++;
}

void
tap_output_commit(struct tap_context *c)
{
	if (c->out.len) {
		fwrite(c->out.data, 1, c->out.len, tap_out_file);
		c->out.len = 0;
	}
	fflush(tap_out_file);
}

int64_t
tap_gettimeofday_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CLOCK_MONOTONIC, the clock of ktime_get_ns() in BPF handlers
 * (bpf_ktime_get_ns()): the BPF backend's begin/end probes read it for
 * ktime_get_ns() (translator/codegen/bpf_pass.c's user twins). */
int64_t
tap_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t
tap_pid(void)
{
	return getpid();
}

int64_t
tap_tid(void)
{
	return gettid();
}

const char *
tap_execname(void)
{
	return program_invocation_short_name;
}
