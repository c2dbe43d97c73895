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
 * running anything.  Under sudo (taprun as root with SUDO_UID and
 * SUDO_GID set) the command runs as the user who ran sudo, with that
 * user's groups: tracing a program must not also run it as root.
 * Must not: inherit taprun's blocked signal mask; run the command as
 * root when sudo names another user and dropping to that user failed.
 */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"
#include "runtime/user/command.h"

bool
taprun_sudo_id(const char *name, unsigned long *out)
{
	const char *v = getenv(name);
	char *end;

	if (!v || !*v)
		return false;
	errno = 0;
	*out = strtoul(v, &end, 10);
	return !errno && !*end;
}

/*
 * The groups /etc/group lists `user` in, plus `gid`, into groups[]; how
 * many.  Read by hand, not with getgrouplist(): taprun is also a static
 * binary, where glibc's NSS functions are not available.
 */
static int
taprun_user_groups(const char *user, gid_t gid, gid_t *groups, int max)
{
	char line[4096], *fields[4], *p, *member, *save;
	FILE *f = fopen("/etc/group", "re");
	int n = 0, i;

	groups[n++] = gid;
	if (!f || !user)
		goto out;
	while (n < max && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		for (i = 0, p = line; i < 4; i++)
			fields[i] = strsep(&p, ":");
		if (!fields[2] || !fields[3])
			continue;
		for (member = strtok_r(fields[3], ",", &save); member;
		     member = strtok_r(NULL, ",", &save))
			if (strcmp(member, user) == 0) {
				groups[n++] = (gid_t)strtoul(fields[2], NULL, 10);
				break;
			}
	}
out:
	if (f)
		fclose(f);
	return n;
}

/*
 * In the child (also system()'s, system.c): become the user sudo was run by.  Nothing to do unless
 * root with SUDO_UID/SUDO_GID naming someone else; a failure after that
 * is fatal for the child, never a reason to run the command as root.
 */
void
taprun_target_drop_sudo(void)
{
	const char *user = getenv("SUDO_USER");
	unsigned long uid, gid;
	gid_t groups[64];
	int ngroups;

	if (geteuid() != 0 || !taprun_sudo_id("SUDO_UID", &uid) ||
	    !taprun_sudo_id("SUDO_GID", &gid) || uid == 0)
		return;
	ngroups = taprun_user_groups(user, (gid_t)gid, groups, 64);
	if (setgroups(ngroups, groups) != 0 || setgid((gid_t)gid) != 0 ||
	    setuid((uid_t)uid) != 0) {
		fprintf(stderr, "taprun: -c: cannot run as the sudo user (uid %lu): %s\n", uid, strerror(errno));
		_exit(127);
	}
	if (user) {
		setenv("USER", user, 1);
		setenv("LOGNAME", user, 1);
	}
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
		taprun_target_drop_sudo();
		tap_command_exec(cmd, "taprun: ");
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
