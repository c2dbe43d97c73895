/*
 * regex.h -- POSIX extended regular expressions for `=~` and `!~` on the
 * kernel target (the user target uses libc's <regex.h> behind the same
 * names: translator/codegen/codegen.c's cg_regex_prelude).
 *
 * The generated code declares one static tap_regex_t per literal pattern,
 * compiles it in tap_init_globals (process context, may sleep) and matches
 * it from handlers (any context: no allocation, no recursion, time linear
 * in the string times the program).  Supported: literals, '.', bracket
 * expressions with ranges and [:class:], '^', '$', '(...)', '|', '*', '+',
 * '?', '{m}', '{m,}', '{m,n}', and '\' before any character for that
 * character.
 *
 * A pattern compiled with TAP_RE_SUBMATCH also says where the match and
 * each parenthesized subexpression are (matched(), ngroups(): tapsets/
 * regex.stp), into a struct tap_match (runtime/core/match.h); without it
 * a match only says yes or no, which is cheaper (regex.c says how).
 * Must not: be matched before compile succeeded or after free.
 */
#ifndef TAP_LINUX_REGEX_H
#define TAP_LINUX_REGEX_H

#ifdef __KERNEL__
#include <linux/types.h>
#else	/* the unit tests build regex.c in user space */
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
#endif

#define TAP_RE_SUBMATCH		1	/* tap_regex_compile(): keep groups */

struct tap_re_inst;
struct tap_match;

typedef struct tap_regex {
	struct tap_re_inst *prog;	/* the NFA program, ends in MATCH */
	u8 (*sets)[32];			/* bracket expressions, 256-bit maps */
	int nprog;
	int ngroups;			/* '(' in the pattern */
	int nslots;			/* a thread's: 2 * (ngroups + 1) and
					 * one per bounded repetition */
	int nthreads;			/* instructions a thread can wait on */
	int flags;			/* TAP_RE_SUBMATCH or 0 */
	void **scratch;			/* one block per CPU: thread lists,
					 * marks, capture slots */
	int nscratch;
} tap_regex_t;

/* 0, or -EINVAL (a bad pattern), -E2BIG (past a limit), -ENOMEM. */
int tap_regex_compile(tap_regex_t *re, const char *pattern, int flags);
/* 1 when s matches, else 0.  With m (re compiled with TAP_RE_SUBMATCH)
 * the outcome goes into m too: the leftmost-longest match and its
 * groups, or that it failed. */
int tap_regex_match(tap_regex_t *re, const char *s, struct tap_match *m);
void tap_regex_free(tap_regex_t *re);

#endif /* TAP_LINUX_REGEX_H */
