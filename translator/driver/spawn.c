/*
 * spawn.c -- fork/exec/wait for spawn.h.
 */
#include "translator/driver/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
redirect_output(const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0)
		_exit(126);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
}

int
spawn_wait(char *const argv[], const char *log)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old_int, old_term;
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (log)
			redirect_output(log);
		execvp(argv[0], argv);
		fprintf(stderr, "tapc: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	/* ^C reaches the child through the terminal; tapc waits for it to
	 * finish cleanly (taprun runs end probes and unloads). */
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGTERM, &ignore, &old_term);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

void
spawn_show_log_tail(const char *path, int lines)
{
	FILE *f = fopen(path, "r");
	char **ring;
	char line[1024];
	int n = 0;

	if (!f)
		return;
	ring = calloc((size_t)lines, sizeof(*ring));
	while (ring && fgets(line, sizeof(line), f)) {
		free(ring[n % lines]);
		ring[n % lines] = strdup(line);
		n++;
	}
	fclose(f);
	for (int i = n > lines ? n - lines : 0; ring && i < n; i++)
		fputs(ring[i % lines], stderr);
	for (int i = 0; ring && i < lines; i++)
		free(ring[i]);
	free(ring);
}
