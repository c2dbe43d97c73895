/*
 * strlit.c -- unescaping string literals (strlit.h).
 */
#include "translator/parse/strlit.h"

#include <string.h>

static int
hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* One escape after the backslash at *pp; returns the byte. */
static int
escape_value(const char **pp)
{
	const char *p = *pp;
	int v = 0, i;

	switch (*p) {
	case 'n': v = '\n'; break;
	case 't': v = '\t'; break;
	case 'r': v = '\r'; break;
	case 'a': v = '\a'; break;
	case 'b': v = '\b'; break;
	case 'f': v = '\f'; break;
	case 'v': v = '\v'; break;
	case 'x':
		for (i = 0; i < 2 && hex_digit(p[1]) >= 0; i++)
			v = v * 16 + hex_digit(*++p);
		break;
	default:
		if (*p >= '0' && *p <= '7') {
			v = *p - '0';
			for (i = 1; i < 3 && p[1] >= '0' && p[1] <= '7'; i++)
				v = v * 8 + (*++p - '0');
		} else {
			v = (unsigned char)*p;	/* \\ \" \' and the rest */
		}
	}
	*pp = p;
	return v & 0xff;
}

const char *
strlit_unescape(struct arena *a, const char *raw, size_t *len)
{
	char *out = arena_alloc(a, strlen(raw) + 1);
	size_t n = 0;

	for (const char *p = raw; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			out[n++] = (char)escape_value(&p);
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}
