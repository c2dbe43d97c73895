/*
 * kbuild.c -- building the module with the target kernel's kbuild.
 *
 * In a fresh temporary directory: NAME_script.c (the generated code), a
 * Kbuild file putting runtime/ on the include path, and tapconf.h from
 * the runtime's compile tests (runtime/linux/compat/tapconf.sh, cached
 * per kernel). make's output goes to build.log, shown when the build
 * fails. The module is copied into the cache; the directory is removed
 * unless -k asks to keep it.
 *
 * The runtime apart (runtime_split.h): the generated C ends with
 * #include "runtime.c", but that part is the same for every script built
 * with the same prelude (the -D limits before #include "runtime.h"),
 * tapconf.h, make options and kernel, and it is ~90% of the compile (4.1 s
 * of 4.5 s of cc for a one-probe script on 6.1). So the module is two
 * objects: NAME_script.o, the C without that line, and tap_rt.o, the
 * prelude and runtime.c, compiled once and kept in the cache under its
 * own key (runtime/KEY/tap_rt.o).
 *
 * And kbuild apart: with the runtime object from the cache, the next
 * module is built by the commands kbuild ran for the last one
 * (kbuild_replay.c), which saves kbuild's own ~0.6 CPU-s of reading the
 * kernel's makefiles; kbuild runs when that cannot be done.
 */
#include "translator/build/kbuild.h"
#include "translator/build/kbuild_replay.h"
#include "translator/build/runtime_split.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/kernel.h"
#include "translator/common/hash.h"
#include "translator/driver/paths.h"
#include "translator/providers/provider.h"
#include "translator/sema/sema.h"
#include "translator/driver/spawn.h"

const char *
kbuild_cache_key(struct session *s)
{
	struct hash h;
	char *text = NULL, hex[HASH_HEX_SIZE];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	sema_print_program(f, s);
	fclose(f);
	hash_init(&h);
	hash_str(&h, PACKAGE_VERSION);
	/* tapc itself: a rebuilt translator may generate different C */
	hash_file(&h, "/proc/self/exe");
	hash_bytes(&h, text, len);
	free(text);
	/* the script's name as given: error messages in the module say
	 * FILE:LINE:COL with it, so the same program run from another
	 * path (or directory) is another module */
	hash_str(&h, s->opts.script_file ? s->opts.script_file : "<input>");
	for (int i = 0; i < s->opts.ndefines; i++) {
		hash_str(&h, s->opts.defines[i].name);
		hash_str(&h, s->opts.defines[i].value);
	}
	hash_int(&h, s->opts.guru);
	/* the module records it (MODULE_INFO tap_privilege) */
	hash_int(&h, privilege_level(s->opts.privilege));
	hash_int(&h, s->opts.unoptimized);
	hash_int(&h, s->opts.json_output);
	hash_int(&h, s->opts.merge_part);	/* --remote-merge's half */
	hash_int(&h, s->opts.target);
	hash_int(&h, s->opts.buffer_mb);
	hash_str(&h, s->opts.module_name);
	hash_str(&h, s->opts.make_options);
	if (s->kernel) {
		hash_str(&h, kernel_release(s->kernel));
		hash_str(&h, kernel_build_dir(s->kernel));
	}
	hash_tree(&h, paths_runtime_dir());
	provider_hash_inputs(s, &h);
	hash_hex(&h, hex);
	return arena_strdup(s->arena, hex);
}

const char *
kbuild_module_name(struct session *s, const char *key)
{
	if (s->opts.module_name)
		return s->opts.module_name;
	return arena_printf(s->arena, "tap_%.16s", key);
}

/* Where the module of `key` is cached, or NULL when caching is off. */
static const char *
cache_path(struct session *s, const char *key, const char *name)
{
	const char *root = paths_cache_dir();

	return root ? arena_printf(s->arena, "%s/modules/%s/%s.ko", root, key,
				   name) : NULL;
}

const char *
kbuild_cached_module(struct session *s, const char *key, const char *name)
{
	const char *p = cache_path(s, key, name);

	/* Loaded as root: only a file nobody else could have put there. */
	return p && cache_trusted(p) ? p : NULL;
}

static bool
write_file(struct session *s, const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		diag_fatal_noloc(&s->diag, "cannot write %s: %s", path,
				 strerror(errno));
		return false;
	}
	return true;
}

/*
 * Flags every object of the module is compiled with, beyond kbuild's.
 * No ftrace instrumentation (-pg/-mfentry, as the kernel's own tracing
 * code is built): loading a module checks each of its fentry sites with
 * a linear search of the module's symbols, which was ~40% of the
 * instructions an insmod of a one-probe module took (6.1, 342 sites);
 * and ftrace's function tracer has no business in a tracer's handlers.
 */
static const char kbuild_cflags[] = "ccflags-remove-y := $(CC_FLAGS_FTRACE)\n";

static bool
write_sources(struct session *s, const char *dir, const char *name,
	      const char *script, bool split)
{
	const char *rt = paths_runtime_dir();
	const char *kbuild = arena_printf(s->arena,
		"# Kbuild for %s, written by tapc\n"
		"obj-m := %s.o\n"
		"%s%s%s"
		"ccflags-y := -I%s -I%s/linux -I%s/core -I%s\n"
		"%s",
		name, name, split ? name : "",
		split ? "-y := " : "",
		split ? arena_printf(s->arena, "%s_script.o tap_rt.o\n", name)
		      : "",
		rt, rt, rt, dir, kbuild_cflags);

	return write_file(s, arena_printf(s->arena, "%s/%s%s.c", dir, name,
					  split ? "_script" : ""), script) &&
	       write_file(s, arena_printf(s->arena, "%s/Kbuild", dir), kbuild);
}

/* The key of the runtime object for this build: what decides its code. */
static const char *
runtime_key(struct session *s, const char *runtime_c, const char *tapconf)
{
	struct hash h;
	char hex[HASH_HEX_SIZE];

	hash_init(&h);
	hash_str(&h, PACKAGE_VERSION);
	hash_str(&h, runtime_c);	/* the prelude: -D limits */
	hash_str(&h, s->opts.make_options);
	hash_str(&h, kbuild_cflags);
	if (s->kernel) {
		hash_str(&h, kernel_release(s->kernel));
		hash_str(&h, kernel_build_dir(s->kernel));
	}
	hash_contents(&h, tapconf);
	hash_tree(&h, paths_runtime_dir());
	hash_hex(&h, hex);
	return arena_strdup(s->arena, hex);
}

/* Where the runtime object of `key` is cached, or NULL without a cache. */
static const char *
runtime_cache_path(struct session *s, const char *key)
{
	const char *root = paths_cache_dir();

	return root ? arena_printf(s->arena, "%s/runtime/%s/tap_rt.o", root,
				   key) : NULL;
}

/*
 * Put the runtime in DIR: the cached tap_rt.o when there is one (kbuild
 * then has nothing to compile for it: no tap_rt.c), else tap_rt.c to be
 * compiled beside the script. Returns the cache path to store a fresh
 * object in afterwards (NULL when none or when it came from the cache).
 * *steps: where kbuild's commands for modules on this runtime object are
 * kept (kbuild_replay.h), NULL without a cache.
 */
static const char *
place_runtime(struct session *s, const char *dir, const char *runtime_c,
	      bool *ok, const char **steps)
{
	const char *key = runtime_key(s, runtime_c,
		arena_printf(s->arena, "%s/tapconf.h", dir));
	const char *cached = runtime_cache_path(s, key);
	const char *obj = arena_printf(s->arena, "%s/tap_rt.o", dir);

	*ok = true;
	*steps = cached ? arena_printf(s->arena, "%.*s/kbuild-steps",
		(int)(strrchr(cached, '/') - cached), cached) : NULL;
	/* modpost reads the symbol versions of each object from its .cmd
	 * (Linux 5.19+), so the object comes with the one kbuild wrote */
	if (cached && cache_trusted(cached) && cache_store(cached, obj, 0600) &&
	    cache_store(arena_printf(s->arena, "%s.cmd", cached),
			arena_printf(s->arena, "%s/.tap_rt.o.cmd", dir), 0600)) {
		if (s->opts.verbose)
			fprintf(stderr, "tapc: runtime object from the cache: %s\n",
				cached);
		return NULL;
	}
	if (s->opts.verbose)
		fprintf(stderr, "tapc: runtime object to build (key %s)\n", key);
	*ok = write_file(s, arena_printf(s->arena, "%s/tap_rt.c", dir),
			 runtime_c);
	return cached;
}

/* Keep the runtime object just built for the next module. */
static void
store_runtime(struct session *s, const char *dir, const char *cached)
{
	if (!cached)
		return;
	/* the .cmd first: an object without one is never taken */
	if (cache_mkdir_p(arena_strndup(s->arena, cached,
					strrchr(cached, '/') - cached)) &&
	    cache_store(arena_printf(s->arena, "%s/.tap_rt.o.cmd", dir),
			arena_printf(s->arena, "%s.cmd", cached), 0600))
		cache_store(arena_printf(s->arena, "%s/tap_rt.o", dir), cached,
			    0600);
}

/* tapconf.h in DIR, from the runtime's compile tests for KDIR. */
static bool
run_tapconf(struct session *s, const char *dir, const char *kdir,
	    const char *log)
{
	char *argv[8];
	int n = 0;
	const char *tapconf = arena_printf(s->arena,
		"%s/linux/compat/tapconf.sh", paths_runtime_dir());

	argv[n++] = "sh";
	argv[n++] = (char *)tapconf;
	argv[n++] = (char *)kdir;
	argv[n++] = arena_printf(s->arena, "%s/tapconf.h", dir);
	argv[n] = NULL;
	/* caching off (--disable-cache, or no usable cache): tapconf.sh's
	 * own cache of the test results is off too */
	if (!paths_cache_dir())
		setenv("TAPCONF_CACHE", "none", 1);
	if (spawn_wait(argv, log) != 0) {
		diag_fatal_noloc(&s->diag, "the kernel compile tests failed (see %s)", log);
		return false;
	}
	return true;
}

static bool
run_make(struct session *s, const char *dir, const char *kdir,
	 const char *log)
{
	char *argv[16];
	int n = 0;

	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)kdir;
	argv[n++] = arena_printf(s->arena, "M=%s", dir);
	argv[n++] = "-j2";
	/* No BTF for the module: kbuild runs pahole over it when the headers
	 * ship a vmlinux (Debian's 6.12 do), ~0.5 s of a build, for type
	 * information only a tracer of this module's own functions would
	 * read; and the step is in no .cmd file, so it would keep
	 * kbuild_replay.c from recording the build. */
	argv[n++] = "CONFIG_DEBUG_INFO_BTF_MODULES=";
	if (s->opts.make_options)
		argv[n++] = (char *)s->opts.make_options;
	argv[n++] = "modules";
	argv[n] = NULL;
	return spawn_wait(argv, log) == 0;
}

static void
remove_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	spawn_wait(argv, NULL);
}

/* The target kernel's build directory, or NULL after reporting why. */
static const char *
require_kdir(struct session *s)
{
	char err[512];

	if (!s->kernel) {
		diag_fatal_noloc(&s->diag, "%s", s->kernel_error ?
				 s->kernel_error : "no target kernel");
		return NULL;
	}
	if (!kernel_require_build_dir(s->kernel, err, sizeof(err))) {
		diag_fatal_noloc(&s->diag, "%s", err);
		return NULL;
	}
	return kernel_build_dir(s->kernel);
}

/* Everything kbuild needs in DIR but the make: tapconf.h, the sources,
 * Kbuild and the runtime (object or source). *rt_store: where to keep a
 * runtime object built here (NULL: none to keep); *steps: where kbuild's
 * commands are kept for this runtime object (NULL: nowhere). */
static bool
prepare_dir(struct session *s, const char *dir, const char *kdir,
	    const char *log, const char *c_text, const char *name,
	    const char **rt_store, const char **steps)
{
	const char *script = c_text, *runtime_c = NULL;
	bool split, ok = true;

	*rt_store = NULL;
	*steps = NULL;
	split = runtime_split(s, c_text, &script, &runtime_c);
	if (!run_tapconf(s, dir, kdir, log) ||
	    !write_sources(s, dir, name, script, split))
		return false;
	if (split)
		*rt_store = place_runtime(s, dir, runtime_c, &ok, steps);
	return ok;
}

const char *
kbuild_stage_module(struct session *s, const char *c_text, const char *name,
		    const char *dir)
{
	const char *kdir = require_kdir(s), *rt_store, *steps;

	if (!kdir)
		return NULL;
	if (mkdir(dir, 0700) != 0) {
		diag_fatal_noloc(&s->diag, "cannot make the build directory %s: %s",
				 dir, strerror(errno));
		return NULL;
	}
	if (!prepare_dir(s, dir, kdir, arena_printf(s->arena, "%s/tapconf.log", dir),
			 c_text, name, &rt_store, &steps))
		return NULL;
	return arena_printf(s->arena, "%s/%s.ko", dir, name);
}

const char *
kbuild_build_module(struct session *s, const char *c_text, const char *name,
		    const char *key)
{
	char tmpl[] = "/tmp/tapcXXXXXX";
	const char *dir, *log, *kdir, *ko, *cached, *rt_store, *steps;
	bool replayed;

	if (!(kdir = require_kdir(s)))
		return NULL;
	dir = mkdtemp(tmpl) ? arena_strdup(s->arena, tmpl) : NULL;
	if (!dir) {
		diag_fatal_noloc(&s->diag, "cannot make a build directory: %s",
				 strerror(errno));
		return NULL;
	}
	log = arena_printf(s->arena, "%s/build.log", dir);
	if (s->opts.verbose)
		fprintf(stderr, "tapc: building %s against %s in %s\n", name,
			kdir, dir);
	if (!prepare_dir(s, dir, kdir, log, c_text, name, &rt_store, &steps))
		return NULL;
	/* the runtime object from the cache and no make options of the
	 * user's: kbuild's commands of the last build, without kbuild */
	replayed = !rt_store && steps && !s->opts.make_options &&
		   kbuild_replay_build(s, dir, name, kdir, steps, log);
	if (!replayed && !run_make(s, dir, kdir, log)) {
		diag_fatal_noloc(&s->diag, "building the module failed; the end of %s:", log);
		spawn_show_log_tail(log, 30);
		if (!s->opts.keep_build)
			fprintf(stderr, "tapc: run with -k to keep %s\n", dir);
		return NULL;
	}
	store_runtime(s, dir, rt_store);
	if (!replayed && steps && !s->opts.make_options)
		kbuild_replay_record(s, dir, name, log, steps);
	ko = arena_printf(s->arena, "%s/%s.ko", dir, name);
	cached = cache_path(s, key, name);
	if (cached && cache_mkdir_p(arena_printf(s->arena, "%s/modules/%s",
						 paths_cache_dir(), key)) &&
	    cache_store(ko, cached, 0600)) {
		ko = cached;
	} else if (!s->opts.keep_build) {
		/* the module lives only here: the directory must stay */
		fprintf(stderr, "tapc: warning: the module could not be cached; it stays in %s\n", dir);
		return ko;
	}
	if (s->opts.keep_build)
		fprintf(stderr, "tapc: keeping the build directory %s\n", dir);
	else
		remove_tree(dir);
	return ko;
}
