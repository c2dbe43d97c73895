/*
 * system.c -- running the commands a script passes to system().
 *
 * Takes: the text of a SYSTEM message (runtime/linux/tap_protocol.h).
 * Produces: the command run by /bin/sh -c, with taprun's stdout and
 * stderr, stdin from /dev/null, and not waited for: as in SystemTap,
 * system() returns at once and the command runs beside the script.  The
 * command is started in a grandchild whose parent exits at once, so
 * there is nothing to reap later and no wait can take the -c target's
 * exit status.  Under sudo the command runs as the sudo user, as the -c
 * command does (target.c).
 * Must not: run a command as root for a user sudo names; block the
 * message loop on the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "loader/taprun.h"

/* The grandchild: a clean signal mask, no terminal input, the command. */
static void
taprun_system_exec(const char *cmd)
{
	sigset_t none;
	int null = open("/dev/null", O_RDONLY);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	taprun_target_drop_sudo();
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "taprun: system: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

void
taprun_system_run(const char *cmd)
{
	pid_t child;
	int status;

	taprun_verbose("system: %s", cmd);
	fflush(stdout);		/* what taprun printed so far comes first */
	child = fork();
	if (child < 0) {
		taprun_err("system: cannot fork for \"%s\": %s", cmd, strerror(errno));
		return;
	}
	if (child == 0) {
		pid_t grandchild = fork();

		if (grandchild == 0)
			taprun_system_exec(cmd);
		if (grandchild < 0)
			fprintf(stderr, "taprun: system: cannot fork for \"%s\": %s\n", cmd, strerror(errno));
		_exit(grandchild < 0);
	}
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
}
