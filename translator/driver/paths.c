/*
 * paths.c -- the directories of paths.h. Results are computed once.
 */
#include "translator/driver/paths.h"

#include "translator/debuginfo/cache_dir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool
paths_uninstalled(void)
{
	static int cached = -1;
	char self[PATH_MAX];

	if (cached >= 0)
		return cached;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	cached = 0;
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			cached = strcmp(self, TAPC_BUILDDIR) == 0;
		}
	}
	return cached;
}

static const char *
env_or(const char *var, const char *uninstalled, const char *installed)
{
	const char *v = getenv(var);

	if (v && *v)
		return v;
	return paths_uninstalled() ? uninstalled : installed;
}

const char *
paths_tapset_dir(void)
{
	/* SYSTEMTAP_TAPSET is what stap users already set. */
	const char *stap = getenv("SYSTEMTAP_TAPSET");

	if (stap && *stap && !getenv("TAPC_TAPSET_DIR"))
		return stap;
	return env_or("TAPC_TAPSET_DIR", TAPC_SRCDIR "/tapsets",
		      TAPC_PKGDATADIR "/tapsets");
}

const char *
paths_runtime_dir(void)
{
	return env_or("TAPC_RUNTIME_DIR", TAPC_SRCDIR "/runtime",
		      TAPC_PKGDATADIR "/runtime");
}

const char *
paths_taprun(void)
{
	return env_or("TAPC_TAPRUN", TAPC_BUILDDIR "/taprun",
		      TAPC_BINDIR "/taprun");
}

const char *
paths_taprun_static(void)
{
	return env_or("TAPC_TAPRUN_STATIC", TAPC_BUILDDIR "/loader/taprun-static",
		      TAPC_LIBEXECDIR "/taprun-static");
}

const char *
paths_vm_tools(void)
{
	return env_or("TAPC_VM_TOOLS", TAPC_SRCDIR "/testsuite/vm",
		      TAPC_LIBEXECDIR "/vm");
}

const char *
paths_cache_dir(void)
{
	return cache_root();
}
