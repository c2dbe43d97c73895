/* test_header_types.c -- Check tests for @cast's "<header>" types
 * (translator/debuginfo/header_types.c): a header made here (found
 * through CPATH) is compiled into an object whose DWARF has its types,
 * the object is cached and reused, compiled again when the header is
 * newer, and bad lists and missing headers say why.  Skipped (77) when
 * there is no gcc.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/dwarf.h"
#include "translator/debuginfo/header_types.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static char dir[] = "/tmp/tapc-test-hdr-XXXXXX";

static struct timespec
mtime_of(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_mtim;
}

START_TEST(header_list_syntax)
{
	char err[256];

	ck_assert(hdr_is_header_list("<sys/un.h>"));
	ck_assert(!hdr_is_header_list("kernel<linux/fs.h>"));
	ck_assert(!hdr_is_header_list(NULL));
	ck_assert_ptr_null(hdr_types_object("<tapc_ht.h", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "is not a list of headers"));
	ck_assert_ptr_null(hdr_types_object("<tapc_ht.h>x", err, sizeof(err)));
	ck_assert_ptr_null(hdr_types_object("<no/such/tapc_ht.h>", err,
					    sizeof(err)));
	ck_assert_msg(strstr(err, "No such file"), "err: %s", err);
}
END_TEST

START_TEST(types_cached_and_rebuilt)
{
	char err[512];
	char *obj = hdr_types_object("<tapc_ht.h><stddef.h>", err, sizeof(err));
	struct dw_file *f;

	ck_assert_msg(obj, "%s", err);
	f = dw_open(obj, err, sizeof(err));
	ck_assert_msg(f, "%s", err);
	ck_assert(dw_find_type(f, "struct tapc_ht_point") != 0);
	ck_assert(dw_find_type(f, "tapc_ht_id") != 0);	/* unused typedef */
	ck_assert(dw_find_type(f, "size_t") != 0);

	/* again: the same object, not compiled again */
	struct timespec t0 = mtime_of(obj);
	char *again = hdr_types_object("<tapc_ht.h><stddef.h>", err, sizeof(err));
	ck_assert_str_eq(again, obj);
	struct timespec t1 = mtime_of(obj);
	ck_assert(t0.tv_sec == t1.tv_sec && t0.tv_nsec == t1.tv_nsec);

	/* the header newer than the object (made older): compiled again */
	struct timeval older[2] = { { t0.tv_sec - 60, 0 }, { t0.tv_sec - 60, 0 } };
	ck_assert_int_eq(utimes(obj, older), 0);
	free(again);
	again = hdr_types_object("<tapc_ht.h><stddef.h>", err, sizeof(err));
	ck_assert_msg(again, "%s", err);
	ck_assert(mtime_of(obj).tv_sec >= t0.tv_sec);
	free(again);
	free(obj);
}
END_TEST

int
main(void)
{
	char *cache;
	FILE *h;

	if (system("gcc --version > /dev/null 2>&1") != 0) {
		fprintf(stderr, "test_header_types: no gcc, skipped\n");
		return 77;
	}
	char *header;

	if (!mkdtemp(dir) || asprintf(&header, "%s/tapc_ht.h", dir) < 0 ||
	    asprintf(&cache, "%s/cache", dir) < 0)
		return 99;
	h = fopen(header, "w");
	if (!h)
		return 99;
	fputs("struct tapc_ht_point { int x, y; };\n"
	      "typedef unsigned long tapc_ht_id;\n", h);
	fclose(h);
	setenv("CPATH", dir, 1);
	setenv("TAPC_CACHE_DIR", cache, 1);

	Suite *s = suite_create("header_types");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, header_list_syntax);
	tcase_add_test(tc, types_cached_and_rebuilt);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	dw_close_all();
	char *rm;
	if (asprintf(&rm, "rm -rf '%s'", dir) > 0 && system(rm) != 0)
		fprintf(stderr, "test_header_types: %s left behind\n", dir);
	return failed ? 1 : 0;
}
