/*
 * builtins.h -- the functions no tapset defines, which pass 3 writes
 * inline: exit(), error(), and the string, time and process intrinsics
 * every script uses.  This is their signature table.
 *
 * Pass 2 binds a call to one (when no script or library function of that
 * name and arity exists: those win) by setting node->u.call.builtin, and
 * types the call from the entry; pass 3 emits its C keyed by the entry's
 * id (codegen_builtin.c); --dump-functions lists them.
 * Every builtin may be called at every --privilege level (privilege.c
 * does not look at them): each reads only the current task's identity,
 * the clock or the script's own values, as SystemTap lets unprivileged
 * users do.
 * Must not: hold C or anything else about a backend (that is pass 3's);
 * grow builtins that need the kernel or read another task's data (those
 * belong in tapsets, where privilege.c sees their mark).
 */
#ifndef TAPC_SEMA_BUILTINS_H
#define TAPC_SEMA_BUILTINS_H

#include "translator/parse/ast.h"

#define BUILTIN_MAX_PARAMS 4

/* One per row of the table, in its order; pass 3 has one C template
 * per id. */
enum builtin_id {
	BUILTIN_EXIT, BUILTIN_ERROR,
	BUILTIN_STRLEN, BUILTIN_SUBSTR, BUILTIN_ISINSTR, BUILTIN_STR_REPLACE,
	BUILTIN_TOUPPER, BUILTIN_TOLOWER, BUILTIN_TEXT_STR, BUILTIN_TEXT_STRN,
	BUILTIN_STRING_QUOTED, BUILTIN_STRTOL, BUILTIN_ISDIGIT,
	BUILTIN_TOKENIZE,
	BUILTIN_GETTIMEOFDAY_NS, BUILTIN_GETTIMEOFDAY_US,
	BUILTIN_GETTIMEOFDAY_MS, BUILTIN_GETTIMEOFDAY_S,
	BUILTIN_PID, BUILTIN_TID, BUILTIN_EXECNAME, BUILTIN_TARGET,
	BUILTIN_CPU, BUILTIN_PP, BUILTIN_PN,
	BUILTIN_COUNT
};

struct builtin {
	enum builtin_id id;
	const char *name;
	enum type ret;		/* TY_LONG, TY_STRING or TY_VOID */
	int nparams;
	enum type params[BUILTIN_MAX_PARAMS];
};

/* The builtin called `name`, or NULL; the caller checks the arity. */
const struct builtin *builtin_lookup(const char *name);

/* The i-th builtin (from 0), NULL past the last: for --dump-functions. */
const struct builtin *builtin_at(int i);

#endif /* TAPC_SEMA_BUILTINS_H */
