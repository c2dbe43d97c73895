/*
 * target.c -- the -c CMD child: forked before the module is loaded, held
 * until the probes are armed, then released to exec the command, so that
 * its first instruction is already observed and its pid is target().
 *
 * Takes: the command line.  Produces: the child's pid and a release fd.
 * A command without shell syntax is exec'd directly (so the pid the module
 * sees is the command's own); otherwise, or when its first word is no
 * program (a shell builtin), through /bin/sh -c.  If taprun dies
 * or gives up before releasing, the child sees EOF and exits 127 without
 * running anything.  Must not: inherit taprun's blocked signal mask.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

#define TAPRUN_TARGET_MAXARGS	64

static void
taprun_target_exec(const char *cmd)
{
	char *copy, *argv[TAPRUN_TARGET_MAXARGS + 1], *save = NULL, *w;
	int argc = 0;

	if (!strpbrk(cmd, "|&;<>()$`\\\"'*?[#~=%{}\n")) {
		copy = strdup(cmd);
		for (w = strtok_r(copy, " \t", &save);
		     w && argc < TAPRUN_TARGET_MAXARGS;
		     w = strtok_r(NULL, " \t", &save))
			argv[argc++] = w;
		argv[argc] = NULL;
		if (argc)
			execvp(argv[0], argv);
		/* Not a program: a shell builtin ("exit 3", "cd DIR") is
		 * still a command; the shell says "not found" otherwise.
		 * A path that is not there is no builtin. */
		if (!argc || errno != ENOENT || strchr(argv[0], '/')) {
			fprintf(stderr, "taprun: -c: cannot run %s: %s\n",
				argc ? argv[0] : "(empty command)",
				strerror(errno));
			_exit(127);
		}
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "taprun: -c: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

pid_t
taprun_target_fork(const char *cmd, int *release_fd)
{
	int pipefd[2];
	sigset_t none;
	pid_t pid;
	char go;

	if (pipe(pipefd) != 0) {
		taprun_err("-c: pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		taprun_err("-c: fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		close(pipefd[1]);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		if (read(pipefd[0], &go, 1) != 1)
			_exit(127);
		close(pipefd[0]);
		taprun_target_exec(cmd);
	}
	close(pipefd[0]);
	*release_fd = pipefd[1];
	return pid;
}

int
taprun_target_release(int release_fd)
{
	int ret = 0;

	if (write(release_fd, "g", 1) != 1) {
		ret = -errno;
		taprun_err("-c: cannot release the command: %s",
			   strerror(errno));
	}
	close(release_fd);
	return ret;
}
