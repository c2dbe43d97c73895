/*
 * tapstring.h - script string operations on MAXSTRINGLEN buffers.
 *
 * Script strings live in fixed char[MAXSTRINGLEN] buffers (locals in the
 * per-CPU context, map entries).  Every function here writes at most
 * MAXSTRINGLEN bytes including the NUL, truncating silently as SystemTap
 * does, and tolerates its destination aliasing a source where noted.  No
 * function allocates or keeps state of its own: tokenize()'s position
 * lives in a caller-provided struct tap_tokenizer (one per context), not
 * in a static.
 *
 * Semantics are SystemTap's tapset functions': substr() clamps, stringat()
 * and friends report a bad position as TAP_EINVAL (stap's "Position out of
 * bounds"), strtol() parses like the kernel's simple_strtol (optional '-',
 * base 0 guesses from a 0 or 0x prefix, stops at the first bad digit),
 * text_str() escapes unprintable bytes and decodes UTF-8 to \uXXXX.
 */
#ifndef TAP_CORE_TAPSTRING_H
#define TAP_CORE_TAPSTRING_H

#include "platform.h"
#include "error.h"

struct tap_tokenizer {
	char str[MAXSTRINGLEN];
	int pos;		/* next token starts here; -1: exhausted */
	int len;
};

/* Copying and joining (dst may be a or b). */
void tap_str_copy(char *dst, const char *src);
void tap_str_concat(char *dst, const char *a, const char *b);
void tap_str_append(char *dst, const char *s);

/* Queries. */
int64_t tap_str_len(const char *s);
bool tap_str_isinstr(const char *haystack, const char *needle);
int64_t tap_str_pos(const char *haystack, const char *needle);
int tap_str_at(const char *s, int64_t pos, int64_t *out);
int64_t tap_str_isdigit(const char *s);
int64_t tap_str_strtol(const char *s, int64_t base);

/* Producing a new string into dst.  substr, toupper and tolower may work
 * in place (dst == s); the others need a dst distinct from their inputs. */
void tap_str_substr(char *dst, const char *s, int64_t start,
		    int64_t length);
void tap_str_replace(char *dst, const char *s, const char *search,
		     const char *replace);
void tap_str_toupper(char *dst, const char *s);
void tap_str_tolower(char *dst, const char *s);
void tap_str_reverse(char *dst, const char *s);
void tap_str_text(char *dst, const char *s);
void tap_str_textn(char *dst, const char *s, int64_t len, bool quoted);
void tap_str_quoted(char *dst, const char *s);
/* inlen bytes of buf (NULs too) quoted and escaped, in at most outlen
 * bytes with "..." when cut; 0 or out of range is MAXSTRINGLEN - 1. */
void tap_str_text_buf(char *dst, const char *buf, int64_t inlen,
		      int64_t outlen);

/* tokenize(input, delim): a non-empty input starts over. */
void tap_str_tokenize(struct tap_tokenizer *t, char *dst,
		      const char *input, const char *delim);

#endif /* TAP_CORE_TAPSTRING_H */
