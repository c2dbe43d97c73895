/*
 * builtins.c -- the signatures of the functions pass 3 writes inline
 * (builtins.h): name, result and parameter types, one row each, in
 * enum builtin_id's order.
 *
 * Takes: a name.  Produces: its row.  Must not: say anything about the C
 * a builtin becomes (codegen/codegen_builtin.c does, by id).
 */
#include "translator/sema/builtins.h"

#include <string.h>

#define L TY_LONG
#define S TY_STRING
#define V TY_VOID
/* Row `id` at index id, whatever the order of the lines. */
#define ROW(id, name, ret, n, ...) [id] = { id, name, ret, n, { __VA_ARGS__ } }

static const struct builtin builtins[BUILTIN_COUNT] = {
	ROW(BUILTIN_EXIT, "exit", V, 0, 0),
	ROW(BUILTIN_ERROR, "error", V, 1, S),
	ROW(BUILTIN_STRLEN, "strlen", L, 1, S),
	ROW(BUILTIN_SUBSTR, "substr", S, 3, S, L, L),
	ROW(BUILTIN_ISINSTR, "isinstr", L, 2, S, S),
	ROW(BUILTIN_STR_REPLACE, "str_replace", S, 3, S, S, S),
	ROW(BUILTIN_TOUPPER, "toupper", S, 1, S),
	ROW(BUILTIN_TOLOWER, "tolower", S, 1, S),
	ROW(BUILTIN_TEXT_STR, "text_str", S, 1, S),
	ROW(BUILTIN_TEXT_STRN, "text_strn", S, 3, S, L, L),
	ROW(BUILTIN_STRING_QUOTED, "string_quoted", S, 1, S),
	ROW(BUILTIN_STRTOL, "strtol", L, 2, S, L),
	ROW(BUILTIN_ISDIGIT, "isdigit", L, 1, S),
	ROW(BUILTIN_TOKENIZE, "tokenize", S, 2, S, S),
	ROW(BUILTIN_GETTIMEOFDAY_NS, "gettimeofday_ns", L, 0, 0),
	ROW(BUILTIN_GETTIMEOFDAY_US, "gettimeofday_us", L, 0, 0),
	ROW(BUILTIN_GETTIMEOFDAY_MS, "gettimeofday_ms", L, 0, 0),
	ROW(BUILTIN_GETTIMEOFDAY_S, "gettimeofday_s", L, 0, 0),
	ROW(BUILTIN_PID, "pid", L, 0, 0),
	ROW(BUILTIN_TID, "tid", L, 0, 0),
	ROW(BUILTIN_EXECNAME, "execname", S, 0, 0),
	ROW(BUILTIN_TARGET, "target", L, 0, 0),
	ROW(BUILTIN_CPU, "cpu", L, 0, 0),
	ROW(BUILTIN_PP, "pp", S, 0, 0),
	ROW(BUILTIN_PN, "pn", S, 0, 0),
};

const struct builtin *
builtin_lookup(const char *name)
{
	for (int i = 0; i < BUILTIN_COUNT; i++)
		if (builtins[i].name && strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

const struct builtin *
builtin_at(int i)
{
	return i >= 0 && i < BUILTIN_COUNT && builtins[i].name ? &builtins[i]
						       : NULL;
}
