/*
 * parse_expr.c -- node builders for expressions: literals, names, calls,
 * target variables, @-operators, and operators with their lvalue checks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/parse_build.h"

static struct arena *
A(struct parser *p)
{
	return p->s->arena;
}

/* Parse a number as SystemTap does: decimal, 0x hex, 0 octal; 64 bits,
 * anything that fits in 64 bits, so 18446744073709551615 is -1. */
static bool
parse_number_text(const char *text, uint64_t *value)
{
	const char *digits = text;
	int base = 10;
	char *end;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		digits = text + 2;
	} else if (text[0] == '0' && text[1]) {
		base = 8;
		digits = text + 1;
	}
	errno = 0;
	*value = strtoull(digits, &end, base);
	if (errno || *end || end == digits)
		return false;
	return true;
}

struct node *
build_number(struct parser *p, const struct token *t, bool negative)
{
	struct node *n = ast_new(A(p), N_NUMBER, t->loc);
	uint64_t v = 0;

	if (!parse_number_text(t->text, &v)) {
		diag_error(&p->s->diag, t->loc, "E_BAD_NUMBER",
			   "number '%s' is invalid or out of range", t->text);
		if (t->text[0] == '0' && t->text[1] >= '0' && t->text[1] <= '9')
			diag_hint(&p->s->diag,
				  "a leading 0 makes an octal number; drop it for decimal");
		v = 0;
	}
	n->u.number.value = negative ? (uint64_t)0 - v : v;
	n->u.number.text = negative ? arena_printf(A(p), "-%s", t->text)
				    : t->text;
	return n;
}

struct node *
build_string(struct parser *p, const struct token *t)
{
	struct node *n = ast_new(A(p), N_STRING, t->loc);

	n->u.string.raw = t->text;
	return n;
}

struct node *
build_join_string(struct parser *p, struct node *s, const struct token *t)
{
	s->u.string.raw = arena_printf(A(p), "%s%s", s->u.string.raw, t->text);
	return s;
}

struct node *
build_symbol(struct parser *p, const struct token *t)
{
	struct node *n = ast_new(A(p), N_SYMBOL, t->loc);

	n->u.symbol.name = t->text;
	return n;
}

static bool
prints_histograms(const char *name)
{
	return strcmp(name, "print") == 0 || strcmp(name, "println") == 0 ||
	       strcmp(name, "sprint") == 0 || strcmp(name, "sprintln") == 0;
}

/* The print family's shapes, which SystemTap checks while parsing:
 * printf/sprintf/printd/printdln take a literal first argument, print and
 * sprint at least one value, printd/printdln a delimiter and two values. */
static void
check_print_args(struct parser *p, const struct token *name,
		 struct node_list *args)
{
	const char *f = name->text;
	bool fmt = strcmp(f, "printf") == 0 || strcmp(f, "sprintf") == 0;
	bool delim = strcmp(f, "printd") == 0 || strcmp(f, "printdln") == 0 ||
		     strcmp(f, "sprintd") == 0 || strcmp(f, "sprintdln") == 0;
	bool one = strcmp(f, "print") == 0 || strcmp(f, "sprint") == 0;

	if ((fmt || delim) && (args->n == 0 || args->v[0]->kind != N_STRING)) {
		diag_error(&p->s->diag, args->n ? args->v[0]->loc : name->loc,
			   "E_PRINT_ARGS",
			   "%s needs a literal string as its first argument (the %s)",
			   f, fmt ? "format" : "delimiter");
		return;
	}
	if (delim && args->n < 3)
		diag_error(&p->s->diag, name->loc, "E_PRINT_ARGS",
			   "%s needs a delimiter and at least two values", f);
	if (one && args->n == 0)
		diag_error(&p->s->diag, name->loc, "E_PRINT_ARGS",
			   "%s needs a value to print", f);
}

struct node *
build_call(struct parser *p, const struct token *name, struct node_list *args)
{
	struct node *n = ast_new(A(p), N_CALL, name->loc);

	n->u.call.name = name->text;
	n->u.call.args = *args;
	check_print_args(p, name, args);
	if (prints_histograms(name->text))
		for (int i = 0; i < args->n; i++)
			if (args->v[i]->kind == N_HIST)
				parser_allow_hist(p, args->v[i]);
	return n;
}

struct node *
build_index(struct parser *p, struct node *base, struct node_list *keys)
{
	struct node *n = ast_new(A(p), N_INDEX, base->loc);

	n->u.index.base = base;
	n->u.index.keys = *keys;
	if (keys->n > 9)
		diag_error(&p->s->diag, keys->v[9] ? keys->v[9]->loc : base->loc,
			   "E_TOO_MANY_KEYS", "an array has at most 9 keys");
	if (base->kind == N_HIST) {
		parser_allow_hist(p, base);
		if (keys->n != 1 || !keys->v[0])
			diag_error(&p->s->diag, base->loc, "E_HIST_INDEX",
				   "a histogram takes one bucket index");
	}
	return n;
}

struct node *
build_in(struct parser *p, struct node *key, bool bracketed,
	 struct node *array, struct loc at)
{
	struct node *n = ast_new(A(p), N_IN, key->loc);

	(void)at;
	if (array->kind == N_HIST)
		parser_allow_hist(p, array);
	else if (array->kind != N_SYMBOL)
		diag_error(&p->s->diag, array->loc, "E_SYNTAX",
			   "'in' takes an array or a histogram on its right");
	ast_list_push(A(p), &n->u.in.keys, key);
	n->u.in.bracketed = bracketed;
	n->u.in.array = array;
	return n;
}

struct node *
build_in_tuple(struct parser *p, struct loc at, struct node_list *keys,
	       struct node *array)
{
	struct node *n = ast_new(A(p), N_IN, at);

	n->u.in.keys = *keys;
	n->u.in.bracketed = true;
	n->u.in.array = array;
	if (array->kind == N_HIST)
		parser_allow_hist(p, array);
	if (keys->n > 9)
		diag_error(&p->s->diag, at, "E_TOO_MANY_KEYS",
			   "an array has at most 9 keys");
	return n;
}

/* A trailing $ or $$ on a name is the pretty-printing suffix: `$var$`,
 * `$p->member$$` (identifiers may contain '$' after the first character,
 * so the lexer keeps it in the name). Returns the name without it. */
static const char *
split_pretty(struct parser *p, const char *name, int *pretty)
{
	size_t n = strlen(name);

	*pretty = 0;
	if (n >= 3 && name[n - 1] == '$' && name[n - 2] == '$' &&
	    name[n - 3] != '$') {
		*pretty = 2;
		n -= 2;
	} else if (n >= 2 && name[n - 1] == '$' && name[n - 2] != '$') {
		*pretty = 1;
		n -= 1;
	}
	return *pretty ? arena_strndup(A(p), name, n) : name;
}

struct node *
build_target(struct parser *p, const struct token *t)
{
	struct node *n = ast_new(A(p), N_TARGET, t->loc);
	int pretty;

	/* $$vars, $$name, $$provider ...: which exist is the provider's
	 * business in pass 2. */
	n->u.target.name = split_pretty(p, t->text, &pretty);
	n->u.target.path.pretty = pretty;
	return n;
}

static struct target_path *
path_of(struct node *n)
{
	switch (n->kind) {
	case N_TARGET: return &n->u.target.path;
	case N_CAST: return &n->u.cast.path;
	case N_ATVAR: return &n->u.atvar.path;
	case N_AUTOCAST: return &n->u.autocast.path;
	default: return NULL;
	}
}

/* The path a step extends: the value's own, or a new autocast's. */
static struct node *
steppable(struct parser *p, struct node *value, struct target_path **path)
{
	struct target_path *own = path_of(value);

	if (value->kind == N_TARGET && value->u.target.name[1] == '$') {
		diag_error(&p->s->diag, value->loc, "E_BAD_TARGET",
			   "'%s' has no members to dereference",
			   value->u.target.name);
	}
	if (own && !own->pretty && !own->addr_of) {
		*path = own;
		return value;
	}
	struct node *n = ast_new(A(p), N_AUTOCAST, value->loc);
	n->u.autocast.operand = value;
	*path = &n->u.autocast.path;
	return n;
}

struct node *
build_member(struct parser *p, struct node *value, const struct token *member,
	     struct loc at)
{
	struct target_path *path;
	struct node *n = steppable(p, value, &path);
	int pretty;
	const char *name = split_pretty(p, member->text, &pretty);
	struct target_step st = { STEP_MEMBER, name, NULL, at };

	ast_path_push(A(p), path, st);
	path->pretty = pretty;
	return n;
}

struct node *
build_subscript(struct parser *p, struct node *value, struct node *index,
		struct loc at)
{
	struct target_path *path;

	if (value->kind == N_HIST) {
		struct node_list keys = { 0 };
		ast_list_push(A(p), &keys, index);
		return build_index(p, value, &keys);
	}
	struct node *n = steppable(p, value, &path);
	struct target_step st = { STEP_INDEX, NULL, index, at };
	ast_path_push(A(p), path, st);
	return n;
}

/* `value$` / `value$$`: on $var, @cast, @var it marks the path; on any
 * other value it makes an autocast to be pretty-printed. */
struct node *
build_pretty(struct parser *p, struct node *value, int pretty, struct loc at)
{
	struct target_path *path = path_of(value);

	if (path && path->pretty) {
		diag_error(&p->s->diag, at, "E_PRETTY",
			   "'%s' after a value that is already pretty-printed",
			   pretty == 2 ? "$$" : "$");
		return value;
	}
	struct node *n = path && !path->addr_of ? value :
		steppable(p, value, &path);
	path->pretty = pretty;
	return n;
}

struct node *
build_paren(struct parser *p, struct node *expr)
{
	(void)p;
	return expr;
}

struct node *
build_embedded_expr(struct parser *p, const struct token *t)
{
	struct node *n = ast_new(A(p), N_EMBEDDED_EXPR, t->loc);

	if (!p->embedded_ok) {
		diag_error(&p->s->diag, t->loc, "E_EMBEDDED_GURU",
			   "embedded C code in a script needs guru mode");
		diag_hint(&p->s->diag, "run tapc with -g if you trust this code");
	}
	n->u.embedded_expr.code = t->text;
	return n;
}

/* ---- operators ---- */

static bool
is_lvalue(const struct node *n)
{
	switch (n->kind) {
	case N_SYMBOL: case N_TARGET: case N_CAST: case N_ATVAR:
	case N_AUTOCAST:
		return true;
	case N_INDEX:
		return n->u.index.base->kind == N_SYMBOL;
	default:
		return false;
	}
}

struct node *
build_assign(struct parser *p, enum op op, struct node *lhs,
	     struct node *rhs, struct loc at)
{
	struct node *n = ast_new(A(p), N_ASSIGN, at);

	if (op == OP_STAT_ADD && lhs->kind != N_SYMBOL &&
	    !(lhs->kind == N_INDEX && lhs->u.index.base->kind == N_SYMBOL))
		diag_error(&p->s->diag, lhs->loc, "E_NOT_LVALUE",
			   "'<<<' needs a statistics variable or array element on its left");
	else if (!is_lvalue(lhs))
		diag_error(&p->s->diag, lhs->loc, "E_NOT_LVALUE",
			   "the left side of '%s' cannot be assigned to",
			   op_spelling(op));
	n->u.binary.op = op;
	n->u.binary.lhs = lhs;
	n->u.binary.rhs = rhs;
	return n;
}

struct node *
build_ternary(struct parser *p, struct node *cond, struct node *a,
	      struct node *b)
{
	struct node *n = ast_new(A(p), N_TERNARY, cond->loc);

	n->u.ternary.cond = cond;
	n->u.ternary.then_expr = a;
	n->u.ternary.else_expr = b;
	return n;
}

struct node *
build_binary(struct parser *p, enum node_kind kind, enum op op,
	     struct node *lhs, struct node *rhs, struct loc at)
{
	struct node *n = ast_new(A(p), kind, at);

	if (kind == N_REGEX && rhs->kind != N_STRING) {
		diag_error(&p->s->diag, rhs->loc, "E_REGEX_LITERAL",
			   "the right side of '%s' must be a literal string (the regular expression)",
			   op_spelling(op));
	}
	n->u.binary.op = op;
	n->u.binary.lhs = lhs;
	n->u.binary.rhs = rhs;
	return n;
}

struct node *
build_unary(struct parser *p, enum op op, struct node *operand, struct loc at)
{
	struct node *n = ast_new(A(p), N_UNARY, at);

	n->u.unary.op = op;
	n->u.unary.operand = operand;
	return n;
}

struct node *
build_addr_of(struct parser *p, struct node *operand, struct loc at)
{
	struct target_path *path = path_of(operand);

	if (!path || path->addr_of || path->pretty)
		return build_unary(p, OP_ADDR, operand, at);
	path->addr_of = true;
	operand->loc = at;
	return operand;
}

struct node *
build_crement(struct parser *p, enum op op, bool prefix,
	      struct node *operand, struct loc at)
{
	struct node *n = ast_new(A(p), N_CREMENT, prefix ? at : operand->loc);

	if (!is_lvalue(operand))
		diag_error(&p->s->diag, operand->loc, "E_NOT_LVALUE",
			   "'%s' needs a variable or array element",
			   op_spelling(op));
	n->u.crement.op = op;
	n->u.crement.prefix = prefix;
	n->u.crement.operand = operand;
	return n;
}
