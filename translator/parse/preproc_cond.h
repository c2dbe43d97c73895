/*
 * preproc_cond.h -- evaluating the condition of %( COND %? ... %).
 *
 * A condition is a small expression over the kernel facts: kernel_v,
 * kernel_vr, arch, runtime, systemtap_v, systemtap_privilege, guru_mode,
 * CONFIG_*, $# and @#, compared with literals, joined with && and ||, in
 * parentheses. Equality against a string is a glob match; ordering of
 * versions compares them as versions ("2.6.9" < "2.6.10").
 */
#ifndef TAPC_PARSE_PREPROC_COND_H
#define TAPC_PARSE_PREPROC_COND_H

#include "translator/parse/lex.h"
#include "translator/driver/session.h"

struct preproc_cond_env {
	struct session *s;
	int nargs;
};

/* 1 true, 0 false, -1 error (reported). */
int preproc_cond_eval(struct preproc_cond_env *env, struct loc open,
		      const struct token *toks, int n);

#endif
