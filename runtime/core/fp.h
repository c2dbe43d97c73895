/*
 * fp.h - IEEE-754 binary64 arithmetic in integer code, for the script
 * functions fp_add() ... fp_to_string() (tapsets/fp.stp).
 *
 * A script keeps a double in a long: its 64 bits, as a C union would.
 * Kernel code may not touch the FPU outside kernel_fpu_begin/end, which
 * a probe handler cannot rely on, so every operation here is done on the
 * bits with integers.  Results are those of a C double on x86-64 with the
 * default rounding (to nearest, ties to even): + - * / sqrt and the IEEE
 * remainder are exactly rounded, subnormals kept, overflow to infinity.
 * An invalid operation (inf - inf, 0 * inf, 0/0, sqrt(-1), ...) gives the
 * default NaN 0x7ff8000000000000; a NaN operand comes back quieted (the
 * first one when both are NaN).  No exception flags are kept.
 * Must not: allocate, sleep or use floating point.
 */
#ifndef TAP_CORE_FP_H
#define TAP_CORE_FP_H

#include "platform.h"
#include "error.h"

#define TAP_FP_DEFAULT_NAN	0x7ff8000000000000ULL

/* Rounding modes of tap_fp_to_long (SoftFloat's numbering, as stap's). */
enum tap_fp_round {
	TAP_FP_NEAR_EVEN = 0,	/* to nearest, ties to even */
	TAP_FP_MIN_MAG = 1,	/* toward zero */
	TAP_FP_MIN = 2,		/* toward -infinity */
	TAP_FP_MAX = 3,		/* toward +infinity */
	TAP_FP_NEAR_MAX_MAG = 4,	/* to nearest, ties away from zero */
	TAP_FP_ODD = 6,		/* toward zero, inexact results made odd */
};

uint64_t tap_fp_add(uint64_t a, uint64_t b);
uint64_t tap_fp_sub(uint64_t a, uint64_t b);
uint64_t tap_fp_mul(uint64_t a, uint64_t b);
uint64_t tap_fp_div(uint64_t a, uint64_t b);
uint64_t tap_fp_rem(uint64_t a, uint64_t b);	/* IEEE remainder() */
uint64_t tap_fp_sqrt(uint64_t a);

/* Comparisons: 0 when either is NaN; -0 equals +0. */
bool tap_fp_eq(uint64_t a, uint64_t b);
bool tap_fp_lt(uint64_t a, uint64_t b);
bool tap_fp_le(uint64_t a, uint64_t b);

/* Conversions.  tap_fp_to_long: NaN is 0, out of range saturates;
 * TAP_EINVAL for an unknown mode. */
uint64_t tap_fp_from_long(int64_t v);
uint64_t tap_fp_from_fp32(uint32_t v);
int tap_fp_to_long(uint64_t a, int mode, int64_t *out);

/*
 * The decimal text of a, as printf("%.*f", precision, a) writes it
 * (exact digits, the last rounded to nearest-even; "nan", "inf", "-inf"),
 * cut to size - 1 bytes.  precision below 0 is 0.
 */
void tap_fp_to_string(char *out, size_t size, uint64_t a, int64_t precision);

/*
 * The double nearest the decimal text s ([+-]digits[.digits][e[+-]digits],
 * "inf", "infinity" or "nan", any case, blanks around allowed), rounded as
 * strtod() does; exact for up to 40 significant digits (further ones only
 * say whether the rest is zero).  TAP_EINVAL for any other text.
 */
int tap_fp_from_string(const char *s, uint64_t *out);

#endif /* TAP_CORE_FP_H */
