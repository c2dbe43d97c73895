/*
 * print.c -- tapc's canonical form of a script (what -p1 prints).
 *
 * One statement per line, tabs for indentation, a ';' after every simple
 * statement, spaces around binary operators, and parentheses only where
 * precedence needs them. The form is a fixed point: parsing the output
 * and printing it again gives the same text, which the tests check.
 */
#include <string.h>

#include "translator/parse/parse.h"

enum prec {
	P_ASSIGN = 1, P_TERNARY, P_OROR, P_ANDAND, P_BOR, P_BXOR, P_BAND,
	P_IN, P_COMPARE, P_SHIFT, P_CONCAT, P_ADD, P_MUL, P_UNARY,
	P_POSTFIX, P_PRIMARY
};

static void print_expr(FILE *out, const struct node *n, int min);
static void print_stmt(FILE *out, const struct node *n, int indent);

static void
indent_to(FILE *out, int indent)
{
	for (int i = 0; i < indent; i++)
		fputc('\t', out);
}

static int
binary_prec(enum op op)
{
	switch (op) {
	case OP_OROR: return P_OROR;
	case OP_ANDAND: return P_ANDAND;
	case OP_BOR: return P_BOR;
	case OP_BXOR: return P_BXOR;
	case OP_BAND: return P_BAND;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT:
	case OP_GE: case OP_MATCH: case OP_NOMATCH:
		return P_COMPARE;
	case OP_SHL: case OP_SHR: return P_SHIFT;
	case OP_CONCAT: return P_CONCAT;
	case OP_ADD: case OP_SUB: return P_ADD;
	case OP_MUL: case OP_DIV: case OP_MOD: return P_MUL;
	default: return P_PRIMARY;
	}
}

static int
expr_prec(const struct node *n)
{
	switch (n->kind) {
	case N_ASSIGN: return P_ASSIGN;
	case N_TERNARY: return P_TERNARY;
	case N_BINARY: case N_COMPARE: case N_REGEX: case N_LOGICAL:
		return binary_prec(n->u.binary.op);
	case N_IN: return n->u.in.bracketed ? P_PRIMARY : P_IN;
	case N_UNARY: return P_UNARY;
	case N_CREMENT: return n->u.crement.prefix ? P_UNARY : P_POSTFIX;
	case N_NUMBER:
		/* A negative literal (from a global's initialiser) reads as
		 * unary minus. */
		return n->u.number.text[0] == '-' ? P_UNARY : P_PRIMARY;
	case N_TARGET:
		return n->u.target.path.addr_of ? P_UNARY : P_PRIMARY;
	case N_CAST:
		return n->u.cast.path.addr_of ? P_UNARY : P_PRIMARY;
	case N_ATVAR:
		return n->u.atvar.path.addr_of ? P_UNARY : P_PRIMARY;
	default: return P_PRIMARY;
	}
}

static void
print_list(FILE *out, const struct node_list *l)
{
	for (int i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", out);
		if (l->v[i])
			print_expr(out, l->v[i], P_ASSIGN);
		else
			fputc('*', out);
	}
}

static void
print_path(FILE *out, const struct target_path *p)
{
	for (int i = 0; i < p->nsteps; i++) {
		if (p->steps[i].kind == STEP_MEMBER) {
			fprintf(out, "->%s", p->steps[i].member);
		} else {
			fputc('[', out);
			print_expr(out, p->steps[i].index, P_ASSIGN);
			fputc(']', out);
		}
	}
	if (p->pretty)
		fputs(p->pretty == 2 ? "$$" : "$", out);
}

static void
print_cast(FILE *out, const struct node *n)
{
	if (n->u.cast.path.addr_of)
		fputc('&', out);
	fputs("@cast(", out);
	print_expr(out, n->u.cast.operand, P_ASSIGN);
	fprintf(out, ", \"%s\"", n->u.cast.type_name);
	if (n->u.cast.module)
		fprintf(out, ", \"%s\"", n->u.cast.module);
	fputc(')', out);
	print_path(out, &n->u.cast.path);
}

static void
print_hist(FILE *out, const struct node *n)
{
	fputs(n->u.hist.kind == HIST_LOG ? "@hist_log(" : "@hist_linear(", out);
	print_expr(out, n->u.hist.operand, P_ASSIGN);
	if (n->u.hist.kind == HIST_LINEAR) {
		fputs(", ", out);
		print_expr(out, n->u.hist.lo, P_ASSIGN);
		fputs(", ", out);
		print_expr(out, n->u.hist.hi, P_ASSIGN);
		fputs(", ", out);
		print_expr(out, n->u.hist.step, P_ASSIGN);
	}
	fputc(')', out);
}

/* The first character `n` prints as, so that `- -x`, `- --x` and `& &x`
 * keep the space that stops them lexing as `--` or `&&`. */
static char
first_char(const struct node *n, int min)
{
	if (expr_prec(n) < min)
		return '(';
	switch (n->kind) {
	case N_UNARY:
		return op_spelling(n->u.unary.op)[0];
	case N_CREMENT:
		return n->u.crement.prefix ? op_spelling(n->u.crement.op)[0]
					   : first_char(n->u.crement.operand,
							P_PRIMARY);
	case N_NUMBER:
		return n->u.number.text[0];
	case N_TARGET:
		return n->u.target.path.addr_of ? '&' : '$';
	case N_CAST:
	case N_ATVAR:
		return ((n->kind == N_CAST) ? n->u.cast.path.addr_of
					    : n->u.atvar.path.addr_of) ? '&' : '@';
	case N_AUTOCAST:
		return first_char(n->u.autocast.operand, P_PRIMARY);
	default:
		return 'x';
	}
}

/* Would `a` followed by `b` lex as one operator (--, ++, &&, !~, !=)? */
static bool
would_join(char a, char b)
{
	return (a == b && (a == '-' || a == '+' || a == '&')) ||
	       (a == '!' && (b == '~' || b == '='));
}

static void
print_autocast(FILE *out, const struct node *n)
{
	const struct node *op = n->u.autocast.operand;
	const struct target_path *path = &n->u.autocast.path;
	/* `(a)[1]` must not print as `a[1]`, an array element. */
	bool parens = expr_prec(op) < P_PRIMARY ||
		      (op->kind == N_SYMBOL && path->nsteps &&
		       path->steps[0].kind == STEP_INDEX) ||
		      (path->nsteps == 0 && path->pretty &&
		       (op->kind == N_SYMBOL || op->kind == N_CALL));

	if (path->addr_of)
		fputc('&', out);
	if (parens)
		fputc('(', out);
	print_expr(out, op, P_ASSIGN);
	if (parens)
		fputc(')', out);
	print_path(out, path);
}

static void
print_operator_node(FILE *out, const struct node *n)
{
	int p = expr_prec(n);

	switch (n->kind) {
	case N_ASSIGN:
		print_expr(out, n->u.binary.lhs, P_UNARY);
		fprintf(out, " %s ", op_spelling(n->u.binary.op));
		print_expr(out, n->u.binary.rhs, P_ASSIGN);
		return;
	case N_TERNARY:
		print_expr(out, n->u.ternary.cond, P_TERNARY + 1);
		fputs(" ? ", out);
		print_expr(out, n->u.ternary.then_expr, P_ASSIGN);
		fputs(" : ", out);
		print_expr(out, n->u.ternary.else_expr, P_TERNARY);
		return;
	case N_IN:
		if (n->u.in.bracketed) {
			fputc('[', out);
			print_list(out, &n->u.in.keys);
			fputc(']', out);
		} else {
			print_expr(out, n->u.in.keys.v[0], P_IN + 1);
		}
		fputs(" in ", out);
		print_expr(out, n->u.in.array, P_PRIMARY);
		return;
	case N_UNARY: {
		const char *op = op_spelling(n->u.unary.op);
		fputs(op, out);
		if (would_join(op[0], first_char(n->u.unary.operand, P_UNARY)))
			fputc(' ', out);
		print_expr(out, n->u.unary.operand, P_UNARY);
		return;
	}
	case N_CREMENT:
		if (n->u.crement.prefix)
			fputs(op_spelling(n->u.crement.op), out);
		print_expr(out, n->u.crement.operand, P_PRIMARY);
		if (!n->u.crement.prefix)
			fputs(op_spelling(n->u.crement.op), out);
		return;
	default:
		/* binary, left associative */
		print_expr(out, n->u.binary.lhs, p);
		fprintf(out, " %s ", op_spelling(n->u.binary.op));
		print_expr(out, n->u.binary.rhs, p + 1);
		return;
	}
}

static void
print_primary(FILE *out, const struct node *n)
{
	switch (n->kind) {
	case N_NUMBER:
		fputs(n->u.number.text, out);
		return;
	case N_STRING:
		fprintf(out, "\"%s\"", n->u.string.raw);
		return;
	case N_SYMBOL:
		fputs(n->u.symbol.name, out);
		return;
	case N_TARGET:
		if (n->u.target.path.addr_of)
			fputc('&', out);
		fputs(n->u.target.name, out);
		print_path(out, &n->u.target.path);
		return;
	case N_CAST:
		print_cast(out, n);
		return;
	case N_AUTOCAST:
		print_autocast(out, n);
		return;
	case N_ATVAR:
		if (n->u.atvar.path.addr_of)
			fputc('&', out);
		fprintf(out, "@var(\"%s\"", n->u.atvar.name);
		if (n->u.atvar.module)
			fprintf(out, ", \"%s\"", n->u.atvar.module);
		fputc(')', out);
		print_path(out, &n->u.atvar.path);
		return;
	case N_ENTRY: case N_DEFINED: case N_PROBEWRITE: case N_PERF:
	case N_REGISTER: case N_DEREF: case N_CONST:
		fprintf(out, "%s(", n->u.atop.name);
		print_list(out, &n->u.atop.args);
		fputc(')', out);
		return;
	case N_EMBEDDED_EXPR:
		fprintf(out, "%%{%s%%}", n->u.embedded_expr.code);
		return;
	case N_INDEX:
		print_expr(out, n->u.index.base, P_PRIMARY);
		fputc('[', out);
		print_list(out, &n->u.index.keys);
		fputc(']', out);
		return;
	case N_CALL:
		fprintf(out, "%s(", n->u.call.name);
		print_list(out, &n->u.call.args);
		fputc(')', out);
		return;
	case N_STAT_OP:
		fprintf(out, "%s(", op_spelling(n->u.stat.op));
		print_expr(out, n->u.stat.operand, P_ASSIGN);
		if (n->u.stat.shift) {
			fputs(", ", out);
			print_expr(out, n->u.stat.shift, P_ASSIGN);
		}
		fputc(')', out);
		return;
	case N_HIST:
		print_hist(out, n);
		return;
	default:
		print_operator_node(out, n);
		return;
	}
}

static void
print_expr(FILE *out, const struct node *n, int min)
{
	bool parens = expr_prec(n) < min;

	if (parens)
		fputc('(', out);
	print_primary(out, n);
	if (parens)
		fputc(')', out);
}

void
print_node(FILE *out, const struct node *n)
{
	print_expr(out, n, P_ASSIGN);
}

/* ---- statements ---- */

/* The body of if/while/for/foreach: a block continues the line, any other
 * statement goes on its own line, one level in. Returns true if the body
 * was a block (so an `else` can follow on the same line). */
static bool
print_body(FILE *out, const struct node *body, int indent)
{
	if (body->kind == N_BLOCK) {
		fputc(' ', out);
		print_stmt(out, body, -indent - 1);
		return true;
	}
	fputc('\n', out);
	print_stmt(out, body, indent + 1);
	return false;
}

static void
print_block(FILE *out, const struct node *n, int indent)
{
	fputs("{\n", out);
	for (int i = 0; i < n->u.block.stmts.n; i++)
		print_stmt(out, n->u.block.stmts.v[i], indent + 1);
	indent_to(out, indent);
	fputs("}\n", out);
}

static void
print_sort(FILE *out, const struct node *fe, int column, bool on_array)
{
	if (fe->u.foreach.sort_column != column ||
	    fe->u.foreach.sort_on_array != on_array)
		return;
	fputc(fe->u.foreach.sort_dir == SORT_ASC ? '+' : '-', out);
}

static void
print_foreach_head(FILE *out, const struct node *n)
{
	const struct node_list *keys = &n->u.foreach.keys;

	fputs("foreach (", out);
	if (n->u.foreach.value) {
		print_expr(out, n->u.foreach.value, P_PRIMARY);
		print_sort(out, n, 0, false);
		fputs(" = ", out);
	}
	if (n->u.foreach.keys_bracketed)
		fputc('[', out);
	for (int i = 0; i < keys->n; i++) {
		if (i)
			fputs(", ", out);
		print_expr(out, keys->v[i], P_PRIMARY);
		print_sort(out, n, i + 1, false);
	}
	if (n->u.foreach.keys_bracketed)
		fputc(']', out);
	fputs(" in ", out);
	print_expr(out, n->u.foreach.array, P_PRIMARY);
	if (n->u.foreach.sort_aggr != OP_NONE)
		fputs(op_spelling(n->u.foreach.sort_aggr), out);
	print_sort(out, n, 0, true);
	if (n->u.foreach.limit) {
		fputs(" limit ", out);
		print_expr(out, n->u.foreach.limit, P_ASSIGN);
	}
	fputc(')', out);
}

static void
print_if(FILE *out, const struct node *n, int indent)
{
	fputs("if (", out);
	print_expr(out, n->u.if_stmt.cond, P_ASSIGN);
	fputc(')', out);
	bool block = print_body(out, n->u.if_stmt.then_stmt, indent);
	const struct node *e = n->u.if_stmt.else_stmt;
	if (!e)
		return;
	/* print_body left us at the start of a line: `else` opens the
	 * next one, after a block or not. */
	(void)block;
	indent_to(out, indent);
	fputs("else", out);
	if (e->kind == N_IF) {
		fputc(' ', out);
		print_if(out, e, indent);
		return;
	}
	print_body(out, e, indent);
}

static void
print_simple(FILE *out, const struct node *n)
{
	switch (n->kind) {
	case N_EXPR_STMT:
		print_expr(out, n->u.expr_stmt.expr, P_ASSIGN);
		break;
	case N_BREAK: fputs("break", out); break;
	case N_CONTINUE: fputs("continue", out); break;
	case N_NEXT: fputs("next", out); break;
	case N_RETURN:
		fputs("return", out);
		if (n->u.ret.value) {
			fputc(' ', out);
			print_expr(out, n->u.ret.value, P_ASSIGN);
		}
		break;
	case N_DELETE:
		fputs("delete ", out);
		print_expr(out, n->u.del.target, P_ASSIGN);
		break;
	default:
		break;
	}
	fputs(";\n", out);
}

/* A negative indent means "continue the current line" at -indent-1. */
static void
print_stmt(FILE *out, const struct node *n, int indent)
{
	if (indent < 0)
		indent = -indent - 1;
	else
		indent_to(out, indent);
	switch (n->kind) {
	case N_BLOCK:
		print_block(out, n, indent);
		return;
	case N_NULL_STMT:
		fputs(";\n", out);
		return;
	case N_IF:
		print_if(out, n, indent);
		return;
	case N_WHILE:
		fputs("while (", out);
		print_expr(out, n->u.while_stmt.cond, P_ASSIGN);
		fputc(')', out);
		print_body(out, n->u.while_stmt.body, indent);
		return;
	case N_FOR:
		fputs("for (", out);
		if (n->u.for_stmt.init)
			print_expr(out, n->u.for_stmt.init, P_ASSIGN);
		fputs("; ", out);
		if (n->u.for_stmt.cond)
			print_expr(out, n->u.for_stmt.cond, P_ASSIGN);
		fputs("; ", out);
		if (n->u.for_stmt.step)
			print_expr(out, n->u.for_stmt.step, P_ASSIGN);
		fputc(')', out);
		print_body(out, n->u.for_stmt.body, indent);
		return;
	case N_FOREACH:
		print_foreach_head(out, n);
		print_body(out, n->u.foreach.body, indent);
		return;
	case N_TRY:
		fputs("try ", out);
		print_stmt(out, n->u.try_stmt.body, -indent - 1);
		indent_to(out, indent);
		fputs("catch ", out);
		if (n->u.try_stmt.catch_var)
			fprintf(out, "(%s) ",
				n->u.try_stmt.catch_var->u.symbol.name);
		print_stmt(out, n->u.try_stmt.handler, -indent - 1);
		return;
	default:
		print_simple(out, n);
		return;
	}
}

/* ---- top level ---- */

static void
print_point(FILE *out, const struct node *pt)
{
	for (int i = 0; i < pt->u.point.ncomps; i++) {
		const struct pp_component *c = &pt->u.point.comps[i];
		if (i)
			fputc('.', out);
		fputs(c->name, out);
		if (c->arg) {
			fputc('(', out);
			print_expr(out, c->arg, P_ASSIGN);
			fputc(')', out);
		}
	}
	if (pt->u.point.optional)
		fputc('?', out);
	if (pt->u.point.sufficient)
		fputc('!', out);
	if (pt->u.point.cond) {
		fputs(" if (", out);
		print_expr(out, pt->u.point.cond, P_ASSIGN);
		fputc(')', out);
	}
}

static void
print_points(FILE *out, const struct node_list *l)
{
	for (int i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", out);
		print_point(out, l->v[i]);
	}
}

static void
print_type_suffix(FILE *out, enum type t)
{
	if (t == TY_LONG || t == TY_STRING)
		fprintf(out, ":%s", type_name(t));
}

static void
print_function(FILE *out, const struct node *n)
{
	if (n->u.function.is_private)
		fputs("private ", out);
	fprintf(out, "function %s", n->u.function.name);
	print_type_suffix(out, n->u.function.ret);
	fputc('(', out);
	for (int i = 0; i < n->u.function.params.n; i++) {
		const struct node *p = n->u.function.params.v[i];
		if (i)
			fputs(", ", out);
		fputs(p->u.symbol.name, out);
		print_type_suffix(out, p->u.symbol.decl_type);
	}
	fputs(") ", out);
	if (n->u.function.embedded)
		fprintf(out, "%%{%s%%}\n", n->u.function.embedded);
	else if (n->u.function.body)
		print_stmt(out, n->u.function.body, -1);
	else
		fputs("{\n}\n", out);
}

static void
print_global(FILE *out, const struct node *n)
{
	if (n->u.global.is_private)
		fputs("private ", out);
	fprintf(out, "global %s", n->u.global.name);
	if (n->u.global.wrap)
		fputc('%', out);
	if (n->u.global.size)
		fprintf(out, "[%ld]", n->u.global.size);
	if (n->u.global.init) {
		fputs(" = ", out);
		print_expr(out, n->u.global.init, P_ASSIGN);
	}
	fputc('\n', out);
}

static void
print_item(FILE *out, const struct node *n)
{
	switch (n->kind) {
	case N_GLOBAL:
		print_global(out, n);
		return;
	case N_PROBE:
		fputs("probe ", out);
		print_points(out, &n->u.probe.points);
		fputc(' ', out);
		print_stmt(out, n->u.probe.body, -1);
		return;
	case N_ALIAS:
		fputs("probe ", out);
		print_points(out, &n->u.alias.names);
		fputs(n->u.alias.epilogue ? " += " : " = ", out);
		print_points(out, &n->u.alias.points);
		fputc(' ', out);
		if (n->u.alias.epilogue_body) {
			/* "}\n, {" would read the same; keep it on one line */
			print_stmt(out, n->u.alias.body, -1);
			fputs(", ", out);
			print_stmt(out, n->u.alias.epilogue_body, -1);
			return;
		}
		print_stmt(out, n->u.alias.body, -1);
		return;
	case N_FUNCTION:
		print_function(out, n);
		return;
	case N_EMBED:
		fprintf(out, "%%{%s%%}\n", n->u.embed.code);
		return;
	default:
		return;
	}
}

void
print_file(FILE *out, const struct file_ast *f)
{
	for (int i = 0; i < f->items.n; i++) {
		const struct node *n = f->items.v[i];
		/* A blank line between items, but globals stay together. */
		if (i > 0 && !(n->kind == N_GLOBAL &&
			       f->items.v[i - 1]->kind == N_GLOBAL))
			fputc('\n', out);
		print_item(out, n);
	}
}

void
print_statement(FILE *out, const struct node *n, int indent)
{
	print_stmt(out, n, indent);
}
