/*
 * cache_dir.c -- where tapc's caches live (see cache_dir.h).  One place
 * for the root so that TAPC_CACHE_DIR moves every cache at once (the
 * sanitizer build keeps its own), one mkdir -p, and one rule for what
 * in it may be trusted.
 *
 * Root loads modules from this cache, so a file another user could have
 * put there is a way into the kernel: the root and everything below it
 * must be this user's own, not writable by group or others, and no
 * symbolic link.  Nothing falls back to a shared directory such as /tmp.
 */
#include "translator/debuginfo/cache_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* Why `st` may not be trusted, or NULL when it may. */
static const char *
cache_distrust(const struct stat *st, mode_t type)
{
	if ((st->st_mode & S_IFMT) != type)
		return S_ISLNK(st->st_mode) ? "is a symbolic link"
					    : "is not of the expected kind";
	if (st->st_uid != geteuid())
		return "is owned by another user";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "is writable by group or others";
	return NULL;
}

/* The root as the environment names it (not yet checked), or NULL. */
static const char *
cache_root_name(char *buf, size_t len)
{
	const char *v = getenv("TAPC_CACHE_DIR");
	struct passwd *pw;

	if (v && v[0] == '/')
		snprintf(buf, len, "%s", v);
	else if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/')
		snprintf(buf, len, "%s/tapc", v);
	else if ((v = getenv("HOME")) && v[0] == '/')
		snprintf(buf, len, "%s/.cache/tapc", v);
	else if ((pw = getpwuid(geteuid())) && pw->pw_dir &&
		 pw->pw_dir[0] == '/')
		snprintf(buf, len, "%s/.cache/tapc", pw->pw_dir);
	else
		return NULL;
	return buf;
}

/* 0 unknown, 1 usable, -1 not (or turned off by cache_disable()) */
static int cache_state;

void
cache_disable(void)
{
	cache_state = -1;
}

const char *
cache_root(void)
{
	static char buf[PATH_MAX];
	const char *why;
	struct stat st;

	if (cache_state)
		return cache_state > 0 ? buf : NULL;
	cache_state = -1;
	if (!cache_root_name(buf, sizeof(buf)))
		return NULL;
	if (lstat(buf, &st) != 0 && !cache_mkdir_p(buf))
		return NULL;
	if (lstat(buf, &st) != 0)
		return NULL;
	why = cache_distrust(&st, S_IFDIR);
	if (why) {
		fprintf(stderr, "tapc: warning: cache directory %s %s; caching is off (use a directory of your own: chmod go-w, chown, or TAPC_CACHE_DIR)\n", buf, why);
		return NULL;
	}
	cache_state = 1;
	return buf;
}

bool
cache_mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if ((size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return false;
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0700) != 0 && errno != EEXIST)
				return false;
			*p = '/';
		}
	return mkdir(buf, 0700) == 0 || errno == EEXIST;
}

bool
cache_trusted(const char *path)
{
	const char *root = cache_root();
	size_t rlen = root ? strlen(root) : 0;
	char buf[PATH_MAX];
	struct stat st;

	if (!root || strncmp(path, root, rlen) != 0 || path[rlen] != '/' ||
	    (size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return false;
	/* Every directory from below the root down, then the file. */
	for (char *p = buf + rlen + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (lstat(buf, &st) != 0 || cache_distrust(&st, S_IFDIR))
				return false;
			*p = '/';
		}
	return lstat(buf, &st) == 0 && !cache_distrust(&st, S_IFREG);
}

bool
cache_store(const char *from, const char *to, mode_t mode)
{
	char tmp[PATH_MAX], buf[65536];
	const char *slash = strrchr(to, '/');
	ssize_t n = 0;
	int in, out;
	bool ok;

	if (!slash || (size_t)snprintf(tmp, sizeof(tmp), "%.*s/.store-XXXXXX",
				       (int)(slash - to), to) >= sizeof(tmp))
		return false;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return false;
	out = mkstemp(tmp);		/* O_EXCL: never an existing file */
	if (out < 0) {
		close(in);
		return false;
	}
	ok = fchmod(out, mode) == 0;
	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		ok = write(out, buf, n) == n;
	ok &= n == 0;
	close(in);
	ok &= close(out) == 0;
	/* rename() replaces a link planted at `to`; it never follows it. */
	if (!ok || rename(tmp, to) != 0) {
		unlink(tmp);
		return false;
	}
	return true;
}

bool
cache_subdir(const char *sub, bool create, char *out, size_t len)
{
	const char *root = cache_root();
	struct stat st;

	if (!root || (size_t)snprintf(out, len, "%s/%s", root, sub) >= len)
		return false;
	if (create && !cache_mkdir_p(out))
		return false;
	return lstat(out, &st) != 0 || !cache_distrust(&st, S_IFDIR);
}

uint64_t
cache_name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

bool
cache_store_in_new_dir(const char *from, const char *to, mode_t mode)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(to, '/');

	if (!slash || (size_t)(slash - to) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - to), to);
	return cache_mkdir_p(dir) && cache_store(from, to, mode);
}
