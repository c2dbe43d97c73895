/*
 * kbuild.c -- building the module with the target kernel's kbuild.
 *
 * In a fresh temporary directory: NAME.c (the generated code), a Kbuild
 * file putting runtime/ on the include path, and tapconf.h from the
 * runtime's compile tests (runtime/linux/compat/tapconf.sh, cached per
 * kernel). make's output goes to build.log, shown when the build fails.
 * The module is copied into the cache; the directory is removed unless
 * -k asks to keep it.
 */
#include "translator/build/kbuild.h"

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

static void
hash_file(struct hash *h, const char *path)
{
	char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	hash_str(h, path);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		hash_bytes(h, buf, n);
	fclose(f);
}

/* Every runtime source, in name order, so that an edited runtime makes a
 * new module. */
static void
hash_tree(struct hash *h, const char *dir, int depth)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		const char *nm = names[i]->d_name;
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, nm);
		if (nm[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 4)
				hash_tree(h, path, depth + 1);
			else if (S_ISREG(st.st_mode))
				hash_file(h, path);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

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
	for (int i = 0; i < s->opts.ndefines; i++) {
		hash_str(&h, s->opts.defines[i].name);
		hash_str(&h, s->opts.defines[i].value);
	}
	hash_int(&h, s->opts.guru);
	/* the module records it (MODULE_INFO tap_privilege) */
	hash_int(&h, privilege_level(s->opts.privilege));
	hash_int(&h, s->opts.unoptimized);
	hash_int(&h, s->opts.target);
	hash_int(&h, s->opts.buffer_mb);
	hash_str(&h, s->opts.module_name);
	hash_str(&h, s->opts.make_options);
	if (s->kernel) {
		hash_str(&h, kernel_release(s->kernel));
		hash_str(&h, kernel_build_dir(s->kernel));
	}
	hash_tree(&h, paths_runtime_dir(), 0);
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

static bool
write_sources(struct session *s, const char *dir, const char *name,
	      const char *c_text)
{
	const char *rt = paths_runtime_dir();
	const char *kbuild = arena_printf(s->arena,
		"# Kbuild for %s, written by tapc\n"
		"obj-m := %s.o\n"
		"ccflags-y := -I%s -I%s/linux -I%s/core -I%s\n",
		name, name, rt, rt, rt, dir);

	return write_file(s, arena_printf(s->arena, "%s/%s.c", dir, name),
			  c_text) &&
	       write_file(s, arena_printf(s->arena, "%s/Kbuild", dir), kbuild);
}

static bool
run_make(struct session *s, const char *dir, const char *kdir,
	 const char *log)
{
	char *argv[16];
	int n = 0;
	const char *tapconf = arena_printf(s->arena,
		"%s/linux/compat/tapconf.sh", paths_runtime_dir());

	argv[n++] = "sh";
	argv[n++] = (char *)tapconf;
	argv[n++] = (char *)kdir;
	argv[n++] = arena_printf(s->arena, "%s/tapconf.h", dir);
	argv[n] = NULL;
	if (spawn_wait(argv, log) != 0) {
		diag_fatal_noloc(&s->diag, "the kernel compile tests failed (see %s)", log);
		return false;
	}
	n = 0;
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)kdir;
	argv[n++] = arena_printf(s->arena, "M=%s", dir);
	argv[n++] = "-j2";
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

const char *
kbuild_build_module(struct session *s, const char *c_text, const char *name,
		    const char *key)
{
	char err[512], tmpl[] = "/tmp/tapcXXXXXX";
	const char *dir, *log, *kdir, *ko, *cached;

	if (!s->kernel) {
		diag_fatal_noloc(&s->diag, "%s", s->kernel_error ?
				 s->kernel_error : "no target kernel");
		return NULL;
	}
	if (!kernel_require_build_dir(s->kernel, err, sizeof(err))) {
		diag_fatal_noloc(&s->diag, "%s", err);
		return NULL;
	}
	kdir = kernel_build_dir(s->kernel);
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
	if (!write_sources(s, dir, name, c_text))
		return NULL;
	if (!run_make(s, dir, kdir, log)) {
		diag_fatal_noloc(&s->diag, "building the module failed; the end of %s:", log);
		spawn_show_log_tail(log, 30);
		if (!s->opts.keep_build)
			fprintf(stderr, "tapc: run with -k to keep %s\n", dir);
		return NULL;
	}
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
