/*
 * build_bpf.c -- the BPF half of pass 4 for --runtime=bpf (build_user.h).
 *
 * Takes the elaborated program.  Produces the user program's C text and
 * a plan for its BPF object: pass 3's BPF C is written to a scratch
 * directory with the clang -target bpf command that compiles it (CO-RE:
 * struct accesses are relocated against the running kernel's BTF by
 * libbpf at load time); build_user.c runs that command side by side with
 * cc and links the object into the program (tap_bpf_object[], from its
 * own file), so the one program pass 4 builds (and -p4 prints) carries
 * everything pass 5 or another machine needs.  The object is cached
 * (CACHE/bpf/KEY/tap_bpf.bpf.o, KEY from the BPF C, clang and the
 * headers it reads; the C text names KEY, so the program's own cache key
 * covers the object): clang took ~0.3 s of every run, and the object
 * named its scratch directory in its debug information, so the user
 * program around it was never found in the cache either (~0.7 s from
 * script to first event; bpftrace ~40 ms).
 * Must not: leave the scratch directory behind (unless -k).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/build/build_user.h"
#include "translator/codegen/codegen.h"
#include "translator/common/hash.h"
#include "translator/debuginfo/cache_dir.h"
#include "translator/driver/paths.h"

/* clang's options beyond the sources: part of the object's cache key.
 * The scratch directory is mapped away, so that the same C always gives
 * the same object. */
static const char bpf_cflags[] =
	"-target bpf -O2 -g -mcpu=v3 -Wno-unused-value -Wno-unused-label";

/* "x86_64-linux-gnu": where Debian keeps <asm/types.h>, which the BPF
 * C's <linux/bpf.h> needs and clang -target bpf does not look in. */
static const char *
multiarch_dir(struct session *s)
{
	char buf[128] = "";
	FILE *p = popen("cc -print-multiarch 2>/dev/null", "r");

	if (p) {
		if (!fgets(buf, sizeof(buf), p))
			buf[0] = '\0';
		pclose(p);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? arena_printf(s->arena, "-I/usr/include/%s", buf) : "";
}

static void
remove_dir(struct session *s, const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (s->opts.keep_build) {
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "tapc: warning: cannot remove %s\n", dir);
}

/* clang's command for src -> obj into cmd; false (reported) when clang
 * or libbpf's headers are missing. */
static bool
bpf_compile_command(struct session *s, const char *rt, const char *src,
		    const char *obj, char *cmd, size_t size)
{
	const char *clang = getenv("TAPC_CLANG") ? getenv("TAPC_CLANG") : "clang";
	char probe[PATH_MAX + 64];

	snprintf(probe, sizeof(probe), "command -v '%s' >/dev/null 2>&1", clang);
	if (system(probe) != 0) {
		diag_fatal_noloc(&s->diag, "--runtime=bpf needs clang to compile BPF programs, and '%s' is not installed (Debian: apt-get install clang libbpf-dev)", clang);
		return false;
	}
	if (access("/usr/include/bpf/bpf_helpers.h", R_OK) != 0) {
		diag_fatal_noloc(&s->diag, "--runtime=bpf needs libbpf's headers (/usr/include/bpf/bpf_helpers.h is missing; Debian: apt-get install libbpf-dev)");
		return false;
	}
	snprintf(cmd, size, "'%s' %s -fdebug-prefix-map='%.*s'=. -I'%s/bpf' %s -c '%s' -o '%s'",
		 clang, bpf_cflags, (int)(strrchr(src, '/') - src), src, rt,
		 multiarch_dir(s), src, obj);
	return true;
}

/* Hash the identity of the program a command name runs (the file found
 * on PATH, or the path itself): its size and time stand for its version
 * without running it. */
static void
hash_command(struct hash *h, const char *name)
{
	const char *path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
	char file[PATH_MAX];
	struct stat st;
	bool found = false;

	hash_str(h, name);
	if (strchr(name, '/'))
		found = stat(name, &st) == 0;
	while (!found && *path) {
		size_t n = strcspn(path, ":");

		snprintf(file, sizeof(file), "%.*s/%s", (int)n, path, name);
		found = stat(file, &st) == 0;
		path += n + (path[n] == ':');
	}
	if (found) {
		hash_int(h, (int64_t)st.st_size);
		hash_int(h, (int64_t)st.st_mtime);
	}
}

/* The object's key (what decides its bytes) in key, and where it is
 * cached in out ("" when caching is off). */
static void
object_cache_dir(const char *rt, const char *bpf_c, size_t len,
		 char key[HASH_HEX_SIZE], char *out, size_t size)
{
	static const char *const headers[] = {
		"bpf/tap_bpf.h", "bpf/tap_bpf_abi.h", "core/limits.h", NULL
	};
	static const char *const system_headers[] = {
		"/usr/include/bpf/bpf_helpers.h",
		"/usr/include/bpf/bpf_helper_defs.h",
		"/usr/include/bpf/bpf_core_read.h",
		"/usr/include/linux/bpf.h", NULL
	};
	char path[PATH_MAX + 32];
	struct hash h;

	out[0] = '\0';
	hash_init(&h);
	hash_str(&h, "tapc bpf object 1");
	hash_str(&h, bpf_cflags);
	hash_command(&h, getenv("TAPC_CLANG") ? getenv("TAPC_CLANG") : "clang");
	hash_bytes(&h, bpf_c, len);
	for (int i = 0; headers[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", rt, headers[i]);
		hash_file(&h, path);
	}
	for (int i = 0; system_headers[i]; i++)
		hash_file(&h, system_headers[i]);
	hash_hex(&h, key);
	if (paths_cache_dir())
		snprintf(out, size, "%s/bpf/%s", paths_cache_dir(), key);
}

/* The BPF C into a scratch directory, with clang's command to run
 * there (build_user.c runs it beside cc). */
static bool
plan_compile(struct session *s, const char *rt, const char *bpf_c, size_t len,
	     struct bpf_object_plan *plan)
{
	FILE *f;

	snprintf(plan->scratch, sizeof(plan->scratch), "%s/tapcbpfXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(plan->scratch)) {
		diag_fatal_noloc(&s->diag, "cannot create a build directory: %s",
				 strerror(errno));
		plan->scratch[0] = '\0';
		return false;
	}
	snprintf(plan->source, sizeof(plan->source), "%s/tap_bpf.bpf.c", plan->scratch);
	snprintf(plan->object, sizeof(plan->object), "%s/tap_bpf.bpf.o", plan->scratch);
	f = fopen(plan->source, "w");
	if (!f || fwrite(bpf_c, 1, len, f) != len || fclose(f) != 0) {
		diag_fatal_noloc(&s->diag, "cannot write %s: %s", plan->source,
				 strerror(errno));
		return false;
	}
	return bpf_compile_command(s, rt, plan->source, plan->object,
				   plan->compile, sizeof(plan->compile));
}

char *
build_bpf_translate(struct session *s, const char *rt, size_t *len,
		    struct bpf_object_plan *plan)
{
	char cache_dir[PATH_MAX], key[HASH_HEX_SIZE];
	struct bpf_translation *t;
	size_t bpf_len = 0;
	char *text = NULL, *bpf_c = NULL;
	FILE *f = open_memstream(&bpf_c, &bpf_len);

	memset(plan, 0, sizeof(*plan));
	if (!f) {
		diag_fatal_noloc(&s->diag, "out of memory");
		return NULL;
	}
	t = pass_translate_bpf(s, f);
	if (fclose(f) != 0 || !t) {
		free(bpf_c);
		return NULL;
	}
	object_cache_dir(rt, bpf_c, bpf_len, key, cache_dir, sizeof(cache_dir));
	if (cache_dir[0])
		snprintf(plan->cache, sizeof(plan->cache), "%s/tap_bpf.bpf.o", cache_dir);
	/* -k wants the sources in a kept directory: compile then */
	if (!s->opts.keep_build && plan->cache[0] && cache_trusted(plan->cache)) {
		snprintf(plan->object, sizeof(plan->object), "%s", plan->cache);
		plan->cache[0] = '\0';		/* nothing to keep */
		if (s->opts.verbose)
			fprintf(stderr, "Pass 4: using cached %s\n", plan->object);
	} else if (!plan_compile(s, rt, bpf_c, bpf_len, plan)) {
		free(bpf_c);
		build_bpf_finish(s, plan, false);
		return NULL;
	}
	free(bpf_c);
	f = open_memstream(&text, len);
	if (!f || !pass_translate_bpf_user(t, f, key)) {
		if (f)
			fclose(f);
		free(text);
		text = NULL;
	} else {
		fclose(f);
	}
	if (!text)
		build_bpf_finish(s, plan, false);
	return text;
}

bool
build_bpf_object_failed(const struct bpf_object_plan *plan)
{
	return plan->compile[0] && access(plan->object, R_OK) != 0;
}

void
build_bpf_finish(struct session *s, struct bpf_object_plan *plan, bool built)
{
	if (built && plan->compile[0] && plan->cache[0] &&
	    access(plan->object, R_OK) == 0 &&
	    !cache_store_in_new_dir(plan->object, plan->cache, 0600))
		fprintf(stderr, "tapc: warning: cannot cache the BPF object as %s\n",
			plan->cache);
	if (plan->scratch[0]) {
		/* a failed build keeps the BPF C for a look */
		struct session keep = *s;

		keep.opts.keep_build = s->opts.keep_build ||
				       (!built && build_bpf_object_failed(plan));
		remove_dir(&keep, plan->scratch);
		plan->scratch[0] = '\0';
	}
}

/* -p3: the BPF C alone (the user half is --target=user's C with tables). */
bool
build_bpf_print(struct session *s, FILE *out)
{
	return pass_translate_bpf(s, out) != NULL;
}
