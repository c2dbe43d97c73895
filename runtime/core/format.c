/*
 * format.c - compiling SystemTap format strings and rendering them.
 *
 * Takes a format string and, per call, an argument array; produces bytes
 * in a struct tap_buf.  Rendering follows SystemTap's runtime formatter
 * rule for rule (see format.h for the list); it is written afresh here,
 * with its own number conversion, and never calls a libc formatter so that
 * the same file builds in the kernel.  Nothing here allocates.
 */
#include "format.h"
#include "error.h"

/* ---- compiling ------------------------------------------------------- */

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Pieces needed for fmt: at most one literal before each '%' plus one
 * per directive, plus a final literal. */
unsigned int
tap_fmt_count_pieces(const char *fmt)
{
	unsigned int n = 1;

	for (; *fmt; fmt++)
		if (*fmt == '%')
			n += 2;
	return n;
}

static int
conv_of(char c)
{
	switch (c) {
	case 'd':
	case 'i':
		return TAP_FMT_SIGNED;
	case 'u':
		return TAP_FMT_UNSIGNED;
	case 'o':
		return TAP_FMT_OCTAL;
	case 'x':
		return TAP_FMT_HEX;
	case 'X':
		return TAP_FMT_HEX_UPPER;
	case 'p':
		return TAP_FMT_POINTER;
	case 's':
		return TAP_FMT_STRING;
	case 'c':
		return TAP_FMT_CHAR;
	case 'm':
		return TAP_FMT_MEMORY;
	case 'M':
		return TAP_FMT_MEMORY_HEX;
	case 'b':
		return TAP_FMT_BINARY;
	case '%':
		return TAP_FMT_PERCENT;
	}
	return -1;
}

static uint8_t
parse_flags(const char **p)
{
	uint8_t flags = 0;

	for (;; (*p)++) {
		switch (**p) {
		case '-':
			flags |= TAP_FMT_F_LEFT;
			continue;
		case '+':
			flags |= TAP_FMT_F_PLUS;
			continue;
		case ' ':
			flags |= TAP_FMT_F_SPACE;
			continue;
		case '#':
			flags |= TAP_FMT_F_SPECIAL;
			continue;
		case '0':
			flags |= TAP_FMT_F_ZEROPAD;
			continue;
		}
		return flags;
	}
}

/* A decimal number or '*'; saturates instead of overflowing. */
static int32_t
parse_count(const char **p)
{
	int32_t n = 0;

	if (**p == '*') {
		(*p)++;
		return TAP_FMT_STAR;
	}
	while (is_digit(**p)) {
		if (n < 100000000)
			n = n * 10 + (**p - '0');
		(*p)++;
	}
	return n;
}

static void
skip_length_modifiers(const char **p)
{
	while (**p == 'h' || **p == 'l' || **p == 'L' || **p == 'z' ||
	       **p == 'j' || **p == 't')
		(*p)++;
}

/* Parse the directive at *p (just after '%') into pc; advances *p. */
static int
parse_directive(const char **p, struct tap_fmt_piece *pc)
{
	int conv;

	pc->flags = parse_flags(p);
	pc->width = TAP_FMT_NONE;
	if (is_digit(**p) || **p == '*')
		pc->width = parse_count(p);
	pc->precision = TAP_FMT_NONE;
	if (**p == '.') {
		(*p)++;
		pc->precision = parse_count(p);
	}
	skip_length_modifiers(p);
	conv = conv_of(**p);
	if (conv < 0)
		return TAP_EINVAL;
	pc->conv = (uint8_t)conv;
	(*p)++;
	return TAP_OK;
}

static unsigned int
piece_args(const struct tap_fmt_piece *pc)
{
	unsigned int n = 0;

	if (pc->conv == TAP_FMT_LITERAL || pc->conv == TAP_FMT_PERCENT)
		return 0;
	n += pc->width == TAP_FMT_STAR;
	n += pc->precision == TAP_FMT_STAR;
	return n + 1;
}

int
tap_fmt_compile(struct tap_fmt *f, const char *fmt,
		struct tap_fmt_piece *storage, unsigned int max,
		unsigned int *err_off)
{
	const char *p = fmt;
	unsigned int n = 0;

	f->src = fmt;
	f->pieces = storage;
	f->npieces = 0;
	f->nargs = 0;
	f->render = NULL;
	while (*p) {
		const char *start = p;
		struct tap_fmt_piece *pc;

		if (n >= max)
			return TAP_EINVAL;
		pc = &storage[n];
		tap_memset(pc, 0, sizeof(*pc));
		if (*p != '%') {
			while (*p && *p != '%')
				p++;
			pc->conv = TAP_FMT_LITERAL;
			pc->off = (uint32_t)(start - fmt);
			pc->len = (uint32_t)(p - start);
		} else {
			p++;
			if (parse_directive(&p, pc) != TAP_OK) {
				if (err_off)
					*err_off = (unsigned int)(start - fmt);
				return TAP_EINVAL;
			}
		}
		f->nargs += piece_args(pc);
		n++;
	}
	f->npieces = n;
	return TAP_OK;
}

/* The type argument number `arg` must have, TAP_T_NONE past the end. */
enum tap_type
tap_fmt_arg_type(const struct tap_fmt *f, unsigned int arg)
{
	unsigned int i, a = 0;

	for (i = 0; i < f->npieces; i++) {
		const struct tap_fmt_piece *pc = &f->pieces[i];
		unsigned int k = piece_args(pc);

		if (arg < a + k) {
			if (arg == a + k - 1 && pc->conv == TAP_FMT_STRING)
				return TAP_T_STRING;
			return TAP_T_LONG;
		}
		a += k;
	}
	return TAP_T_NONE;
}

/* ---- rendering -------------------------------------------------------- */

struct spec {
	uint8_t flags;
	long width;		/* -1: none */
	long precision;		/* -1: none */
};

static void
put_number(struct tap_buf *b, uint64_t num, unsigned int base, bool upper,
	   bool is_signed, const struct spec *sp)
{
	uint8_t flags = sp->flags;
	long size = sp->width, precision = sp->precision;
	char digits[64], sign = 0;
	int n;

	if (flags & TAP_FMT_F_LEFT)
		flags &= ~TAP_FMT_F_ZEROPAD;
	if (is_signed) {
		if ((int64_t)num < 0) {
			sign = '-';
			num = 0 - num;
			size--;
		} else if (flags & TAP_FMT_F_PLUS) {
			sign = '+';
			size--;
		} else if (flags & TAP_FMT_F_SPACE) {
			sign = ' ';
			size--;
		}
	}
	if (flags & TAP_FMT_F_SPECIAL)
		size -= base == 16 ? 2 : base == 8 ? 1 : 0;
	n = __tap_utoa_rev(digits, num, base, upper);
	if (n > precision)
		precision = n;
	size -= precision;
	if (!(flags & (TAP_FMT_F_ZEROPAD | TAP_FMT_F_LEFT)))
		tap_buf_pad(b, ' ', size);
	if (sign)
		tap_buf_putc(b, sign);
	if ((flags & TAP_FMT_F_SPECIAL) && base == 8)
		tap_buf_putc(b, '0');
	if ((flags & TAP_FMT_F_SPECIAL) && base == 16)
		tap_buf_puts(b, upper ? "0X" : "0x");
	if (!(flags & TAP_FMT_F_LEFT) && (flags & TAP_FMT_F_ZEROPAD))
		tap_buf_pad(b, '0', size);
	tap_buf_pad(b, '0', precision - n);
	while (n > 0)
		tap_buf_putc(b, digits[--n]);
	if (flags & TAP_FMT_F_LEFT)
		tap_buf_pad(b, ' ', size);
}

static bool
is_printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* How %#c shows c: itself, a C escape, or three octal digits. */
static int
escape_char(unsigned char c, char *out)
{
	static const char from[] = "\a\b\f\n\r\t\v'\\";
	static const char to[] = "abfnrtv'\\";
	int i;

	if (is_printable(c) && c != '\'' && c != '\\') {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	for (i = 0; from[i]; i++) {
		if ((unsigned char)from[i] == c) {
			out[1] = to[i];
			return 2;
		}
	}
	out[1] = (char)('0' + ((c >> 6) & 3));
	out[2] = (char)('0' + ((c >> 3) & 7));
	out[3] = (char)('0' + (c & 7));
	return 4;
}

static void
put_char(struct tap_buf *b, unsigned char c, const struct spec *sp)
{
	char text[4];
	int n = 1;

	text[0] = (char)c;
	if (sp->flags & TAP_FMT_F_SPECIAL)
		n = escape_char(c, text);
	if (!(sp->flags & TAP_FMT_F_LEFT))
		tap_buf_pad(b, ' ', sp->width - n);
	tap_buf_putn(b, text, (size_t)n);
	if (sp->flags & TAP_FMT_F_LEFT)
		tap_buf_pad(b, ' ', sp->width - n);
}

static void
put_string(struct tap_buf *b, const char *s, const struct spec *sp)
{
	size_t max = sp->precision >= 0 ? (size_t)sp->precision : (size_t)-1;
	size_t len;

	if (!s)
		s = "<NULL>";
	len = tap_strnlen(s, max);
	if (!(sp->flags & TAP_FMT_F_LEFT))
		tap_buf_pad(b, ' ', sp->width - (long)len);
	tap_buf_putn(b, s, len);
	if (sp->flags & TAP_FMT_F_LEFT)
		tap_buf_pad(b, ' ', sp->width - (long)len);
	if (sp->flags & TAP_FMT_F_ZEROPAD)
		tap_buf_putc(b, '\0');
}

/* Fetch n bytes for %m / %M into dst (n <= the buffer's room). */
static int
read_memory(const struct tap_value *arg, void *dst, size_t n, bool user,
	    const struct tap_fmt_env *env)
{
	const char *src;

	if (env && env->read)
		return env->read(dst, (uint64_t)arg->l, n, user, env->priv);
	src = arg->s ? arg->s : (const char *)(uintptr_t)arg->l;
	if (!src)
		return TAP_EFAULT;
	tap_memcpy(dst, src, n);
	return TAP_OK;
}

/* %m and %M: `precision` bytes (1 by default), read in chunks so that no
 * scratch buffer is needed beyond a small stack array. */
static int
put_memory(struct tap_buf *b, const struct tap_value *arg, bool hex,
	   const struct spec *sp, const struct tap_fmt_env *env)
{
	static const char xd[] = "0123456789abcdef";
	long len = sp->precision > 0 ? sp->precision : 1;
	long shown = hex ? 2 * len : len;
	struct tap_value at = *arg;
	unsigned char chunk[64];
	long done = 0;
	int rc = TAP_OK;

	if (!(sp->flags & TAP_FMT_F_LEFT))
		tap_buf_pad(b, ' ', sp->width - shown);
	while (done < len && rc == TAP_OK && !b->truncated) {
		size_t n = len - done < 64 ? (size_t)(len - done) : 64;
		size_t i;

		rc = read_memory(&at, chunk, n,
				 sp->flags & TAP_FMT_F_SPECIAL, env);
		for (i = 0; rc == TAP_OK && i < n; i++) {
			if (!hex) {
				tap_buf_putc(b, (char)chunk[i]);
				continue;
			}
			tap_buf_putc(b, xd[chunk[i] >> 4]);
			tap_buf_putc(b, xd[chunk[i] & 15]);
		}
		done += (long)n;
		at.l += (int64_t)n;
		if (at.s)
			at.s += n;
	}
	if (sp->flags & TAP_FMT_F_LEFT)
		tap_buf_pad(b, ' ', sp->width - shown);
	if (sp->flags & TAP_FMT_F_ZEROPAD)
		tap_buf_putc(b, '\0');
	return rc;
}

static long
binary_size(long n)
{
	return (n == 1 || n == 2 || n == 4 || n == 8) ? n : -1;
}

/* %b: the value's low `precision` bytes in native order, NUL-padded to
 * the width.  Unset width and precision default to each other, then 8. */
static void
put_binary(struct tap_buf *b, int64_t v, const struct spec *sp)
{
	long width = sp->width, prec = binary_size(sp->precision);
	union {
		int8_t i8;
		int16_t i16;
		int32_t i32;
		int64_t i64;
		char bytes[8];
	} u;

	if (width < 0) {
		width = prec < 0 ? 8 : prec;
		prec = prec < 0 ? 8 : prec;
	} else if (prec < 0) {
		prec = binary_size(width);
		if (prec < 0)
			prec = 8;
	}
	switch (prec) {
	case 1:
		u.i8 = (int8_t)v;
		break;
	case 2:
		u.i16 = (int16_t)v;
		break;
	case 4:
		u.i32 = (int32_t)v;
		break;
	default:
		u.i64 = v;
		break;
	}
	if (!(sp->flags & TAP_FMT_F_LEFT))
		tap_buf_pad(b, '\0', width - prec);
	tap_buf_putn(b, u.bytes, (size_t)prec);
	if (sp->flags & TAP_FMT_F_LEFT)
		tap_buf_pad(b, '\0', width - prec);
}

static long
clamp_count(int64_t v, long max)
{
	if (v < 0)
		return 0;
	return v > max ? max : (long)v;
}

/* Resolve width and precision, consuming `*` arguments.  Like stap,
 * widths and precisions are clamped to the output buffer's size. */
static int
resolve_spec(const struct tap_fmt_piece *pc, const struct tap_value *args,
	     unsigned int nargs, unsigned int *next, long cap,
	     struct spec *sp)
{
	sp->flags = pc->flags;
	sp->width = pc->width;
	sp->precision = pc->precision;
	if (pc->width == TAP_FMT_STAR) {
		int64_t w;

		if (*next >= nargs)
			return TAP_EINVAL;
		w = args[(*next)++].l;
		if (w < 0) {
			/* A negative width means '-'; the magnitude of
			 * INT64_MIN does not fit, but any huge width
			 * clamps the same. */
			sp->flags |= TAP_FMT_F_LEFT;
			w = w < -cap ? cap : -w;
		}
		sp->width = clamp_count(w, cap);
	} else if (sp->width >= 0) {
		sp->width = clamp_count(sp->width, cap);
	}
	if (pc->precision == TAP_FMT_STAR) {
		if (*next >= nargs)
			return TAP_EINVAL;
		sp->precision = clamp_count(args[(*next)++].l, cap);
	} else if (sp->precision >= 0) {
		sp->precision = clamp_count(sp->precision, cap);
	}
	return TAP_OK;
}

/* How many hex digits SystemTap 1.2's %p padded to (format.h). */
static long
pointer_v12_digits(const struct spec *sp)
{
	const long word_digits = 2 * (long)sizeof(uint64_t);
	long room = sp->width - 2;	/* the width less "0x" */

	if (sp->width < 0)
		return word_digits;
	if (room < 0)
		return 0;
	if (sp->flags & TAP_FMT_F_LEFT)
		return room;
	return room < word_digits ? room : word_digits;
}

static int
put_value(struct tap_buf *b, const struct tap_fmt_piece *pc,
	  const struct tap_value *v, const struct spec *sp,
	  const struct tap_fmt_env *env)
{
	struct spec hex = *sp;

	switch ((enum tap_fmt_conv)pc->conv) {
	case TAP_FMT_SIGNED:
		put_number(b, (uint64_t)v->l, 10, false, true, sp);
		break;
	case TAP_FMT_UNSIGNED:
		put_number(b, (uint64_t)v->l, 10, false, false, sp);
		break;
	case TAP_FMT_OCTAL:
		put_number(b, (uint64_t)v->l, 8, false, false, sp);
		break;
	case TAP_FMT_HEX:
		put_number(b, (uint64_t)v->l, 16, false, false, sp);
		break;
	case TAP_FMT_HEX_UPPER:
		put_number(b, (uint64_t)v->l, 16, true, false, sp);
		break;
	case TAP_FMT_POINTER:
		hex.flags |= TAP_FMT_F_SPECIAL;
		put_number(b, (uint64_t)v->l, 16, false, false, &hex);
		break;
	case TAP_FMT_POINTER_V12:
		hex.flags |= TAP_FMT_F_SPECIAL;
		hex.precision = pointer_v12_digits(sp);
		put_number(b, (uint64_t)v->l, 16, false, false, &hex);
		break;
	case TAP_FMT_STRING:
		put_string(b, v->s, sp);
		break;
	case TAP_FMT_CHAR:
		put_char(b, (unsigned char)v->l, sp);
		break;
	case TAP_FMT_MEMORY:
		return put_memory(b, v, false, sp, env);
	case TAP_FMT_MEMORY_HEX:
		return put_memory(b, v, true, sp, env);
	case TAP_FMT_BINARY:
		put_binary(b, v->l, sp);
		break;
	case TAP_FMT_LITERAL:
	case TAP_FMT_PERCENT:
		break;
	}
	return TAP_OK;
}

int
tap_fmt_apply(const struct tap_fmt *f, const struct tap_value *args,
	      unsigned int nargs, struct tap_buf *out,
	      const struct tap_fmt_env *env)
{
	long cap = out->cap > 0 ? (long)out->cap - 1 : 0;
	unsigned int i, next = 0;
	int rc = TAP_OK;

	if (f->render && nargs >= f->nargs)
		return f->render(out, args);

	for (i = 0; i < f->npieces && rc == TAP_OK; i++) {
		const struct tap_fmt_piece *pc = &f->pieces[i];
		struct spec sp;

		if (pc->conv == TAP_FMT_LITERAL) {
			tap_buf_putn(out, f->src + pc->off, pc->len);
			continue;
		}
		if (pc->conv == TAP_FMT_PERCENT) {
			tap_buf_putc(out, '%');
			continue;
		}
		/* The plain %d and %s most printfs are made of: no spec to
		 * resolve, no padding to work out (issue 18's printf cost). */
		if (pc->flags == 0 && pc->width == TAP_FMT_NONE &&
		    pc->precision == TAP_FMT_NONE &&
		    (pc->conv == TAP_FMT_SIGNED || pc->conv == TAP_FMT_STRING)) {
			if (next >= nargs) {
				rc = TAP_EINVAL;
				break;
			}
			if (pc->conv == TAP_FMT_SIGNED)
				tap_buf_put_s64(out, args[next++].l);
			else
				tap_buf_puts(out, args[next].s ? args[next].s
							       : "<NULL>"), next++;
			continue;
		}
		rc = resolve_spec(pc, args, nargs, &next, cap, &sp);
		if (rc == TAP_OK && next >= nargs)
			rc = TAP_EINVAL;
		if (rc == TAP_OK)
			rc = put_value(out, pc, &args[next++], &sp, env);
	}
	if (rc == TAP_OK)
		rc = tap_buf_status(out);
	return rc;
}

/* ---- print and friends ------------------------------------------------ */

void
tap_print_long(struct tap_buf *out, int64_t v)
{
	tap_buf_put_s64(out, v);
}

int
tap_print_values(struct tap_buf *out, const struct tap_value *args,
		 const enum tap_type *types, unsigned int n,
		 const char *delim, bool newline)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (i > 0 && delim)
			tap_buf_puts(out, delim);
		if (types[i] == TAP_T_STRING)
			tap_buf_puts(out, args[i].s ? args[i].s : "");
		else
			tap_print_long(out, args[i].l);
	}
	if (newline)
		tap_buf_putc(out, '\n');
	return tap_buf_status(out);
}
