/*
 * output.c -- per-handler output buffering (see output.h).
 *
 * Takes: bytes and formatted text from a handler.  Produces: one relay
 * record per handler (or per full buffer, when one handler prints more than
 * TAP_OUTBUF_SIZE).  Must not: allocate or sleep; it runs in probe context.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "context.h"
#include "output.h"
#include "transport.h"

void
tap_output_commit(struct tap_context *c)
{
	if (c->out.len) {
		tap_transport_write(c->out.data, c->out.len);
		c->out.len = 0;
	}
}

/* A print did not fit in the handler's buffer even when it was empty:
 * the cut is counted, and reported in the closing WARNING line. */
void
tap_output_cut(struct tap_context *c)
{
	tap_transport_count_lost();
}

void
tap_print(struct tap_context *c, const char *s, size_t len)
{
	size_t room;

	while (len) {
		room = sizeof(c->out.data) - c->out.len;
		if (!room) {
			/* A huge print: give up whole-record atomicity. */
			tap_output_commit(c);
			continue;
		}
		if (room > len)
			room = len;
		memcpy(c->out.data + c->out.len, s, room);
		c->out.len += room;
		s += room;
		len -= room;
	}
}

void
tap_puts(struct tap_context *c, const char *s)
{
	tap_print(c, s, strlen(s));
}

void
tap_printf(struct tap_context *c, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(c->out.data) - c->out.len;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->out.data + c->out.len, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		c->out.len += n;
		return;
	}
	/* Did not fit: commit what is there and format again. */
	tap_output_commit(c);
	va_start(ap, fmt);
	n = vsnprintf(c->out.data, sizeof(c->out.data), fmt, ap);
	va_end(ap);
	c->out.len = min_t(size_t, n, sizeof(c->out.data) - 1);
}
