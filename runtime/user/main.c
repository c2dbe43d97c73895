/*
 * main.c - the user platform's session: main() of every program pass 3
 * writes for the user target.
 *
 * Takes the program's own command line, which tapc's pass 5 builds:
 *
 *     PROG [-o FILE] [-c CMD] [-x PID] [-T SECONDS] [-G name=value]...
 *
 * Produces the session SystemTap users know: globals initialized and -G
 * values applied, begin probes in sequence order, then CMD started (its
 * pid is target()), then timer probes until exit(), SIGINT, SIGTERM,
 * SIGHUP, CMD's end or -T; then end probes (or error probes after an error
 * ended the script), the "WARNING: Number of errors" line, and exit status
 * 1 if an error ended the script, else 0.
 *
 * A program of `tapc --remote-merge`'s end probes (its generated code
 * defines the table tap_merge_globals, weak here) takes -M FILE
 * instead: the hosts' merge lines (runtime/core/merge.h) are added into
 * the cleared globals, and the end probes run over them at once.
 *
 * Every handler runs on this one thread: timers are a deadline loop around
 * sigtimedwait(), so handlers never overlap and need no locks.  Must not:
 * start threads that run handlers.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"

struct tap_user_opts {
	const char *merge;	/* -M FILE (tap_merge_globals) */
	const char *output;
	const char *command;
	long time_limit;	/* seconds, 0: none */
};

static uint64_t
tap_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
tap_run_probe(const struct tap_probe *p, int state)
{
	struct tap_context *c = tap_context_enter(p, state);

	if (!c)
		return;
	p->handler(c);
	tap_context_exit(c);
}

static void
tap_run_probes(const struct tap_probe *const *v, size_t n, int state)
{
	size_t i;

	for (i = 0; i < n; i++)
		tap_run_probe(v[i], state);
}

/* -G name=value: only scalar globals the table lists. */
static int
tap_set_param(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t i, len;

	if (!eq) {
		fprintf(stderr, "ERROR: -G %s: expected name=value\n", arg);
		return -1;
	}
	len = (size_t)(eq - arg);
	for (i = 0; i < tap_module.n_params; i++) {
		const struct tap_global_param *g = &tap_module.params[i];
		char *end;

		if (strlen(g->name) != len || strncmp(g->name, arg, len))
			continue;
		if (g->type == TAP_T_STRING) {
			tap_str_copy(g->s, eq + 1);
			return 0;
		}
		errno = 0;
		*g->l = strtoll(eq + 1, &end, 0);
		if (errno || *end || end == eq + 1) {
			fprintf(stderr, "ERROR: -G %s: '%s' is not a number\n",
				g->name, eq + 1);
			return -1;
		}
		return 0;
	}
	fprintf(stderr, "ERROR: -G %.*s: no such global in the script\n",
		(int)len, arg);
	return -1;
}

static int
tap_parse_args(int argc, char **argv, struct tap_user_opts *o)
{
	int ch;

	while ((ch = getopt(argc, argv, "o:c:x:T:G:M:")) != -1) {
		switch (ch) {
		case 'M': o->merge = optarg; break;
		case 'o': o->output = optarg; break;
		case 'c': o->command = optarg; break;
		case 'x': tap_target_pid = atoi(optarg); break;
		case 'T': o->time_limit = atol(optarg); break;
		case 'G':
			/* applied after init, see tap_apply_params() */
			break;
		default:
			fprintf(stderr, "usage: %s [-o FILE] [-c CMD] [-x PID] [-T SECONDS] [-G name=value]... [-M FILE]\n", argv[0]);
			return -1;
		}
	}
	return 0;
}

static int
tap_apply_params(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-G") == 0 && i + 1 < argc) {
			if (tap_set_param(argv[++i]))
				return -1;
		} else if (strncmp(argv[i], "-G", 2) == 0 && argv[i][2]) {
			if (tap_set_param(argv[i] + 2))
				return -1;
		} else if (argv[i][0] == '-' && argv[i][1] && !argv[i][2] &&
			   strchr("ocxTM", argv[i][1])) {
			i++;	/* skip the option's value */
		}
	}
	return 0;
}

/* The -c command exited 127: it could not be started. */
static bool tap_command_failed;

/*
 * -c CMD: forked before the begin probes, so that target() is its pid
 * there too (as stap's), but held on a pipe until they have run.
 */
static pid_t
tap_fork_command(const char *cmd, const sigset_t *old, int *release)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char ch;

		close(fds[1]);
		if (read(fds[0], &ch, 1) != 1)
			_exit(0);	/* the script ended first */
		close(fds[0]);
		sigprocmask(SIG_SETMASK, old, NULL);
		tap_command_exec(cmd, "ERROR: ");
	}
	close(fds[0]);
	if (pid < 0) {
		fprintf(stderr, "ERROR: cannot fork for '%s': %s\n", cmd,
			strerror(errno));
		close(fds[1]);
		return -1;
	}
	*release = fds[1];
	return pid;
}

/* Let the command run, or end it unstarted when the script is over. */
static void
tap_release_command(int release, bool go)
{
	if (release < 0)
		return;
	if (go && write(release, "g", 1) != 1)
		tap_request_exit();
	close(release);
}

static uint64_t
tap_timer_interval(const struct tap_timer_probe *t)
{
	uint64_t r = t->randomize_ns;

	if (!r)
		return t->interval_ns;
	/* uniformly within interval +/- randomize, as stap's hrtimers */
	return t->interval_ns - r + (uint64_t)random() % (2 * r + 1);
}

/* What a timer probe has while the main loop runs (its rt, core/abi.h). */
struct tap_timer_state {
	uint64_t next_ns;	/* when it is due */
};

static void
tap_fire_timers(uint64_t now)
{
	size_t i;

	for (i = 0; i < tap_module.n_timers; i++) {
		struct tap_timer_probe *t = &tap_module.timers[i];

		if (t->rt->next_ns > now)
			continue;
#ifdef TAP_BPF
		tap_bpf_sync();
#endif
		tap_run_probe(&t->probe, TAP_SESSION_RUNNING);
		t->rt->next_ns = now + tap_timer_interval(t);
	}
}

static uint64_t
tap_next_deadline(uint64_t limit)
{
	uint64_t next = limit;
	size_t i;

	for (i = 0; i < tap_module.n_timers; i++)
		if (tap_module.timers[i].rt->next_ns < next)
			next = tap_module.timers[i].rt->next_ns;
	return next;
}

/* Wait for the next timer, a signal or the command's end. */
static void
tap_wait_once(const sigset_t *set, uint64_t deadline, pid_t child)
{
	uint64_t now = tap_now_ns();
	struct timespec ts = { 0, 0 };
	siginfo_t info;
	int sig;

	if (deadline > now) {
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
	}
	sig = sigtimedwait(set, &info, &ts);
	if (sig == SIGCHLD && child > 0) {
		int status;

		if (waitpid(child, &status, WNOHANG) == child) {
			/* 127: the shell's "not found", or exec failed: the
			 * command never ran, so the run failed. */
			if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
				tap_command_failed = true;
			tap_request_exit();
		}
	} else if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		tap_request_exit();
	}
}

static void
tap_main_loop(const sigset_t *set, long time_limit, pid_t child)
{
	uint64_t start = tap_now_ns(), limit = UINT64_MAX;
	struct tap_timer_state *st = calloc(tap_module.n_timers + 1,
					    sizeof(*st));
	size_t i;

	if (!st) {
		fprintf(stderr, "ERROR: out of memory for the timers\n");
		tap_request_exit();
		return;
	}
	if (time_limit > 0)
		limit = start + (uint64_t)time_limit * 1000000000u;
	for (i = 0; i < tap_module.n_timers; i++) {
		tap_module.timers[i].rt = &st[i];
		st[i].next_ns = start + tap_timer_interval(&tap_module.timers[i]);
	}
	while (!tap_exit_requested) {
		uint64_t deadline = tap_next_deadline(limit);

		if (deadline == UINT64_MAX)
			deadline = tap_now_ns() + 3600ull * 1000000000u;
		tap_wait_once(set, deadline, child);
		if (tap_exit_requested)
			break;
		if (tap_now_ns() >= limit)
			tap_request_exit();
		else
			tap_fire_timers(tap_now_ns());
	}
	for (i = 0; i < tap_module.n_timers; i++)
		tap_module.timers[i].rt = NULL;
	free(st);
}

static void
tap_finish(void)
{
	if (tap_session_state == TAP_SESSION_STARTING ||
	    tap_session_state == TAP_SESSION_RUNNING)
		tap_session_state = TAP_SESSION_STOPPING;
	tap_run_probes(tap_module.end, tap_module.n_end,
		       TAP_SESSION_STOPPING);
	tap_run_probes(tap_module.error, tap_module.n_error,
		       TAP_SESSION_ERROR);
	tap_timing_report();	/* -t; after them, as the kernel's */
	fflush(tap_out_file);
	if (tap_error_count || tap_skipped_count)
		fprintf(stderr, "WARNING: Number of errors: %d, skipped probes: %d\n",
			(int)tap_error_count, (int)tap_skipped_count);
	/* The same line as taprun's for the same loss. */
	if (tap_output_cut_count)
		fprintf(stderr, "WARNING: Number of output records lost (buffers full): %llu\n",
			(unsigned long long)tap_output_cut_count);
}

/* The globals -M fills: defined by a --remote-merge program's generated
 * code (codegen_merge.c), absent (NULL) from every other program. Weak
 * rather than a macro the generated code defines, so that the runtime
 * is compiled apart from the script (translator/build/runtime_split.h). */
extern const struct tap_merge_global tap_merge_globals[] __attribute__((weak));
extern const size_t tap_merge_nglobals __attribute__((weak));

/* -M FILE: the hosts' lines added into the globals they name; every
 * line must load, or the end probes would print a partial merge. */
static int
tap_merge_load(const char *path)
{
	if (!tap_merge_globals) {
		fprintf(stderr, "ERROR: -M %s: this program was not built by tapc --remote-merge\n", path);
		return -1;
	}
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int rc = 0;

	if (!f) {
		fprintf(stderr, "ERROR: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	tap_merge_reset(tap_merge_globals, tap_merge_nglobals);
	while (getline(&line, &cap, f) > 0) {
		const char *why;

		lineno++;
		if (tap_merge_load_line(tap_merge_globals, tap_merge_nglobals,
					line, &why) < 0) {
			fprintf(stderr, "ERROR: %s:%ld: cannot merge: %s\n", path,
				lineno, why);
			rc = -1;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static int
tap_setup(int argc, char **argv, struct tap_user_opts *o)
{
	int rc;

	if (tap_parse_args(argc, argv, o))
		return -1;
	tap_out_file = stdout;
	tap_out_path = o->output;
	if (o->output && !(tap_out_file = fopen(o->output, "w"))) {
		fprintf(stderr, "ERROR: cannot open '%s': %s\n", o->output,
			strerror(errno));
		return -1;
	}
	tap_set_num_cpus(1);
	tap_set_cpu_id(0);
	if (tap_contexts_alloc(tap_module.locals_size) || tap_timing_init())
		return -1;
	rc = tap_module.init ? tap_module.init() : 0;
	if (rc) {
		fprintf(stderr, "ERROR: cannot initialize the script's globals: %s\n",
			tap_error_message(rc));
		return -1;
	}
	if (tap_apply_params(argc, argv))
		return -1;
	return o->merge ? tap_merge_load(o->merge) : 0;
}

int
main(int argc, char **argv)
{
	struct tap_user_opts o = { 0 };
	sigset_t set, old;
	pid_t child = -1;
	int release = -1;

	if (tap_setup(argc, argv, &o))
		return 1;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	srandom((unsigned int)tap_now_ns());

	if (o.command) {
		child = tap_fork_command(o.command, &old, &release);
		if (child < 0)
			return 1;
		tap_target_pid = child;
	}
#ifdef TAP_BPF
	tap_bpf_load();		/* a failure shows at tap_bpf_start() */
#endif
	tap_run_probes(tap_module.begin, tap_module.n_begin,
		       TAP_SESSION_STARTING);
	if (tap_session_state == TAP_SESSION_STARTING)
		tap_session_state = TAP_SESSION_RUNNING;
#ifdef TAP_BPF
	if (!tap_exit_requested && tap_bpf_start()) {
		tap_request_exit();
		tap_session_state = TAP_SESSION_ERROR;
	}
#endif
	tap_release_command(release, !tap_exit_requested);
	/* -M: the hosts ran the script; here only its end is left */
	if (o.merge)
		tap_request_exit();
	tap_main_loop(&set, o.time_limit, child);
#ifdef TAP_BPF
	tap_bpf_stop();
#endif
	tap_finish();
#ifdef TAP_BPF
	tap_bpf_close();
#endif
	if (tap_module.exit)
		tap_module.exit();
	tap_timing_exit();
	tap_contexts_free();
	if (tap_out_file != stdout)
		fclose(tap_out_file);
	if (tap_command_failed)
		fprintf(stderr, "ERROR: -c: the command could not be started: %s\n", o.command);
	/* As staprun: any ERROR the script reported makes the status 1,
	 * even when MAXERRORS let the script run on to its end. */
	return tap_session_state == TAP_SESSION_ERROR || tap_command_failed ||
	       tap_error_count ? 1 : 0;
}
