/*
 * build_user.c -- pass 4 for the user-space target (see build_user.h).
 *
 * Takes the elaborated program. Produces an executable in a temporary
 * build directory: pass 3's C in tap_NAME.c, which includes the platform
 * (#include "runtime.c") so that -D limits reach the runtime core too.
 * The runtime is compiled apart (runtime_split.h) into tap_rt.o, kept in
 * the cache (CACHE/user-runtime/KEY/) for every later script with the
 * same prelude, and compiled side by side with the script when it is not
 * there yet: it was ~70% of every program's compile. A program built
 * before for the same C, runtime and compiler comes from the cache
 * instead. The directory and program are remembered here until pass 5
 * ends.
 * Must not: leave a build directory behind on failure, unless -k.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "translator/build/build_user.h"
#include "translator/build/runtime_split.h"
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

/* Hash what else decides a build's code: the compiler and the runtime's
 * sources. */
static void
hash_compiler_and_runtime(struct hash *h, const char *rt)
{
	/* every file of the three directories the user runtime is built
	 * from: a list of names missed core/abi.h, and a program built
	 * against the old tap_module_desc crashed on the new one */
	static const char *const dirs[] = { "user", "core", "bpf" };
	char path[PATH_MAX + 32];

	hash_str(h, getenv("CC") ? getenv("CC") : "cc");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", rt, dirs[i]);
		hash_tree(h, path);
	}
}

/* Where the program for this C text would be cached. */
static void
build_cache_path(const char *rt, const char *text, size_t len,
		 char *out, size_t size)
{
	char hex[HASH_HEX_SIZE];
	struct hash h;

	hash_init(&h);
	hash_str(&h, "tapc user target 1");
	hash_bytes(&h, text, len);
	hash_compiler_and_runtime(&h, rt);
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

/* Where the runtime object for this runtime translation unit is cached
 * ("" when caching is off): its key is what decides its code. */
static void
runtime_object_path(struct session *s, const char *rt, const char *runtime_c,
		    char *out, size_t size)
{
	char hex[HASH_HEX_SIZE];
	struct hash h;

	out[0] = '\0';
	if (!paths_cache_dir())
		return;
	hash_init(&h);
	hash_str(&h, "tapc user runtime object 1");
	hash_str(&h, s->opts.target == TARGET_BPF ? "bpf" : "user");
	hash_str(&h, runtime_c);
	hash_compiler_and_runtime(&h, rt);
	hash_hex(&h, hex);
	snprintf(out, size, "%s/user-runtime/%s/tap_rt.o", paths_cache_dir(), hex);
}

/* The runtime object to link for runtime_c: the cached one, else one to
 * compile beside the script; in *compile_cmd the command for it ("" when
 * cached), in cached where to keep it afterwards ("" for nowhere). */
static bool
build_runtime_object(struct session *s, const char *rt, const char *runtime_c,
		     const char *cc, const char *flags, char *obj, size_t obj_size,
		     char *compile_cmd, size_t cmd_size, char *cached,
		     size_t cached_size)
{
	char src[PATH_MAX + 32];

	compile_cmd[0] = '\0';
	runtime_object_path(s, rt, runtime_c, cached, cached_size);
	if (cached[0] && cache_trusted(cached)) {
		snprintf(obj, obj_size, "%s", cached);
		cached[0] = '\0';	/* nothing to keep */
		if (s->opts.verbose)
			fprintf(stderr, "tapc: runtime object from the cache: %s\n", obj);
		return true;
	}
	snprintf(src, sizeof(src), "%s/tap_rt.c", build_dir);
	snprintf(obj, obj_size, "%s/tap_rt.o", build_dir);
	snprintf(compile_cmd, cmd_size, "%s %s -c -o '%s' '%s'", cc, flags, obj, src);
	return build_write_text(s, src, runtime_c, strlen(runtime_c));
}

/* An assembler file that brings the BPF object's bytes into the program
 * as tap_bpf_object[] .. tap_bpf_object_end[] (user_bpf.c). */
static bool
build_bpf_blob(struct session *s, const char *object, char *blob, size_t size)
{
	const char *text;

	if (strpbrk(object, "\"\\\n")) {
		diag_fatal_noloc(&s->diag, "cannot link the BPF object %s: its path has a quote, backslash or newline",
				 object);
		return false;
	}
	snprintf(blob, size, "%s/tap_bpf_object.S", build_dir);
	text = arena_printf(s->arena,
		"/* the BPF object, linked into the program (build_user.c) */\n"
		"\t.section .rodata\n\t.balign 8\n"
		"\t.globl tap_bpf_object\ntap_bpf_object:\n"
		"\t.incbin \"%s\"\n"
		"\t.globl tap_bpf_object_end\ntap_bpf_object_end:\n"
		"\t.section .note.GNU-stack,\"\",@progbits\n", object);
	return build_write_text(s, blob, text, strlen(text));
}

/* printf at the end of the string cmd (size bytes in all). */
static void __attribute__((format(printf, 3, 4)))
cmd_append(char *cmd, size_t size, const char *fmt, ...)
{
	size_t len = strlen(cmd);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd + len, size - len, fmt, ap);
	va_end(ap);
}

/*
 * Compile src and link the program: with the runtime object when
 * runtime_c is not NULL (build_runtime_object), with the BPF object when
 * bpf is not NULL (build_bpf.c's plan).  What is still to compile (the
 * runtime, the BPF C) runs in the background beside the script's cc, and
 * all are waited for before the one link.
 */
static bool
build_compile(struct session *s, const char *rt, const char *src,
	      const char *runtime_c, const struct bpf_object_plan *bpf)
{
	char cmd[24 * PATH_MAX], rt_cmd[6 * PATH_MAX] = "";
	char flags[3 * PATH_MAX], cached[PATH_MAX + 64] = "";
	char rt_obj[PATH_MAX + 64] = "", blob[PATH_MAX + 32] = "";
	const char *cc = getenv("CC") ? getenv("CC") : "cc";
	const char *libs = bpf ? " -lbpf -lelf -lz -lpthread" : "";
	int rc;

	snprintf(flags, sizeof(flags), "-std=gnu11 -O0 -I'%s/user'%s%s%s", rt,
		 bpf ? " -DTAP_BPF -I'" : "", bpf ? rt : "", bpf ? "/bpf'" : "");
	if (runtime_c &&
	    !build_runtime_object(s, rt, runtime_c, cc, flags, rt_obj,
				  sizeof(rt_obj), rt_cmd, sizeof(rt_cmd),
				  cached, sizeof(cached)))
		return false;
	if (bpf && !build_bpf_blob(s, bpf->object, blob, sizeof(blob)))
		return false;
	/* sh -c: what is still to compile in the background (b, r), the
	 * script meanwhile (s), all waited for, then the one link */
	cmd[0] = '\0';
	if (bpf && bpf->compile[0])
		cmd_append(cmd, sizeof(cmd), "%s & b=$!; ", bpf->compile);
	if (rt_cmd[0])
		cmd_append(cmd, sizeof(cmd), "%s & r=$!; ", rt_cmd);
	cmd_append(cmd, sizeof(cmd), "%s %s -c -o '%s.o' '%s'; s=$?; ", cc, flags,
		   build_program, src);
	if (bpf && bpf->compile[0])
		cmd_append(cmd, sizeof(cmd), "wait $b || s=1; ");
	if (rt_cmd[0])
		cmd_append(cmd, sizeof(cmd), "wait $r || s=1; ");
	cmd_append(cmd, sizeof(cmd), "[ $s = 0 ] && %s -o '%s' '%s.o'", cc,
		   build_program, build_program);
	if (rt_obj[0])
		cmd_append(cmd, sizeof(cmd), " '%s'", rt_obj);
	if (blob[0])
		cmd_append(cmd, sizeof(cmd), " '%s'", blob);
	cmd_append(cmd, sizeof(cmd), "%s", libs);
	if (s->opts.verbose)
		fprintf(stderr, "Pass 4: %s\n", cmd);
	if (!s->opts.verbose) {
		char quiet[sizeof(cmd) + 64];

		snprintf(quiet, sizeof(quiet), "(%s) 2>&1 | head -50 >&2", cmd);
		rc = system(quiet);
	} else {
		rc = system(cmd);
	}
	if (bpf && build_bpf_object_failed(bpf)) {
		diag_fatal_noloc(&s->diag, "compiling the BPF C failed (%s kept)",
				 bpf->source);
		return false;
	}
	if (rc != 0 || !file_exists(build_program)) {
		diag_fatal_noloc(&s->diag, "compiling the generated C failed (%s kept)",
				 src);
		return false;
	}
	if (cached[0] && !cache_store_in_new_dir(rt_obj, cached, 0600))
		fprintf(stderr, "tapc: warning: cannot cache the runtime object as %s\n",
			cached);
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
	struct bpf_object_plan plan, *bpf = NULL;
	char *text;
	size_t len;
	bool ok;

	if (!rt)
		return false;
	if (s->opts.target == TARGET_BPF) {
		bpf = &plan;
		text = build_bpf_translate(s, rt, &len, bpf);
	} else {
		text = build_translate(s, &len);
	}
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
		if (bpf) {
			bpf->compile[0] = '\0';	/* the program has its object */
			build_bpf_finish(s, bpf, false);
		}
		return true;
	}
	ok = build_make_dir(s);
	if (ok) {
		const char *script = NULL, *runtime_c = NULL;

		snprintf(src, sizeof(src), "%s/%.60s.c", build_dir,
			 build_module_name(s));
		snprintf(build_program, sizeof(build_program), "%s/%.60s",
			 build_dir, build_module_name(s));
		if (!runtime_split(s, text, &script, &runtime_c))
			script = text;	/* one translation unit, as before */
		ok = build_write_text(s, src, script, strlen(script)) &&
		     build_compile(s, rt, src, runtime_c, bpf);
	}
	free(text);
	if (bpf)
		build_bpf_finish(s, bpf, ok);
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
	if (!build_dir[0])
		return false;
	/* keep the C for a look when the compiler refused it */
	if (file_exists(src) && !(bpf && build_bpf_object_failed(bpf))) {
		struct session keep = *s;

		keep.opts.keep_build = true;
		build_cleanup(&keep);
	} else {
		build_cleanup(s);
	}
	build_program[0] = '\0';
	return false;
}
