/*
 * daemon.c -- the file flight recorder (taprun -F -o FILE, as staprun -D
 * under stap -F -o): once the module's probes are armed, taprun itself
 * goes to the background and keeps writing the script's output to FILE
 * (rotated with -S), until the script ends, kill PID (SIGTERM, SIGINT or
 * SIGHUP) stops it, or -T's time is up.  The session loop in taprun.c is
 * the same as a plain run's; only the process running it changes.
 *
 * Takes: the session's module name, its relay (its -o file open) and
 * session lock.  Produces: in the launching process, the background
 * process's pid on stdout (alone on its line, for `pid=$(taprun ...)`),
 * a sentence on stderr saying what it is and how to stop it, and exit
 * status 0 -- once the background process has taken over; in the
 * background process, a new session (no controlling terminal), stdin
 * from /dev/null, and stdout and stderr on the current output file, so
 * that what taprun would have said on the terminal after leaving it
 * (ERROR and WARNING lines, the closing counts, -v, system() output)
 * lands in FILE among the script's output, at the point it happened,
 * and follows it to FILE.1, FILE.2, ... (relay.c, stdio_follows).
 * Must not: let the launching process touch the module (it leaves with
 * _exit, no cleanup: the module now belongs to the background process),
 * or return to the terminal before the background process holds the
 * session (its pid in the lock file, the terminal let go of), so that
 * `$(taprun -F -o ...)` returns and an immediate kill finds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

/*
 * FILE as an absolute path: the background process leaves the current
 * directory (so that it holds no mount busy), and -S makes FILE.1, ...
 * by name later.  A malloc'ed string, or NULL (said).
 */
char *
taprun_daemon_abspath(const char *path)
{
	char cwd[PATH_MAX], *abs;
	size_t size;

	if (path[0] == '/')
		cwd[0] = '\0';
	else if (!getcwd(cwd, sizeof(cwd))) {
		taprun_err("-o %s: cannot find the current directory: %s", path, strerror(errno));
		return NULL;
	} else if (strcmp(cwd, "/") == 0)
		cwd[0] = '\0';
	size = strlen(cwd) + strlen(path) + 2;
	abs = malloc(size);
	if (!abs) {
		taprun_err("-o %s: no memory", path);
		return NULL;
	}
	snprintf(abs, size, "%s%s%s", cwd, path[0] == '/' ? "" : "/", path);
	return abs;
}

/* The background process's side: away from the terminal, onto FILE. */
static int
taprun_daemon_settle(int null, struct taprun_relay *r,
		     struct taprun_lock *lock)
{
	if (setsid() < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(r->main_out, STDOUT_FILENO) < 0 ||
	    dup2(r->main_out, STDERR_FILENO) < 0)
		return -errno;
	close(null);
	r->stdio_follows = true;
	/* the pid a second taprun names ("in use by taprun (pid N)") */
	taprun_session_lock_owner(lock);
	if (chdir("/") != 0)
		return -errno;
	return 0;
}

/*
 * Go to the background.  Returns 0 in the background process, which
 * goes on with the session; the launching process does not return (it
 * exits 0 once the other has settled, 1 if it died first).  A negative
 * errno, said, when taprun cannot go (the session then goes on here).
 */
int
taprun_daemon_start(const char *name, struct taprun_relay *r,
		    struct taprun_lock *lock)
{
	int null, ready[2], ret;
	pid_t pid;
	char ok;

	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || pipe(ready) != 0) {
		ret = -errno;
		taprun_err("-F -o: cannot go to the background: %s", strerror(-ret));
		if (null >= 0)
			close(null);
		return ret;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		taprun_err("-F -o: cannot go to the background: fork: %s", strerror(-ret));
		close(null);
		close(ready[0]);
		close(ready[1]);
		return ret;
	}
	if (pid == 0) {
		close(ready[0]);
		ret = taprun_daemon_settle(null, r, lock);
		if (ret)	/* stderr may be FILE already: say it there too */
			taprun_err("-F -o: setting up the background process: %s", strerror(-ret));
		/* what it could not do does not stop the script: it runs
		 * on, and the launching process says it is in the background */
		ok = 1;
		if (write(ready[1], &ok, 1) != 1)
			taprun_verbose("-F -o: the launching process is gone");
		close(ready[1]);
		taprun_verbose("running in the background as process %ld", (long)getpid());
		return 0;
	}
	close(null);
	close(ready[1]);
	while ((ret = read(ready[0], &ok, 1)) < 0 && errno == EINTR)
		;
	if (ret != 1) {
		taprun_err("-F -o: the background process %ld ended before it took over module %s", (long)pid, name);
		_exit(1);
	}
	printf("%ld\n", (long)pid);
	fprintf(stderr, "taprun: module %s runs on in the background, in process %ld, writing its output to %s; \"kill %ld\" stops it\n",
		name, (long)pid, r->outfile, (long)pid);
	fflush(stdout);
	fflush(stderr);
	_exit(0);
}
