/*
 * codegen_builtin.c -- pass 3 for the functions generated inline when
 * elaboration binds no tapset function: exit(), error() and the string,
 * time and process builtins every script uses.
 *
 * Each builtin is a row: name, types, and a C template in which $1..$4 are
 * the arguments (already evaluated, in order, into temporaries) and $d is
 * the frame string a string result is written to. A long builtin's
 * template is an expression; a string builtin's is a statement filling
 * $d; a void one's is a statement. Only names of the portable core and the
 * platform interface (runtime.h) appear in templates, so they work on both
 * targets. Must not: grow builtins that need the kernel; those belong in
 * tapsets.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"

#define L TY_LONG
#define S TY_STRING
#define V TY_VOID

static const struct cg_builtin builtins[] = {
	{ "exit", V, 0, { 0 }, "tap_request_exit()" },
	{ "error", V, 1, { S }, "tap_error(c, \"%s\", $1)" },
	{ "strlen", L, 1, { S }, "tap_str_len($1)" },
	{ "substr", S, 3, { S, L, L }, "tap_str_substr($d, $1, $2, $3)" },
	{ "isinstr", L, 2, { S, S }, "(int64_t)tap_str_isinstr($1, $2)" },
	{ "str_replace", S, 3, { S, S, S },
	  "tap_str_replace($d, $1, $2, $3)" },
	{ "toupper", S, 1, { S }, "tap_str_toupper($d, $1)" },
	{ "tolower", S, 1, { S }, "tap_str_tolower($d, $1)" },
	{ "text_str", S, 1, { S }, "tap_str_text($d, $1)" },
	{ "text_strn", S, 3, { S, L, L }, "tap_str_textn($d, $1, $2, $3)" },
	{ "string_quoted", S, 1, { S }, "tap_str_quoted($d, $1)" },
	{ "strtol", L, 2, { S, L }, "tap_str_strtol($1, $2)" },
	{ "isdigit", L, 1, { S }, "tap_str_isdigit($1)" },
	{ "tokenize", S, 2, { S, S }, "tap_str_tokenize(&c->tok, $d, $1, $2)" },
	{ "gettimeofday_ns", L, 0, { 0 }, "tap_gettimeofday_ns()" },
	{ "gettimeofday_us", L, 0, { 0 }, "(tap_gettimeofday_ns() / 1000)" },
	{ "gettimeofday_ms", L, 0, { 0 }, "(tap_gettimeofday_ns() / 1000000)" },
	{ "gettimeofday_s", L, 0, { 0 }, "(tap_gettimeofday_ns() / 1000000000)" },
	{ "pid", L, 0, { 0 }, "tap_pid()" },
	{ "tid", L, 0, { 0 }, "tap_tid()" },
	{ "execname", S, 0, { 0 }, "tap_str_copy($d, tap_execname())" },
	{ "target", L, 0, { 0 }, "((int64_t)tap_target_pid)" },
	{ "cpu", L, 0, { 0 }, "((int64_t)tap_cpu_id())" },
	{ "pp", S, 0, { 0 }, "tap_str_copy($d, c->probe->point)" },
	{ NULL, V, 0, { 0 }, NULL },
};

const struct cg_builtin *
cg_builtin_lookup(const char *name)
{
	int i;

	for (i = 0; builtins[i].name; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

const struct cg_builtin *
cg_builtin_at(int i)
{
	int n = (int)(sizeof(builtins) / sizeof(builtins[0])) - 1;

	return i >= 0 && i < n ? &builtins[i] : NULL;
}

/* Expand $1..$4 and $d in the template. */
static const char *
cg_expand(struct cg *g, const char *t, const char **args, const char *dst)
{
	char *out = "";
	const char *p;

	for (p = t; *p; p++) {
		if (p[0] == '$' && p[1] >= '1' && p[1] <= '4') {
			out = cg_fmt(g, "%s%s", out, args[p[1] - '1']);
			p++;
		} else if (p[0] == '$' && p[1] == 'd') {
			out = cg_fmt(g, "%s%s", out, dst ? dst : "NULL");
			p++;
		} else {
			out = cg_fmt(g, "%s%c", out, *p);
		}
	}
	return out;
}

const char *
cg_builtin_call(struct cg *g, struct node *n, const struct cg_builtin *b)
{
	const char *args[4] = { 0 }, *dst = NULL, *body;
	char *decl = "";
	int i;

	if (n->u.call.args.n != b->nparams) {
		cg_unsupported(g, n, "a builtin called with the wrong number of arguments");
		return "((int64_t)0)";
	}
	for (i = 0; i < b->nparams; i++) {
		struct node *a = n->u.call.args.v[i];

		args[i] = cg_fmt(g, "__t%d", g->label_seq++);
		decl = cg_fmt(g, "%s%s %s = %s; ", decl, b->params[i] == S ?
			      "const char *" : "int64_t", args[i],
			      cg_expr(g, a));
	}
	if (b->ret == S)
		dst = cg_str_temp(g);
	body = cg_expand(g, b->c, args, dst);
	if (strcmp(b->name, "error") == 0)
		return cg_fmt(g, "({ %s%s; goto %s; (int64_t)0; })", decl,
			      body, g->err_label);
	if (b->ret == S)
		return cg_fmt(g, "({ %s%s; (const char *)%s; })", decl, body,
			      dst);
	if (b->ret == L)
		return cg_fmt(g, "({ %s(int64_t)%s; })", decl, body);
	return cg_fmt(g, "({ %s%s; (int64_t)0; })", decl, body);
}
