/*
 * session_lock.c -- who owns a loaded tapc module: one lock file per
 * module name, so that a module left loaded by a taprun that died
 * (kill -9, an OOM kill, a crash) is removed by the next run instead of
 * making every later run fail with "already loaded".
 *
 * Takes: the module name.  Produces: /run/taprun/NAME.lock, held with
 * flock() for the whole session and holding the owner's pid; whether the
 * previous owner of that name died with its module loaded.
 * Must not: remove a module that a live taprun owns (its flock is held),
 * nor one that taprun did not load (insmod: no lock file names it).
 *
 * The kernel drops a flock when its holder dies however it dies, so a
 * lock file that exists, names a pid and can be locked belongs to a
 * session that ended without cleaning up.  A clean exit unlinks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "loader/taprun.h"

#define TAPRUN_LOCK_DIR "/run/taprun"

static void
taprun_lock_path(const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s.lock", TAPRUN_LOCK_DIR, name);
}

/* The pid a lock file names, or 0 when it names none. */
static long
taprun_lock_read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int
taprun_lock_write_pid(int fd)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());

	if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, len, 0) != len)
		return -errno;
	return 0;
}

/*
 * Take the lock of module `name`.  Fills `lock`; lock->stale_pid is the
 * pid of an owner that died with the module loaded (0 if none).  A lock
 * held by a live taprun is an error that names it.  Where /run cannot
 * hold the lock (no /run, read-only), the session runs unlocked.
 */
int
taprun_session_lock(struct taprun_lock *lock, const char *name)
{
	long owner;

	lock->fd = -1;
	lock->stale_pid = 0;
	taprun_lock_path(name, lock->path, sizeof(lock->path));
	if (mkdir(TAPRUN_LOCK_DIR, 0700) != 0 && errno != EEXIST) {
		taprun_verbose("%s: %s; running without a session lock", TAPRUN_LOCK_DIR, strerror(errno));
		return 0;
	}
	lock->fd = open(lock->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (lock->fd < 0) {
		taprun_verbose("%s: %s; running without a session lock", lock->path, strerror(errno));
		return 0;
	}
	if (flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
		owner = taprun_lock_read_pid(lock->fd);
		taprun_err("module %s is in use by taprun (pid %ld)", name, owner);
		close(lock->fd);
		lock->fd = -1;
		return -EBUSY;
	}
	lock->stale_pid = taprun_lock_read_pid(lock->fd);
	return taprun_lock_write_pid(lock->fd);
}

/*
 * Remove the module a dead owner left loaded, saying so.  Only a module
 * of this name that is loaded now and was named by a lock whose owner is
 * gone: a module loaded by other means has no lock file.
 */
int
taprun_session_reclaim(const struct taprun_lock *lock, const char *name)
{
	char sys[128];

	if (!lock->stale_pid)
		return 0;
	snprintf(sys, sizeof(sys), "/sys/module/%s", name);
	if (access(sys, F_OK) != 0)
		return 0;
	fprintf(stderr, "taprun: module %s was left loaded by taprun pid %ld, which ended without removing it; removing it\n", name, lock->stale_pid);
	return taprun_module_remove(name);
}

/*
 * End the session.  With the module removed the name is free again and
 * the file goes; if removal failed the file stays, naming this pid, so
 * that the next run removes the module once this process has exited.
 */
void
taprun_session_unlock(struct taprun_lock *lock, bool module_removed)
{
	if (lock->fd < 0)
		return;
	if (module_removed)
		unlink(lock->path);
	close(lock->fd);
	lock->fd = -1;
}

/* After a fork (-F -o goes to the background, daemon.c): the flock is
 * the same open file's, so it stays held; only the pid it names moves. */
void
taprun_session_lock_owner(struct taprun_lock *lock)
{
	if (lock->fd >= 0 && taprun_lock_write_pid(lock->fd) != 0)
		taprun_verbose("%s: cannot write this pid: %s", lock->path, strerror(errno));
}
