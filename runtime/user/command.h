/*
 * command.h - how a -c command is started, shared by the two programs
 * that start one: taprun (loader/target.c) and the programs tapc builds
 * for --target=user and --runtime=bpf (runtime/user/main.c).
 *
 * A command without shell syntax is exec'd directly, as stap does, so
 * that the pid the script's target() names is the command's own (through
 * /bin/sh -c it was the shell's: dash does not exec a lone command, and a
 * script filtering on pid() == target() saw the shell, not the command).
 * Otherwise, or when the first word is no program (a shell builtin such
 * as "exit 3"), the command runs through /bin/sh -c.
 *
 * Takes: the command, and the prefix of this program's messages
 * ("taprun: ", "ERROR: ").  Does not return: the command runs, or the
 * message is printed and the child exits 127.  Header-only, user space.
 */
#ifndef TAP_USER_COMMAND_H
#define TAP_USER_COMMAND_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAP_COMMAND_MAXARGS	64

static inline void
tap_command_exec(const char *cmd, const char *prefix)
{
	char *copy, *argv[TAP_COMMAND_MAXARGS + 1], *save = NULL, *w;
	int argc = 0;

	if (!strpbrk(cmd, "|&;<>()$`\\\"'*?[#~=%{}\n")) {
		copy = strdup(cmd);
		for (w = copy ? strtok_r(copy, " \t", &save) : NULL;
		     w && argc < TAP_COMMAND_MAXARGS;
		     w = strtok_r(NULL, " \t", &save))
			argv[argc++] = w;
		argv[argc] = NULL;
		if (argc)
			execvp(argv[0], argv);
		/* Not a program: a shell builtin ("exit 3", "cd DIR") is
		 * still a command; the shell says "not found" otherwise.
		 * A path that is not there is no builtin. */
		if (!argc || errno != ENOENT || strchr(argv[0], '/')) {
			fprintf(stderr, "%s-c: cannot run %s: %s\n", prefix,
				argc ? argv[0] : "(empty command)",
				strerror(errno));
			_exit(127);
		}
	}
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fprintf(stderr, "%s-c: cannot run /bin/sh: %s\n", prefix,
		strerror(errno));
	_exit(127);
}

#endif /* TAP_USER_COMMAND_H */
