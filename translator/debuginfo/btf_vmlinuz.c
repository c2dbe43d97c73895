/* btf_vmlinuz.c -- BTF from a compressed kernel image (/boot/vmlinuz-KREL).
 *
 * A bzImage carries the real vmlinux as a compressed payload (Debian: xz).
 * This file finds the stream by its magic, decompresses it (zfile.c: xz,
 * zstd or gzip, stopping at the end of the stream; whatever trails it is
 * ignored), opens the resulting ELF from memory, cuts out .BTF and hands
 * it to libbpf (btf_load.c).  Decompressing 65 MB costs most of a second,
 * so the extracted blob is cached as CACHE/btf-KREL with a header naming
 * the image's path, mtime and size; a stale or unreadable cache entry is
 * simply rebuilt, and a cache that cannot be written is not an error.
 * Other compressors (lz4, lzo, bzip2) give a message saying so.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/btf_internal.h"
#include "translator/debuginfo/errbuf.h"
#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/zfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BTF_CACHE_MAGIC "TAPCBTF1\n"
#define BTF_MAX_VMLINUX ((size_t)1 << 30)	/* refuse to inflate beyond 1 GiB */

/* The first stream in the image that decompresses is the vmlinux; a
 * magic number can also occur by chance inside the setup code, and such
 * a stream does not decode. */
static bool
btf_extract_from_image(const unsigned char *img, size_t size, char **btf_out,
		       size_t *btf_size, char *err, size_t errlen)
{
	size_t off;
	bool saw_magic = false;

	for (off = 0; off + 4 <= size; off++) {
		char *vmlinux;
		size_t vmlinux_size;
		bool ok;

		if ((img[off] != 0xFD && img[off] != 0x28 && img[off] != 0x1F) ||
		    zfile_format(img + off, size - off) == ZFILE_PLAIN)
			continue;
		saw_magic = true;
		if (!zfile_decode(img + off, size - off, BTF_MAX_VMLINUX,
				  &vmlinux, &vmlinux_size))
			continue;
		ok = btf_elf_section(vmlinux, vmlinux_size, btf_out, btf_size,
				     err, errlen);
		free(vmlinux);
		return ok;
	}
	errbuf_printf(err, errlen, saw_magic
		      ? "the compressed payload does not decompress"
		      : "no xz, zstd or gzip compressed payload (other compressors are not supported)");
	return false;
}

/* The cache directory: opts->cache_dir, else the cache root
 * (cache_dir.h); NULL when caching is off or impossible. */
static char *
btf_cache_dir(const struct btf_load_opts *opts)
{
	const char *root = cache_root();

	if (opts && opts->cache_dir)
		return opts->cache_dir[0] ? strdup(opts->cache_dir) : NULL;
	return root ? strdup(root) : NULL;
}

/* btf-KREL for /boot/vmlinuz-KREL; other names get a hash of the path. */
static char *
btf_cache_file(const char *dir, const char *image)
{
	const char *base = strrchr(image, '/');
	char *path = NULL;
	int n;

	base = base ? base + 1 : image;
	if (strncmp(base, "vmlinuz-", 8) == 0 && base[8] && !strchr(base, '\n'))
		n = asprintf(&path, "%s/btf-%s", dir, base + 8);
	else
		n = asprintf(&path, "%s/btf-%08x", dir, btf_name_hash(image));
	return n < 0 ? NULL : path;
}

static char *
btf_cache_key(const char *image, const struct stat *st)
{
	char *key = NULL;

	if (asprintf(&key, BTF_CACHE_MAGIC "path=%s\nmtime=%lld.%09ld\nsize=%lld\n\n",
		     image, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		     (long long)st->st_size) < 0)
		return NULL;
	return key;
}

static bool
btf_read_all(const char *path, char **out, size_t *out_size)
{
	FILE *f = fopen(path, "rb");
	long len;
	char *buf;

	if (!f)
		return false;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc(len + 1))) {
		fclose(f);
		return false;
	}
	if (fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return false;
	}
	fclose(f);
	*out = buf;
	*out_size = len;
	return true;
}

/* The cached blob, if the entry's key matches; moved to the front of a new
 * buffer so the handle owns an aligned copy. */
static bool
btf_cache_get(const char *file, const char *key, char **out, size_t *out_size)
{
	char *buf, *blob;
	size_t size, klen = strlen(key);

	if (!btf_read_all(file, &buf, &size))
		return false;
	if (size <= klen || memcmp(buf, key, klen) != 0 ||
	    !(blob = malloc(size - klen))) {
		free(buf);
		return false;
	}
	memcpy(blob, buf + klen, size - klen);
	free(buf);
	*out = blob;
	*out_size = size - klen;
	return true;
}

/* Written to a temporary name and renamed, so readers never see half. */
static void
btf_cache_put(const char *dir, const char *file, const char *key,
	      const char *blob, size_t size)
{
	char *tmp = NULL;
	FILE *f;
	bool ok;

	cache_mkdir_p(dir);
	if (asprintf(&tmp, "%s.tmp.%ld", file, (long)getpid()) < 0)
		return;
	if (!(f = fopen(tmp, "wb"))) {
		free(tmp);
		return;
	}
	ok = fwrite(key, 1, strlen(key), f) == strlen(key) &&
	     fwrite(blob, 1, size, f) == size;
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, file) != 0)
		unlink(tmp);
	free(tmp);
}

static bool
btf_vmlinuz_uncached(const char *path, char **blob, size_t *blob_size,
		     char *err, size_t errlen)
{
	char *img;
	size_t size;
	char why[BTF_ERRLEN];
	bool ok;

	if (!btf_read_all(path, &img, &size)) {
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		return false;
	}
	ok = btf_extract_from_image((unsigned char *)img, size, blob, blob_size,
				    why, sizeof(why));
	free(img);
	if (!ok) {
		errbuf_printf(err, errlen, "%s: %s", path, why);
		return false;
	}
	return true;
}

struct btf *
btf_load_vmlinuz(const char *path, const struct btf_load_opts *opts,
		 char *err, size_t errlen)
{
	struct stat st;
	char *dir = NULL, *file = NULL, *key = NULL, *blob = NULL, *src = NULL;
	size_t blob_size;
	struct btf *btf = NULL;

	if (stat(path, &st) != 0) {
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((dir = btf_cache_dir(opts)) && (file = btf_cache_file(dir, path)) &&
	    (key = btf_cache_key(path, &st)) &&
	    btf_cache_get(file, key, &blob, &blob_size)) {
		if (asprintf(&src, "%s (cached in %s)", path, file) >= 0)
			btf = btf_from_owned(blob, blob_size, NULL, src, err, errlen);
		else
			free(blob);
		/* A corrupt cache entry falls through to a fresh extraction. */
		blob = NULL;
	}
	if (!btf && btf_vmlinuz_uncached(path, &blob, &blob_size, err, errlen)) {
		if (file && key)
			btf_cache_put(dir, file, key, blob, blob_size);
		btf = btf_from_owned(blob, blob_size, NULL, path, err, errlen);
	}
	free(src);
	free(key);
	free(file);
	free(dir);
	return btf;
}
