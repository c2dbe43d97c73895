/* test_zfile.c -- Check tests for translator/debuginfo/zfile.c.
 *
 * Data compressed here with each library's own encoder (liblzma, libzstd,
 * zlib's gzip mode) must decompress to what went in, also with junk after
 * the stream (a payload inside a bzImage) and through zfile_read() from a
 * file; a truncated stream, plain data and output over the limit are
 * refused.  Needs no kernel.
 */
#include "translator/debuginfo/zfile.h"

#include <check.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define PLAIN_SIZE 300000

static unsigned char plain[PLAIN_SIZE];

/* Compressible but not trivially: a counter in text. */
static void
fill_plain(void)
{
	size_t i, n = 0;

	for (i = 0; n < PLAIN_SIZE; i++)
		n += (size_t)snprintf((char *)plain + n, PLAIN_SIZE - n,
				      "line %zu\n", i * 7919 % 100003);
}

static size_t
encode_xz(unsigned char *out, size_t cap)
{
	size_t pos = 0;

	ck_assert_int_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
						 plain, PLAIN_SIZE, out, &pos,
						 cap), LZMA_OK);
	return pos;
}

static size_t
encode_zstd(unsigned char *out, size_t cap)
{
	size_t n = ZSTD_compress(out, cap, plain, PLAIN_SIZE, 3);

	ck_assert(!ZSTD_isError(n));
	return n;
}

static size_t
encode_gzip(unsigned char *out, size_t cap)
{
	z_stream zs = { 0 };
	size_t n;

	ck_assert_int_eq(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = plain;
	zs.avail_in = PLAIN_SIZE;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	n = zs.total_out;
	deflateEnd(&zs);
	return n;
}

static size_t (*const encoders[])(unsigned char *, size_t) = {
	encode_xz, encode_zstd, encode_gzip,
};
static const enum zfile_format formats[] = { ZFILE_XZ, ZFILE_ZSTD, ZFILE_GZIP };

START_TEST(roundtrip)
{
	static unsigned char packed[PLAIN_SIZE + 1024];
	size_t n = encoders[_i](packed, sizeof(packed) - 64), size;
	char *out;

	ck_assert_int_eq(zfile_format(packed, n), formats[_i]);
	ck_assert(zfile_decode(packed, n, 1 << 20, &out, &size));
	ck_assert_uint_eq(size, PLAIN_SIZE);
	ck_assert(memcmp(out, plain, PLAIN_SIZE) == 0);
	ck_assert_int_eq(out[size], '\0');
	free(out);
	/* What follows the stream is not part of it. */
	memset(packed + n, 0x5a, 64);
	ck_assert(zfile_decode(packed, n + 64, 1 << 20, &out, &size));
	ck_assert_uint_eq(size, PLAIN_SIZE);
	free(out);
}
END_TEST

START_TEST(refusals)
{
	static unsigned char packed[PLAIN_SIZE + 1024];
	size_t n = encoders[_i](packed, sizeof(packed)), size;
	char *out = NULL;

	ck_assert(!zfile_decode(packed, n / 2, 1 << 20, &out, &size));
	ck_assert(!zfile_decode(packed, n, PLAIN_SIZE / 2, &out, &size));
	ck_assert(!zfile_decode(plain, PLAIN_SIZE, 1 << 20, &out, &size));
	ck_assert_ptr_null(out);
}
END_TEST

START_TEST(read_files)
{
	static unsigned char packed[PLAIN_SIZE + 1024];
	char path[] = "/tmp/tapc-test-zfile-XXXXXX", err[256] = "", *out;
	size_t n, size;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "wb");

	ck_assert_ptr_nonnull(f);
	n = encode_gzip(packed, sizeof(packed));
	ck_assert_uint_eq(fwrite(packed, 1, n, f), n);
	fclose(f);
	ck_assert_msg(zfile_read(path, &out, &size, err, sizeof(err)), "%s", err);
	ck_assert_uint_eq(size, PLAIN_SIZE);
	ck_assert(memcmp(out, plain, PLAIN_SIZE) == 0);
	free(out);
	/* Cut short: an error naming the file and the format. */
	ck_assert_int_eq(truncate(path, (off_t)n / 2), 0);
	ck_assert(!zfile_read(path, &out, &size, err, sizeof(err)));
	ck_assert(strstr(err, path) && strstr(err, "gzip"));
	/* Plain data comes back as it is. */
	ck_assert((f = fopen(path, "wb")) != NULL);
	fputs("CONFIG_SMP=y\n", f);
	fclose(f);
	ck_assert(zfile_read(path, &out, &size, err, sizeof(err)));
	ck_assert_str_eq(out, "CONFIG_SMP=y\n");
	free(out);
	unlink(path);
	ck_assert(!zfile_read(path, &out, &size, err, sizeof(err)));
	ck_assert(strstr(err, path) != NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("zfile");
	TCase *tc = tcase_create("formats");
	SRunner *sr;
	int failed;

	fill_plain();
	tcase_add_loop_test(tc, roundtrip, 0, 3);
	tcase_add_loop_test(tc, refusals, 0, 3);
	tcase_add_test(tc, read_files);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
