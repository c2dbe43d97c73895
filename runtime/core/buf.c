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
tap_buf_putc(struct tap_buf *b, char c)
{
	if (tap_buf_room(b) == 0) {
		b->truncated = true;
		return;
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
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

static void
put_reversed(struct tap_buf *b, const char *tmp, int n)
{
	while (n > 0)
		tap_buf_putc(b, tmp[--n]);
}

void
tap_buf_put_u64(struct tap_buf *b, uint64_t v)
{
	char tmp[64];

	put_reversed(b, tmp, __tap_utoa_rev(tmp, v, 10, false));
}

/* Negate in unsigned arithmetic so that INT64_MIN prints correctly. */
void
tap_buf_put_s64(struct tap_buf *b, int64_t v)
{
	uint64_t mag = (uint64_t)v;

	if (v < 0) {
		tap_buf_putc(b, '-');
		mag = 0 - mag;
	}
	tap_buf_put_u64(b, mag);
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
