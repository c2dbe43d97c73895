/*
 * codegen_builtin.c -- pass 3 for the functions generated inline when
 * elaboration binds no tapset function: exit(), error() and the string,
 * time and process builtins every script uses.
 *
 * Their signatures are pass 2's (sema/builtins.h), which binds a call to
 * one in n->u.call.builtin; here each has a C template, by its id, in
 * which $1..$4 are the arguments (already evaluated, in order, into
 * temporaries) and $d is the frame string a string result is written
 * to. A long builtin's template is an expression; a string builtin's is a
 * statement filling $d, or "=EXPR" when EXPR is a string that stays put
 * while the handler runs (no copy into the frame: execname() is on every
 * event's path, issue 18); a void one's is a statement. Only names of the
 * portable core and the platform interface (runtime.h) appear in
 * templates, so they work on both targets. Must not: grow builtins that
 * need the kernel; those belong in tapsets.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"

static const char *const templates[BUILTIN_COUNT] = {
	[BUILTIN_EXIT] = "tap_request_exit()",
	[BUILTIN_ERROR] = "tap_error(c, \"%s\", $1)",
	[BUILTIN_STRLEN] = "tap_str_len($1)",
	[BUILTIN_SUBSTR] = "tap_str_substr($d, $1, $2, $3)",
	[BUILTIN_ISINSTR] = "(int64_t)tap_str_isinstr($1, $2)",
	[BUILTIN_STR_REPLACE] = "tap_str_replace($d, $1, $2, $3)",
	[BUILTIN_TOUPPER] = "tap_str_toupper($d, $1)",
	[BUILTIN_TOLOWER] = "tap_str_tolower($d, $1)",
	[BUILTIN_TEXT_STR] = "tap_str_text($d, $1)",
	[BUILTIN_TEXT_STRN] = "tap_str_textn($d, $1, $2, $3)",
	[BUILTIN_STRING_QUOTED] = "tap_str_quoted($d, $1)",
	[BUILTIN_STRTOL] = "tap_str_strtol($1, $2)",
	[BUILTIN_ISDIGIT] = "tap_str_isdigit($1)",
	[BUILTIN_TOKENIZE] = "tap_str_tokenize(&c->tok, $d, $1, $2)",
	[BUILTIN_GETTIMEOFDAY_NS] = "tap_gettimeofday_ns()",
	[BUILTIN_GETTIMEOFDAY_US] = "(tap_gettimeofday_ns() / 1000)",
	[BUILTIN_GETTIMEOFDAY_MS] = "(tap_gettimeofday_ns() / 1000000)",
	[BUILTIN_GETTIMEOFDAY_S] = "(tap_gettimeofday_ns() / 1000000000)",
	[BUILTIN_PID] = "tap_pid()",
	[BUILTIN_TID] = "tap_tid()",
	[BUILTIN_EXECNAME] = "=tap_execname()",
	[BUILTIN_TARGET] = "((int64_t)tap_target_pid)",
	[BUILTIN_CPU] = "((int64_t)tap_cpu_id())",
	[BUILTIN_PP] = "tap_str_copy($d, c->probe->point)",
	/* the script's point (the alias it named); records without one:
	 * the point itself */
	[BUILTIN_PN] = "tap_str_copy($d, c->probe->script_point ? c->probe->script_point : c->probe->point)",
};

const char *
cg_builtin_template(enum builtin_id id)
{
	return (int)id >= 0 && id < BUILTIN_COUNT ? templates[id] : NULL;
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
cg_builtin_call(struct cg *g, struct node *n)
{
	const struct builtin *b = n->u.call.builtin;
	const char *t = cg_builtin_template(b->id);
	const char *args[BUILTIN_MAX_PARAMS] = { 0 }, *dst = NULL, *body;
	char *decl = "";
	int i;

	if (!t) {
		cg_unsupported(g, n, "a builtin with no C template");
		return "((int64_t)0)";
	}
	if (n->u.call.args.n != b->nparams) {
		cg_unsupported(g, n, "a builtin called with the wrong number of arguments");
		return "((int64_t)0)";
	}
	for (i = 0; i < b->nparams; i++) {
		struct node *a = n->u.call.args.v[i];

		args[i] = cg_fmt(g, "__t%d", g->label_seq++);
		decl = cg_fmt(g, "%s%s %s = %s; ", decl,
			      b->params[i] == TY_STRING ? "const char *"
							: "int64_t",
			      args[i], cg_expr(g, a));
	}
	if (b->ret == TY_STRING && t[0] == '=')
		return cg_fmt(g, "({ %s(const char *)%s; })", decl,
			      cg_expand(g, t + 1, args, NULL));
	if (b->ret == TY_STRING)
		dst = cg_str_temp(g);
	body = cg_expand(g, t, args, dst);
	if (b->id == BUILTIN_ERROR)
		return cg_fmt(g, "({ %s%s; goto %s; (int64_t)0; })", decl,
			      body, g->err_label);
	if (b->ret == TY_STRING)
		return cg_fmt(g, "({ %s%s; (const char *)%s; })", decl, body,
			      dst);
	if (b->ret == TY_LONG)
		return cg_fmt(g, "({ %s(int64_t)%s; })", decl, body);
	return cg_fmt(g, "({ %s%s; (int64_t)0; })", decl, body);
}
