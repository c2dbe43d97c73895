/*
 * test_fp.c - Check tests for the integer soft-float (runtime/core/fp.h)
 * against the host's C doubles: + - * / sqrt remainder, comparisons and
 * conversions must give the same bits as the FPU (SSE2, round to nearest
 * even) for edge values and for a few hundred thousand pseudo-random
 * operands of every magnitude (subnormals, huge, mixed exponents).  NaN
 * results are only checked to be NaN (the FPU's default NaN differs).
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/fp.h"

static uint64_t
bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double
dbl(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random double: raw bits, or a narrow exponent range, or special. */
static uint64_t
rand_double(void)
{
	uint64_t r = next64(), sign = next64() & (1ULL << 63);
	static const double special[] = { 0.0, 1.0, 0.5, 2.0, 3.0, 10.0,
					  0.1, 1e308, 4.9e-324, 2.2250738585072014e-308,
					  INFINITY, NAN, 1.7976931348623157e308 };

	switch (next64() % 5) {
	case 0:
		return r;
	case 1:		/* near 1 */
		return sign | ((uint64_t)(1023 - 3 + next64() % 7) << 52) |
		       (r & 0xfffffffffffffULL);
	case 2:		/* subnormal or tiny */
		return sign | ((uint64_t)(next64() % 3) << 52) |
		       (r & 0xfffffffffffffULL);
	case 3:		/* few significant bits: exact halfway cases */
		return sign | ((uint64_t)(1000 + next64() % 50) << 52) |
		       ((r & 0xff) << 44);
	default:
		return sign | bits(special[next64() % 13]);
	}
}

static void
check_same(const char *op, uint64_t a, uint64_t b, uint64_t got,
	   double want)
{
	if (isnan(want)) {
		ck_assert_msg(isnan(dbl(got)), "%s(%a, %a) = %a, want NaN", op,
			      dbl(a), dbl(b), dbl(got));
		return;
	}
	ck_assert_msg(got == bits(want), "%s(%a, %a) = %a (%016llx), want %a",
		      op, dbl(a), dbl(b), dbl(got), (unsigned long long)got,
		      want);
}

START_TEST(arithmetic_matches_fpu)
{
	for (int i = 0; i < 200000; i++) {
		uint64_t a = rand_double(), b = rand_double();
		volatile double x = dbl(a), y = dbl(b);
		double rem;

		check_same("add", a, b, tap_fp_add(a, b), x + y);
		check_same("sub", a, b, tap_fp_sub(a, b), x - y);
		check_same("mul", a, b, tap_fp_mul(a, b), x * y);
		check_same("div", a, b, tap_fp_div(a, b), x / y);
		check_same("sqrt", a, 0, tap_fp_sqrt(a), sqrt(x));
		/* a zero remainder has the sign of a (IEEE 754; glibc's
		 * remainder() loses it for some far-apart exponents) */
		rem = remainder(x, y);
		if (rem == 0)
			rem = copysign(0.0, x);
		check_same("rem", a, b, tap_fp_rem(a, b), rem);
		ck_assert_int_eq(tap_fp_eq(a, b), x == y);
		ck_assert_int_eq(tap_fp_lt(a, b), x < y);
		ck_assert_int_eq(tap_fp_le(a, b), x <= y);
	}
}
END_TEST

START_TEST(edge_cases)
{
	uint64_t one = bits(1.0), zero = 0, nzero = bits(-0.0);

	check_same("add", one, bits(-1.0), tap_fp_add(one, bits(-1.0)), 0.0);
	ck_assert_uint_eq(tap_fp_add(nzero, nzero), nzero);
	ck_assert_uint_eq(tap_fp_add(zero, nzero), zero);
	ck_assert(isnan(dbl(tap_fp_sub(bits(INFINITY), bits(INFINITY)))));
	ck_assert(isnan(dbl(tap_fp_mul(zero, bits(INFINITY)))));
	ck_assert(isnan(dbl(tap_fp_div(zero, zero))));
	ck_assert(isnan(dbl(tap_fp_sqrt(bits(-1.0)))));
	ck_assert_uint_eq(tap_fp_sqrt(nzero), nzero);
	ck_assert_uint_eq(tap_fp_div(one, zero), bits(INFINITY));
	ck_assert_uint_eq(tap_fp_div(one, nzero), bits(-INFINITY));
	/* overflow and gradual underflow */
	ck_assert_uint_eq(tap_fp_mul(bits(1e308), bits(10.0)), bits(INFINITY));
	ck_assert_uint_eq(tap_fp_div(bits(4.9e-324), bits(2.0)), 0);
	ck_assert_uint_eq(tap_fp_div(bits(1.5 * 4.9e-324), bits(2.0)),
			  bits(4.9e-324));
	ck_assert_uint_eq(tap_fp_sqrt(bits(2.0)), bits(sqrt(2.0)));
	ck_assert_uint_eq(tap_fp_rem(bits(5.0), bits(2.0)), bits(1.0));
	ck_assert_uint_eq(tap_fp_rem(bits(7.0), bits(2.0)), bits(-1.0));
}
END_TEST

START_TEST(integer_conversions)
{
	static const int64_t longs[] = { 0, 1, -1, 42, INT64_MAX, INT64_MIN,
					 (1LL << 53) + 1, -(1LL << 53) - 3,
					 123456789012345678LL };
	int64_t out;

	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		ck_assert_uint_eq(tap_fp_from_long(longs[i]),
				  bits((double)longs[i]));
	for (int i = 0; i < 100000; i++) {
		int64_t v = (int64_t)next64() >> (next64() % 64);
		uint64_t f = rand_double();
		double d = dbl(f);

		ck_assert_uint_eq(tap_fp_from_long(v), bits((double)v));
		if (isnan(d) || fabs(d) >= 9.2e18)
			continue;
		tap_fp_to_long(f, TAP_FP_NEAR_EVEN, &out);
		ck_assert_int_eq(out, llrint(d));
		tap_fp_to_long(f, TAP_FP_MIN_MAG, &out);
		ck_assert_int_eq(out, (int64_t)trunc(d));
		tap_fp_to_long(f, TAP_FP_MIN, &out);
		ck_assert_int_eq(out, (int64_t)floor(d));
		tap_fp_to_long(f, TAP_FP_MAX, &out);
		ck_assert_int_eq(out, (int64_t)ceil(d));
		tap_fp_to_long(f, TAP_FP_NEAR_MAX_MAG, &out);
		ck_assert_int_eq(out, llround(d));
	}
	tap_fp_to_long(bits(2.5), TAP_FP_ODD, &out);
	ck_assert_int_eq(out, 3);
	tap_fp_to_long(bits(4.0), TAP_FP_ODD, &out);
	ck_assert_int_eq(out, 4);
	tap_fp_to_long(bits(1e300), TAP_FP_NEAR_EVEN, &out);
	ck_assert_int_eq(out, INT64_MAX);
	tap_fp_to_long(bits(-1e300), TAP_FP_NEAR_EVEN, &out);
	ck_assert_int_eq(out, INT64_MIN);
	tap_fp_to_long(bits(NAN), TAP_FP_NEAR_EVEN, &out);
	ck_assert_int_eq(out, 0);
	ck_assert_int_eq(tap_fp_to_long(bits(1.0), 5, &out), TAP_EINVAL);
}
END_TEST

START_TEST(fp32_conversion)
{
	for (int i = 0; i < 100000; i++) {
		uint32_t v = (uint32_t)next64();
		float f;

		if (i < 1000)
			v &= 0x807fffff;	/* subnormals */
		memcpy(&f, &v, sizeof(f));
		if (isnan(f))
			ck_assert(isnan(dbl(tap_fp_from_fp32(v))));
		else
			ck_assert_uint_eq(tap_fp_from_fp32(v), bits((double)f));
	}
}
END_TEST

START_TEST(to_string_matches_printf)
{
	char got[512], want[512];

	for (int i = 0; i < 50000; i++) {
		uint64_t f = rand_double();
		int prec = (int)(next64() % 25);

		if (i % 100 == 0)
			prec = 400;
		snprintf(want, sizeof(want), "%.*f", prec, dbl(f));
		tap_fp_to_string(got, sizeof(got), f, prec);
		ck_assert_msg(!strcmp(got, want) || isnan(dbl(f)),
			      "%a %d: got %s want %s", dbl(f), prec, got, want);
	}
	tap_fp_to_string(got, sizeof(got), bits(0.125), 2);
	ck_assert_str_eq(got, "0.12");		/* tie to even */
	tap_fp_to_string(got, sizeof(got), bits(9.5), 0);
	ck_assert_str_eq(got, "10");
	tap_fp_to_string(got, sizeof(got), bits(-0.0), 1);
	ck_assert_str_eq(got, "-0.0");
	tap_fp_to_string(got, 8, bits(1.0 / 3), 20);
	ck_assert_str_eq(got, "0.33333");	/* cut to the buffer */
}
END_TEST

START_TEST(from_string_matches_strtod)
{
	char text[64];
	uint64_t out;

	for (int i = 0; i < 100000; i++) {
		uint64_t f = rand_double();

		if (isnan(dbl(f)))
			continue;
		if (i & 1)
			snprintf(text, sizeof(text), "%.17g", dbl(f));
		else
			snprintf(text, sizeof(text), "%.*e",
				 (int)(next64() % 20), dbl(f));
		ck_assert_int_eq(tap_fp_from_string(text, &out), TAP_OK);
		ck_assert_msg(out == bits(strtod(text, NULL)), "%s: got %a",
			      text, dbl(out));
	}
	ck_assert_int_eq(tap_fp_from_string("2.5e-1", &out), TAP_OK);
	ck_assert_uint_eq(out, bits(0.25));
	ck_assert_int_eq(tap_fp_from_string(" -.5 ", &out), TAP_OK);
	ck_assert_uint_eq(out, bits(-0.5));
	ck_assert_int_eq(tap_fp_from_string("1e400", &out), TAP_OK);
	ck_assert_uint_eq(out, bits(INFINITY));
	ck_assert_int_eq(tap_fp_from_string("2.4703282292062328e-324", &out),
			 TAP_OK);
	ck_assert_uint_eq(out, bits(4.9e-324));
	ck_assert_int_eq(tap_fp_from_string("-Inf", &out), TAP_OK);
	ck_assert_uint_eq(out, bits(-INFINITY));
	ck_assert_int_eq(tap_fp_from_string("0.1000000000000000055511151231257827021181583404541015625", &out), TAP_OK);
	ck_assert_uint_eq(out, bits(0.1));
	ck_assert_int_eq(tap_fp_from_string("abc", &out), TAP_EINVAL);
	ck_assert_int_eq(tap_fp_from_string("1.5x", &out), TAP_EINVAL);
	ck_assert_int_eq(tap_fp_from_string("", &out), TAP_EINVAL);
	ck_assert_int_eq(tap_fp_from_string("1e", &out), TAP_EINVAL);
}
END_TEST

static Suite *
fp_suite(void)
{
	Suite *s = suite_create("fp");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, arithmetic_matches_fpu);
	tcase_add_test(tc, edge_cases);
	tcase_add_test(tc, integer_conversions);
	tcase_add_test(tc, fp32_conversion);
	tcase_add_test(tc, to_string_matches_printf);
	tcase_add_test(tc, from_string_matches_strtod);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(fp_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
