/*
 * cache_dir.c -- where tapc's caches live (see cache_dir.h).  One place
 * for the root so that TAPC_CACHE_DIR moves every cache at once (the
 * sanitizer build keeps its own), and one mkdir -p.
 */
#include "translator/debuginfo/cache_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *
cache_root(void)
{
	static char buf[PATH_MAX];
	const char *v = getenv("TAPC_CACHE_DIR");

	if (v && v[0] == '/')
		return v;
	if (buf[0])
		return buf;
	if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/')
		snprintf(buf, sizeof(buf), "%s/tapc", v);
	else if ((v = getenv("HOME")) && v[0] == '/')
		snprintf(buf, sizeof(buf), "%s/.cache/tapc", v);
	return buf[0] ? buf : NULL;
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
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return false;
			*p = '/';
		}
	return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

bool
cache_subdir(const char *sub, bool create, char *out, size_t len)
{
	const char *root = cache_root();

	if (!root || (size_t)snprintf(out, len, "%s/%s", root, sub) >= len)
		return false;
	return !create || cache_mkdir_p(out);
}

uint64_t
cache_name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}
