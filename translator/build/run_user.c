/*
 * run_user.c -- pass 5 for the user-space target (see build_user.h).
 *
 * Takes the program pass 4 built and the session's run-time options.
 * Produces the program's output on our stdout/stderr and its exit status
 * as tapc's. SIGINT, SIGTERM and SIGHUP reach the program (the terminal
 * sends them to the whole group; kill(1) to tapc is forwarded), which runs
 * the end probes and exits; tapc waits for it and then removes the build.
 * Must not: interpret the script's output.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "translator/build/build_user.h"

static pid_t run_child;

static void
run_forward(int sig)
{
	if (run_child > 0)
		kill(run_child, sig);
}

/* argv for the program: -o -c -x -T and every -G. */
static char **
run_argv(struct session *s, const char *prog)
{
	const struct options *o = &s->opts;
	char **v = arena_alloc(s->arena, sizeof(char *) *
			       (size_t)(12 + 2 * o->nglobals));
	int n = 0, i;

	v[n++] = (char *)prog;
	if (o->output_file) {
		v[n++] = "-o";
		v[n++] = (char *)o->output_file;
	}
	if (o->target_command) {
		v[n++] = "-c";
		v[n++] = (char *)o->target_command;
	}
	if (o->target_pid > 0) {
		v[n++] = "-x";
		v[n++] = arena_printf(s->arena, "%d", o->target_pid);
	}
	if (o->time_limit > 0) {
		v[n++] = "-T";
		v[n++] = arena_printf(s->arena, "%d", o->time_limit);
	}
	for (i = 0; i < o->nglobals; i++) {
		v[n++] = "-G";
		v[n++] = arena_printf(s->arena, "%s=%s", o->globals[i].name,
				      o->globals[i].value);
	}
	v[n] = NULL;
	return v;
}

static int
run_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int
pass_run(struct session *s)
{
	const char *prog = build_result(s);
	char **argv;
	int status;

	if (!prog)
		return 1;
	argv = run_argv(s, prog);
	fflush(stdout);
	fflush(stderr);
	run_child = fork();
	if (run_child == 0) {
		execv(prog, argv);
		fprintf(stderr, "tapc: error: cannot run %s: %s\n", prog,
			strerror(errno));
		_exit(127);
	}
	if (run_child < 0) {
		fprintf(stderr, "tapc: error: cannot fork: %s\n",
			strerror(errno));
		build_cleanup(s);
		return 1;
	}
	signal(SIGINT, run_forward);
	signal(SIGTERM, run_forward);
	signal(SIGHUP, run_forward);
	status = run_wait(run_child);
	build_cleanup(s);
	return status;
}
