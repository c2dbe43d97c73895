/*
 * fp.c - IEEE-754 binary64 in integer code (see fp.h).
 *
 * Every operation unpacks its operands into an integer significand m and
 * an exponent e (the value is m * 2^e), computes an exact result or one
 * whose discarded low bits are "jammed" into bit 0 (sticky), and hands it
 * to fp_pack(), the only place that rounds.  Jamming is exact as long as
 * the significand keeps at least two bits below the 53 that are kept,
 * which each caller arranges.  Decimal conversions use small fixed-size
 * big integers (u32 words, little-endian) on the stack: at most 42 words.
 * Must not: allocate, sleep or use floating point.
 */
#include "fp.h"

typedef unsigned __int128 fp_u128;

#define FP_SIGN		0x8000000000000000ULL
#define FP_FRAC_MASK	0x000fffffffffffffULL
#define FP_HIDDEN	0x0010000000000000ULL
#define FP_INF		0x7ff0000000000000ULL
#define FP_QUIET	0x0008000000000000ULL
#define FP_MIN_E	(-1074)		/* unit of the last place, subnormals */

static inline int
fp_bexp(uint64_t a)
{
	return (int)((a >> 52) & 0x7ff);
}

static inline bool
fp_isnan(uint64_t a)
{
	return (a & ~FP_SIGN) > FP_INF;
}

static inline bool
fp_isinf(uint64_t a)
{
	return (a & ~FP_SIGN) == FP_INF;
}

static inline bool
fp_iszero(uint64_t a)
{
	return (a & ~FP_SIGN) == 0;
}

static inline int
fp_bitlen64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* A NaN operand, quieted: the first of the two that is NaN. */
static uint64_t
fp_nan2(uint64_t a, uint64_t b)
{
	return (fp_isnan(a) ? a : b) | FP_QUIET;
}

/* m * 2^e of a finite nonzero a, m normalized to [2^52, 2^53). */
static void
fp_unpack(uint64_t a, uint64_t *m, int *e)
{
	int be = fp_bexp(a);
	int sh;

	if (be) {
		*m = (a & FP_FRAC_MASK) | FP_HIDDEN;
		*e = be - 1075;
		return;
	}
	*m = a & FP_FRAC_MASK;
	sh = 53 - fp_bitlen64(*m);
	*m <<= sh;
	*e = FP_MIN_E - sh;
}

/*
 * The double nearest (-1)^sign * m * 2^e, ties to even.  m may carry a
 * sticky bit in bit 0 if it has at least 55 significant bits.
 */
static uint64_t
fp_pack(bool sign, int e, uint64_t m)
{
	uint64_t s_bits = sign ? FP_SIGN : 0, q, rem, half;
	int n, u, s;

	if (!m)
		return s_bits;
	n = fp_bitlen64(m) - 1;
	u = e + n - 52;			/* unit of the result's last place */
	if (u < FP_MIN_E)
		u = FP_MIN_E;
	s = u - e;
	if (s <= 0) {
		q = m << -s;		/* exact: at most 53 bits */
	} else if (s >= 64) {
		q = 0;
		/* rem = m, half = 2^(s-1) */
		if (s == 64 && (m > (1ULL << 63)))
			q = 1;
	} else {
		q = m >> s;
		rem = m & ((1ULL << s) - 1);
		half = 1ULL << (s - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	if (q >> 53) {			/* rounded up to 2^53 */
		q >>= 1;
		u++;
	}
	if (!(q & FP_HIDDEN))		/* subnormal (or rounded to zero) */
		return s_bits | q;
	if (u + 1075 >= 2047)
		return s_bits | FP_INF;
	return s_bits | ((uint64_t)(u + 1075) << 52) | (q & FP_FRAC_MASK);
}

/* m >> d, the bits shifted out jammed into bit 0. */
static uint64_t
fp_shift_jam(uint64_t m, int d)
{
	if (d <= 0)
		return m;
	if (d >= 64)
		return m != 0;
	return (m >> d) | ((m & ((1ULL << d) - 1)) != 0);
}

uint64_t
tap_fp_add(uint64_t a, uint64_t b)
{
	bool sa = a >> 63, sb = b >> 63;
	uint64_t ma, mb, m;
	int ea, eb;

	if (fp_isnan(a) || fp_isnan(b))
		return fp_nan2(a, b);
	if (fp_isinf(a) || fp_isinf(b)) {
		if (fp_isinf(a) && fp_isinf(b) && sa != sb)
			return TAP_FP_DEFAULT_NAN;
		return fp_isinf(a) ? a : b;
	}
	if (fp_iszero(a) && fp_iszero(b))
		return (sa && sb) ? FP_SIGN : 0;
	if (fp_iszero(a))
		return b;
	if (fp_iszero(b))
		return a;
	fp_unpack(a, &ma, &ea);
	fp_unpack(b, &mb, &eb);
	ma <<= 10, ea -= 10;		/* leading bit at 62: room for a carry */
	mb <<= 10, eb -= 10;
	if (ea < eb) {
		uint64_t tm = ma; int te = ea; bool ts = sa;

		ma = mb, ea = eb, sa = sb;
		mb = tm, eb = te, sb = ts;
	}
	mb = fp_shift_jam(mb, ea - eb);
	if (sa == sb)
		return fp_pack(sa, ea, ma + mb);
	if (ma == mb)
		return 0;		/* x - x is +0 when rounding to nearest */
	if (ma > mb)
		return fp_pack(sa, ea, ma - mb);
	m = mb - ma;
	return fp_pack(sb, ea, m);
}

uint64_t
tap_fp_sub(uint64_t a, uint64_t b)
{
	if (fp_isnan(a) || fp_isnan(b))
		return fp_nan2(a, b);
	return tap_fp_add(a, b ^ FP_SIGN);
}

uint64_t
tap_fp_mul(uint64_t a, uint64_t b)
{
	bool sign = (a ^ b) >> 63;
	uint64_t ma, mb, m;
	fp_u128 p;
	int ea, eb, k;

	if (fp_isnan(a) || fp_isnan(b))
		return fp_nan2(a, b);
	if (fp_isinf(a) || fp_isinf(b)) {
		if (fp_iszero(a) || fp_iszero(b))
			return TAP_FP_DEFAULT_NAN;
		return (sign ? FP_SIGN : 0) | FP_INF;
	}
	if (fp_iszero(a) || fp_iszero(b))
		return sign ? FP_SIGN : 0;
	fp_unpack(a, &ma, &ea);
	fp_unpack(b, &mb, &eb);
	p = (fp_u128)ma * mb;		/* 105 or 106 bits */
	k = (int)(fp_bitlen64((uint64_t)(p >> 64)) + 64) - 62;
	m = (uint64_t)(p >> k) | ((p & (((fp_u128)1 << k) - 1)) != 0);
	return fp_pack(sign, ea + eb + k, m);
}

uint64_t
tap_fp_div(uint64_t a, uint64_t b)
{
	bool sign = (a ^ b) >> 63;
	uint64_t s_bits = sign ? FP_SIGN : 0, ma, mb, q = 0;
	int ea, eb, i;

	if (fp_isnan(a) || fp_isnan(b))
		return fp_nan2(a, b);
	if (fp_isinf(a))
		return fp_isinf(b) ? TAP_FP_DEFAULT_NAN : s_bits | FP_INF;
	if (fp_isinf(b))
		return s_bits;
	if (fp_iszero(b))
		return fp_iszero(a) ? TAP_FP_DEFAULT_NAN : s_bits | FP_INF;
	if (fp_iszero(a))
		return s_bits;
	fp_unpack(a, &ma, &ea);
	fp_unpack(b, &mb, &eb);
	/* q = floor(ma / mb * 2^63), one bit a step: no 128-bit divide */
	for (i = 0; i < 64; i++) {
		q <<= 1;
		if (ma >= mb) {
			ma -= mb;
			q |= 1;
		}
		ma <<= 1;
	}
	return fp_pack(sign, ea - eb - 63, q | (ma != 0));
}

/* floor(sqrt(x)) of a 128-bit x, and whether it was exact. */
static uint64_t
fp_isqrt128(fp_u128 x, bool *exact)
{
	fp_u128 res = 0, bit = (fp_u128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	*exact = x == 0;
	return (uint64_t)res;
}

uint64_t
tap_fp_sqrt(uint64_t a)
{
	uint64_t m, r;
	bool exact;
	int e;

	if (fp_isnan(a))
		return a | FP_QUIET;
	if (fp_iszero(a))
		return a;
	if (a >> 63)
		return TAP_FP_DEFAULT_NAN;
	if (fp_isinf(a))
		return a;
	fp_unpack(a, &m, &e);
	if (e & 1) {
		m <<= 1;
		e--;
	}
	/* sqrt(m * 2^64) has 58 or 59 bits */
	r = fp_isqrt128((fp_u128)m << 64, &exact);
	return fp_pack(false, (e - 64) / 2, r | !exact);
}

uint64_t
tap_fp_rem(uint64_t a, uint64_t b)
{
	uint64_t mx, my, r;
	bool sign = a >> 63, q = false;
	int ex, ey, i;

	if (fp_isnan(a) || fp_isnan(b))
		return fp_nan2(a, b);
	if (fp_isinf(a) || fp_iszero(b))
		return TAP_FP_DEFAULT_NAN;
	if (fp_isinf(b) || fp_iszero(a))
		return a;
	fp_unpack(a, &mx, &ex);
	fp_unpack(b, &my, &ey);
	if (ex < ey - 1)
		return a;		/* |a| < |b| / 2 */
	if (ex == ey - 1) {
		/* in units of 2^ex: b is 2 * my, the quotient is 0 */
		my <<= 1;
		ey = ex;
		r = mx;
	} else {
		r = mx;
		for (i = 0; i <= ex - ey; i++) {
			if (i)
				r <<= 1;
			q = r >= my;
			if (q)
				r -= my;
		}
	}
	/* a = n * b + r * 2^ey, 0 <= r < my, q the low bit of n: round n
	 * to nearest, ties to even */
	if (2 * r > my || (2 * r == my && q)) {
		r = my - r;
		sign = !sign;
	}
	if (!r)
		return a & FP_SIGN;
	return fp_pack(sign, ey, r);
}

bool
tap_fp_eq(uint64_t a, uint64_t b)
{
	if (fp_isnan(a) || fp_isnan(b))
		return false;
	return a == b || ((a | b) << 1) == 0;
}

bool
tap_fp_lt(uint64_t a, uint64_t b)
{
	bool sa = a >> 63, sb = b >> 63;

	if (fp_isnan(a) || fp_isnan(b))
		return false;
	if (sa != sb)
		return sa && ((a | b) << 1) != 0;
	return a != b && (sa ? a > b : a < b);
}

bool
tap_fp_le(uint64_t a, uint64_t b)
{
	if (fp_isnan(a) || fp_isnan(b))
		return false;
	return tap_fp_eq(a, b) || tap_fp_lt(a, b);
}

uint64_t
tap_fp_from_long(int64_t v)
{
	uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;

	/* a 64-bit significand: round by hand so fp_pack needs no jam */
	int n = fp_bitlen64(mag), s = n > 55 ? n - 55 : 0;

	return fp_pack(v < 0, s, fp_shift_jam(mag, s));
}

uint64_t
tap_fp_from_fp32(uint32_t v)
{
	uint64_t s_bits = (uint64_t)(v >> 31) << 63;
	uint32_t be = (v >> 23) & 0xff, frac = v & 0x7fffff;

	if (be == 0xff)
		return s_bits | FP_INF | ((uint64_t)frac << 29) |
		       (frac ? FP_QUIET : 0);
	if (be == 0)
		return frac ? fp_pack(v >> 31, -149, frac) : s_bits;
	return fp_pack(v >> 31, (int)be - 150, frac | 0x800000);
}

int
tap_fp_to_long(uint64_t a, int mode, int64_t *out)
{
	bool neg = a >> 63, up = false;
	uint64_t m, ip, rem = 0, half = 0;
	bool inexact;
	int e, s;

	if (mode < 0 || mode > 6 || mode == 5)
		return TAP_EINVAL;
	*out = 0;
	if (fp_isnan(a))
		return TAP_OK;
	if (fp_iszero(a))
		return TAP_OK;
	if (fp_isinf(a) || fp_bexp(a) >= 1023 + 64)
		goto overflow;
	fp_unpack(a, &m, &e);
	if (e >= 0) {
		ip = m << e;		/* below 2^64: exponent checked */
		inexact = false;
	} else {
		s = -e;
		ip = s >= 64 ? 0 : m >> s;
		if (s > 64) {
			rem = 1;	/* below half, nonzero */
			half = 2;
		} else {
			rem = s == 64 ? m : m & ((1ULL << s) - 1);
			half = 1ULL << (s - 1);
		}
		inexact = rem != 0;
	}
	switch (mode) {
	case TAP_FP_NEAR_EVEN:
		up = rem > half || (rem == half && inexact && (ip & 1));
		break;
	case TAP_FP_NEAR_MAX_MAG:
		up = inexact && rem >= half;
		break;
	case TAP_FP_MIN:
		up = inexact && neg;
		break;
	case TAP_FP_MAX:
		up = inexact && !neg;
		break;
	case TAP_FP_ODD:
		if (inexact)
			ip |= 1;
		break;
	default:
		break;
	}
	if (up) {
		ip++;
		if (!ip)
			goto overflow;
	}
	if (neg ? ip > (1ULL << 63) : ip > (uint64_t)INT64_MAX)
		goto overflow;
	*out = neg ? (int64_t)(0 - ip) : (int64_t)ip;
	return TAP_OK;
overflow:
	*out = neg ? INT64_MIN : INT64_MAX;
	return TAP_OK;
}

/* ---- decimal conversions: small big integers ---- */

#define FP_BIG_WORDS	42

struct fp_big {
	int n;				/* words in use; w[n-1] != 0 or n == 0 */
	uint32_t w[FP_BIG_WORDS];
};

static void
fp_big_set(struct fp_big *b, uint64_t v)
{
	b->n = 0;
	while (v) {
		b->w[b->n++] = (uint32_t)v;
		v >>= 32;
	}
}

static void
fp_big_trim(struct fp_big *b)
{
	while (b->n && !b->w[b->n - 1])
		b->n--;
}

/* b = b * f + add; false when it would not fit. */
static bool
fp_big_muladd(struct fp_big *b, uint32_t f, uint32_t add)
{
	uint64_t carry = add;
	int i;

	for (i = 0; i < b->n; i++) {
		carry += (uint64_t)b->w[i] * f;
		b->w[i] = (uint32_t)carry;
		carry >>= 32;
	}
	if (carry) {
		if (b->n >= FP_BIG_WORDS)
			return false;
		b->w[b->n++] = (uint32_t)carry;
	}
	return true;
}

static int
fp_big_bitlen(const struct fp_big *b)
{
	return b->n ? (b->n - 1) * 32 + fp_bitlen64(b->w[b->n - 1]) : 0;
}

/* b <<= k; false (b unchanged) when it would not fit. */
static bool
fp_big_shl(struct fp_big *b, int k)
{
	int words = k / 32, bits = k % 32, len = fp_big_bitlen(b) + k;
	int i, n;

	if (!b->n || !k)
		return true;
	if (len > 32 * FP_BIG_WORDS)
		return false;
	n = (len + 31) / 32;
	for (i = n - 1; i >= 0; i--) {
		int src = i - words;
		uint64_t hi = src >= 0 && src < b->n ? b->w[src] : 0;
		uint64_t lo = src >= 1 && src - 1 < b->n ? b->w[src - 1] : 0;

		b->w[i] = bits ? (uint32_t)((hi << bits) | (lo >> (32 - bits)))
			       : (uint32_t)hi;
	}
	b->n = n;
	fp_big_trim(b);
	return true;
}

static int
fp_big_cmp(const struct fp_big *a, const struct fp_big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* a -= b, with a >= b. */
static void
fp_big_sub(struct fp_big *a, const struct fp_big *b)
{
	int64_t borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		int64_t d = (int64_t)a->w[i] - (i < b->n ? b->w[i] : 0) -
			    borrow;

		borrow = d < 0;
		a->w[i] = (uint32_t)(d + (borrow ? (1LL << 32) : 0));
	}
	fp_big_trim(a);
}

/* b /= d, returning the remainder. */
static uint32_t
fp_big_divsmall(struct fp_big *b, uint32_t d)
{
	uint64_t rem = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		uint64_t cur = (rem << 32) | b->w[i];

		b->w[i] = (uint32_t)(cur / d);
		rem = cur % d;
	}
	fp_big_trim(b);
	return (uint32_t)rem;
}

/* Bits [k, ...) of b as a small number (the digit after *10), and clear
 * them. */
static uint32_t
fp_big_take_above(struct fp_big *b, int k)
{
	int word = k / 32, bit = k % 32;
	uint64_t v = 0;
	int i;

	for (i = b->n - 1; i >= word; i--)
		v = (v << 32) | b->w[i];
	v >>= bit;
	if (word < b->n) {
		b->w[word] &= bit ? (1U << bit) - 1 : 0;
		for (i = word + 1; i < b->n; i++)
			b->w[i] = 0;
		fp_big_trim(b);
	}
	return (uint32_t)v;
}

/* The decimal digits of b (destroyed) into buf, most significant first;
 * returns how many ("0" for zero).  buf holds FP_INT_DIGITS. */
#define FP_INT_DIGITS	(36 * 9)

static int
fp_big_to_dec(struct fp_big *b, char *buf)
{
	int n = 0, i, k;
	char c;

	do {
		uint32_t chunk = fp_big_divsmall(b, 1000000000);

		for (k = 0; k < 9 && n < FP_INT_DIGITS; k++) {
			buf[n++] = '0' + chunk % 10;
			chunk /= 10;
		}
	} while (b->n);
	while (n > 1 && buf[n - 1] == '0')
		n--;
	for (i = 0; i < n / 2; i++) {
		c = buf[i];
		buf[i] = buf[n - 1 - i];
		buf[n - 1 - i] = c;
	}
	return n;
}

/* Appends to a bounded buffer. */
struct fp_out {
	char *p;
	size_t len, size;
};

static void
fp_putc(struct fp_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->p[o->len++] = c;
}

static void
fp_puts(struct fp_out *o, const char *s)
{
	while (*s)
		fp_putc(o, *s++);
}

/*
 * Adds one unit at the last written digit of o (the rounding carry):
 * through '9's, over the '.', and a new leading '1' when every digit was
 * '9'.  first is where the digits start (after a '-').
 */
static void
fp_round_up(struct fp_out *o, size_t first)
{
	size_t i = o->len;

	while (i > first) {
		i--;
		if (o->p[i] == '.')
			continue;
		if (o->p[i] != '9') {
			o->p[i]++;
			return;
		}
		o->p[i] = '0';
	}
	/* all nines: shift right by one and put a '1' in front */
	if (o->len + 1 < o->size)
		o->len++;
	for (i = o->len - 1; i > first; i--)
		o->p[i] = o->p[i - 1];
	o->p[first] = '1';
}

void
tap_fp_to_string(char *out, size_t size, uint64_t a, int64_t precision)
{
	struct fp_out o = { out, 0, size };
	struct fp_big big, frac;	/* big: integer part, then 1/2 */
	char idig[FP_INT_DIGITS];
	uint64_t m = 0;
	int e = 0, k = 0, nd, i, last;
	int64_t d;
	bool all_nines = true;		/* every digit not written is 9 */
	size_t first;

	if (!size)
		return;
	if (precision < 0)
		precision = 0;
	if (fp_isnan(a)) {
		fp_puts(&o, a >> 63 ? "-nan" : "nan");
		goto done;
	}
	if (a >> 63)
		fp_putc(&o, '-');
	if (fp_isinf(a)) {
		fp_puts(&o, "inf");
		goto done;
	}
	first = o.len;
	if (!fp_iszero(a))
		fp_unpack(a, &m, &e);
	/* a = big + frac / 2^k */
	frac.n = 0;
	if (e >= 0) {
		fp_big_set(&big, m);
		fp_big_shl(&big, e);	/* at most 1024 bits: fits */
	} else {
		k = -e;
		fp_big_set(&big, k < 64 ? m >> k : 0);
		fp_big_set(&frac, k < 64 ? m & ((1ULL << k) - 1) : m);
	}
	nd = fp_big_to_dec(&big, idig);
	for (i = 0; i < nd; i++)
		fp_putc(&o, idig[i]);
	last = idig[nd - 1] - '0';
	if (precision)
		fp_putc(&o, '.');
	/* the digits that fit are written; of the others only whether all
	 * are nines matters (a rounding carry would run through them) */
	for (d = 0; d < precision; d++) {
		last = 0;
		if (frac.n) {
			fp_big_muladd(&frac, 10, 0);
			last = fp_big_take_above(&frac, k);
		}
		if (o.len + 1 < o.size) {
			fp_putc(&o, '0' + last);
		} else if (last != 9) {
			all_nines = false;
			if (!frac.n)
				break;	/* only zeros follow */
		}
	}
	/* round to nearest, ties to even: frac / 2^k against 1/2 */
	if (frac.n && all_nines) {
		fp_big_set(&big, 1);
		fp_big_shl(&big, k - 1);
		i = fp_big_cmp(&frac, &big);
		if (i > 0 || (i == 0 && (last & 1)))
			fp_round_up(&o, first);
	}
done:
	out[o.len] = '\0';
}

/* Case-insensitive prefix test; returns the length matched or 0. */
static size_t
fp_word(const char *s, const char *w)
{
	size_t i;

	for (i = 0; w[i]; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != w[i])
			return 0;
	}
	return i;
}

static bool
fp_is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

#define FP_MAX_DIGITS	40

/* D * 10^x as a double (D the digits kept, sticky: nonzero ones dropped). */
static uint64_t
fp_dec_to_bin(bool neg, struct fp_big *num, int nd, int x, bool sticky)
{
	struct fp_big den;
	uint64_t q = 0;
	int t, i;

	if (!num->n)
		return neg ? FP_SIGN : 0;
	if (nd + x > 310)
		return (neg ? FP_SIGN : 0) | FP_INF;
	if (nd + x < -330)
		return neg ? FP_SIGN : 0;
	fp_big_set(&den, 1);
	for (i = 0; i < x; i++)
		fp_big_muladd(num, 10, 0);
	for (i = 0; i < -x; i++)
		fp_big_muladd(&den, 10, 0);
	/* align: num / den = (R / B) * 2^-t with bitlen(R) == bitlen(B) */
	t = fp_big_bitlen(&den) - fp_big_bitlen(num);
	if (t > 0)
		fp_big_shl(num, t);
	else
		fp_big_shl(&den, -t);
	for (i = 0; i < 64; i++) {
		q <<= 1;
		if (fp_big_cmp(num, &den) >= 0) {
			fp_big_sub(num, &den);
			q |= 1;
		}
		fp_big_shl(num, 1);
	}
	return fp_pack(neg, -63 - t, q | (num->n != 0) | sticky);
}

int
tap_fp_from_string(const char *s, uint64_t *out)
{
	struct fp_big num = { 0 };
	bool neg = false, sticky = false, any = false, eneg = false;
	int nd = 0, x = 0;
	long ex = 0;
	size_t w;

	while (fp_is_blank(*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if ((w = fp_word(s, "infinity")) || (w = fp_word(s, "inf"))) {
		*out = (neg ? FP_SIGN : 0) | FP_INF;
		s += w;
		goto tail;
	}
	if ((w = fp_word(s, "nan"))) {
		*out = (neg ? FP_SIGN : 0) | TAP_FP_DEFAULT_NAN;
		s += w;
		goto tail;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		any = true;
		if (nd < FP_MAX_DIGITS) {
			if (nd || *s != '0') {
				fp_big_muladd(&num, 10, *s - '0');
				nd++;
			}
		} else {
			x++;
			sticky |= *s != '0';
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			any = true;
			if (nd < FP_MAX_DIGITS) {
				if (nd || *s != '0') {
					fp_big_muladd(&num, 10, *s - '0');
					nd++;
				}
				x--;
			} else {
				sticky |= *s != '0';
			}
		}
	}
	if (!any)
		return TAP_EINVAL;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			eneg = *s++ == '-';
		if (*s < '0' || *s > '9')
			return TAP_EINVAL;
		for (; *s >= '0' && *s <= '9'; s++)
			if (ex < 100000)
				ex = ex * 10 + (*s - '0');
	}
	x += eneg ? -ex : ex;
	*out = fp_dec_to_bin(neg, &num, nd, x, sticky);
tail:
	while (fp_is_blank(*s))
		s++;
	return *s ? TAP_EINVAL : TAP_OK;
}
