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
 * with libbpf.
 * Must not: leave the scratch directory behind (unless -k).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/build/build_user.h"
#include "translator/codegen/codegen.h"

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
	snprintf(cmd, sizeof(cmd), "'%s' -target bpf -O2 -g -mcpu=v3 -Wno-unused-value -Wno-unused-label -I'%s/bpf' %s -c '%s' -o '%s' %s",
		 clang, rt, multiarch_dir(s), src, obj,
		 s->opts.verbose ? "" : "2>&1 | head -40 >&2");
	if (s->opts.verbose)
		fprintf(stderr, "Pass 4: %s\n", cmd);
	if (system(cmd) != 0 || access(obj, R_OK) != 0) {
		diag_fatal_noloc(&s->diag, "compiling the BPF C failed (%s kept)", src);
		return false;
	}
	return true;
}

char *
build_bpf_translate(struct session *s, const char *rt, size_t *len)
{
	char dir[PATH_MAX], src[PATH_MAX + 32], obj[PATH_MAX + 32];
	struct bpf_translation *t;
	unsigned char *bytes = NULL;
	size_t nbytes = 0;
	char *text = NULL;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/tapcbpfXXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		diag_fatal_noloc(&s->diag, "cannot create a build directory: %s",
				 strerror(errno));
		return NULL;
	}
	snprintf(src, sizeof(src), "%s/tap_bpf.bpf.c", dir);
	snprintf(obj, sizeof(obj), "%s/tap_bpf.bpf.o", dir);
	f = fopen(src, "w");
	if (!f) {
		diag_fatal_noloc(&s->diag, "cannot write %s: %s", src, strerror(errno));
		remove_dir(s, dir);
		return NULL;
	}
	t = pass_translate_bpf(s, f);
	if (fclose(f) != 0 || !t) {
		remove_dir(s, dir);
		return NULL;
	}
	if (!compile_bpf(s, rt, src, obj)) {
		struct session keep = *s;

		keep.opts.keep_build = true;
		remove_dir(&keep, dir);
		return NULL;
	}
	bytes = read_all(obj, &nbytes);
	if (!bytes) {
		diag_fatal_noloc(&s->diag, "cannot read %s", obj);
		remove_dir(s, dir);
		return NULL;
	}
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
	remove_dir(s, dir);
	return text;
}

/* -p3: the BPF C alone (the user half is --target=user's C with tables). */
bool
build_bpf_print(struct session *s, FILE *out)
{
	return pass_translate_bpf(s, out) != NULL;
}
