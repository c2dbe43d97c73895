/*
 * match.h - what the last `=~` or `!~` of a probe handler found, for
 * matched(n), matched_str() and ngroups() (tapsets/regex.stp).
 *
 * Each platform's struct tap_context holds one struct tap_match, and
 * tap_context_enter() resets it: a handler sees only its own matches (a
 * function it calls shares them, as it shares the context).  The
 * matchers -- runtime/linux/regex.c on the kernel target, libc's regexec
 * on the user target (translator/codegen/codegen.c) -- write where the
 * whole match and each group are as offsets into their subject and call
 * tap_match_set(), which keeps the matched bytes: the subject is often a
 * local or a temporary that is gone by the time matched() reads it.
 * Group 0 is the whole match; ngroups counts it.
 * Must not: allocate (handlers run in atomic context).
 */
#ifndef TAP_CORE_MATCH_H
#define TAP_CORE_MATCH_H

#include "platform.h"

/* Groups a pattern may have when its matches are kept (the translator
 * refuses more: translator/codegen/codegen_expr.c). */
#define TAP_RE_MAX_GROUPS	32

enum tap_match_state {
	TAP_MATCH_NONE,		/* no =~ or !~ in this handler yet */
	TAP_MATCH_FAILED,	/* the last one found no match */
	TAP_MATCH_OK,
};

struct tap_match {
	int state;			/* enum tap_match_state */
	int ngroups;			/* 1 + the pattern's '(' count */
	/* Offsets into text; start -1: the group took no part in the
	 * match (an alternative not taken). */
	int start[TAP_RE_MAX_GROUPS + 1];
	int end[TAP_RE_MAX_GROUPS + 1];
	char text[MAXSTRINGLEN];	/* the whole match */
};

static inline void
tap_match_reset(struct tap_match *m)
{
	m->state = TAP_MATCH_NONE;
}

static inline void
tap_match_fail(struct tap_match *m, int ngroups)
{
	m->state = TAP_MATCH_FAILED;
	m->ngroups = ngroups;
}

/* A match of s: start[] and end[] are offsets into s for ngroups groups
 * (at most TAP_RE_MAX_GROUPS + 1); keeps the matched bytes, cut at
 * MAXSTRINGLEN - 1, with the offsets made relative to them. */
void tap_match_set(struct tap_match *m, const char *s, int ngroups);

/* Why m has no groups to give, as the end of a sentence ("no =~ or !~
 * has run in this probe yet"), or NULL when it has. */
const char *tap_match_problem(const struct tap_match *m);

/* Group n (0 <= n < m->ngroups of a TAP_MATCH_OK match) into dst, a
 * MAXSTRINGLEN buffer; "" for a group that took no part. */
void tap_match_group(const struct tap_match *m, int n, char *dst);

#endif /* TAP_CORE_MATCH_H */
