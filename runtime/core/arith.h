/*
 * arith.h - script arithmetic on 64-bit longs, with defined results for
 * every input.
 *
 * SystemTap longs are int64 with two's-complement wrap-around.  C leaves
 * signed overflow, INT64_MIN / -1 and over-wide shifts undefined, so these
 * helpers compute in uint64_t and convert back.  Division and modulo by
 * zero return TAP_EDIVZERO (the caller raises "division by zero") and store
 * 0; INT64_MIN / -1 wraps to INT64_MIN and INT64_MIN % -1 is 0, as in stap,
 * which special-cases a -1 divisor.  Shift counts are clamped to 0..64 as
 * stap's generated code clamps them: a negative count shifts by 0, and 64
 * or more shifts every bit out (0 for << and >>>, the sign for >>).
 *
 * Header-only so that the compiler inlines them into generated code.
 */
#ifndef TAP_CORE_ARITH_H
#define TAP_CORE_ARITH_H

#include "platform.h"
#include "error.h"

static inline int64_t
tap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t
tap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t
tap_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static inline int64_t
tap_neg(int64_t a)
{
	return (int64_t)(0 - (uint64_t)a);
}

static inline int
tap_div(int64_t a, int64_t b, int64_t *out)
{
	if (unlikely(b == 0)) {
		*out = 0;
		return TAP_EDIVZERO;
	}
	if (unlikely(b == -1))
		*out = tap_neg(a);
	else
		*out = a / b;
	return TAP_OK;
}

static inline int
tap_mod(int64_t a, int64_t b, int64_t *out)
{
	if (unlikely(b == 0)) {
		*out = 0;
		return TAP_EDIVZERO;
	}
	if (unlikely(b == 1 || b == -1))
		*out = 0;
	else
		*out = a % b;
	return TAP_OK;
}

static inline int
__tap_shift_count(int64_t n)
{
	if (n < 0)
		return 0;
	if (n > 64)
		return 64;
	return (int)n;
}

static inline int64_t
tap_shl(int64_t a, int64_t n)
{
	int s = __tap_shift_count(n);

	if (s >= 64)
		return 0;
	return (int64_t)((uint64_t)a << s);
}

/* Arithmetic right shift (>>): the sign bit fills in. */
static inline int64_t
tap_shr(int64_t a, int64_t n)
{
	int s = __tap_shift_count(n);
	uint64_t u = (uint64_t)a;

	if (s >= 64)
		return a < 0 ? -1 : 0;
	if (a < 0)
		return (int64_t)~(~u >> s);
	return (int64_t)(u >> s);
}

/* Logical right shift (>>>): zeros fill in. */
static inline int64_t
tap_ushr(int64_t a, int64_t n)
{
	int s = __tap_shift_count(n);

	if (s >= 64)
		return 0;
	return (int64_t)((uint64_t)a >> s);
}

#endif /* TAP_CORE_ARITH_H */
