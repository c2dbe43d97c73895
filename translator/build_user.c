/*
 * build_user.c -- pass 4 for the user-space target (see build.h).
 *
 * Takes the elaborated program. Produces an executable in a temporary
 * build directory: pass 3's C in tap_NAME.c, compiled in one cc call with
 * the platform included at its end (#include "runtime.c"), so that -D
 * limits reach the runtime core too. The directory and program are
 * remembered here until pass 5 ends.
 * Must not: leave a build directory behind on failure, unless -k.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "translator/build.h"
#include "translator/codegen.h"
#include "translator/paths.h"

static char build_dir[PATH_MAX];
static char build_program[PATH_MAX + 64];

const char *
build_result(const struct session *s)
{
	(void)s;
	return build_program[0] ? build_program : NULL;
}

void
build_cleanup(const struct session *s)
{
	char cmd[PATH_MAX + 16];

	if (!build_dir[0])
		return;
	if (s->opts.keep_build) {
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", build_dir);
		build_dir[0] = '\0';
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", build_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "tapc: warning: cannot remove %s\n", build_dir);
	build_dir[0] = '\0';
}

static bool
file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The runtime directory (paths.h: the source tree's when tapc runs from
 * its build tree, TAPC_RUNTIME_DIR when set, else the installed one). */
static const char *
build_runtime_dir(struct session *s)
{
	const char *dir = paths_runtime_dir();
	char probe[PATH_MAX];

	snprintf(probe, sizeof(probe), "%s/user/runtime.h", dir);
	if (!file_exists(probe)) {
		diag_fatal_noloc(&s->diag, "the user-space runtime is not at %s",
				 probe);
		return NULL;
	}
	return dir;
}

static const char *
build_module_name(const struct session *s)
{
	return s->opts.module_name ? s->opts.module_name : "tap_script";
}

static bool
build_write_c(struct session *s, const char *path)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f) {
		diag_fatal_noloc(&s->diag, "cannot create %s: %s", path,
				 strerror(errno));
		return false;
	}
	ok = pass_translate(s, f);
	if (fclose(f) != 0)
		ok = false;
	return ok;
}

static bool
build_compile(struct session *s, const char *rt, const char *src)
{
	char cmd[4 * PATH_MAX];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s -std=gnu11 -O0 -I'%s/user' -o '%s' '%s' %s",
		 getenv("CC") ? getenv("CC") : "cc", rt, build_program, src,
		 s->opts.verbose ? "" : "2>&1 | head -50 >&2");
	if (s->opts.verbose)
		fprintf(stderr, "Pass 4: %s\n", cmd);
	rc = system(cmd);
	if (rc != 0 || !file_exists(build_program)) {
		diag_fatal_noloc(&s->diag, "compiling the generated C failed (%s kept)",
				 src);
		return false;
	}
	return true;
}

bool
pass_build(struct session *s)
{
	const char *rt = build_runtime_dir(s);
	char src[PATH_MAX + 64];
	bool ok;

	if (!rt)
		return false;
	snprintf(build_dir, sizeof(build_dir), "%s/tapcXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(build_dir)) {
		diag_fatal_noloc(&s->diag, "cannot create a build directory: %s",
				 strerror(errno));
		build_dir[0] = '\0';
		return false;
	}
	snprintf(src, sizeof(src), "%s/%.60s.c", build_dir, build_module_name(s));
	snprintf(build_program, sizeof(build_program), "%s/%.60s", build_dir,
		 build_module_name(s));
	ok = build_write_c(s, src) && build_compile(s, rt, src);
	if (!ok) {
		struct session keep = *s;

		/* keep the C for a look when the compiler refused it */
		keep.opts.keep_build = keep.opts.keep_build || file_exists(src);
		if (!keep.opts.keep_build)
			build_cleanup(s);
		build_program[0] = '\0';
	}
	return ok;
}
