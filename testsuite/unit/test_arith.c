/*
 * test_arith.c - Check tests for script arithmetic (runtime/core/arith.h):
 * two's-complement wrap on + - * and unary minus, division and modulo by
 * zero reported as TAP_EDIVZERO, INT64_MIN / -1 without a trap, and shift
 * counts clamped to 0..64.  Run under UBSan these also prove that none of
 * the helpers relies on undefined behaviour.
 */
#include <check.h>
#include <stdint.h>

#include "runtime/core/arith.h"

START_TEST(wrap_around)
{
	ck_assert_int_eq(tap_add(INT64_MAX, 1), INT64_MIN);
	ck_assert_int_eq(tap_add(INT64_MIN, -1), INT64_MAX);
	ck_assert_int_eq(tap_sub(INT64_MIN, 1), INT64_MAX);
	ck_assert_int_eq(tap_sub(0, INT64_MIN), INT64_MIN);
	ck_assert_int_eq(tap_mul(INT64_MAX, 2), -2);
	ck_assert_int_eq(tap_mul(INT64_MIN, -1), INT64_MIN);
	ck_assert_int_eq(tap_mul(-3, 7), -21);
	ck_assert_int_eq(tap_neg(INT64_MIN), INT64_MIN);
	ck_assert_int_eq(tap_neg(5), -5);
	ck_assert_int_eq(tap_add(2, 3), 5);
}
END_TEST

START_TEST(division)
{
	int64_t q = 123;

	ck_assert_int_eq(tap_div(7, 2, &q), TAP_OK);
	ck_assert_int_eq(q, 3);
	ck_assert_int_eq(tap_div(-7, 2, &q), TAP_OK);
	ck_assert_int_eq(q, -3);
	ck_assert_int_eq(tap_div(7, -2, &q), TAP_OK);
	ck_assert_int_eq(q, -3);
	ck_assert_int_eq(tap_div(5, 0, &q), TAP_EDIVZERO);
	ck_assert_int_eq(q, 0);
	ck_assert_int_eq(tap_div(INT64_MIN, -1, &q), TAP_OK);
	ck_assert_int_eq(q, INT64_MIN);
	ck_assert_int_eq(tap_div(INT64_MIN, 1, &q), TAP_OK);
	ck_assert_int_eq(q, INT64_MIN);
	ck_assert_int_eq(tap_div(42, -1, &q), TAP_OK);
	ck_assert_int_eq(q, -42);
	ck_assert_str_eq(tap_error_message(TAP_EDIVZERO), "division by zero");
}
END_TEST

START_TEST(modulo)
{
	int64_t r = 123;

	ck_assert_int_eq(tap_mod(7, 3, &r), TAP_OK);
	ck_assert_int_eq(r, 1);
	ck_assert_int_eq(tap_mod(-7, 3, &r), TAP_OK);
	ck_assert_int_eq(r, -1);
	ck_assert_int_eq(tap_mod(7, -3, &r), TAP_OK);
	ck_assert_int_eq(r, 1);
	ck_assert_int_eq(tap_mod(7, 0, &r), TAP_EDIVZERO);
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(tap_mod(INT64_MIN, -1, &r), TAP_OK);
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(tap_mod(INT64_MIN, 1, &r), TAP_OK);
	ck_assert_int_eq(r, 0);
	ck_assert_int_eq(tap_mod(INT64_MIN, 10, &r), TAP_OK);
	ck_assert_int_eq(r, -8);
}
END_TEST

START_TEST(shifts)
{
	ck_assert_int_eq(tap_shl(1, 0), 1);
	ck_assert_int_eq(tap_shl(1, 63), INT64_MIN);
	ck_assert_int_eq(tap_shl(1, 64), 0);
	ck_assert_int_eq(tap_shl(1, 1000), 0);
	ck_assert_int_eq(tap_shl(1, -5), 1);
	ck_assert_int_eq(tap_shl(-1, 4), -16);
	ck_assert_int_eq(tap_shl(INT64_MAX, 1), -2);

	ck_assert_int_eq(tap_shr(-16, 2), -4);
	ck_assert_int_eq(tap_shr(-1, 63), -1);
	ck_assert_int_eq(tap_shr(-1, 64), -1);
	ck_assert_int_eq(tap_shr(INT64_MIN, 63), -1);
	ck_assert_int_eq(tap_shr(INT64_MAX, 62), 1);
	ck_assert_int_eq(tap_shr(INT64_MAX, 64), 0);
	ck_assert_int_eq(tap_shr(5, -1), 5);

	ck_assert_int_eq(tap_ushr(-1, 60), 15);
	ck_assert_int_eq(tap_ushr(INT64_MIN, 63), 1);
	ck_assert_int_eq(tap_ushr(-1, 64), 0);
	ck_assert_int_eq(tap_ushr(-1, 0), -1);
	ck_assert_int_eq(tap_ushr(-1, INT64_MIN), -1);
}
END_TEST

static Suite *
arith_suite(void)
{
	Suite *s = suite_create("arith");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, wrap_around);
	tcase_add_test(tc, division);
	tcase_add_test(tc, modulo);
	tcase_add_test(tc, shifts);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(arith_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
