/*
 * preproc.c -- conditionals, macros and command-line arguments, on tokens.
 *
 * Tokens come from a stack of frames: the file's lexer at the bottom, and
 * above it the token lists being expanded (a macro body, a macro argument,
 * a $N argument). Conditionals are resolved as they are met; a branch not
 * taken is skipped token by token, counting nested %( %). Each frame keeps
 * the bindings of the macro it expands, so `@param` finds its argument.
 * This file does not evaluate conditions itself: see preproc_cond.c.
 */
#include "translator/parse/preproc.h"

#include <stdlib.h>
#include <string.h>

#include "translator/common/arena.h"
#include "translator/parse/grammar.h"
#include "translator/parse/parse.h"
#include "translator/parse/preproc_cond.h"

#define PP_MAX_DEPTH 200
/* Tokens all macro expansions of one file may produce: a macro that uses
 * another twice, nested, grows exponentially long before any depth limit
 * is reached. */
#define PP_MAX_EXPANDED 500000

struct macro {
	const char *name;	/* without the '@' */
	const char **params;
	int nparams;
	bool has_parens;
	struct token *body;
	int nbody;
	struct loc loc;
	struct macro *next;
};

struct macro_table {
	struct macro *head;
};

struct binding {
	const char *name;	/* parameter name, with the '@' */
	struct token *toks;
	int n;
	const struct bindings *context;	/* where the tokens were written */
};

struct bindings {
	struct binding *v;
	int n;
};

struct frame {
	struct lexer *lx;		/* or NULL for a token list */
	struct token *toks;
	int n, pos;
	const struct bindings *bindings;/* @param substitutions in force */
	const struct macro *macro;	/* being expanded, for recursion */
	int cond_base;			/* conditional depth at entry */
	struct frame *below;
};

enum cond_state { COND_THEN, COND_ELSE };

struct preproc {
	struct session *s;
	struct macro_table local;
	struct macro_table *shared;
	bool export_macros;
	struct frame *top;
	int depth;
	enum cond_state *conds;
	int nconds, cap_conds;
	struct loc *cond_locs;
	int cap_cond_locs;
	bool *cond_version;		/* its condition tests systemtap_v */
	int cap_cond_version;
	long expanded;			/* tokens pushed by expansions */
	bool expansion_failed;		/* stop expanding after an error */
};

struct macro_table *
preproc_macro_table_new(struct session *s)
{
	return arena_alloc(s->arena, sizeof(struct macro_table));
}

static void
push_frame(struct preproc *pre, struct frame *f)
{
	pre->expanded += f->n;
	f->below = pre->top;
	f->cond_base = pre->nconds;
	pre->top = f;
	pre->depth++;
}

struct preproc *
preproc_new(struct session *s, const struct source *src,
	    struct macro_table *shared, bool export_macros)
{
	struct preproc *pre = arena_alloc(s->arena, sizeof(*pre));
	struct frame *f = arena_alloc(s->arena, sizeof(*f));

	pre->s = s;
	pre->shared = shared;
	pre->export_macros = export_macros;
	f->lx = lexer_new(s, src);
	push_frame(pre, f);
	return pre;
}

void
preproc_free(struct preproc *pre)
{
	for (struct frame *f = pre->top; f; f = f->below)
		if (f->lx)
			lexer_free(f->lx);
}

static void
preproc_error(struct preproc *pre, struct loc at, const char *id,
	      const char *msg)
{
	diag_error(&pre->s->diag, at, id, "%s", msg);
}

/* Close a frame: conditionals opened in it and not closed are errors. */
static void
pop_frame(struct preproc *pre, struct loc at)
{
	struct frame *f = pre->top;

	while (pre->nconds > f->cond_base) {
		pre->nconds--;
		diag_error(&pre->s->diag, pre->cond_locs[pre->nconds],
			   "E_PP_UNTERMINATED",
			   "preprocessor conditional '%%(' is not closed by '%%)'");
		(void)at;
	}
	pre->top = f->below;
	pre->depth--;
}

/* The next token of the top frame, or kind 0 at its end (not popped). */
static void
frame_next(struct frame *f, struct token *tok)
{
	if (f->lx) {
		lexer_next(f->lx, tok);
		return;
	}
	if (f->pos < f->n) {
		*tok = f->toks[f->pos++];
		return;
	}
	memset(tok, 0, sizeof(*tok));
	tok->loc = f->n ? f->toks[f->n - 1].loc : (struct loc){ 0 };
}

/* The next token from any frame, popping finished token-list frames. */
static void
raw_next(struct preproc *pre, struct token *tok)
{
	for (;;) {
		frame_next(pre->top, tok);
		if (tok->kind != 0 || pre->top->lx)
			return;
		pop_frame(pre, tok->loc);
	}
}

static void
push_cond(struct preproc *pre, enum cond_state st, struct loc at)
{
	pre->conds = arena_grow(pre->s->arena, pre->conds, sizeof(*pre->conds),
				&pre->cap_conds, pre->nconds + 1);
	pre->cond_locs = arena_grow(pre->s->arena, pre->cond_locs,
				    sizeof(*pre->cond_locs), &pre->cap_cond_locs,
				    pre->nconds + 1);
	pre->cond_version = arena_grow(pre->s->arena, pre->cond_version,
				       sizeof(*pre->cond_version),
				       &pre->cap_cond_version, pre->nconds + 1);
	pre->conds[pre->nconds] = st;
	pre->cond_locs[pre->nconds] = at;
	pre->cond_version[pre->nconds] = false;
	pre->nconds++;
}

/*
 * Skip tokens of a branch not taken, within the current frame. Stops after
 * the %: (returns PP_ELSE) or %) (returns PP_END) that belongs to this
 * conditional; with `to_end`, a %: at this level is skipped too.
 */
static int
skip_branch(struct preproc *pre, struct loc open, bool to_end)
{
	struct frame *f = pre->top;
	struct token t;
	int depth = 0;

	for (;;) {
		frame_next(f, &t);
		switch (t.kind) {
		case 0:
			diag_error(&pre->s->diag, open, "E_PP_UNTERMINATED",
				   "preprocessor conditional '%%(' is not closed by '%%)'");
			return 0;
		case PP_IF:
			depth++;
			break;
		case PP_END:
			if (depth-- == 0)
				return PP_END;
			break;
		case PP_ELSE:
			if (depth == 0 && !to_end)
				return PP_ELSE;
			if (depth == 0)
				diag_error(&pre->s->diag, t.loc, "E_PP_STRAY",
					   "a second '%%:' in one preprocessor conditional");
			break;
		case PP_THEN:
			if (depth == 0)
				diag_error(&pre->s->diag, t.loc, "E_PP_STRAY",
					   "a second '%%?' in one preprocessor conditional");
			break;
		default:
			break;
		}
	}
}

static struct macro *find_macro(struct preproc *pre, const char *name);
static const struct binding *find_binding(struct preproc *pre,
					  const char *atname);
static struct token *token_push(struct arena *a, struct token *v, int *n,
				int *cap, const struct token *t);

struct token_list {
	struct token *v;
	int n, cap;
};

static void expand_list(struct preproc *pre, const struct token *in, int n,
			const struct bindings *b, struct token_list *out,
			int depth);

/* A macro use inside a condition: its arguments are the token runs up to
 * ',' or ')' at depth 0, starting after the '(' at in[*i]. */
static void
expand_use_in_list(struct preproc *pre, const struct macro *m,
		   const struct token *in, int n, int *i,
		   const struct bindings *outer,
		   struct token_list *out, int depth)
{
	struct bindings *b = arena_alloc(pre->s->arena, sizeof(*b));
	int cap = 0, nest = 0;

	if (m->has_parens && *i + 1 < n && in[*i + 1].kind == '(') {
		*i += 2;
		b->v = arena_alloc(pre->s->arena,
				   sizeof(*b->v) * (size_t)(m->nparams + 1));
		for (; *i < n; (*i)++) {
			int k = in[*i].kind;
			if (nest == 0 && (k == ',' || k == ')')) {
				if (b->n < m->nparams) {
					b->v[b->n].name = m->params[b->n];
					b->n++;
				}
				cap = 0;
				if (k == ')')
					break;
				continue;
			}
			nest += (k == '(') - (k == ')');
			if (b->n < m->nparams)
				b->v[b->n].toks = token_push(pre->s->arena,
							     b->v[b->n].toks,
							     &b->v[b->n].n, &cap,
							     &in[*i]);
		}
		if (m->nparams == 0)
			b->n = 0;
	}
	(void)outer;
	expand_list(pre, m->body, m->nbody, b, out, depth + 1);
}

static const struct binding *
binding_in(const struct bindings *b, const char *atname)
{
	for (int i = 0; b && i < b->n; i++)
		if (b->v[i].name && strcmp(b->v[i].name, atname) == 0)
			return &b->v[i];
	return NULL;
}

/* Expand the macros of a token list (a condition) into `out`. */
static void
expand_list(struct preproc *pre, const struct token *in, int n,
	    const struct bindings *b, struct token_list *out, int depth)
{
	for (int i = 0; i < n; i++) {
		const struct token *t = &in[i];
		const struct binding *bd;
		const struct macro *m;

		if (out->n > PP_MAX_EXPANDED / 100)
			return;
		if (t->kind != ATNAME || depth > PP_MAX_DEPTH) {
			out->v = token_push(pre->s->arena, out->v, &out->n,
					    &out->cap, t);
			continue;
		}
		if ((bd = binding_in(b, t->text)) ||
		    (!b && (bd = find_binding(pre, t->text)))) {
			expand_list(pre, bd->toks, bd->n, NULL, out, depth + 1);
		} else if ((m = find_macro(pre, t->text + 1))) {
			expand_use_in_list(pre, m, in, n, &i, b, out, depth);
		} else {
			out->v = token_push(pre->s->arena, out->v, &out->n,
					    &out->cap, t);
		}
	}
}

/* Whether a condition tests the SystemTap version (for --check-version). */
static bool
tests_version(const struct token *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].kind == IDENT && strcmp(v[i].text, "systemtap_v") == 0)
			return true;
	return false;
}

/* --check-version: the branch of a systemtap_v conditional just taken
 * ends at `end`; pass 2 warns about what the script uses inside it. */
static void
note_version_range(struct preproc *pre, struct loc end)
{
	struct session *s = pre->s;

	if (!s->opts.check_version || !pre->cond_version[pre->nconds - 1])
		return;
	s->version_ranges = arena_grow(s->arena, s->version_ranges,
				       sizeof(*s->version_ranges),
				       &s->cap_version_ranges,
				       s->nversion_ranges + 1);
	s->version_ranges[s->nversion_ranges++] = (struct version_range){
		pre->cond_locs[pre->nconds - 1], end
	};
}

/* %( COND %? ... : collect COND, evaluate it, enter the right branch. */
static void
open_conditional(struct preproc *pre, const struct token *open)
{
	struct token *cond = NULL, t;
	int n = 0, cap = 0;

	for (;;) {
		frame_next(pre->top, &t);
		if (t.kind == PP_THEN)
			break;
		if (t.kind == 0 || t.kind == PP_END || t.kind == PP_IF ||
		    t.kind == PP_ELSE || t.kind == '{' || t.kind == ';') {
			preproc_error(pre, t.kind ? t.loc : open->loc, "E_PP_SYNTAX",
				      "expected '%?' after the preprocessor condition");
			if (t.kind == 0)
				return;
			/* Treat it as false and resynchronise on %) */
			if (t.kind != PP_END && skip_branch(pre, open->loc, true))
				return;
			return;
		}
		cond = arena_grow(pre->s->arena, cond, sizeof(*cond), &cap, n + 1);
		cond[n++] = t;
	}
	struct preproc_cond_env env = {
		.s = pre->s,
		.nargs = pre->s->opts.nargs,
	};
	struct token_list expanded = { 0 };
	expand_list(pre, cond, n, NULL, &expanded, 0);
	int value = preproc_cond_eval(&env, open->loc, expanded.v, expanded.n);
	bool version = tests_version(expanded.v, expanded.n);
	if (value > 0) {
		push_cond(pre, COND_THEN, open->loc);
		pre->cond_version[pre->nconds - 1] = version;
		return;
	}
	/* False, or an error (already reported): take the else branch. */
	if (skip_branch(pre, open->loc, false) == PP_ELSE) {
		push_cond(pre, COND_ELSE, open->loc);
		pre->cond_version[pre->nconds - 1] = version;
	}
}

/* End of the file: report conditionals still open. */
static void
close_unterminated(struct preproc *pre)
{
	while (pre->nconds > 0) {
		pre->nconds--;
		diag_error(&pre->s->diag, pre->cond_locs[pre->nconds],
			   "E_PP_UNTERMINATED",
			   "preprocessor conditional '%%(' is not closed by '%%)'");
	}
}

static bool
in_current_frame_cond(struct preproc *pre)
{
	return pre->nconds > pre->top->cond_base;
}

static void
else_or_end(struct preproc *pre, const struct token *t)
{
	if (!in_current_frame_cond(pre)) {
		diag_error(&pre->s->diag, t->loc, "E_PP_STRAY",
			   "'%s' without a matching '%%('", t->text);
		return;
	}
	if (t->kind == PP_ELSE) {
		if (pre->conds[pre->nconds - 1] == COND_ELSE) {
			preproc_error(pre, t->loc, "E_PP_STRAY",
				      "a second '%:' in one preprocessor conditional");
			return;
		}
		note_version_range(pre, t->loc);
		skip_branch(pre, pre->cond_locs[pre->nconds - 1], true);
		pre->nconds--;
		return;
	}
	note_version_range(pre, t->loc);
	pre->nconds--;
}

/* ---- macros and command-line arguments ---- */

static bool is_builtin_at(const char *name);

static struct macro *
find_macro_in(struct macro_table *t, const char *name)
{
	for (struct macro *m = t ? t->head : NULL; m; m = m->next)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

static struct macro *
find_macro(struct preproc *pre, const char *name)
{
	struct macro *m = find_macro_in(&pre->local, name);

	return m ? m : find_macro_in(pre->shared, name);
}

static const struct binding *
find_binding(struct preproc *pre, const char *atname)
{
	const struct bindings *b = pre->top->bindings;

	for (int i = 0; b && i < b->n; i++)
		if (strcmp(b->v[i].name, atname) == 0)
			return &b->v[i];
	return NULL;
}

static struct token *
token_push(struct arena *a, struct token *v, int *n, int *cap,
	   const struct token *t)
{
	v = arena_grow(a, v, sizeof(*v), cap, *n + 1);
	v[(*n)++] = *t;
	return v;
}

/* Collect a macro body: tokens after %( up to its matching %). */
static bool
collect_body(struct preproc *pre, struct macro *m, struct loc open)
{
	struct token t;
	int depth = 0, cap = 0;

	for (;;) {
		frame_next(pre->top, &t);
		if (t.kind == 0) {
			diag_error(&pre->s->diag, open, "E_PP_UNTERMINATED",
				   "body of macro '@%s' is not closed by '%%)'",
				   m->name);
			return false;
		}
		if (t.kind == PP_IF)
			depth++;
		if (t.kind == PP_END && depth-- == 0)
			return true;
		m->body = token_push(pre->s->arena, m->body, &m->nbody, &cap, &t);
	}
}

static bool
collect_params(struct preproc *pre, struct macro *m)
{
	struct token t;
	int cap = 0;

	m->has_parens = true;
	for (;;) {
		frame_next(pre->top, &t);
		if (t.kind == ')' && m->nparams == 0)
			return true;
		if (t.kind != IDENT) {
			preproc_error(pre, t.loc, "E_PP_DEFINE",
				      "expected a parameter name in @define");
			return false;
		}
		m->params = arena_grow(pre->s->arena, m->params,
				       sizeof(*m->params), &cap,
				       m->nparams + 1);
		const char *param = arena_printf(pre->s->arena, "@%s", t.text);
		for (int i = 0; i < m->nparams; i++)
			if (strcmp(m->params[i], param) == 0)
				diag_error(&pre->s->diag, t.loc, "E_DUP_PARAM",
					   "parameter '%s' appears twice in macro '@%s'",
					   t.text, m->name);
		m->params[m->nparams++] = param;
		frame_next(pre->top, &t);
		if (t.kind == ')')
			return true;
		if (t.kind != ',') {
			preproc_error(pre, t.loc, "E_PP_DEFINE",
				      "expected ',' or ')' in @define parameters");
			return false;
		}
	}
}

/* @define NAME[(params)] %( body %) */
static void
define_macro(struct preproc *pre, const struct token *at)
{
	struct macro *m = arena_alloc(pre->s->arena, sizeof(*m));
	struct token t;

	m->loc = at->loc;
	frame_next(pre->top, &t);
	if (t.kind != IDENT) {
		preproc_error(pre, t.loc, "E_PP_DEFINE",
			      "expected a macro name after @define");
		return;
	}
	m->name = t.text;
	if (strcmp(m->name, "define") == 0) {
		diag_error(&pre->s->diag, t.loc, "E_PP_DEFINE",
			   "'@%s' is a built-in operator and cannot be redefined",
			   m->name);
		m->name = "";	/* still read the body, then drop it */
	}
	frame_next(pre->top, &t);
	if (t.kind == '(') {
		if (!collect_params(pre, m))
			return;
		frame_next(pre->top, &t);
	}
	if (t.kind != PP_IF) {
		preproc_error(pre, t.loc, "E_PP_DEFINE",
			      "expected '%(' to open the body of the macro");
		return;
	}
	if (!collect_body(pre, m, t.loc))
		return;
	struct macro_table *table =
		pre->export_macros && pre->shared ? pre->shared : &pre->local;
	if (find_macro_in(table, m->name))
		diag_warning(&pre->s->diag, at->loc, "W_MACRO_REDEFINED",
			     "macro '@%s' redefined", m->name);
	m->next = table->head;
	table->head = m;
}

/*
 * Arguments of a macro use: @name(a, b). Each argument is the token run
 * up to a ',' or ')' outside brackets.
 */
static bool
collect_args(struct preproc *pre, const struct macro *m,
	     const struct token *use, struct bindings *out)
{
	struct token t;
	int depth = 0, cap = 0, ncap = 0;

	frame_next(pre->top, &t);
	if (t.kind != '(') {
		diag_error(&pre->s->diag, use->loc, "E_MACRO_ARGS",
			   "macro '@%s' takes %d argument%s: use @%s(...)",
			   m->name, m->nparams, m->nparams == 1 ? "" : "s",
			   m->name);
		pre->top->pos -= pre->top->lx ? 0 : 1; /* give the token back */
		return false;
	}
	out->v = arena_grow(pre->s->arena, NULL, sizeof(*out->v), &ncap, 1);
	out->n = 1;
	memset(&out->v[0], 0, sizeof(out->v[0]));
	for (;;) {
		frame_next(pre->top, &t);
		if (t.kind == 0) {
			diag_error(&pre->s->diag, use->loc, "E_MACRO_ARGS",
				   "unterminated argument list of macro '@%s'",
				   m->name);
			return false;
		}
		if (depth == 0 && (t.kind == ',' || t.kind == ')')) {
			if (t.kind == ')')
				break;
			out->v = arena_grow(pre->s->arena, out->v,
					    sizeof(*out->v), &ncap, out->n + 1);
			memset(&out->v[out->n], 0, sizeof(out->v[0]));
			out->n++;
			cap = 0;
			continue;
		}
		if (t.kind == '(' || t.kind == '[' || t.kind == '{')
			depth++;
		if (t.kind == ')' || t.kind == ']' || t.kind == '}')
			depth--;
		struct binding *b = &out->v[out->n - 1];
		b->toks = token_push(pre->s->arena, b->toks, &b->n, &cap, &t);
	}
	if (out->n == 1 && out->v[0].n == 0 && m->nparams == 0)
		out->n = 0;
	if (out->n != m->nparams) {
		diag_error(&pre->s->diag, use->loc, "E_MACRO_ARGS",
			   "macro '@%s' takes %d argument%s, given %d",
			   m->name, m->nparams, m->nparams == 1 ? "" : "s",
			   out->n);
		return false;
	}
	for (int i = 0; i < out->n; i++) {
		out->v[i].name = m->params[i];
		out->v[i].context = pre->top->bindings;
	}
	return true;
}

static bool
expansion_too_deep(struct preproc *pre, const struct token *use)
{
	if (pre->expansion_failed)
		return true;
	if (pre->depth >= PP_MAX_DEPTH) {
		diag_error(&pre->s->diag, use->loc, "E_MACRO_DEPTH",
			   "macro expansion nested too deeply (recursive macro?)");
		pre->expansion_failed = true;
		return true;
	}
	if (pre->expanded >= PP_MAX_EXPANDED) {
		diag_error(&pre->s->diag, use->loc, "E_MACRO_DEPTH",
			   "macro expansion too large (over %d tokens): a macro that uses another several times, nested?",
			   PP_MAX_EXPANDED);
		pre->expansion_failed = true;
		return true;
	}
	return false;
}

static void
expand_macro(struct preproc *pre, const struct macro *m,
	     const struct token *use)
{
	struct bindings *b = arena_alloc(pre->s->arena, sizeof(*b));
	struct frame *f;

	if (m->has_parens && !collect_args(pre, m, use, b))
		return;
	if (expansion_too_deep(pre, use))
		return;
	f = arena_alloc(pre->s->arena, sizeof(*f));
	f->toks = m->body;
	f->n = m->nbody;
	f->bindings = b;
	f->macro = m;
	push_frame(pre, f);
}

static void
expand_binding(struct preproc *pre, const struct binding *b,
	       const struct token *use)
{
	struct frame *f;

	if (expansion_too_deep(pre, use))
		return;
	f = arena_alloc(pre->s->arena, sizeof(*f));
	f->toks = b->toks;
	f->n = b->n;
	/* The argument's own @params belong to the macro that wrote it. */
	f->bindings = b->context;
	push_frame(pre, f);
}

static bool
is_builtin_at(const char *name)
{
	static const char *const builtins[] = {
		"cast", "var", "defined", "entry", "perf", "probewrite",
		"kregister", "uregister", "kderef", "uderef", "count", "sum",
		"min", "max", "avg", "variance", "hist_log", "hist_linear",
		"const", "define",
	};

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(name, builtins[i]) == 0)
			return true;
	return false;
}

/* Returns true if the token was consumed (a macro or @define). */
static bool
expand_at_name(struct preproc *pre, struct token *tok)
{
	const char *name = tok->text + 1;
	const struct binding *b;
	const struct macro *m;

	if (strcmp(name, "define") == 0) {
		define_macro(pre, tok);
		return true;
	}
	b = find_binding(pre, tok->text);
	if (b) {
		expand_binding(pre, b, tok);
		return true;
	}
	m = find_macro(pre, name);
	if (m) {
		expand_macro(pre, m, tok);
		return true;
	}
	if (!is_builtin_at(name)) {
		diag_error(&pre->s->diag, tok->loc, "E_UNKNOWN_MACRO",
			   "unknown macro or operator '%s'", tok->text);
		return true;
	}
	return false;
}

/* Spell `text` as the raw contents of a string literal. */
static const char *
escape_for_literal(struct arena *a, const char *text)
{
	size_t n = 0;

	for (const char *p = text; *p; p++)
		n += (*p == '"' || *p == '\\') ? 2 : 1;
	char *out = arena_alloc(a, n + 1), *q = out;
	for (const char *p = text; *p; p++) {
		if (*p == '"' || *p == '\\')
			*q++ = '\\';
		*q++ = *p;
	}
	return out;
}

static bool
argument_index(struct preproc *pre, const struct token *tok, int *index)
{
	long n = strtol(tok->text + 1, NULL, 10);

	if (n < 1 || n > pre->s->opts.nargs) {
		diag_error(&pre->s->diag, tok->loc, "E_ARG_RANGE",
			   "command line argument %s is out of range (%d given)",
			   tok->text, pre->s->opts.nargs);
		if (pre->s->opts.nargs == 0)
			diag_hint(&pre->s->diag,
				  "give arguments after the script: tapc script.stp ARG1 ARG2");
		return false;
	}
	*index = (int)n - 1;
	return true;
}

/* $N, @N, $#, @#. Returns true if consumed (tokens pushed or error). */
static bool
substitute_argument(struct preproc *pre, struct token *tok)
{
	struct session *s = pre->s;
	int i;

	switch (tok->kind) {
	case ARGC:
		tok->kind = NUMBER;
		tok->text = arena_printf(s->arena, "%d", s->opts.nargs);
		tok->len = strlen(tok->text);
		return false;
	case ARGCS:
		tok->kind = STRING;
		tok->text = arena_printf(s->arena, "%d", s->opts.nargs);
		tok->len = strlen(tok->text);
		return false;
	case ARGSTR:
		if (!argument_index(pre, tok, &i)) {
			tok->kind = STRING;
			tok->text = "";
			tok->len = 0;
			return false;
		}
		tok->kind = STRING;
		tok->text = escape_for_literal(s->arena, s->opts.args[i]);
		tok->len = strlen(tok->text);
		return false;
	default:
		break;
	}
	if (!argument_index(pre, tok, &i)) {
		/* a 0 in its place, so that only the real error shows */
		tok->kind = NUMBER;
		tok->text = "0";
		tok->len = 1;
		return false;
	}
	if (expansion_too_deep(pre, tok))
		return true;
	/* $N is the argument's text lexed as script tokens. */
	const char *arg = s->opts.args[i];
	struct source *src = source_from_text(
		s, arena_printf(s->arena, "<argument %s>", tok->text), arg,
		strlen(arg));
	struct lexer *lx = lexer_new(s, src);
	struct frame *f = arena_alloc(s->arena, sizeof(*f));
	struct token t;
	int cap = 0;
	for (lexer_next(lx, &t); t.kind; lexer_next(lx, &t)) {
		t.loc = tok->loc;	/* report at the $N in the script */
		f->toks = token_push(s->arena, f->toks, &f->n, &cap, &t);
	}
	lexer_free(lx);
	f->bindings = pre->top->bindings;
	push_frame(pre, f);
	return true;
}

void
preproc_next(struct preproc *pre, struct token *tok)
{
	for (;;) {
		raw_next(pre, tok);
		switch (tok->kind) {
		case PP_IF:
			open_conditional(pre, tok);
			continue;
		case PP_ELSE:
		case PP_END:
			else_or_end(pre, tok);
			continue;
		case PP_THEN:
			diag_error(&pre->s->diag, tok->loc, "E_PP_STRAY",
				   "'%%?' without a matching '%%('");
			continue;
		case ATNAME:
			if (expand_at_name(pre, tok))
				continue;
			return;
		case ARGREF:
		case ARGSTR:
		case ARGC:
		case ARGCS:
			if (substitute_argument(pre, tok))
				continue;
			return;
		case 0:
			close_unterminated(pre);
			return;
		default:
			return;
		}
	}
}
