/*
 * codegen_expr.c -- pass 3 for expressions: every expression kind of the
 * AST becomes one C expression.
 *
 * Takes a typed node (node->type, bound symbols). Produces a C expression
 * of type int64_t (longs) or const char * (strings). Expressions that can
 * fail or that must evaluate their operands in order are GNU statement
 * expressions `({ ... })` whose operands go into block-scoped temporaries
 * first, so script order is left to right as in SystemTap; a script error
 * records its message and "near" text and jumps to g->err_label (the
 * innermost catch, or the frame's end). String results live in the
 * frame's MAXSTRINGLEN temporaries (l->__sN), never on the C stack.
 * Must not: write to the output (statements do that).
 */
#include <ctype.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/match.h"
#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_tvar.h"
#include "translator/driver/compat.h"

static const char *cg_index_read(struct cg *g, struct node *n);

const char *
cg_str_temp(struct cg *g)
{
	return cg_fmt(g, "l->__str%d", g->frame->nstr++);
}

static const char *
cg_tmp(struct cg *g)
{
	return cg_fmt(g, "__t%d", g->label_seq++);
}

/* The statement that raises a script error with a constant message. */
const char *
cg_raise(struct cg *g, const char *msg, const char *near)
{
	return cg_fmt(g, "{ tap_error_at(c, %s, %s); goto %s; }",
		      cg_c_string(g, msg, strlen(msg)),
		      near ? cg_c_string(g, near, strlen(near)) : "NULL",
		      g->err_label);
}

/* ... and with a message computed at run time from rc (a TAP_E* code). */
const char *
cg_raise_rc(struct cg *g, const char *rc, struct symbol *arr,
	    const char *near)
{
	const char *msg = arr ? cg_fmt(g, "%s == TAP_EMAPFULL ? %s : "
				       "tap_error_message(%s)", rc,
				       cg_c_string(g, cg_overflow_msg(g, arr),
						   strlen(cg_overflow_msg(g, arr))),
				       rc)
			      : cg_fmt(g, "tap_error_message(%s)", rc);

	return cg_fmt(g, "if (unlikely(%s)) { tap_error_at(c, %s, %s); "
		      "goto %s; }", rc, msg,
		      cg_c_string(g, near, strlen(near)), g->err_label);
}

/* stap's text: the declared size when there is one. */
const char *
cg_overflow_msg(struct cg *g, struct symbol *sym)
{
	if (sym->max_entries > 0)
		return cg_fmt(g, "Array overflow, check size limit (%ld)",
			      sym->max_entries);
	return "Array overflow, check MAXMAPENTRIES";
}

const char *
cg_symbol_ref(struct cg *g, struct symbol *sym)
{
	if (sym->kind == SYM_GLOBAL)
		return cg_global_name(sym);
	cg_frame_note(g, sym);
	return cg_fmt(g, "l->l_%s", sym->name);
}

const char *
cg_map_ref(struct cg *g, struct symbol *sym)
{
	return cg_fmt(g, "&%s", cg_global_name(sym));
}

/* The array symbol an N_SYMBOL or N_INDEX names, or NULL. */
struct symbol *
cg_array_symbol(struct node *n)
{
	if (!n)
		return NULL;
	if (n->kind == N_SYMBOL)
		return n->u.symbol.sym;
	if (n->kind == N_INDEX && n->u.index.base->kind == N_SYMBOL)
		return n->u.index.base->u.symbol.sym;
	return NULL;
}

static bool
cg_is_string(const struct node *n)
{
	return n->type == TY_STRING;
}

/*
 * Keys into a fresh struct tap_value array: returns the declarations (to
 * open a statement expression with) and sets *arr to the array's name.
 * A NULL key is '*' and sets its bit in *wildcard.
 */
const char *
cg_keys_decl(struct cg *g, struct node_list *keys, const char **arr,
	     uint32_t *wildcard)
{
	const char *name = cg_fmt(g, "__keys%d", g->label_seq++);
	char *decl = cg_fmt(g, "struct tap_value %s[%d]; ", name,
			    keys->n ? keys->n : 1);
	int i;

	if (wildcard)
		*wildcard = 0;
	for (i = 0; i < keys->n; i++) {
		struct node *k = keys->v[i];

		if (!k) {
			if (wildcard)
				*wildcard |= 1u << i;
			decl = cg_fmt(g, "%s%s[%d] = TAP_LONG(0); ", decl,
				      name, i);
			continue;
		}
		decl = cg_fmt(g, "%s%s[%d] = %s(%s); ", decl, name, i,
			      cg_is_string(k) ? "TAP_STR" : "TAP_LONG",
			      cg_expr(g, k));
	}
	*arr = name;
	return decl;
}

static const char *
cg_number(struct cg *g, struct node *n)
{
	return cg_fmt(g, "((int64_t)0x%" PRIx64 "ULL)", n->u.number.value);
}

static const char *
cg_string_lit(struct cg *g, struct node *n)
{
	size_t len;
	const char *s = cg_unescape(g, n->u.string.raw, &len);

	return cg_fmt(g, "((const char *)%s)", cg_c_string(g, s, len));
}

static const char *
cg_symbol_read(struct cg *g, struct node *n)
{
	struct symbol *sym = n->u.symbol.sym;

	if (!sym) {
		cg_unsupported(g, n, "an unresolved symbol");
		return "((int64_t)0)";
	}
	if (sym->nkeys > 0 || sym->type == TY_STATS) {
		cg_unsupported(g, n, "an array or aggregate used as a value");
		return "((int64_t)0)";
	}
	if (sym->type == TY_STRING)
		return cg_fmt(g, "((const char *)%s)", cg_symbol_ref(g, sym));
	if (sym->cpu_adds && sym->type == TY_LONG)
		return cg_counter_read(g, sym);
	return cg_symbol_ref(g, sym);
}

static const char *
cg_unary(struct cg *g, struct node *n)
{
	const char *x = cg_expr(g, n->u.unary.operand);

	switch (n->u.unary.op) {
	case OP_NEG:
		return cg_fmt(g, "tap_neg(%s)", x);
	case OP_PLUS:
		return cg_fmt(g, "(%s)", x);
	case OP_NOT:
		return cg_fmt(g, "((int64_t)!(%s))", x);
	case OP_BNOT:
		return cg_fmt(g, "(~(int64_t)(%s))", x);
	default:
		cg_unsupported(g, n, "this unary operator");
		return "((int64_t)0)";
	}
}

/* a OP b on longs, both already in temporaries; NULL if op is not one. */
static const char *
cg_arith(struct cg *g, enum op op, const char *a, const char *b,
	 const char *near, const char *res)
{
	switch (op) {
	case OP_ADD: return cg_fmt(g, "%s = tap_add(%s, %s);", res, a, b);
	case OP_SUB: return cg_fmt(g, "%s = tap_sub(%s, %s);", res, a, b);
	case OP_MUL: return cg_fmt(g, "%s = tap_mul(%s, %s);", res, a, b);
	case OP_DIV:
	case OP_MOD:
		return cg_fmt(g, "if (unlikely(tap_%s(%s, %s, &%s))) %s",
			      op == OP_DIV ? "div" : "mod", a, b, res,
			      cg_raise(g, "division by 0", near));
	/* stap masks the count to 6 bits; >> is arithmetic */
	case OP_SHL:
		return cg_fmt(g, "%s = (int64_t)((uint64_t)%s << (%s & 63));",
			      res, a, b);
	case OP_SHR:
		return cg_fmt(g, "%s = %s >> (%s & 63);", res, a, b);
	case OP_BAND: return cg_fmt(g, "%s = %s & %s;", res, a, b);
	case OP_BOR: return cg_fmt(g, "%s = %s | %s;", res, a, b);
	case OP_BXOR: return cg_fmt(g, "%s = %s ^ %s;", res, a, b);
	default: return NULL;
	}
}

/* The binary operator a compound assignment applies. */
static enum op
cg_assign_op(enum op op)
{
	switch (op) {
	case OP_ADD_ASSIGN: return OP_ADD;
	case OP_SUB_ASSIGN: return OP_SUB;
	case OP_MUL_ASSIGN: return OP_MUL;
	case OP_DIV_ASSIGN: return OP_DIV;
	case OP_MOD_ASSIGN: return OP_MOD;
	case OP_SHL_ASSIGN: return OP_SHL;
	case OP_SHR_ASSIGN: return OP_SHR;
	case OP_AND_ASSIGN: return OP_BAND;
	case OP_OR_ASSIGN: return OP_BOR;
	case OP_XOR_ASSIGN: return OP_BXOR;
	case OP_CONCAT_ASSIGN: return OP_CONCAT;
	default: return OP_NONE;
	}
}

static const char *
cg_binary(struct cg *g, struct node *n)
{
	const char *a = cg_tmp(g), *b = cg_tmp(g), *r = cg_tmp(g), *step;
	const char *lhs = cg_expr(g, n->u.binary.lhs);
	const char *rhs = cg_expr(g, n->u.binary.rhs);

	if (n->u.binary.op == OP_CONCAT) {
		const char *dst = cg_str_temp(g);

		return cg_fmt(g, "({ const char *%s = %s; const char *%s = %s; "
			      "tap_str_concat(%s, %s, %s); (const char *)%s; })",
			      a, lhs, b, rhs, dst, a, b, dst);
	}
	step = cg_arith(g, n->u.binary.op, a, b, cg_near(g, n), r);
	if (!step) {
		cg_unsupported(g, n, "this binary operator");
		return "((int64_t)0)";
	}
	return cg_fmt(g, "({ int64_t %s = %s; int64_t %s = %s; int64_t %s; "
		      "%s %s; })", a, lhs, b, rhs, r, step, r);
}

static const char *
cg_cmp_op(enum op op)
{
	switch (op) {
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	default: return "==";
	}
}

static const char *
cg_compare(struct cg *g, struct node *n)
{
	const char *a = cg_tmp(g), *b = cg_tmp(g);
	const char *lhs = cg_expr(g, n->u.binary.lhs);
	const char *rhs = cg_expr(g, n->u.binary.rhs);
	const char *op = cg_cmp_op(n->u.binary.op);

	if (cg_is_string(n->u.binary.lhs))
		return cg_fmt(g, "({ const char *%s = %s; const char *%s = %s; "
			      "(int64_t)(strcmp(%s, %s) %s 0); })",
			      a, lhs, b, rhs, a, b, op);
	return cg_fmt(g, "({ int64_t %s = %s; int64_t %s = %s; "
		      "(int64_t)(%s %s %s); })", a, lhs, b, rhs, a, op, b);
}

/* Where groups are kept, the runtime has room for TAP_RE_MAX_GROUPS of
 * them (pass 2 has checked that the pattern compiles). */
static void
cg_regex_check_groups(struct cg *g, struct node *pat, const char *s)
{
	regex_t re;

	if (!g->submatches || regcomp(&re, s, REG_EXTENDED | REG_NOSUB))
		return;
	if (re.re_nsub > TAP_RE_MAX_GROUPS) {
		diag_error(&g->s->diag, pat->loc, "E_REGEX_GROUPS",
			   "this regular expression has %zu subexpressions, more than the %d a script that calls matched() or ngroups() may have",
			   re.re_nsub, TAP_RE_MAX_GROUPS);
		g->failed = true;
	}
	regfree(&re);
}

/* =~ and !~: the pattern is a literal (pass 2 checks), compiled once at
 * init into a static tap_regex_t.  Where the program reads groups, both
 * operators leave what they found in the context for matched(), as
 * SystemTap's do. */
static const char *
cg_regex(struct cg *g, struct node *n)
{
	struct node *pat = n->u.binary.rhs;
	const char *name, *s;
	size_t len;

	if (pat->kind != N_STRING) {
		cg_unsupported(g, n, "a regular expression that is not a literal");
		return "((int64_t)0)";
	}
	name = cg_fmt(g, "__re%d", g->static_seq++);
	s = cg_unescape(g, pat->u.string.raw, &len);
	cg_regex_check_groups(g, pat, s);
	g->regexes = arena_grow(g->a, g->regexes, sizeof(*g->regexes),
				&g->regex_cap, g->nregex + 1);
	g->regexes[g->nregex].name = name;
	g->regexes[g->nregex].pattern = cg_c_string(g, s, len);
	g->nregex++;
	fprintf(g->decls, "static tap_regex_t %s;\n", name);
	return cg_fmt(g, "((int64_t)(tap_regex_match(&%s, %s, %s) %s 0))",
		      name, cg_expr(g, n->u.binary.lhs),
		      g->submatches ? "&c->match" : "NULL",
		      n->u.binary.op == OP_MATCH ? "!=" : "==");
}

static const char *
cg_logical(struct cg *g, struct node *n)
{
	return cg_fmt(g, "((int64_t)((%s) %s (%s)))",
		      cg_expr(g, n->u.binary.lhs),
		      n->u.binary.op == OP_ANDAND ? "&&" : "||",
		      cg_expr(g, n->u.binary.rhs));
}

static const char *
cg_ternary(struct cg *g, struct node *n)
{
	const char *cast = cg_is_string(n) ? "(const char *)" : "(int64_t)";

	return cg_fmt(g, "((%s) ? %s(%s) : %s(%s))",
		      cg_expr(g, n->u.ternary.cond), cast,
		      cg_expr(g, n->u.ternary.then_expr), cast,
		      cg_expr(g, n->u.ternary.else_expr));
}

/* ---- lvalues: scalar locals/globals and array elements ---- */

/* Assign `val` (an expression) to a scalar; the result is the new value. */
static const char *
cg_scalar_store(struct cg *g, struct symbol *sym, enum op op, const char *val,
		const char *near)
{
	const char *ref = cg_symbol_ref(g, sym);
	const char *v = cg_tmp(g), *r = cg_tmp(g);
	enum op bop = cg_assign_op(op);

	if (sym->type == TY_STRING) {
		if (op == OP_CONCAT_ASSIGN)
			return cg_fmt(g, "({ const char *%s = %s; "
				      "tap_str_append(%s, %s); "
				      "(const char *)%s; })", v, val, ref, v,
				      ref);
		return cg_fmt(g, "({ const char *%s = %s; tap_str_copy(%s, %s); "
			      "(const char *)%s; })", v, val, ref, v, ref);
	}
	if (sym->cpu_adds && sym->type == TY_LONG) {
		/* only where no other handler runs (codegen_counters.c) */
		if (op == OP_ASSIGN)
			return cg_fmt(g, "({ int64_t %s = %s; %s; })", v, val,
				      cg_counter_store(g, sym, v));
		return cg_fmt(g, "({ int64_t %s = %s; int64_t %s, __old%s = "
			      "%s; %s %s; })", v, val, r, r,
			      cg_counter_read(g, sym),
			      cg_arith(g, bop, cg_fmt(g, "__old%s", r), v,
				       near, r),
			      cg_counter_store(g, sym, r));
	}
	if (op == OP_ASSIGN)
		return cg_fmt(g, "({ int64_t %s = %s; %s = %s; %s; })", v, val,
			      ref, v, ref);
	return cg_fmt(g, "({ int64_t %s = %s; int64_t %s; %s %s = %s; %s; })",
		      v, val, r, cg_arith(g, bop, ref, v, near, r), ref, r,
		      ref);
}

/* Store into an array element; the result is the new value. */
static const char *
cg_elem_store(struct cg *g, struct node *idx, enum op op, const char *val,
	      const char *near)
{
	struct symbol *sym = cg_array_symbol(idx);
	const char *k, *m = cg_map_ref(g, sym), *rc = cg_tmp(g);
	const char *v = cg_tmp(g), *r = cg_tmp(g);
	const char *kd = cg_keys_decl(g, &idx->u.index.keys, &k, NULL);
	enum op bop = cg_assign_op(op);
	const char *anear = cg_near(g, idx);	/* stap names the array */

	if (sym->type == TY_STRING) {
		const char *dst = cg_str_temp(g);
		const char *make = op == OP_CONCAT_ASSIGN
			? cg_fmt(g, "tap_str_concat(%s, tap_map_get_str(%s, %s), %s);",
				 dst, m, k, v)
			: cg_fmt(g, "tap_str_copy(%s, %s);", dst, v);

		return cg_fmt(g, "({ %sconst char *%s = %s; int %s; %s "
			      "%s = tap_map_set_str(%s, %s, %s); %s "
			      "(const char *)%s; })", kd, v, val, rc, make, rc,
			      m, k, dst, cg_raise_rc(g, rc, sym, anear), dst);
	}
	if (op == OP_ASSIGN)
		return cg_fmt(g, "({ %sint64_t %s = %s; int %s = "
			      "tap_map_set_long(%s, %s, %s); %s %s; })", kd, v,
			      val, rc, m, k, v, cg_raise_rc(g, rc, sym, anear),
			      v);
	/* a[k]++, a[k] += x: one lookup, not a get and a set */
	if (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN)
		return cg_fmt(g, "({ %sint64_t %s = %s; int64_t %s; int %s = "
			      "tap_map_add_long(%s, %s, %s%s, &%s); %s %s; })",
			      kd, v, val, r, rc, m, k,
			      op == OP_SUB_ASSIGN ? "(int64_t)0 - (uint64_t)" : "",
			      v, r, cg_raise_rc(g, rc, sym, anear), r);
	return cg_fmt(g, "({ %sint64_t %s = %s; int64_t %s, __old%s = "
		      "tap_map_get_long(%s, %s); int %s; %s %s = "
		      "tap_map_set_long(%s, %s, %s); %s %s; })", kd, v, val, r,
		      r, m, k, rc,
		      cg_arith(g, bop, cg_fmt(g, "__old%s", r), v, near, r),
		      rc, m, k, r, cg_raise_rc(g, rc, sym, anear), r);
}

/* x <<< v */
static const char *
cg_stat_add(struct cg *g, struct node *n, const char *val)
{
	struct node *lhs = n->u.binary.lhs;
	struct symbol *sym = cg_array_symbol(lhs);
	const char *v = cg_tmp(g), *rc = cg_tmp(g), *k, *kd;

	if (!sym || sym->kind != SYM_GLOBAL) {
		cg_unsupported(g, n, "'<<<' into a local; statistics must be global");
		return "((int64_t)0)";
	}
	if (lhs->kind == N_SYMBOL)
		return cg_fmt(g, "({ int64_t %s = %s; tap_stat_add(&%s, %s); "
			      "%s; })", v, val, cg_global_name(sym), v, v);
	kd = cg_keys_decl(g, &lhs->u.index.keys, &k, NULL);
	return cg_fmt(g, "({ %sint64_t %s = %s; int %s = tap_pmap_add(&%s, "
		      "%s, %s); %s %s; })", kd, v, val, rc,
		      cg_global_name(sym), k, v,
		      cg_raise_rc(g, rc, sym, cg_near(g, lhs)), v);
}

/* Guru mode: a store into a $target, @var or @cast (pass 2 allowed it);
 * `x op= v` reads the old value first.  The result is the new value. */
static const char *
cg_target_update(struct cg *g, struct node *lhs, enum op op, const char *val,
		 const char *near)
{
	const char *o = cg_tmp(g), *v = cg_tmp(g), *r = cg_tmp(g);

	if (cg_is_value_store(lhs))
		return cg_value_store(g, lhs, op, val);
	if (op != OP_ASSIGN)
		val = cg_fmt(g, "({ int64_t %s = %s; int64_t %s = %s; int64_t %s; %s %s; })",
			     o, cg_expr(g, lhs), v, val, r,
			     cg_arith(g, cg_assign_op(op), o, v, near, r), r);
	return cg_target_store(g, lhs, val);
}

static const char *
cg_assign(struct cg *g, struct node *n)
{
	struct node *lhs = n->u.binary.lhs;
	enum op op = n->u.binary.op;
	const char *val = cg_expr(g, n->u.binary.rhs);
	const char *near = cg_near(g, n);

	if (op == OP_STAT_ADD)
		return cg_stat_add(g, n, val);
	if (lhs->kind == N_SYMBOL && lhs->u.symbol.sym)
		return cg_scalar_store(g, lhs->u.symbol.sym, op, val, near);
	if (lhs->kind == N_INDEX && cg_array_symbol(lhs))
		return cg_elem_store(g, lhs, op, val, near);
	if (lhs->kind == N_TARGET || lhs->kind == N_ATVAR ||
	    lhs->kind == N_CAST || lhs->kind == N_AUTOCAST)
		return cg_target_update(g, lhs, op, val, near);
	cg_unsupported(g, n, "assignment to this kind of expression");
	return "((int64_t)0)";
}

static const char *
cg_crement(struct cg *g, struct node *n)
{
	struct node *x = n->u.crement.operand;
	const char *delta = n->u.crement.op == OP_INC ? "((int64_t)1)"
						      : "((int64_t)-1)";
	const char *old = cg_tmp(g), *upd;

	if (x->kind == N_SYMBOL && x->u.symbol.sym)
		upd = cg_scalar_store(g, x->u.symbol.sym, OP_ADD_ASSIGN, delta,
				      cg_near(g, n));
	else if (x->kind == N_INDEX && cg_array_symbol(x))
		upd = cg_elem_store(g, x, OP_ADD_ASSIGN, delta, cg_near(g, n));
	else if (x->kind == N_TARGET || x->kind == N_ATVAR || x->kind == N_CAST ||
		 x->kind == N_AUTOCAST)
		upd = cg_target_update(g, x, OP_ADD_ASSIGN, delta, cg_near(g, n));
	else {
		cg_unsupported(g, n, "++/-- on this kind of expression");
		return "((int64_t)0)";
	}
	if (n->u.crement.prefix)
		return upd;
	/* postfix: the old value is the new one minus the step */
	return cg_fmt(g, "({ int64_t %s = %s; tap_sub(%s, %s); })", old, upd,
		      old, delta);
}

/* [k...] in a */
static const char *
cg_in(struct cg *g, struct node *n)
{
	struct symbol *sym = cg_array_symbol(n->u.in.array);
	const char *k, *kd;
	uint32_t wild;

	if (!sym || sym->nkeys == 0) {
		cg_unsupported(g, n, "'in' on this kind of expression");
		return "((int64_t)0)";
	}
	kd = cg_keys_decl(g, &n->u.in.keys, &k, &wild);
	if (wild)
		return cg_fmt(g, "({ %s(int64_t)tap_%s_slice_exists(&%s, %s, "
			      "0x%xu); })", kd,
			      cg_is_stat_array(sym) ? "pmap" : "map",
			      cg_global_name(sym), k, wild);
	return cg_fmt(g, "({ %s(int64_t)tap_%s_exists(&%s, %s); })", kd,
		      cg_is_stat_array(sym) ? "pmap" : "map",
		      cg_global_name(sym), k);
}

/* The tap_stat_data * of a stat expression: a scalar or an element. */
const char *
cg_stat_data(struct cg *g, struct node *n)
{
	struct symbol *sym = cg_array_symbol(n);
	const char *k, *kd;

	if (!sym) {
		cg_unsupported(g, n, "statistics of this kind of expression");
		return "NULL";
	}
	if (n->kind == N_SYMBOL)
		return cg_fmt(g, "tap_stat_get(&%s)", cg_global_name(sym));
	kd = cg_keys_decl(g, &n->u.index.keys, &k, NULL);
	return cg_fmt(g, "({ %stap_pmap_get(&%s, %s); })", kd,
		      cg_global_name(sym), k);
}

static const char *
cg_stat_desc(struct cg *g, struct node *n)
{
	struct symbol *sym = cg_array_symbol(n);

	if (!sym)
		return "NULL";
	if (n->kind == N_SYMBOL)
		return cg_fmt(g, "(&%s.desc)", cg_global_name(sym));
	return cg_fmt(g, "(&%s.agg.stat_desc)", cg_global_name(sym));
}

static const char *
cg_stat_op(struct cg *g, struct node *n)
{
	struct node *x = n->u.stat.operand;
	const char *sd = cg_stat_data(g, x), *r = cg_tmp(g), *p = cg_tmp(g);
	const char *raise = cg_raise(g, "empty aggregate", cg_near(g, n));
	const char *call;

	switch (n->u.stat.op) {
	case OP_COUNT:
		return cg_fmt(g, "tap_stat_count(%s)", sd);
	case OP_SUM:
		if (session_compat_before(g->s, "1.5"))	/* compat.h */
			return cg_fmt(g, "({ const struct tap_stat_data *%s = "
				      "%s; if (!tap_stat_count(%s)) %s "
				      "tap_stat_sum(%s); })", p, sd, p, raise, p);
		return cg_fmt(g, "tap_stat_sum(%s)", sd);
	case OP_MIN: call = "tap_stat_min(%s, &%s)"; break;
	case OP_MAX: call = "tap_stat_max(%s, &%s)"; break;
	case OP_AVG: call = "tap_stat_avg(%s, &%s)"; break;
	case OP_VARIANCE:
		return cg_fmt(g, "({ const struct tap_stat_data *%s = %s; "
			      "int64_t %s; if (tap_stat_variance(%s, %s, &%s)) "
			      "%s %s; })", p, sd, r, cg_stat_desc(g, x), p, r,
			      raise, r);
	default:
		cg_unsupported(g, n, "this statistic");
		return "((int64_t)0)";
	}
	return cg_fmt(g, "({ const struct tap_stat_data *%s = %s; int64_t %s; "
		      "if (%s) %s %s; })", p, sd, r, cg_fmt(g, call, p, r),
		      raise, r);
}

/* @hist_log(s)[i]: one bucket's count. */
static const char *
cg_hist_bucket(struct cg *g, struct node *n)
{
	struct node *h = n->u.index.base;
	struct node *x = h->u.hist.operand;
	const char *r = cg_tmp(g), *i = cg_tmp(g);

	if (n->u.index.keys.n != 1 || !n->u.index.keys.v[0]) {
		cg_unsupported(g, n, "this histogram index");
		return "((int64_t)0)";
	}
	return cg_fmt(g, "({ int64_t %s = %s, %s; int __rc = tap_hist_bucket_count("
		      "%s, %s, %s, &%s); if (__rc) { tap_error_at(c, __rc == "
		      "TAP_EEMPTY ? \"empty aggregate\" : \"histogram index out "
		      "of range\", %s); goto %s; } %s; })", i,
		      cg_expr(g, n->u.index.keys.v[0]), r, cg_stat_desc(g, x),
		      cg_stat_data(g, x), i, r,
		      cg_c_string(g, cg_near(g, n), strlen(cg_near(g, n))),
		      g->err_label, r);
}

static const char *
cg_index_read(struct cg *g, struct node *n)
{
	struct symbol *sym;
	const char *k, *kd;

	if (n->u.index.base->kind == N_HIST)
		return cg_hist_bucket(g, n);
	sym = cg_array_symbol(n);
	if (!sym || sym->type == TY_STATS) {
		cg_unsupported(g, n, "reading this kind of element");
		return "((int64_t)0)";
	}
	kd = cg_keys_decl(g, &n->u.index.keys, &k, NULL);
	if (sym->type == TY_STRING)
		return cg_fmt(g, "({ %stap_map_get_str(&%s, %s); })", kd,
			      cg_global_name(sym), k);
	return cg_fmt(g, "({ %stap_map_get_long(&%s, %s); })", kd,
		      cg_global_name(sym), k);
}

static const char *
cg_call(struct cg *g, struct node *n)
{
	if (cg_is_print_family(n->u.call.name))
		return cg_print_call(g, n);
	if (n->u.call.fn)
		return cg_function_call(g, n);
	if (n->u.call.builtin)
		return cg_builtin_call(g, n);
	cg_unsupported(g, n, "a call to an unresolved function");
	return "((int64_t)0)";
}

static const char *
cg_not_here(struct cg *g, struct node *n)
{
	cg_unsupported(g, n, "this construct on the user-space target");
	return n->type == TY_STRING ? "\"\"" : "((int64_t)0)";
}

/*
 * %{ code %} used as a value (guru mode): the C expression itself, a long
 * unless it says / * string * /.  As in an embedded function,
 * STAP_ARG_x names parameter x of the script function around it and
 * CONTEXT the probe context; they are replaced in the text here rather than
 * #defined, since the expression may land inside a macro's arguments.
 * Kernel modules only: the user-space target has no kernel to run it in.
 */
static const char *
cg_embedded_expr(struct cg *g, struct node *n)
{
	const char *code = n->u.embedded_expr.code, *p = code;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (cg_backend(g) != BACKEND_KMOD) {
		cg_unsupported(g, n, "embedded C as a value (%{ ... %}) for the user-space target");
		return n->type == TY_STRING ? "\"\"" : "((int64_t)0)";
	}
	f = open_memstream(&out, &len);
	while (*p) {
		size_t id = 0;

		if (isalpha((unsigned char)*p) || *p == '_')
			while (isalnum((unsigned char)p[id]) || p[id] == '_')
				id++;
		if (!id) {
			fputc(*p++, f);
			continue;
		}
		if (id > 9 && strncmp(p, "STAP_ARG_", 9) == 0) {
			struct function_sym *fn = g->frame && g->frame->is_function ?
						  g->frame->fn : NULL;
			const char *ref = NULL;

			for (int i = 0; fn && i < fn->nparams && !ref; i++)
				if (strlen(fn->params[i]->name) == id - 9 &&
				    strncmp(fn->params[i]->name, p + 9, id - 9) == 0)
					ref = cg_symbol_ref(g, fn->params[i]);
			if (!ref) {
				diag_error(&g->s->diag, n->loc, "E_EMBEDDED_ARG",
					   "%.*s in embedded C names no parameter of a function around it",
					   (int)id, p);
				g->failed = true;
				break;
			}
			fprintf(f, "(%s)", ref);
			p += id;
			continue;
		}
		if (id == 7 && strncmp(p, "CONTEXT", 7) == 0)
			fputs("c", f);
		else
			fwrite(p, 1, id, f);
		p += id;
	}
	fclose(f);
	code = cg_fmt(g, "%s", out);
	free(out);
	if (n->type == TY_STRING)
		return cg_fmt(g, "((const char *)(%s))", code);
	return cg_fmt(g, "((int64_t)(%s))", code);
}

/* @perf("NAME"): the thread's count of the counter's events so far (the
 * probe's hit opened it: runtime/linux/probes_perf.c); a counter the
 * machine could not open is a script error. */
static const char *
cg_perf_read(struct cg *g, struct node *n)
{
	const struct node *arg = n->u.atop.args.v[0];
	const struct perf_counter *pc = program_counter(g->prog,
							arg->u.string.raw);
	const char *near = cg_near(g, n);

	return cg_fmt(g, "({ int64_t __v = tap_perf_counter_read(c, %d); "
		      "if (unlikely(c->error)) { c->last_stmt = %s; goto %s; } "
		      "__v; })", pc->index, cg_c_string(g, near, strlen(near)),
		      g->err_label);
}

const char *
cg_expr(struct cg *g, struct node *n)
{
	switch (n->kind) {
	case N_NUMBER: return cg_number(g, n);
	case N_STRING: return cg_string_lit(g, n);
	case N_SYMBOL: return cg_symbol_read(g, n);
	case N_UNARY: return cg_unary(g, n);
	case N_CREMENT: return cg_crement(g, n);
	case N_BINARY: return cg_binary(g, n);
	case N_COMPARE: return cg_compare(g, n);
	case N_REGEX: return cg_regex(g, n);
	case N_LOGICAL: return cg_logical(g, n);
	case N_TERNARY: return cg_ternary(g, n);
	case N_ASSIGN: return cg_assign(g, n);
	case N_IN: return cg_in(g, n);
	case N_INDEX: return cg_index_read(g, n);
	case N_CALL: return cg_call(g, n);
	case N_STAT_OP: return cg_stat_op(g, n);
	case N_TARGET:
		return cg_target_expr(g, n);
	case N_CAST:
		return cg_access(g, n->u.cast.access, n);
	case N_ENTRY:
		return cg_entry_value(g, n);
	case N_ATVAR:
		return cg_access(g, n->u.atvar.access, n);
	case N_AUTOCAST:
		return cg_access(g, n->u.autocast.access, n);
	case N_PERF:
		return cg_perf_read(g, n);
	case N_DEFINED:
	case N_PROBEWRITE:
	case N_REGISTER:
	case N_DEREF: case N_CONST:
	case N_HIST:
		return cg_not_here(g, n);
	case N_EMBEDDED_EXPR:
		return cg_embedded_expr(g, n);
	case N_PROBE:
	case N_ALIAS:
	case N_FUNCTION:
	case N_GLOBAL:
	case N_EMBED:
	case N_PROBE_POINT:
	case N_BLOCK:
	case N_NULL_STMT:
	case N_EXPR_STMT:
	case N_IF:
	case N_WHILE:
	case N_FOR:
	case N_FOREACH:
	case N_BREAK:
	case N_CONTINUE:
	case N_NEXT:
	case N_RETURN:
	case N_DELETE:
	case N_TRY:
	case N_KIND_COUNT:
		break;
	}
	cg_unsupported(g, n, "a statement where an expression belongs");
	return "((int64_t)0)";
}
