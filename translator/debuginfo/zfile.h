/* zfile.h -- read files that may be compressed (xz, zstd, gzip).
 *
 * Kernels ship compressed things: modules as .ko.xz, .ko.zst or .ko.gz,
 * the running kernel's configuration as /proc/config.gz, the vmlinux
 * inside /boot/vmlinuz-KREL.  These functions recognise the format by its
 * magic bytes (never by the file name) and decompress through liblzma,
 * libzstd and zlib.  Output buffers are malloc'ed, owned by the caller and
 * always followed by a NUL byte not counted in the size, so text can be
 * read as a string.  Nothing here prints or exits.
 */
#ifndef TAPC_DEBUGINFO_ZFILE_H
#define TAPC_DEBUGINFO_ZFILE_H

#include <stdbool.h>
#include <stddef.h>

enum zfile_format {
	ZFILE_PLAIN,	/* none of the below */
	ZFILE_XZ,
	ZFILE_ZSTD,
	ZFILE_GZIP,
};

/* The compression format whose magic `data` starts with. */
enum zfile_format
zfile_format(const void *data, size_t size);

/* "xz", "zstd", "gzip" or "plain", for messages. */
const char *
zfile_format_name(enum zfile_format fmt);

/* Decompress the one stream at `in` (what follows its end is ignored),
 * refusing to produce more than `limit` bytes; false if `in` does not
 * start with a stream of a known format or the stream is corrupt. */
bool
zfile_decode(const void *in, size_t in_size, size_t limit, char **out,
	     size_t *out_size);

/* The whole file, decompressed if it is compressed.  Reads until EOF, so
 * /proc and sysfs files whose size is not known work. */
bool
zfile_read(const char *path, char **out, size_t *out_size, char *err,
	   size_t errlen);

#endif /* TAPC_DEBUGINFO_ZFILE_H */
