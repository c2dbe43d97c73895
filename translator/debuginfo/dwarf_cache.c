/*
 * dwarf_cache.c -- the function index of a big DWARF file (a debug
 * vmlinux: walking its ~3000 CUs takes most of a second) kept on disk
 * between runs, so that `tapc -p2` with kernel.function("vfs_*") does not
 * pay for the walk every time.
 *
 * Takes: a dw_file whose index was just built, or one to fill.  Produces:
 * files in the cache root's dwarf/ (cache_dir.h) named by
 * the ELF file's path, size and mtime; a file that changes gets a new
 * name.  Format: "TAPCDWI2", a count, then per function its DIE offset,
 * CU offset, name length and the name with its NUL (host byte order).
 * Must not: trust a cache file it cannot fully read (then it rebuilds),
 * or fail a run because the cache cannot be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/dwarf_internal.h"

#define DW_CACHE_MAGIC "TAPCDWI2"
#define DW_CACHE_MIN_SIZE (64u << 20)	/* smaller files index fast */

/* The cache file for f, or false when f is small or has no cache dir. */
static bool
cache_path(const struct dw_file *f, char *out, size_t len, bool create)
{
	char dir[4096];
	struct stat st;

	if (stat(f->path, &st) != 0 || (size_t)st.st_size < DW_CACHE_MIN_SIZE)
		return false;
	if (!cache_subdir("dwarf", create, dir, sizeof(dir)))
		return false;
	snprintf(out, len, "%s/%016llx-%llx-%llx.idx", dir,
		 (unsigned long long)cache_name_hash(f->path),
		 (unsigned long long)st.st_size,
		 (unsigned long long)st.st_mtim.tv_sec * 1000000000ULL +
		 (unsigned long long)st.st_mtim.tv_nsec);
	return true;
}

bool
dw_cache_load(struct dw_file *f)
{
	char path[4200];
	uint64_t n;
	struct stat st;
	FILE *in;
	char *buf, *p, *end;

	if (!cache_path(f, path, sizeof(path), false) || !(in = fopen(path, "rb")))
		return false;
	if (fstat(fileno(in), &st) != 0 || st.st_size < 16 ||
	    st.st_size > (1 << 30)) {
		fclose(in);
		return false;
	}
	/* one read; the names stay in the buffer (f->cache_buf) */
	buf = dw_xalloc((size_t)st.st_size + 1);
	end = buf + st.st_size;
	if (fread(buf, 1, (size_t)st.st_size, in) != (size_t)st.st_size ||
	    memcmp(buf, DW_CACHE_MAGIC, 8) != 0)
		goto bad;
	memcpy(&n, buf + 8, sizeof(n));
	if (n > (uint64_t)st.st_size / 20)
		goto bad;
	f->funcs = dw_xalloc((size_t)n * sizeof(*f->funcs) + 1);
	f->capfuncs = (size_t)n;
	p = buf + 16;
	for (f->nfuncs = 0; f->nfuncs < n; f->nfuncs++) {
		uint64_t offs[2];
		uint32_t nlen;
		if (end - p < 20)
			goto bad;
		memcpy(offs, p, sizeof(offs));
		memcpy(&nlen, p + 16, sizeof(nlen));
		p += 20;
		if ((uint64_t)(end - p) < (uint64_t)nlen + 1 || p[nlen] != '\0')
			goto bad;
		f->funcs[f->nfuncs] = (struct dw_func_entry){ p, offs[0], offs[1] };
		p += nlen + 1;
	}
	if (p != end)
		goto bad;
	fclose(in);
	f->cache_buf = buf;
	return true;
bad:
	fclose(in);
	free(buf);
	free(f->funcs);
	f->funcs = NULL;
	f->nfuncs = f->capfuncs = 0;
	return false;
}

void
dw_cache_store(const struct dw_file *f)
{
	char path[4200], tmp[4300];
	uint64_t n = f->nfuncs;
	FILE *out;
	bool ok;

	if (!cache_path(f, path, sizeof(path), true))
		return;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (!(out = fopen(tmp, "wb")))
		return;
	ok = fwrite(DW_CACHE_MAGIC, 1, 8, out) == 8 &&
	     fwrite(&n, sizeof(n), 1, out) == 1;
	for (size_t i = 0; ok && i < f->nfuncs; i++) {
		uint64_t offs[2] = { f->funcs[i].die_off, f->funcs[i].cu_off };
		uint32_t nlen = (uint32_t)strlen(f->funcs[i].name);
		ok = fwrite(offs, sizeof(offs), 1, out) == 1 &&
		     fwrite(&nlen, sizeof(nlen), 1, out) == 1 &&
		     fwrite(f->funcs[i].name, 1, nlen + 1, out) == nlen + 1;
	}
	if (fclose(out) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
}
