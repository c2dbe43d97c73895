/*
 * kernel_facts.c -- the session's kernel facts (kernel_facts.h) from
 * debuginfo/kernel.h: release, version, architecture, the .config lookup
 * and CONFIG_HZ; and the kernel the passes translate for, told by
 * TAPC_KERNEL_DEBUGINFO whether to use the debug package.
 * Must not: fail when the kernel is not installed (see kernel_facts.h).
 */
#include "translator/driver/kernel_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "translator/debuginfo/kernel.h"
#include "translator/parse/preproc.h"

static const char *
config_lookup(void *ctx, const char *name)
{
	return kernel_config(ctx, name);
}

/* "6.1.0-57-amd64" -> "6.1.0": the leading dotted numbers. */
static const char *
version_of_release(struct session *s, const char *release)
{
	size_t n = strspn(release, "0123456789.");

	while (n > 0 && release[n - 1] == '.')
		n--;
	return arena_strndup(s->arena, release, n);
}

/* For --vm without -r: the newest installed kernel that has headers to
 * build against (versions compared as versions: -9 before -57). */
static const char *
newest_buildable_release(struct session *s)
{
	size_t n = 0;
	char **rels = kernel_installed_releases(NULL, &n);
	const char *best = NULL;

	for (size_t i = 0; rels && i < n; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "/lib/modules/%s/build/Makefile",
			 rels[i]);
		if (access(path, R_OK) != 0)
			continue;
		if (!best || preproc_version_compare(rels[i], best) > 0)
			best = arena_strdup(s->arena, rels[i]);
	}
	kernel_free_releases(rels);
	return best;
}

/* The user platform's jiffy is 4 ms (TAP_JIFFIES_NS in
 * runtime/user/runtime.h). */
#define USER_PLATFORM_HZ 250

/* CONFIG_HZ of the target's .config; 0 when there is none. */
static unsigned
config_hz(const struct kernel_target *kt)
{
	const char *v = kernel_config(kt, "HZ");
	char *end;
	unsigned long hz = v ? strtoul(v, &end, 10) : 0;

	return v && *end == '\0' && hz <= 100000 ? (unsigned)hz : 0;
}

void
kernel_facts_fill(struct session *s)
{
	struct kernel_facts *f = &s->facts;
	struct utsname u;
	char err[256];
	/* the one reader of TAPC_KERNEL_DEBUGINFO (doc/tapc.1): "btf" tests
	 * the BTF paths on a host that has the -dbg package */
	const char *want = getenv("TAPC_KERNEL_DEBUGINFO");
	struct kernel_paths paths = {
		.no_debug_package = want && strcmp(want, "btf") == 0,
	};

	f->runtime = s->opts.target == TARGET_USER ? "user" : "kernel";
	if (s->opts.target == TARGET_USER)
		f->hz = USER_PLATFORM_HZ;
	if (s->opts.vm && !s->opts.kernel_release)
		s->opts.kernel_release = newest_buildable_release(s);
	uname(&u);
	f->arch = arena_strdup(s->arena, u.machine);
	f->kernel_release = arena_strdup(s->arena, s->opts.kernel_release ?
					 s->opts.kernel_release : u.release);
	f->kernel_version = version_of_release(s, f->kernel_release);
	struct kernel_target *kt = kernel_target_open(s->opts.kernel_release,
						      &paths, err, sizeof(err));
	if (!kt) {
		s->kernel_error = arena_strdup(s->arena, err);
		return;
	}
	f->kernel_release = arena_strdup(s->arena, kernel_release(kt));
	f->kernel_version = arena_strdup(s->arena, kernel_release_version(kt));
	f->arch = arena_strdup(s->arena, kernel_arch(kt));
	if (kernel_has_config(kt)) {
		f->config_lookup = config_lookup;
		f->config_ctx = kt;
		if (s->opts.target != TARGET_USER)
			f->hz = config_hz(kt);
	}
	s->kernel = kt;
}

void
kernel_facts_release(struct session *s)
{
	if (s->kernel)
		kernel_target_free(s->kernel);
	s->kernel = NULL;
}
