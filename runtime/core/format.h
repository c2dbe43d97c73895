/*
 * format.h - the printf engine behind printf, sprintf, print, println,
 * printd, printdln, sprint and sprintln.
 *
 * A format string is compiled once (by the translator, or at module init)
 * with tap_fmt_compile() into an array of pieces -- literal runs and
 * directives with their flags, width and precision -- held in caller
 * storage sized by tap_fmt_count_pieces().  Compiling validates the string:
 * an unknown conversion is TAP_EINVAL with its offset.  tap_fmt_apply()
 * then renders the pieces with an array of struct tap_value arguments into
 * a struct tap_buf; `*` widths and precisions consume a long argument
 * before the value, as in C.  Output that does not fit is truncated and
 * reported as TAP_ETRUNC.
 *
 * Output matches SystemTap's for the same arguments: every value is 64-bit
 * (h, l, ll, L, z, j and t length modifiers are accepted and ignored);
 * %d %i are signed, %u %o %x %X unsigned; '#' adds 0 / 0x / 0X even to
 * zero; '0' pads with zeros after the sign even when a precision is given;
 * %p is %#x (0x prefix, no padding unless asked); %c with '#' escapes
 * unprintable characters C-style or in octal; %s of NULL is "<NULL>";
 * '0' with %s or %m appends a NUL byte; %b writes the value as 1, 2, 4 or
 * 8 raw bytes (native order; width and precision choose the size, 8 by
 * default) padded with NULs; %m copies `precision` bytes (1 by default)
 * from memory and %M prints them in hex.  A negative `*` precision counts
 * as 0, as stap clamps it.
 *
 * TAP_FMT_POINTER_V12 is never produced by tap_fmt_compile(): the
 * translator turns %p into it under --compatible=1.2 or older.  Those
 * versions zero-padded the digits to the word size (16), or to the width
 * less the "0x" when a width was given: with '-' to exactly that, without
 * it to at most 16 digits and then spaces on the left.  The precision is
 * ignored.
 *
 * %m and %M read memory through env->read when an env is given (the
 * kernel target passes its fault-safe copy); without one, the argument's
 * `s` pointer, or failing that its `l` value as an address, is read
 * directly, which only the user-space target and tests may rely on.
 */
#ifndef TAP_CORE_FORMAT_H
#define TAP_CORE_FORMAT_H

#include "platform.h"
#include "error.h"
#include "value.h"
#include "buf.h"

enum tap_fmt_conv {
	TAP_FMT_LITERAL,	/* src[off .. off+len) verbatim */
	TAP_FMT_SIGNED,		/* %d %i */
	TAP_FMT_UNSIGNED,	/* %u */
	TAP_FMT_OCTAL,		/* %o */
	TAP_FMT_HEX,		/* %x */
	TAP_FMT_HEX_UPPER,	/* %X */
	TAP_FMT_POINTER,	/* %p */
	TAP_FMT_STRING,		/* %s */
	TAP_FMT_CHAR,		/* %c */
	TAP_FMT_MEMORY,		/* %m */
	TAP_FMT_MEMORY_HEX,	/* %M */
	TAP_FMT_BINARY,		/* %b */
	TAP_FMT_PERCENT,	/* %% */
	TAP_FMT_POINTER_V12,	/* %p as SystemTap 1.2 printed it (see below) */
};

#define TAP_FMT_F_LEFT		0x01	/* - */
#define TAP_FMT_F_PLUS		0x02	/* + */
#define TAP_FMT_F_SPACE		0x04	/* ' ' */
#define TAP_FMT_F_SPECIAL	0x08	/* # */
#define TAP_FMT_F_ZEROPAD	0x10	/* 0 */

#define TAP_FMT_NONE	(-1)	/* width or precision not given */
#define TAP_FMT_STAR	(-2)	/* width or precision from an argument */

struct tap_fmt_piece {
	uint8_t conv;		/* enum tap_fmt_conv */
	uint8_t flags;
	int32_t width;		/* >= 0, TAP_FMT_NONE or TAP_FMT_STAR */
	int32_t precision;	/* >= 0, TAP_FMT_NONE or TAP_FMT_STAR */
	uint32_t off;		/* literal: where in the source string */
	uint32_t len;		/* literal: how many bytes */
};

struct tap_fmt {
	const char *src;			/* outlives the tap_fmt */
	const struct tap_fmt_piece *pieces;
	unsigned int npieces;
	unsigned int nargs;			/* arguments consumed */
	/* Or NULL: the same output from code pass 3 compiled for a format
	 * of literals, plain %d and plain %s (exactly nargs arguments, of
	 * the types the format says); tap_fmt_apply() calls it instead of
	 * reading the pieces. */
	int (*render)(struct tap_buf *out, const struct tap_value *args);
};

struct tap_fmt_env {
	/* Copy n bytes at addr into dst; user selects user memory (%#m).
	 * Returns 0 or a negative TAP_E* code. */
	int (*read)(void *dst, uint64_t addr, size_t n, bool user,
		    void *priv);
	void *priv;
};

unsigned int tap_fmt_count_pieces(const char *fmt);
int tap_fmt_compile(struct tap_fmt *f, const char *fmt,
		    struct tap_fmt_piece *storage, unsigned int max,
		    unsigned int *err_off);
enum tap_type tap_fmt_arg_type(const struct tap_fmt *f, unsigned int arg);
int tap_fmt_apply(const struct tap_fmt *f, const struct tap_value *args,
		  unsigned int nargs, struct tap_buf *out,
		  const struct tap_fmt_env *env);

/* print/println/printd/printdln/sprint/sprintln: values as stap prints
 * them (longs in decimal, strings verbatim), `delim` between them (NULL
 * for none), then "\n" when newline is set. */
int tap_print_values(struct tap_buf *out, const struct tap_value *args,
		     const enum tap_type *types, unsigned int n,
		     const char *delim, bool newline);
void tap_print_long(struct tap_buf *out, int64_t v);

#endif /* TAP_CORE_FORMAT_H */
