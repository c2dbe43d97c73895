/*
 * buf.h - a bounded output buffer.
 *
 * struct tap_buf wraps caller-owned storage (a context's print buffer, a
 * MAXSTRINGLEN string, a stack array in tests).  Appends never write past
 * the storage: whatever does not fit is dropped and `truncated` is set, so
 * that the caller can report lost output once.  The data is kept
 * NUL-terminated (one byte of the storage is reserved for it) so that a
 * buffer over a script string is directly usable as a C string; `len`
 * counts the bytes before that NUL, and %b output may contain NULs, so
 * binary consumers must use `len`.  Nothing here allocates.
 */
#ifndef TAP_CORE_BUF_H
#define TAP_CORE_BUF_H

#include "platform.h"
#include "error.h"

struct tap_buf {
	char *data;
	size_t len;		/* bytes written, excluding the final NUL */
	size_t cap;		/* size of data[], including the NUL byte */
	bool truncated;		/* some output was dropped */
};

void tap_buf_init(struct tap_buf *b, char *storage, size_t size);
void tap_buf_reset(struct tap_buf *b);
void tap_buf_putn(struct tap_buf *b, const char *s, size_t n);
void tap_buf_puts(struct tap_buf *b, const char *s);
void tap_buf_pad(struct tap_buf *b, char c, long n);
void tap_buf_put_s64(struct tap_buf *b, int64_t v);
void tap_buf_put_u64(struct tap_buf *b, uint64_t v);
int tap_buf_status(const struct tap_buf *b);

/* Room left for payload bytes. */
static inline size_t
tap_buf_room(const struct tap_buf *b)
{
	return b->cap ? b->cap - 1 - b->len : 0;
}

/* Inline: compiled formats (codegen_print.c) put their one-byte literals
 * with it, from the handlers' translation unit. */
static inline void
tap_buf_putc(struct tap_buf *b, char c)
{
	if (tap_buf_room(b) == 0) {
		b->truncated = true;
		return;
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

/* Digits of v in base (2..16), least significant first, into tmp[64+];
 * returns how many.  Shared by the formatter and histogram printing. */
int __tap_utoa_rev(char *tmp, uint64_t v, unsigned int base, bool upper);

/* Characters needed to print v in decimal, with its '-' sign. */
int tap_dec_width(int64_t v);

#endif /* TAP_CORE_BUF_H */
