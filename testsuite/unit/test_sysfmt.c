/*
 * test_sysfmt.c - Check tests for runtime/core/sysfmt.c: errno names and
 * return strings, and flag sets decoded with the spelling strace uses
 * (the expected strings are what strace 6.x prints for the same values).
 */
#include <check.h>
#include <string.h>

#include "runtime/core/sysfmt.h"

static char buf[128];

static const char *
decode(enum tap_sysfmt_set set, long v)
{
	tap_sysfmt_decode(buf, sizeof(buf), set, v);
	return buf;
}

START_TEST(errno_names)
{
	ck_assert_str_eq(tap_sysfmt_errno_name(2), "ENOENT");
	ck_assert_str_eq(tap_sysfmt_errno_name(-13), "EACCES");
	ck_assert_str_eq(tap_sysfmt_errno_name(133), "EHWPOISON");
	ck_assert_str_eq(tap_sysfmt_errno_name(512), "ERESTARTSYS");
	ck_assert_ptr_null(tap_sysfmt_errno_name(0));
	ck_assert_ptr_null(tap_sysfmt_errno_name(41));
	ck_assert_ptr_null(tap_sysfmt_errno_name(4000));
}
END_TEST

START_TEST(retstr)
{
	tap_sysfmt_retstr(buf, sizeof(buf), -2);
	ck_assert_str_eq(buf, "-2 (ENOENT)");
	tap_sysfmt_retstr(buf, sizeof(buf), 3);
	ck_assert_str_eq(buf, "3");
	tap_sysfmt_retstr(buf, sizeof(buf), -5000);
	ck_assert_str_eq(buf, "-5000");
	tap_sysfmt_retstr(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "0");
}
END_TEST

START_TEST(open_flags)
{
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 0), "O_RDONLY");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 02000000), "O_RDONLY|O_CLOEXEC");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 01101),
			 "O_WRONLY|O_CREAT|O_TRUNC");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 02204002),
			 "O_RDWR|O_NONBLOCK|O_DIRECTORY|O_CLOEXEC");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 04010001), "O_WRONLY|O_SYNC");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 020200002),
			 "O_RDWR|O_TMPFILE");
	ck_assert_str_eq(decode(TAP_SYSFMT_OPEN, 3 | 0x40000000),
			 "0x3|0x40000000");
}
END_TEST

START_TEST(mm_flags)
{
	ck_assert_str_eq(decode(TAP_SYSFMT_PROT, 0), "PROT_NONE");
	ck_assert_str_eq(decode(TAP_SYSFMT_PROT, 3), "PROT_READ|PROT_WRITE");
	ck_assert_str_eq(decode(TAP_SYSFMT_MAP, 0x22),
			 "MAP_PRIVATE|MAP_ANONYMOUS");
	ck_assert_str_eq(decode(TAP_SYSFMT_MAP, 0x812),
			 "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE");
}
END_TEST

START_TEST(other_sets)
{
	ck_assert_str_eq(decode(TAP_SYSFMT_ACCESS, 0), "F_OK");
	ck_assert_str_eq(decode(TAP_SYSFMT_ACCESS, 6), "R_OK|W_OK");
	ck_assert_str_eq(decode(TAP_SYSFMT_AT, 0), "0");
	ck_assert_str_eq(decode(TAP_SYSFMT_AT, 0x1100),
			 "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
	ck_assert_str_eq(decode(TAP_SYSFMT_CLONE, 0x1200011),
			 "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	ck_assert_str_eq(decode(TAP_SYSFMT_CLONE, 0), "0");
	ck_assert_str_eq(decode(TAP_SYSFMT_SOCK_TYPE, 02000001),
			 "SOCK_STREAM|SOCK_CLOEXEC");
	ck_assert_str_eq(decode(TAP_SYSFMT_SOCK_FAMILY, 1), "AF_UNIX");
	ck_assert_str_eq(decode(TAP_SYSFMT_SOCK_FAMILY, 99), "99");
	ck_assert_str_eq(decode(TAP_SYSFMT_SEEK, 2), "SEEK_END");
	ck_assert_str_eq(decode(TAP_SYSFMT_SIGNAL, 9), "SIGKILL");
}
END_TEST

START_TEST(scalars)
{
	tap_sysfmt_dirfd(buf, sizeof(buf), -100);
	ck_assert_str_eq(buf, "AT_FDCWD");
	tap_sysfmt_dirfd(buf, sizeof(buf), 0xffffffffL);
	ck_assert_str_eq(buf, "-1");
	tap_sysfmt_mode(buf, sizeof(buf), 0644);
	ck_assert_str_eq(buf, "0644");
	tap_sysfmt_mode(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "000");
	tap_sysfmt_hex(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "NULL");
	tap_sysfmt_hex(buf, sizeof(buf), 0x7ffd1234);
	ck_assert_str_eq(buf, "0x7ffd1234");
	tap_sysfmt_dec(buf, sizeof(buf), -42);
	ck_assert_str_eq(buf, "-42");
}
END_TEST

START_TEST(buffers)
{
	tap_sysfmt_buf(buf, sizeof(buf), "hi\n", 3, false);
	ck_assert_str_eq(buf, "\"hi\\n\"");
	tap_sysfmt_buf(buf, sizeof(buf), "\0\0" "1\033x\"\\\t", 8, true);
	ck_assert_str_eq(buf, "\"\\0\\0001\\33x\\\"\\\\\\t\"...");
	tap_sysfmt_buf(buf, sizeof(buf), "\377", 1, false);
	ck_assert_str_eq(buf, "\"\\377\"");
}
END_TEST

START_TEST(truncation)
{
	char small[8];

	tap_sysfmt_decode(small, sizeof(small), TAP_SYSFMT_OPEN, 02000000);
	ck_assert_str_eq(small, "O_RDONL");
	tap_sysfmt_decode(small, 1, TAP_SYSFMT_OPEN, 0);
	ck_assert_str_eq(small, "");
}
END_TEST

static Suite *
sysfmt_suite(void)
{
	Suite *s = suite_create("sysfmt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, errno_names);
	tcase_add_test(tc, retstr);
	tcase_add_test(tc, open_flags);
	tcase_add_test(tc, mm_flags);
	tcase_add_test(tc, other_sets);
	tcase_add_test(tc, scalars);
	tcase_add_test(tc, buffers);
	tcase_add_test(tc, truncation);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sysfmt_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
