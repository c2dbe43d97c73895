/*
 * elf_libpath.c -- find a shared library by its file name, as the dynamic
 * linker would (see elf_syms.h): process("libc.so.6") names the libc the
 * programs here load.  The places, in ld.so's order: the directories of
 * $LD_LIBRARY_PATH, the ld.so cache (`ldconfig -p`, its x86-64 entries),
 * then the default directories.  A candidate counts only when it is an
 * x86_64 shared object, as ld.so skips a 32-bit library of that name.
 *
 * Takes: a name without '/'.  Produces: the library's canonical path in
 * the arena.  Must not: run anything but ldconfig; cache the answer
 * across sessions (LD_LIBRARY_PATH belongs to the run).
 */
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/elf_syms.h"

static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
};

/* path, canonical, when it is an x86_64 shared object; else NULL. */
static const char *
usable_library(struct arena *a, const char *path)
{
	char real[PATH_MAX], err[256];
	int fd, e_type;
	Elf *elf;

	if (access(path, R_OK) != 0 || !realpath(path, real))
		return NULL;
	elf = elf_open_x86_64(real, &fd, &e_type, err, sizeof(err));
	if (!elf)
		return NULL;
	elf_end(elf);
	close(fd);
	return e_type == ET_DYN ? arena_strdup(a, real) : NULL;
}

static const char *
in_dir(struct arena *a, const char *dir, size_t len, const char *name)
{
	char cand[PATH_MAX];

	snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, len ? dir : ".",
		 name);
	return usable_library(a, cand);
}

static const char *
in_ld_library_path(struct arena *a, const char *name)
{
	const char *p = getenv("LD_LIBRARY_PATH"), *found = NULL;

	while (p && *p && !found) {
		size_t len = strcspn(p, ":;");
		found = in_dir(a, p, len, name);
		p += len + (p[len] != '\0');
	}
	return found;
}

/* `ldconfig -p` lines: "\tlibc.so.6 (libc6,x86-64) => /lib/.../libc.so.6" */
static const char *
in_ld_so_cache(struct arena *a, const char *name)
{
	static const char *const ldconfigs[] = { "/sbin/ldconfig",
						 "/usr/sbin/ldconfig" };
	const char *found = NULL;
	char line[PATH_MAX + 256];
	size_t nlen = strlen(name);
	FILE *f = NULL;

	for (size_t i = 0; !f && i < sizeof(ldconfigs) / sizeof(*ldconfigs); i++)
		if (access(ldconfigs[i], X_OK) == 0) {
			snprintf(line, sizeof(line), "%s -p 2>/dev/null", ldconfigs[i]);
			f = popen(line, "r");
		}
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t"), *arrow;
		if (found || strncmp(s, name, nlen) != 0 || s[nlen] != ' ' ||
		    !(arrow = strstr(s + nlen, ") => ")))
			continue;
		*arrow = '\0';
		if (!strstr(s + nlen, "x86-64"))
			continue;
		arrow += 5;
		arrow[strcspn(arrow, "\n")] = '\0';
		found = usable_library(a, arrow);
	}
	pclose(f);
	return found;
}

const char *
elf_resolve_library(struct arena *a, const char *name)
{
	const char *found;

	if (!*name || strchr(name, '/'))
		return NULL;
	if ((found = in_ld_library_path(a, name)) ||
	    (found = in_ld_so_cache(a, name)))
		return found;
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(*default_dirs); i++)
		if ((found = in_dir(a, default_dirs[i],
				    strlen(default_dirs[i]), name)))
			return found;
	return NULL;
}

const char *
elf_library_places(struct arena *a)
{
	const char *env = getenv("LD_LIBRARY_PATH");
	const char *s = env && *env ?
		arena_printf(a, "$LD_LIBRARY_PATH (%s), the ld.so cache", env) :
		"$LD_LIBRARY_PATH (not set), the ld.so cache";

	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(*default_dirs); i++)
		s = arena_printf(a, "%s, %s", s, default_dirs[i]);
	return s;
}
