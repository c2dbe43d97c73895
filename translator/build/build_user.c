/*
 * build_user.c -- pass 4 for the user-space target (see build_user.h).
 *
 * Takes the elaborated program. Produces an executable in a temporary
 * build directory: pass 3's C in tap_NAME.c, compiled in one cc call with
 * the platform included at its end (#include "runtime.c"), so that -D
 * limits reach the runtime core too. A program built before for the same
 * C, runtime and compiler comes from the cache instead. The directory and
 * program are remembered here until pass 5 ends.
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

#include "translator/build/build_user.h"
#include "translator/codegen/codegen.h"
#include "translator/debuginfo/cache_dir.h"
#include "translator/common/hash.h"
#include "translator/driver/paths.h"

static char build_dir[PATH_MAX];
static char build_program[PATH_MAX + 128];

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

/* The runtime's sources, in a fixed order: part of the cache key, so an
 * edited runtime never meets a program built against the old one. */
static const char *const build_runtime_files[] = {
	"user/runtime.h", "user/runtime.c", "user/context.c", "user/main.c",
	"user/timing.h", "user/timing.c", "core/timing.h", "core/timing.c",
	"core/platform.h", "core/platform.c", "core/error.h", "core/error.c",
	"core/value.h", "core/buf.h", "core/buf.c", "core/arith.h",
	"core/stat.h", "core/stat.c", "core/hist.c", "core/map.h",
	"core/map.c", "core/pmap.c", "core/cmap.c", "core/format.h", "core/format.c",
	"core/tapstring.h", "core/tapstring.c", "core/json.h", "core/json.c",
	"core/merge.h", "core/merge.c",
	"core/core.h", "core/all.c",
	"bpf/tap_bpf.h", "bpf/tap_bpf_abi.h", "bpf/user_bpf.c",
	NULL
};

/* Where the program for this C text would be cached. */
static void
build_cache_path(const char *rt, const char *text, size_t len,
		 char *out, size_t size)
{
	char path[PATH_MAX + 32], hex[HASH_HEX_SIZE];
	struct hash h;
	int i;

	hash_init(&h);
	hash_str(&h, "tapc user target 1");
	hash_str(&h, getenv("CC") ? getenv("CC") : "cc");
	hash_bytes(&h, text, len);
	for (i = 0; build_runtime_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", rt, build_runtime_files[i]);
		hash_file(&h, path);
	}
	hash_hex(&h, hex);
	if (paths_cache_dir())
		snprintf(out, size, "%s/user/%s", paths_cache_dir(), hex);
	else
		out[0] = '\0';		/* caching is off */
}

/* Keep the program for next time; a failure only costs a rebuild.
 * True if the cache now holds it. */
static bool
build_cache_store(const char *cache_dir, const char *prog, const char *name)
{
	char to[PATH_MAX + 64];

	if (!cache_dir[0] || !cache_mkdir_p(cache_dir))
		return false;
	snprintf(to, sizeof(to), "%s/%.60s", cache_dir, name);
	if (!cache_store(prog, to, 0700)) {
		fprintf(stderr, "tapc: warning: cannot cache the program in %s\n",
			cache_dir);
		return false;
	}
	return true;
}

static bool
build_write_text(struct session *s, const char *path, const char *text,
		 size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		diag_fatal_noloc(&s->diag, "cannot write %s: %s", path,
				 strerror(errno));
		return false;
	}
	return true;
}

/* Pass 3 into memory. */
static char *
build_translate(struct session *s, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	bool ok;

	if (!f)
		return NULL;
	ok = pass_translate(s, f);
	fclose(f);
	if (!ok) {
		free(text);
		return NULL;
	}
	return text;
}

static bool
build_compile(struct session *s, const char *rt, const char *src)
{
	char cmd[4 * PATH_MAX];
	int rc;

	bool bpf = s->opts.target == TARGET_BPF;

	snprintf(cmd, sizeof(cmd), "%s -std=gnu11 -O0 -I'%s/user'%s%s%s -o '%s' '%s'%s %s",
		 getenv("CC") ? getenv("CC") : "cc", rt,
		 bpf ? " -DTAP_BPF -I'" : "", bpf ? rt : "", bpf ? "/bpf'" : "",
		 build_program, src,
		 bpf ? " -lbpf -lelf -lz -lpthread" : "",
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

static bool
build_make_dir(struct session *s)
{
	snprintf(build_dir, sizeof(build_dir), "%s/tapcXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(build_dir)) {
		diag_fatal_noloc(&s->diag, "cannot create a build directory: %s",
				 strerror(errno));
		build_dir[0] = '\0';
		return false;
	}
	return true;
}

bool
pass_build(struct session *s)
{
	const char *rt = build_runtime_dir(s);
	char src[PATH_MAX + 128], cache_dir[PATH_MAX];
	char *text;
	size_t len;
	bool ok;

	if (!rt)
		return false;
	text = s->opts.target == TARGET_BPF ? build_bpf_translate(s, rt, &len)
					     : build_translate(s, &len);
	if (!text)
		return false;
	build_cache_path(rt, text, len, cache_dir, sizeof(cache_dir));
	snprintf(build_program, sizeof(build_program), "%s/%.60s", cache_dir,
		 build_module_name(s));
	if (!s->opts.keep_build && cache_dir[0] &&
	    cache_trusted(build_program) && access(build_program, X_OK) == 0) {
		if (s->opts.verbose)
			fprintf(stderr, "Pass 4: using cached %s\n", build_program);
		free(text);
		return true;
	}
	if (!build_make_dir(s)) {
		free(text);
		return false;
	}
	snprintf(src, sizeof(src), "%s/%.60s.c", build_dir, build_module_name(s));
	snprintf(build_program, sizeof(build_program), "%s/%.60s", build_dir,
		 build_module_name(s));
	ok = build_write_text(s, src, text, len) && build_compile(s, rt, src);
	free(text);
	if (ok) {
		/* the cached copy is the result, as on a cache hit, so that
		 * -p4 leaves no scratch directory behind (unless -k) */
		if (build_cache_store(cache_dir, build_program,
				      build_module_name(s)) &&
		    !s->opts.keep_build) {
			build_cleanup(s);
			snprintf(build_program, sizeof(build_program), "%s/%.60s",
				 cache_dir, build_module_name(s));
		}
		return true;
	}
	/* keep the C for a look when the compiler refused it */
	if (file_exists(src)) {
		struct session keep = *s;

		keep.opts.keep_build = true;
		build_cleanup(&keep);
	} else {
		build_cleanup(s);
	}
	build_program[0] = '\0';
	return false;
}
