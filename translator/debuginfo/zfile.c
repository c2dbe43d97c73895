/* zfile.c -- recognise and decompress xz, zstd and gzip data.
 *
 * Takes bytes (or a path) and produces a malloc'ed, NUL-terminated copy
 * of what they decompress to, growing the output as the stream demands
 * up to a caller's limit.  Each format is one small function over its
 * library's streaming interface (liblzma, libzstd, zlib), stopping at the
 * end of the first stream so that a payload embedded in a larger image
 * (a bzImage) can be decoded in place.  Must not guess a format from a
 * file name, print, or exit.
 */
#include "translator/debuginfo/zfile.h"
#include "translator/debuginfo/errbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define ZFILE_MAX ((size_t)1 << 30)	/* what zfile_read() inflates to at most */

static const unsigned char xz_magic[] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };
static const unsigned char zstd_magic[] = { 0x28, 0xB5, 0x2F, 0xFD };
static const unsigned char gzip_magic[] = { 0x1F, 0x8B, 0x08 };	/* deflate */

static bool
zfile_has_magic(const void *data, size_t size, const unsigned char *magic,
		size_t mlen)
{
	return size >= mlen && memcmp(data, magic, mlen) == 0;
}

enum zfile_format
zfile_format(const void *data, size_t size)
{
	if (zfile_has_magic(data, size, xz_magic, sizeof(xz_magic)))
		return ZFILE_XZ;
	if (zfile_has_magic(data, size, zstd_magic, sizeof(zstd_magic)))
		return ZFILE_ZSTD;
	if (zfile_has_magic(data, size, gzip_magic, sizeof(gzip_magic)))
		return ZFILE_GZIP;
	return ZFILE_PLAIN;
}

const char *
zfile_format_name(enum zfile_format fmt)
{
	switch (fmt) {
	case ZFILE_XZ: return "xz";
	case ZFILE_ZSTD: return "zstd";
	case ZFILE_GZIP: return "gzip";
	case ZFILE_PLAIN: break;
	}
	return "plain";
}

/* The output of a decoder: grows by doubling, never past `limit`, and
 * keeps one spare byte for the terminating NUL. */
struct zbuf {
	char *buf;
	size_t len, cap, limit;
};

static bool
zbuf_init(struct zbuf *zb, size_t in_size, size_t limit)
{
	zb->len = 0;
	zb->limit = limit;
	zb->cap = in_size < limit / 4 ? in_size * 4 + (1 << 16) : limit;
	zb->buf = malloc(zb->cap + 1);
	return zb->buf != NULL;
}

/* Room to write at buf + len: false once the limit is reached. */
static bool
zbuf_grow(struct zbuf *zb)
{
	size_t cap = zb->cap * 2 > zb->limit ? zb->limit : zb->cap * 2;
	char *bigger;

	if (zb->len < zb->cap)
		return true;
	if (cap <= zb->cap || !(bigger = realloc(zb->buf, cap + 1)))
		return false;
	zb->buf = bigger;
	zb->cap = cap;
	return true;
}

static bool
zbuf_finish(struct zbuf *zb, bool ok, char **out, size_t *out_size)
{
	if (!ok) {
		free(zb->buf);
		return false;
	}
	zb->buf[zb->len] = '\0';
	*out = zb->buf;
	*out_size = zb->len;
	return true;
}

static bool
zfile_xz(const void *in, size_t in_size, struct zbuf *zb)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	lzma_ret ret = LZMA_OK;

	if (lzma_stream_decoder(&strm, UINT64_MAX, 0) != LZMA_OK)
		return false;
	strm.next_in = in;
	strm.avail_in = in_size;
	while (ret == LZMA_OK && zbuf_grow(zb)) {
		strm.next_out = (uint8_t *)zb->buf + zb->len;
		strm.avail_out = zb->cap - zb->len;
		ret = lzma_code(&strm, LZMA_FINISH);
		zb->len = zb->cap - strm.avail_out;
	}
	lzma_end(&strm);
	return ret == LZMA_STREAM_END;
}

static bool
zfile_zstd(const void *in, size_t in_size, struct zbuf *zb)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer src = { in, in_size, 0 };
	size_t ret = 1;

	if (!dctx)
		return false;
	while (ret != 0 && !ZSTD_isError(ret) && zbuf_grow(zb)) {
		ZSTD_outBuffer dst = { zb->buf + zb->len, zb->cap - zb->len, 0 };

		ret = ZSTD_decompressStream(dctx, &dst, &src);
		zb->len += dst.pos;
		/* All input read, output not full, frame not ended:
		 * truncated. */
		if (ret != 0 && src.pos == src.size && dst.pos < dst.size)
			break;
	}
	ZSTD_freeDCtx(dctx);
	return ret == 0;
}

static bool
zfile_gzip(const void *in, size_t in_size, struct zbuf *zb)
{
	z_stream zs = { 0 };
	int ret = Z_OK;

	if (in_size > UINT32_MAX || inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return false;
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)in_size;
	while (ret == Z_OK && zbuf_grow(zb)) {
		size_t room = zb->cap - zb->len;

		zs.next_out = (Bytef *)zb->buf + zb->len;
		zs.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
		ret = inflate(&zs, Z_NO_FLUSH);
		zb->len = (size_t)((char *)zs.next_out - zb->buf);
	}
	inflateEnd(&zs);
	return ret == Z_STREAM_END;
}

bool
zfile_decode(const void *in, size_t in_size, size_t limit, char **out,
	     size_t *out_size)
{
	enum zfile_format fmt = zfile_format(in, in_size);
	struct zbuf zb;
	bool ok = false;

	if (fmt == ZFILE_PLAIN || !zbuf_init(&zb, in_size, limit))
		return false;
	switch (fmt) {
	case ZFILE_XZ: ok = zfile_xz(in, in_size, &zb); break;
	case ZFILE_ZSTD: ok = zfile_zstd(in, in_size, &zb); break;
	case ZFILE_GZIP: ok = zfile_gzip(in, in_size, &zb); break;
	case ZFILE_PLAIN: break;
	}
	return zbuf_finish(&zb, ok, out, out_size);
}

/* Read until EOF: sysfs and /proc report sizes they do not honour. */
static bool
zfile_slurp(int fd, struct zbuf *zb)
{
	for (;;) {
		ssize_t n;

		if (!zbuf_grow(zb))
			return false;
		n = read(fd, zb->buf + zb->len, zb->cap - zb->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0)
			return true;
		zb->len += (size_t)n;
	}
}

bool
zfile_read(const char *path, char **out, size_t *out_size, char *err,
	   size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct zbuf raw;
	enum zfile_format fmt;
	bool ok;

	if (fd < 0 || !zbuf_init(&raw, 1 << 18, ZFILE_MAX)) {
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	errno = EFBIG;	/* what a failure at the size limit reports */
	ok = zfile_slurp(fd, &raw);
	close(fd);
	if (!ok) {
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		return zbuf_finish(&raw, false, out, out_size);
	}
	fmt = zfile_format(raw.buf, raw.len);
	if (fmt == ZFILE_PLAIN)
		return zbuf_finish(&raw, true, out, out_size);
	ok = zfile_decode(raw.buf, raw.len, ZFILE_MAX, out, out_size);
	if (!ok)
		errbuf_printf(err, errlen, "%s: corrupt %s data", path,
			    zfile_format_name(fmt));
	free(raw.buf);
	return ok;
}
