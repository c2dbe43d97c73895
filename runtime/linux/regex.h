/*
 * regex.h -- POSIX extended regular expressions for `=~` and `!~` on the
 * kernel target (the user target uses libc's <regex.h> with REG_EXTENDED |
 * REG_NOSUB; this answers the same yes/no question).
 *
 * The generated code declares one static tap_regex_t per literal pattern,
 * compiles it in tap_init_globals (process context, may sleep) and matches
 * it from handlers (any context: no allocation, no recursion, time linear
 * in the string).  Supported: literals, '.', bracket expressions with ranges
 * and [:class:], '^', '$', '(...)', '|', '*', '+', '?', '{m}', '{m,}',
 * '{m,n}', and '\' before any character for that character.
 * Must not: be matched before compile succeeded or after free.
 */
#ifndef TAP_LINUX_REGEX_H
#define TAP_LINUX_REGEX_H

#include <linux/types.h>

struct tap_re_inst;

typedef struct tap_regex {
	struct tap_re_inst *prog;	/* the NFA program, ends in MATCH */
	u8 (*sets)[32];			/* bracket expressions, 256-bit maps */
	int nprog;
	void __percpu *scratch;		/* per CPU: thread lists, marks */
} tap_regex_t;

int tap_regex_compile(tap_regex_t *re, const char *pattern);
int tap_regex_match(tap_regex_t *re, const char *s);
void tap_regex_free(tap_regex_t *re);

#endif /* TAP_LINUX_REGEX_H */
