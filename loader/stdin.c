/*
 * stdin.c -- taprun's standard input to a script that reads it: the
 * input.char and input.line probes (tapsets/linux/input.stp) are
 * procfs("__stdin").write probes, so taprun writes what it reads on its
 * standard input to /proc/systemtap/MODULE/__stdin, one byte a write (each
 * write fires input.char once), when the module has that file.  Modules
 * without it are never sent anything and taprun's stdin stays untouched.
 * At the end of the input (or an error reading it) the forwarding stops;
 * the session goes on.
 * Must not: block the session loop: taprun polls stdin and reads what is
 * there, a write to procfs runs the probe and returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

int
taprun_stdin_open(const char *name)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/proc/systemtap/%s/__stdin", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		taprun_err("%s: %s (the script's input.* probes get no input)",
			   path, strerror(errno));
	return fd;
}

int
taprun_stdin_forward(int procfs_fd)
{
	char buf[256];
	ssize_t n, i;

	n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;	/* the end of the input */
	for (i = 0; i < n; i++)
		if (write(procfs_fd, buf + i, 1) != 1) {
			taprun_err("writing the script's input: %s", strerror(errno));
			return -1;
		}
	return 0;
}
