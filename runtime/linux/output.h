/*
 * output.h -- script output from a handler: appended to the context's
 * buffer and committed to this CPU's relay buffer in one piece at the
 * handler's end (tap_context_exit), so lines from different CPUs never
 * interleave mid-line.  Must not: be called outside a handler context.
 */
#ifndef TAP_LINUX_OUTPUT_H
#define TAP_LINUX_OUTPUT_H

#include <linux/types.h>

struct tap_context;

void tap_print(struct tap_context *c, const char *s, size_t len);
void tap_puts(struct tap_context *c, const char *s);
__printf(2, 3) void tap_printf(struct tap_context *c, const char *fmt, ...);
void tap_output_commit(struct tap_context *c);
void tap_output_cut(struct tap_context *c);

#endif /* TAP_LINUX_OUTPUT_H */
