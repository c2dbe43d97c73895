/*
 * buf.c - bounded appends and integer-to-text for struct tap_buf.  Takes
 * caller storage, never allocates, never writes past cap; see buf.h.
 */
#include "buf.h"
#include "error.h"

void
tap_buf_init(struct tap_buf *b, char *storage, size_t size)
{
	b->data = storage;
	b->cap = size;
	tap_buf_reset(b);
}

void
tap_buf_reset(struct tap_buf *b)
{
	b->len = 0;
	b->truncated = false;
	if (b->cap)
		b->data[0] = '\0';
}

void
tap_buf_putn(struct tap_buf *b, const char *s, size_t n)
{
	size_t room = tap_buf_room(b);

	if (n > room) {
		n = room;
		b->truncated = true;
	}
	if (n) {
		tap_memcpy(b->data + b->len, s, n);
		b->len += n;
		b->data[b->len] = '\0';
	}
}

void
tap_buf_puts(struct tap_buf *b, const char *s)
{
	tap_buf_putn(b, s, tap_strlen(s));
}

/* Append n copies of c; n <= 0 appends nothing. */
void
tap_buf_pad(struct tap_buf *b, char c, long n)
{
	size_t room = tap_buf_room(b);
	size_t want;

	if (n <= 0)
		return;
	want = (size_t)n;
	if (want > room) {
		want = room;
		b->truncated = true;
	}
	tap_memset(b->data + b->len, c, want);
	b->len += want;
	if (b->cap)
		b->data[b->len] = '\0';
}

int
__tap_utoa_rev(char *tmp, uint64_t v, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	return n;
}

/* Decimal digits of v, written backwards ending at `end`; how many.  A
 * constant divisor: the compiler multiplies instead of dividing. */
static int
put_decimal_rev(char *end, uint64_t v)
{
	int n = 0;

	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v);
	return n;
}

void
tap_buf_put_u64(struct tap_buf *b, uint64_t v)
{
	char tmp[20];
	int n = put_decimal_rev(tmp + sizeof(tmp), v);

	tap_buf_putn(b, tmp + sizeof(tmp) - n, (size_t)n);
}

/* Negate in unsigned arithmetic so that INT64_MIN prints correctly; one
 * append for sign and digits (printf's %d and print() of a long). */
void
tap_buf_put_s64(struct tap_buf *b, int64_t v)
{
	char tmp[21];
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n = put_decimal_rev(tmp + sizeof(tmp), mag);

	if (v < 0)
		tmp[sizeof(tmp) - ++n] = '-';
	tap_buf_putn(b, tmp + sizeof(tmp) - n, (size_t)n);
}

int
tap_dec_width(int64_t v)
{
	uint64_t mag = (uint64_t)v;
	int n = 1;

	if (v < 0) {
		n++;
		mag = 0 - mag;
	}
	while (mag >= 10) {
		mag /= 10;
		n++;
	}
	return n;
}

int
tap_buf_status(const struct tap_buf *b)
{
	return b->truncated ? TAP_ETRUNC : TAP_OK;
}
