/*
 * tapstring.c - the string tapset functions on MAXSTRINGLEN buffers.
 * Takes NUL-terminated inputs, writes bounded, NUL-terminated outputs;
 * never allocates and keeps no static state.  See tapstring.h.
 */
#include "tapstring.h"
#include "error.h"

#define TAP_STR_MAX	(MAXSTRINGLEN - 1)	/* payload bytes */

static size_t
bounded_len(const char *s)
{
	return tap_strnlen(s, TAP_STR_MAX);
}

void
tap_str_copy(char *dst, const char *src)
{
	size_t n = bounded_len(src);

	tap_memmove(dst, src, n);
	dst[n] = '\0';
}

void
tap_str_append(char *dst, const char *s)
{
	size_t have = tap_strnlen(dst, TAP_STR_MAX);
	size_t n = tap_strnlen(s, TAP_STR_MAX - have);

	tap_memmove(dst + have, s, n);
	dst[have + n] = '\0';
}

/* dst = a . b.  b is moved first, so dst may alias either input. */
void
tap_str_concat(char *dst, const char *a, const char *b)
{
	size_t la = bounded_len(a);
	size_t lb = tap_strnlen(b, TAP_STR_MAX - la);

	tap_memmove(dst + la, b, lb);
	tap_memmove(dst, a, la);
	dst[la + lb] = '\0';
}

int64_t
tap_str_len(const char *s)
{
	return (int64_t)tap_strlen(s);
}

/* Does s begin with prefix?  Stops at s's end, never reading past it. */
static bool
starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

/* Offset of needle in haystack, or -1.  An empty needle is at 0. */
static int64_t
find(const char *haystack, const char *needle)
{
	const char *p;

	for (p = haystack; ; p++) {
		if (starts_with(p, needle))
			return p - haystack;
		if (!*p)
			return -1;
	}
}

bool
tap_str_isinstr(const char *haystack, const char *needle)
{
	return find(haystack, needle) >= 0;
}

int64_t
tap_str_pos(const char *haystack, const char *needle)
{
	return find(haystack, needle);
}

/* stringat(): the byte as a C char on x86 (signed), as stap returns it. */
int
tap_str_at(const char *s, int64_t pos, int64_t *out)
{
	*out = 0;
	if (pos < 0 || (uint64_t)pos >= tap_strlen(s))
		return TAP_EINVAL;
	*out = (signed char)s[pos];
	return TAP_OK;
}

int64_t
tap_str_isdigit(const char *s)
{
	return s[0] >= '0' && s[0] <= '9';
}

static int
digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

static bool
has_hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	       digit_value(s[2]) < 16;
}

/* Base 0 guesses 16 for 0x, 8 for a leading 0, else 10; wraps on
 * overflow; other bases outside 2..36 give 0. */
int64_t
tap_str_strtol(const char *s, int64_t base)
{
	bool neg = false;
	uint64_t v = 0;
	int d;

	if (*s == '-') {
		neg = true;
		s++;
	}
	if (base == 0) {
		if (has_hex_prefix(s))
			base = 16;
		else
			base = s[0] == '0' ? 8 : 10;
	}
	if (base < 2 || base > 36)
		return 0;
	if (base == 16 && has_hex_prefix(s))
		s += 2;
	while ((d = digit_value(*s)) < base) {
		v = v * (uint64_t)base + (uint64_t)d;
		s++;
	}
	return (int64_t)(neg ? 0 - v : v);
}

/* substr(): up to `length` bytes from `start`; "" when start is outside
 * the string or length is not positive. */
void
tap_str_substr(char *dst, const char *s, int64_t start, int64_t length)
{
	size_t len = tap_strlen(s), n;

	if (start < 0 || (uint64_t)start >= len || length <= 0) {
		dst[0] = '\0';
		return;
	}
	n = tap_strnlen(s + start, length < TAP_STR_MAX ?
				   (size_t)length : TAP_STR_MAX);
	tap_memmove(dst, s + start, n);
	dst[n] = '\0';
}

void
tap_str_replace(char *dst, const char *s, const char *search,
		const char *replace)
{
	size_t sl = tap_strlen(search);
	int64_t at;

	if (sl == 0) {
		tap_str_copy(dst, s);
		return;
	}
	dst[0] = '\0';
	while ((at = find(s, search)) >= 0) {
		size_t have = tap_strnlen(dst, TAP_STR_MAX);
		size_t n = (size_t)at < TAP_STR_MAX - have ?
			   (size_t)at : TAP_STR_MAX - have;

		tap_memcpy(dst + have, s, n);
		dst[have + n] = '\0';
		tap_str_append(dst, replace);
		s += at + sl;
	}
	tap_str_append(dst, s);
}

void
tap_str_toupper(char *dst, const char *s)
{
	size_t i, n = bounded_len(s);

	for (i = 0; i < n; i++)
		dst[i] = (s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i];
	dst[n] = '\0';
}

void
tap_str_tolower(char *dst, const char *s)
{
	size_t i, n = bounded_len(s);

	for (i = 0; i < n; i++)
		dst[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
	dst[n] = '\0';
}

void
tap_str_reverse(char *dst, const char *s)
{
	size_t i, n = bounded_len(s);

	for (i = 0; i < n; i++)
		dst[i] = s[n - 1 - i];
	dst[n] = '\0';
}

/* ---- text_str, text_strn, string_quoted -------------------------------- */

/* Decode one character: a well-formed 2..4 byte UTF-8 sequence gives its
 * code point, anything else its first byte.  Returns bytes consumed. */
static int
decode_utf8(const unsigned char *in, int avail, int32_t *c)
{
	unsigned char b = in[0];
	int n, i;
	int32_t v;

	*c = b;
	if ((b & 0xE0) == 0xC0 && avail >= 2)
		n = 2, v = b & 0x1F;
	else if ((b & 0xF0) == 0xE0 && avail >= 3)
		n = 3, v = b & 0x0F;
	else if ((b & 0xF8) == 0xF0 && avail >= 4)
		n = 4, v = b & 0x07;
	else
		return 1;
	for (i = 1; i < n; i++) {
		if ((in[i] & 0xC0) != 0x80)
			return 1;
		v = (v << 6) | (in[i] & 0x3F);
	}
	if ((v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF || v < 0x80 ||
	    (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
		return 1;
	*c = v;
	return n;
}

/* The escaped form of character c (from a sequence of n bytes). */
static int
escape_text(int32_t c, int n, char *out)
{
	static const char from[] = "\a\b\f\n\r\t\v\"\\";
	static const char to[] = "abfnrtv\"\\";
	static const char xd[] = "0123456789ABCDEF";
	int i, len;

	if (n > 1) {
		len = c <= 0xFFFF ? 6 : 10;
		out[0] = '\\';
		out[1] = c <= 0xFFFF ? 'u' : 'U';
		for (i = 2; i < len; i++)
			out[i] = xd[(c >> (4 * (len - 1 - i))) & 0xF];
		return len;
	}
	if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
		out[0] = (char)c;
		return 1;
	}
	out[0] = '\\';
	for (i = 0; from[i]; i++) {
		if (from[i] == c) {
			out[1] = to[i];
			return 2;
		}
	}
	out[1] = (char)('0' + ((c >> 6) & 3));
	out[2] = (char)('0' + ((c >> 3) & 7));
	out[3] = (char)('0' + (c & 7));
	return 4;
}

/* Escape s into dst within outlen bytes of payload.  Quoted output is
 * wrapped in double quotes and, when cut short, ends in "...". A cut that
 * would split an escape sequence drops the whole sequence.  A buffer's
 * inlen bytes are all escaped, NULs too; a string ends at its NUL. */
static void
text_escape(char *dst, const char *s, int inlen, int outlen, bool quoted,
	    bool buffer)
{
	const unsigned char *in = (const unsigned char *)s;
	char *out = dst, *esc = NULL, piece[10];
	int esc_len = 0, budget;
	int32_t c = 0;

	if (inlen <= 0 || inlen > TAP_STR_MAX)
		inlen = TAP_STR_MAX;
	if (outlen <= 0 || outlen > TAP_STR_MAX)
		outlen = TAP_STR_MAX;
	budget = outlen;
	if (quoted) {
		budget = (outlen > 5 ? outlen : 5) - 2;
		*out++ = '"';
	}
	while (inlen > 0) {
		int n = decode_utf8(in, inlen, &c), num;

		if ((c == 0 && !buffer) || budget <= 0)
			break;
		in += n;
		inlen -= n;
		num = escape_text(c, n, piece);
		if (!esc && num > 1 && budget - 3 < num) {
			esc = out;
			esc_len = num;
		}
		if (budget < num)
			break;
		tap_memcpy(out, piece, (size_t)num);
		out += num;
		budget -= num;
	}
	if (quoted) {
		if ((c || buffer) && inlen > 0) {
			char *cut = out - 3 + budget;

			out = (esc && esc < cut && cut < esc + esc_len) ?
			      esc : cut;
			tap_memcpy(out, "\"...", 4);
			out += 4;
		} else {
			*out++ = '"';
		}
	}
	*out = '\0';
}

void
tap_str_text(char *dst, const char *s)
{
	text_escape(dst, s, 0, 0, false, false);
}

void
tap_str_textn(char *dst, const char *s, int64_t len, bool quoted)
{
	int outlen = len < 0 ? 0 : len > MAXSTRINGLEN ? MAXSTRINGLEN : (int)len;

	text_escape(dst, s, 0, outlen, quoted, false);
}

void
tap_str_quoted(char *dst, const char *s)
{
	text_escape(dst, s, MAXSTRINGLEN, MAXSTRINGLEN, true, false);
}

void
tap_str_text_buf(char *dst, const char *buf, int64_t inlen, int64_t outlen)
{
	if (inlen <= 0 || inlen > TAP_STR_MAX)
		inlen = TAP_STR_MAX;
	if (outlen <= 0 || outlen > TAP_STR_MAX)
		outlen = TAP_STR_MAX;
	text_escape(dst, buf, (int)inlen, (int)outlen, true, true);
}

/* ---- tokenize ---------------------------------------------------------- */

static bool
is_delim(char c, const char *delim)
{
	for (; *delim; delim++)
		if (*delim == c)
			return true;
	return false;
}

/* The next non-empty token, splitting at any byte of delim (strsep-like:
 * runs of delimiters yield empty tokens, which are skipped). */
void
tap_str_tokenize(struct tap_tokenizer *t, char *dst, const char *input,
		 const char *delim)
{
	dst[0] = '\0';
	if (input[0]) {
		tap_str_copy(t->str, input);
		t->len = (int)tap_strlen(t->str);
		t->pos = 0;
	}
	while (t->pos >= 0 && t->pos <= t->len) {
		int start = t->pos, end = start;

		while (end < t->len && !is_delim(t->str[end], delim))
			end++;
		t->pos = end < t->len ? end + 1 : -1;
		if (end > start) {
			tap_memcpy(dst, t->str + start, (size_t)(end - start));
			dst[end - start] = '\0';
			return;
		}
	}
}
