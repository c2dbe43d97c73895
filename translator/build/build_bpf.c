/*
 * build_bpf.c -- the BPF half of pass 4 for --runtime=bpf (build_user.h).
 *
 * Takes the elaborated program.  Produces the user program's complete C
 * text: pass 3's BPF C is compiled with clang -target bpf (CO-RE: struct
 * accesses are relocated against the running kernel's BTF by libbpf at
 * load time) in a scratch directory, and its object is embedded in the
 * user half, so the one program pass 4 builds (and -p4 prints) carries
 * everything pass 5 or another machine needs.  build_user.c compiles
 * that text against runtime/user, runtime/core and runtime/bpf, linked
 * with libbpf.  The object is cached (CACHE/bpf/KEY/tap_bpf.bpf.o, KEY
 * from the BPF C, clang and the headers it reads): clang took ~0.3 s of
 * every run, and the object named its scratch directory in its debug
 * information, so the user program around it was never found in the
 * cache either (~0.7 s from script to first event; bpftrace ~40 ms).
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

static unsigned char *
read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size)) &&
	    fread(data, 1, (size_t)size, f) == (size_t)size) {
		*len = (size_t)size;
	} else {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
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

static bool
compile_bpf(struct session *s, const char *rt, const char *src,
	    const char *obj)
{
	char cmd[4 * PATH_MAX];
	const char *clang = getenv("TAPC_CLANG") ? getenv("TAPC_CLANG") : "clang";

	snprintf(cmd, sizeof(cmd), "command -v '%s' >/dev/null 2>&1", clang);
	if (system(cmd) != 0) {
		diag_fatal_noloc(&s->diag, "--runtime=bpf needs clang to compile BPF programs, and '%s' is not installed (Debian: apt-get install clang libbpf-dev)", clang);
		return false;
	}
	if (access("/usr/include/bpf/bpf_helpers.h", R_OK) != 0) {
		diag_fatal_noloc(&s->diag, "--runtime=bpf needs libbpf's headers (/usr/include/bpf/bpf_helpers.h is missing; Debian: apt-get install libbpf-dev)");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "'%s' %s -fdebug-prefix-map='%.*s'=. -I'%s/bpf' %s -c '%s' -o '%s' %s",
		 clang, bpf_cflags, (int)(strrchr(src, '/') - src), src, rt,
		 multiarch_dir(s), src, obj,
		 s->opts.verbose ? "" : "2>&1 | head -40 >&2");
	if (s->opts.verbose)
		fprintf(stderr, "Pass 4: %s\n", cmd);
	if (system(cmd) != 0 || access(obj, R_OK) != 0) {
		diag_fatal_noloc(&s->diag, "compiling the BPF C failed (%s kept)", src);
		return false;
	}
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

/* Where the object for this BPF C is cached ("" when caching is off). */
static void
object_cache_dir(const char *rt, const char *bpf_c, size_t len,
		 char *out, size_t size)
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
	char path[PATH_MAX + 32], hex[HASH_HEX_SIZE];
	struct hash h;

	out[0] = '\0';
	if (!paths_cache_dir())
		return;
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
	hash_hex(&h, hex);
	snprintf(out, size, "%s/bpf/%s", paths_cache_dir(), hex);
}

/* Compile the BPF C into *bytes in a scratch directory, keeping the
 * object in cache_dir (when there is one) for next time. */
static bool
compile_to_bytes(struct session *s, const char *rt, const char *bpf_c,
		 size_t len, const char *cache_dir, unsigned char **bytes,
		 size_t *nbytes)
{
	char dir[PATH_MAX], src[PATH_MAX + 32], obj[PATH_MAX + 32];
	char cached[PATH_MAX + 32];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/tapcbpfXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		diag_fatal_noloc(&s->diag, "cannot create a build directory: %s",
				 strerror(errno));
		return false;
	}
	snprintf(src, sizeof(src), "%s/tap_bpf.bpf.c", dir);
	snprintf(obj, sizeof(obj), "%s/tap_bpf.bpf.o", dir);
	f = fopen(src, "w");
	if (!f || fwrite(bpf_c, 1, len, f) != len) {
		diag_fatal_noloc(&s->diag, "cannot write %s: %s", src, strerror(errno));
		if (f)
			fclose(f);
		remove_dir(s, dir);
		return false;
	}
	if (fclose(f) != 0 || !compile_bpf(s, rt, src, obj)) {
		struct session keep = *s;

		keep.opts.keep_build = true;
		remove_dir(&keep, dir);
		return false;
	}
	*bytes = read_all(obj, nbytes);
	if (!*bytes)
		diag_fatal_noloc(&s->diag, "cannot read %s", obj);
	else if (cache_dir[0] && cache_mkdir_p(cache_dir)) {
		snprintf(cached, sizeof(cached), "%s/tap_bpf.bpf.o", cache_dir);
		if (!cache_store(obj, cached, 0600))
			fprintf(stderr, "tapc: warning: cannot cache the BPF object in %s\n",
				cache_dir);
	}
	remove_dir(s, dir);
	return *bytes != NULL;
}

char *
build_bpf_translate(struct session *s, const char *rt, size_t *len)
{
	char cache_dir[PATH_MAX], cached[PATH_MAX + 32];
	struct bpf_translation *t;
	unsigned char *bytes = NULL;
	size_t nbytes = 0, bpf_len = 0;
	char *text = NULL, *bpf_c = NULL;
	FILE *f = open_memstream(&bpf_c, &bpf_len);

	if (!f) {
		diag_fatal_noloc(&s->diag, "out of memory");
		return NULL;
	}
	t = pass_translate_bpf(s, f);
	if (fclose(f) != 0 || !t) {
		free(bpf_c);
		return NULL;
	}
	object_cache_dir(rt, bpf_c, bpf_len, cache_dir, sizeof(cache_dir));
	snprintf(cached, sizeof(cached), "%s/tap_bpf.bpf.o", cache_dir);
	/* -k wants the sources in a kept directory: compile then */
	if (!s->opts.keep_build && cache_dir[0] && cache_trusted(cached) &&
	    (bytes = read_all(cached, &nbytes)) != NULL) {
		if (s->opts.verbose)
			fprintf(stderr, "Pass 4: using cached %s\n", cached);
	} else if (!compile_to_bytes(s, rt, bpf_c, bpf_len, cache_dir,
				     &bytes, &nbytes)) {
		free(bpf_c);
		return NULL;
	}
	free(bpf_c);
	f = open_memstream(&text, len);
	if (!f || !pass_translate_bpf_user(t, f, bytes, nbytes)) {
		if (f)
			fclose(f);
		free(text);
		text = NULL;
	} else {
		fclose(f);
	}
	free(bytes);
	return text;
}

/* -p3: the BPF C alone (the user half is --target=user's C with tables). */
bool
build_bpf_print(struct session *s, FILE *out)
{
	return pass_translate_bpf(s, out) != NULL;
}
