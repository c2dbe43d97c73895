/*
 * parse.c -- pass 1's driver: sources in, syntax trees out.
 *
 * It loads sources, runs the grammar over the preprocessor's tokens,
 * reports syntax errors with what was expected (and which '{' is still
 * open), and after the parse checks what depends on context: 'return'
 * only in functions, 'break'/'continue' only in loops, histograms only
 * where they can be printed, indexed or iterated.
 */
#include "translator/parse/parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/grammar.h"
#include "translator/parse/parse_build.h"
#include "translator/parse/preproc.h"
#include "translator/parse/tapset.h"

int yyparse(struct parser *p);

struct source *
source_from_text(struct session *s, const char *name, const char *text,
		 size_t len)
{
	struct source *src = arena_alloc(s->arena, sizeof(*src));

	src->name = name;
	src->text = arena_strndup(s->arena, text, len);
	src->len = len;
	return src;
}

struct source *
source_from_file(struct session *s, const char *path, bool is_tapset)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		diag_fatal_noloc(&s->diag, "cannot open '%s': %s", path,
				 strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				diag_fatal_noloc(&s->diag, "out of memory reading '%s'", path);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (f != stdin)
		fclose(f);
	struct source *src = source_from_text(
		s, strcmp(path, "-") == 0 ? "<stdin>" : arena_strdup(s->arena, path),
		buf ? buf : "", len);
	src->is_tapset = is_tapset;
	free(buf);
	return src;
}

void
parser_saw_token(struct parser *p, const struct token *t)
{
	if (t->kind == '{') {
		p->braces = arena_grow(p->s->arena, p->braces,
				       sizeof(*p->braces), &p->cap_braces,
				       p->nbraces + 1);
		p->braces[p->nbraces++] = t->loc;
	} else if (t->kind == '}' && p->nbraces > 0) {
		p->nbraces--;
	}
}

void
parser_syntax_error(struct parser *p, struct loc at, const char *got,
		    bool at_end, const char **expected, int nexpected)
{
	struct diag *d = &p->s->diag;
	char list[512] = "";
	bool want_brace = false;

	for (int i = 0; i < nexpected; i++) {
		if (strcmp(expected[i], "'}'") == 0)
			want_brace = true;
		if (i > 0)
			strcat(list, i == nexpected - 1 ? " or " : ", ");
		if (strlen(list) + strlen(expected[i]) + 8 < sizeof(list))
			strcat(list, expected[i]);
	}
	if (at_end && p->nbraces > 0) {
		diag_error(d, at, "E_SYNTAX",
			   "unexpected end of input: expected '}' (to close '{' at line %d)",
			   p->braces[p->nbraces - 1].line);
		diag_note(d, p->braces[p->nbraces - 1], "'{' opened here");
		return;
	}
	if (nexpected > 0 && nexpected < 6)
		diag_error(d, at, "E_SYNTAX", "unexpected %s: expected %s", got,
			   list);
	else
		diag_error(d, at, "E_SYNTAX", "unexpected %s", got);
	if (want_brace && p->nbraces > 0 && nexpected == 1)
		diag_note(d, p->braces[p->nbraces - 1],
			  "to close this '{'");
}

void
yyerror(struct loc *loc, struct parser *p, const char *msg)
{
	diag_error(&p->s->diag, *loc, "E_SYNTAX", "%s", msg);
}

void
parser_allow_hist(struct parser *p, struct node *hist)
{
	p->hist_ok = arena_grow(p->s->arena, p->hist_ok, sizeof(*p->hist_ok),
				&p->cap_hist_ok, p->nhist_ok + 1);
	p->hist_ok[p->nhist_ok++] = hist;
}

bool
parser_hist_allowed(const struct parser *p, const struct node *hist)
{
	for (int i = 0; i < p->nhist_ok; i++)
		if (p->hist_ok[i] == hist)
			return true;
	return false;
}

/* ---- context checks after the parse ---- */

struct context_check {
	struct parser *p;
	bool in_function;
	int loops;
};

static void check_stmt(struct context_check *cc, struct node *n);

static bool
check_expr_pre(struct node *n, void *ctx)
{
	struct context_check *cc = ctx;

	if (n->kind == N_HIST && !parser_hist_allowed(cc->p, n))
		diag_error(&cc->p->s->diag, n->loc, "E_HIST_VALUE",
			   "a histogram can only be printed, indexed or iterated here");
	return true;
}

static void
check_expr(struct context_check *cc, struct node *n)
{
	ast_walk(n, check_expr_pre, NULL, cc);
}

static void
check_loop_body(struct context_check *cc, struct node *body)
{
	cc->loops++;
	check_stmt(cc, body);
	cc->loops--;
}

static void
check_stmt(struct context_check *cc, struct node *n)
{
	struct diag *d = &cc->p->s->diag;

	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->u.block.stmts.n; i++)
			check_stmt(cc, n->u.block.stmts.v[i]);
		return;
	case N_IF:
		check_expr(cc, n->u.if_stmt.cond);
		check_stmt(cc, n->u.if_stmt.then_stmt);
		check_stmt(cc, n->u.if_stmt.else_stmt);
		return;
	case N_WHILE:
		check_expr(cc, n->u.while_stmt.cond);
		check_loop_body(cc, n->u.while_stmt.body);
		return;
	case N_FOR:
		check_expr(cc, n->u.for_stmt.init);
		check_expr(cc, n->u.for_stmt.cond);
		check_expr(cc, n->u.for_stmt.step);
		check_loop_body(cc, n->u.for_stmt.body);
		return;
	case N_FOREACH:
		check_expr(cc, n->u.foreach.array);
		check_expr(cc, n->u.foreach.limit);
		check_loop_body(cc, n->u.foreach.body);
		return;
	case N_TRY:
		check_stmt(cc, n->u.try_stmt.body);
		check_stmt(cc, n->u.try_stmt.handler);
		return;
	case N_BREAK:
	case N_CONTINUE:
		if (cc->loops == 0)
			diag_error(d, n->loc, "E_LOOP_CONTEXT",
				   "'%s' outside a loop",
				   n->kind == N_BREAK ? "break" : "continue");
		return;
	case N_RETURN:
		if (!cc->in_function) {
			diag_error(d, n->loc, "E_RETURN_CONTEXT",
				   "'return' outside a function");
			diag_hint(d, "use 'next' to leave a probe handler early");
		}
		check_expr(cc, n->u.ret.value);
		return;
	default:
		check_expr(cc, n);
		return;
	}
}

static void
check_item(struct parser *p, struct node *item)
{
	struct context_check cc = { p, false, 0 };

	switch (item->kind) {
	case N_PROBE:
		check_stmt(&cc, item->u.probe.body);
		for (int i = 0; i < item->u.probe.points.n; i++)
			check_expr(&cc, item->u.probe.points.v[i]);
		return;
	case N_ALIAS:
		check_stmt(&cc, item->u.alias.body);
		return;
	case N_FUNCTION:
		cc.in_function = true;
		check_stmt(&cc, item->u.function.body);
		return;
	default:
		return;
	}
}

struct file_ast *
parse_source_with(struct session *s, const struct source *src,
		  struct macro_table *macros, bool export_macros)
{
	struct parser p = { 0 };
	struct file_ast *f = arena_alloc(s->arena, sizeof(*f));

	f->src = src;
	p.s = s;
	p.file = f;
	p.embedded_ok = src->is_tapset || s->opts.guru;
	p.pre = preproc_new(s, src, macros, export_macros);
	yyparse(&p);
	preproc_free(p.pre);
	for (int i = 0; i < f->items.n; i++)
		check_item(&p, f->items.v[i]);
	if (f->items.n == 0 && !src->is_tapset && s->diag.errors == 0)
		diag_error(&s->diag, (struct loc){ src, 1, 1 }, "E_EMPTY_SCRIPT",
			   "the script has no probes, functions or globals");
	return f;
}

struct file_ast *
parse_source(struct session *s, const struct source *src)
{
	return parse_source_with(s, src, NULL, false);
}

bool
pass_parse(struct session *s)
{
	const struct source *src;

	if (s->opts.script_text)
		src = source_from_text(s, "<input>", s->opts.script_text,
				       strlen(s->opts.script_text));
	else
		src = source_from_file(s, s->opts.script_file, false);
	if (!src)
		return false;
	/* The library's macros (@choose_defined, ...) are usable in any
	 * script, so they are read before it. */
	if (!tapset_load_macros(s))
		return false;
	s->user_file = parse_source_with(s, src, s->macros, false);
	/* The whole library is parsed in pass 1, as SystemTap does, so a
	 * broken tapset is reported whatever pass the user stops at. */
	if (!tapset_load_library(s))
		return false;
	if (s->opts.script_file && tapset_is_library_file(s, s->opts.script_file)) {
		diag_fatal_noloc(&s->diag,
				 "'%s' is a file of the tapset library; it cannot be run as a script",
				 s->opts.script_file);
		return false;
	}
	return s->diag.errors == 0;
}
