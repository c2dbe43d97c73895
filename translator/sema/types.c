/*
 * types.c -- type inference and checking for the elaborated program.
 *
 * Types flow both ways: from literals, context variables and function
 * signatures into symbols, and from symbols back into expressions. The
 * walk repeats until nothing changes, then a last walk reports what is
 * wrong (mismatches, arrays used as scalars, statistics read directly).
 * Every expression's type ends in node->type; every symbol's in its
 * struct symbol.
 */
#include <string.h>

#include "runtime/core/format.h"
#include "translator/parse/strlit.h"
#include "translator/sema/builtins.h"
#include "translator/sema/elab.h"
#include "translator/sema/tvar_access.h"
#include "translator/sema/tvar_walk.h"

#define TYPES_MAX_ROUNDS 32

struct typer {
	struct elab *e;
	struct function_sym *fn;	/* the function being typed, or NULL */
	bool changed;
	bool final;			/* last walk: report problems */
	bool decide_defined;		/* @defined(x->m) not found yet is 0 */
};

static enum type ty(struct typer *t, struct node *n);
static enum type ty_access(const struct ta_access *a);
static void ty_path(struct typer *t, struct target_path *path);
static void ty_stmt(struct typer *t, struct node *n);

static struct diag *
D(struct typer *t)
{
	return &t->e->s->diag;
}

static void
mismatch(struct typer *t, struct loc at, const char *what, enum type want,
	 enum type got)
{
	if (!t->final)
		return;
	if (what)
		diag_error(D(t), at, "E_TYPE",
			   "type mismatch: %s is %s, but %s here",
			   what, type_name(want), type_name(got));
	else
		diag_error(D(t), at, "E_TYPE",
			   "type mismatch: expected %s here, not %s",
			   type_name(want), type_name(got));
}

/* Give symbol `s` type `ty` (first one wins; others are mismatches). */
static void
unify_sym(struct typer *t, struct symbol *s, enum type want, struct loc at)
{
	if (want == TY_UNKNOWN || want == TY_VOID)
		return;
	if (s->type == TY_UNKNOWN) {
		s->type = want;
		t->changed = true;
	} else if (s->type != want) {
		char what[160];
		snprintf(what, sizeof(what), "'%s'", s->name);
		mismatch(t, at, what, s->type, want);
	}
}

static void
unify_key(struct typer *t, struct symbol *s, int i, enum type want,
	  struct loc at)
{
	if (want == TY_UNKNOWN || i >= SEMA_MAX_KEYS)
		return;
	if (s->key_types[i] == TY_UNKNOWN) {
		s->key_types[i] = want;
		t->changed = true;
	} else if (s->key_types[i] != want) {
		char what[160];
		snprintf(what, sizeof(what), "key %d of array '%s'", i + 1,
			 s->name);
		mismatch(t, at, what, s->key_types[i], want);
	}
}

static void
set_arity(struct typer *t, struct symbol *s, int nkeys, struct loc at)
{
	if (s->nkeys == 0 && nkeys > 0 && !s->read && !s->written) {
		s->nkeys = nkeys;
		t->changed = true;
	} else if (s->nkeys == 0 && nkeys > 0) {
		s->nkeys = nkeys;
		t->changed = true;
	} else if (nkeys != s->nkeys && t->final) {
		diag_error(D(t), at, "E_ARITY",
			   "'%s' is used with %d index%s here and %d elsewhere",
			   s->name, nkeys, nkeys == 1 ? "" : "es", s->nkeys);
	}
}

/* Push an expected type into an expression that can take one. */
static void
expect(struct typer *t, struct node *n, enum type want)
{
	enum type got;

	if (!n || want == TY_UNKNOWN)
		return;
	switch (n->kind) {
	case N_SYMBOL:
		unify_sym(t, n->u.symbol.sym, want, n->loc);
		break;
	case N_INDEX:
		if (n->u.index.base->kind == N_SYMBOL)
			unify_sym(t, n->u.index.base->u.symbol.sym, want,
				  n->loc);
		break;
	case N_CALL:
		if (n->u.call.fn && n->u.call.fn->ret == TY_UNKNOWN) {
			n->u.call.fn->ret = want;
			t->changed = true;
		}
		/* A builtin with no value (exit(), error()) where a number
		 * goes, as in `n && exit()`: SystemTap leaves its type open
		 * and accepts it; its value is 0 (codegen_builtin.c). */
		if (n->u.call.builtin && n->u.call.builtin->ret == TY_VOID &&
		    want == TY_LONG) {
			ty(t, n);
			return;
		}
		break;
	case N_TERNARY:
		expect(t, n->u.ternary.then_expr, want);
		expect(t, n->u.ternary.else_expr, want);
		break;
	case N_ASSIGN:
		if (n->u.binary.op == OP_ASSIGN) {
			expect(t, n->u.binary.lhs, want);
			expect(t, n->u.binary.rhs, want);
		}
		break;
	default:
		break;
	}
	got = ty(t, n);
	if (got != TY_UNKNOWN && got != want)
		mismatch(t, n->loc, NULL, want, got);
}

static void
mark(struct node *n, bool write)
{
	struct symbol *s = NULL;

	if (n->kind == N_SYMBOL)
		s = n->u.symbol.sym;
	else if (n->kind == N_INDEX && n->u.index.base->kind == N_SYMBOL)
		s = n->u.index.base->u.symbol.sym;
	if (!s)
		return;
	if (write)
		s->written = true;
	else
		s->read = true;
}

/* ---- autocast: values that keep their debug-info type ----
 *
 * As in SystemTap, a value read from a $target variable, @cast or @var
 * keeps its BTF or DWARF type when it is stored in a local, returned
 * from a function, or passed through '?:', '=' or @entry, so that
 * `p = $file; p->f_pos` needs no @cast.  A local given values of two
 * different types keeps none (a plain long).  Globals (any probe, or -G,
 * may set them) and function parameters are not typed this way, as
 * SystemTap's own tests ask. */

static const struct ta_vtype *
access_vtype(const struct ta_access *a)
{
	return a && a->vtype.ops ? &a->vtype : NULL;
}

static const struct ta_vtype *
vtype_of(struct node *n)
{
	const struct ta_vtype *a, *b;

	if (!n)
		return NULL;
	switch (n->kind) {
	case N_TARGET: return access_vtype(n->u.target.access);
	case N_CAST: return access_vtype(n->u.cast.access);
	case N_ATVAR: return access_vtype(n->u.atvar.access);
	case N_AUTOCAST: return access_vtype(n->u.autocast.access);
	case N_SYMBOL:
		if (!n->u.symbol.sym || n->u.symbol.sym->vtype_mixed)
			return NULL;
		return n->u.symbol.sym->vtype.ops ? &n->u.symbol.sym->vtype : NULL;
	case N_CALL:
		if (!n->u.call.fn || n->u.call.fn->ret_vtype_mixed)
			return NULL;
		return n->u.call.fn->ret_vtype.ops ? &n->u.call.fn->ret_vtype
						   : NULL;
	case N_ASSIGN:
		return n->u.binary.op == OP_ASSIGN ? vtype_of(n->u.binary.rhs)
						   : NULL;
	case N_ENTRY:
		return vtype_of(n->u.atop.args.v[0]);
	case N_TERNARY:
		a = vtype_of(n->u.ternary.then_expr);
		b = vtype_of(n->u.ternary.else_expr);
		if (a && b && !ta_vtype_same(a, b))
			return NULL;
		return a ? a : b;
	default:
		return NULL;
	}
}

/* A value of type `v` stored into `into` (a symbol, a function's return). */
static void
merge_vtype(struct typer *t, struct ta_vtype *into, bool *mixed,
	    const struct ta_vtype *v)
{
	if (!v || *mixed)
		return;
	if (!into->ops) {
		*into = *v;
		t->changed = true;
	} else if (!ta_vtype_same(into, v)) {
		*mixed = true;
		t->changed = true;
	}
}

/* The operand as written, for messages: "p", "f(...)", "(...)". */
static const char *
operand_text(struct typer *t, const struct node *op)
{
	if (op->kind == N_SYMBOL)
		return op->u.symbol.name;
	if (op->kind == N_CALL)
		return arena_printf(t->e->s->arena, "%s(...)", op->u.call.name);
	return "(...)";
}

/* `n`'s walk from the operand's type; quiet before the last round, when
 * a failure may only mean the type is not known yet. */
static struct ta_access *
autocast_walk(struct typer *t, struct node *n, const struct ta_vtype *v,
	      bool quiet)
{
	struct diag *d = D(t);
	struct diag_mark held;
	struct ta_access *a;

	if (quiet)
		diag_hold(d, &held);
	a = tw_walk_value(t->e, v, n->u.autocast.operand, &n->u.autocast.path,
			  operand_text(t, n->u.autocast.operand), n->loc);
	if (quiet) {
		if (diag_held_errors(d, &held))
			a = NULL;
		diag_release(d, &held, false);
	}
	return a;
}

static void
autocast_untyped(struct typer *t, struct node *n)
{
	struct node *op = n->u.autocast.operand;
	const char *what = operand_text(t, op);

	if (op->kind == N_SYMBOL && op->u.symbol.sym &&
	    op->u.symbol.sym->vtype_mixed)
		diag_error(D(t), n->loc, "E_AUTOCAST",
			   "'%s' is given values of different types, so its members cannot be found",
			   what);
	else if (op->kind == N_SYMBOL && op->u.symbol.sym &&
		 op->u.symbol.sym->kind == SYM_GLOBAL)
		diag_error(D(t), n->loc, "E_AUTOCAST",
			   "the type of global '%s' is unknown: globals do not keep the type of what is stored in them (any probe may store into them), locals do",
			   what);
	else
		diag_error(D(t), n->loc, "E_AUTOCAST",
			   "the type of '%s' is unknown: only values from $target variables, @cast and @var (directly, or through variables and function returns) have members",
			   what);
	diag_hint(D(t), "@cast(%s, \"type\"[, \"module\"]) names its type", what);
}

static enum type
ty_autocast(struct typer *t, struct node *n)
{
	struct node *op = n->u.autocast.operand;
	const struct ta_vtype *v;
	struct ta_access *a;

	ty(t, op);
	ty_path(t, &n->u.autocast.path);
	v = vtype_of(op);
	if (n->u.autocast.access) {
		if (t->final && !(v && ta_vtype_same(v, n->u.autocast.vtype)))
			autocast_untyped(t, n);
		return ty_access(n->u.autocast.access);
	}
	if (!v) {
		if (t->final)
			autocast_untyped(t, n);
		return TY_UNKNOWN;
	}
	if (!(a = autocast_walk(t, n, v, !t->final)))
		return TY_UNKNOWN;
	n->u.autocast.access = a;
	n->u.autocast.vtype = arena_alloc(t->e->s->arena, sizeof(*v));
	*n->u.autocast.vtype = *v;
	t->changed = true;
	return ty_access(a);
}

/* @defined(x->member) (resolve.c left it): 1 once x's type is known and
 * has the member, 0 when the types are settled and it has not. */
static enum type
ty_defined(struct typer *t, struct node *n)
{
	struct node *arg = n->u.atop.args.v[0];
	const struct ta_vtype *v;
	bool defined;

	if (arg->kind != N_AUTOCAST)
		return TY_LONG;
	if (arg->u.autocast.operand->kind != N_SYMBOL)
		ty(t, arg->u.autocast.operand);	/* a local is not read */
	v = vtype_of(arg->u.autocast.operand);
	defined = v && autocast_walk(t, arg, v, true);
	if (!defined && !t->final && !t->decide_defined)
		return TY_LONG;
	n->kind = N_NUMBER;
	n->u.number.value = defined;
	n->u.number.text = defined ? "1" : "0";
	t->changed = true;
	return TY_LONG;
}

/* Whether `cond` is an @defined() over an autocast still undecided
 * (after ty(cond)); when decided, *value is its value. */
static bool
defined_pending(struct typer *t, struct node *cond, bool *value)
{
	if (!cond || cond->kind != N_DEFINED ||
	    cond->u.atop.args.v[0]->kind != N_AUTOCAST)
		return false;
	ty(t, cond);
	if (cond->kind == N_DEFINED)
		return true;
	*value = cond->u.number.value != 0;
	return false;
}

/* `a ? b : c` and `if (a) b else c` with `a` an @defined() over an
 * autocast (@choose_defined(x->m, ...)): nothing is typed before it is
 * decided, then only the branch taken stays, as when resolve.c folds
 * @defined($var) -- the other may name members that do not exist. */
static bool
branch_on_defined(struct typer *t, struct node *cond, struct node **then_,
		  struct node **else_, bool *pending)
{
	bool value = false;

	*pending = false;
	if (!cond || cond->kind != N_DEFINED ||
	    cond->u.atop.args.v[0]->kind != N_AUTOCAST)
		return false;
	if ((*pending = defined_pending(t, cond, &value)))
		return true;
	if (value)
		*else_ = NULL;
	else
		*then_ = NULL;
	return true;
}

/* Guru mode writes through an autocast (resolve.c checked -g): what it
 * reaches must be an object. */
static void
check_autocast_write(struct typer *t, struct node *lhs)
{
	const char *why;

	if (!t->final || lhs->kind != N_AUTOCAST || !lhs->u.autocast.access)
		return;
	if (!ta_writable(lhs->u.autocast.access, &why))
		diag_error(D(t), lhs->loc, "E_TARGET_WRITE",
			   "'%s' cannot be written: %s",
			   operand_text(t, lhs->u.autocast.operand), why);
}

static enum type
ty_symbol(struct typer *t, struct node *n)
{
	struct symbol *s = n->u.symbol.sym;

	if (!s)
		return TY_UNKNOWN;
	if (t->final && s->nkeys > 0)
		diag_error(D(t), n->loc, "E_ARRAY_AS_SCALAR",
			   "array '%s' used without an index", s->name);
	if (t->final && s->type == TY_STATS)
		diag_error(D(t), n->loc, "E_STATS_READ",
			   "statistics '%s' can only be read with @count, @sum, @min, @max, @avg, @variance or a histogram",
			   s->name);
	return s->type;
}

static enum type
ty_keys(struct typer *t, struct symbol *s, struct node_list *keys,
	struct loc at)
{
	set_arity(t, s, keys->n, at);
	for (int i = 0; i < keys->n; i++) {
		if (!keys->v[i])
			continue;	/* '*' in a slice */
		enum type kt = ty(t, keys->v[i]);
		if (kt == TY_UNKNOWN && s->key_types[i] != TY_UNKNOWN)
			expect(t, keys->v[i], s->key_types[i]);
		unify_key(t, s, i, kt, keys->v[i]->loc);
	}
	return s->type;
}

static struct symbol *
array_symbol(struct typer *t, struct node *base)
{
	if (base->kind != N_SYMBOL)
		return NULL;
	struct symbol *s = base->u.symbol.sym;
	if (s && s->kind != SYM_GLOBAL && t->final)
		diag_error(D(t), base->loc, "E_LOCAL_ARRAY",
			   "array '%s' must be declared global", s->name);
	return s;
}

static enum type
ty_index(struct typer *t, struct node *n)
{
	struct node *base = n->u.index.base;

	if (base->kind == N_HIST) {
		ty(t, base);
		expect(t, n->u.index.keys.v[0], TY_LONG);
		return TY_LONG;
	}
	struct symbol *s = array_symbol(t, base);
	if (!s)
		return TY_UNKNOWN;
	s->read = true;
	base->type = s->type;
	return ty_keys(t, s, &n->u.index.keys, n->loc);
}

static enum type
ty_binary(struct typer *t, struct node *n)
{
	struct node *l = n->u.binary.lhs, *r = n->u.binary.rhs;

	switch (n->kind) {
	case N_COMPARE: {
		enum type lt = ty(t, l), rt = ty(t, r);
		if (lt == TY_UNKNOWN && rt != TY_UNKNOWN)
			expect(t, l, rt);
		else if (rt == TY_UNKNOWN && lt != TY_UNKNOWN)
			expect(t, r, lt);
		else if (lt != rt)
			mismatch(t, n->loc, "a comparison", lt, rt);
		return TY_LONG;
	}
	case N_REGEX:
		expect(t, l, TY_STRING);
		expect(t, r, TY_STRING);
		return TY_LONG;
	case N_LOGICAL:
		expect(t, l, TY_LONG);
		expect(t, r, TY_LONG);
		return TY_LONG;
	default:
		break;
	}
	if (n->u.binary.op == OP_CONCAT) {
		expect(t, l, TY_STRING);
		expect(t, r, TY_STRING);
		return TY_STRING;
	}
	expect(t, l, TY_LONG);
	expect(t, r, TY_LONG);
	return TY_LONG;
}

static enum type
ty_assign(struct typer *t, struct node *n)
{
	struct node *l = n->u.binary.lhs, *r = n->u.binary.rhs;
	enum op op = n->u.binary.op;

	mark(l, true);
	check_autocast_write(t, l);
	if (op == OP_STAT_ADD) {
		expect(t, r, TY_LONG);
		if (l->kind == N_SYMBOL)
			unify_sym(t, l->u.symbol.sym, TY_STATS, l->loc);
		else if (l->kind == N_INDEX) {
			ty(t, l);
			if (l->u.index.base->kind == N_SYMBOL)
				unify_sym(t, l->u.index.base->u.symbol.sym,
					  TY_STATS, l->loc);
		}
		return TY_VOID;
	}
	if (op == OP_CONCAT_ASSIGN) {
		expect(t, l, TY_STRING);
		expect(t, r, TY_STRING);
		return TY_STRING;
	}
	if (op != OP_ASSIGN) {
		expect(t, l, TY_LONG);
		expect(t, r, TY_LONG);
		return TY_LONG;
	}
	enum type rt = ty(t, r);
	if (l->kind == N_SYMBOL && l->u.symbol.sym &&
	    l->u.symbol.sym->kind == SYM_LOCAL)
		merge_vtype(t, &l->u.symbol.sym->vtype,
			    &l->u.symbol.sym->vtype_mixed, vtype_of(r));
	enum type lt = l->kind == N_SYMBOL ? (l->u.symbol.sym ?
		l->u.symbol.sym->type : TY_UNKNOWN) : ty(t, l);
	if (rt != TY_UNKNOWN)
		expect(t, l, rt);
	else if (lt != TY_UNKNOWN)
		expect(t, r, lt);
	if (t->final && (rt == TY_STATS || lt == TY_STATS))
		diag_error(D(t), n->loc, "E_STATS_ASSIGN",
			   "statistics take values with '<<<', not '='");
	return rt != TY_UNKNOWN ? rt : lt;
}

/* printf("%s = %d", n, a[n]) also types n and a[n] when nothing else
 * does (SystemTap reads types from the directives; a script whose only
 * writes are in optional probes that matched nothing needs it). Only
 * arguments of unknown type: a mismatch is checks.c's to report. */
static void
format_hints(struct typer *t, struct node *n)
{
	struct node_list *args = &n->u.call.args;
	size_t len;
	unsigned int off = 0;

	if (args->n < 2 || args->v[0]->kind != N_STRING ||
	    (strcmp(n->u.call.name, "printf") != 0 &&
	     strcmp(n->u.call.name, "sprintf") != 0))
		return;
	const char *fmt = strlit_unescape(t->e->s->arena, args->v[0]->u.string.raw, &len);
	unsigned int max = tap_fmt_count_pieces(fmt) + 1;
	struct tap_fmt_piece *pieces = arena_alloc(t->e->s->arena, sizeof(*pieces) * max);
	struct tap_fmt f;

	if (tap_fmt_compile(&f, fmt, pieces, max, &off) != TAP_OK)
		return;
	for (int i = 1; i < args->n; i++) {
		enum tap_type want = tap_fmt_arg_type(&f, (unsigned int)i - 1);
		if (want == TAP_T_NONE)
			break;
		struct node *a = args->v[i];
		if (ty(t, a) != TY_UNKNOWN)
			continue;
		expect(t, a, want == TAP_T_STRING ? TY_STRING : TY_LONG);
		if (a->kind == N_SYMBOL && a->u.symbol.sym)
			a->u.symbol.sym->format_typed = true;
	}
}

/* With --json (tapc's), print(a) / println(a) of a whole array or
 * statistics global is one JSON document (codegen_autoprint.c): the one
 * place a global is used without an index or an aggregate operator.
 * Without it the script means what it means to SystemTap, which refuses
 * both. */
bool
sema_is_whole_print(const struct session *ss, const struct node *n)
{
	const struct node *a;
	const struct symbol *s;

	if (!ss->opts.json_output || n->kind != N_CALL || n->u.call.args.n != 1 ||
	    (strcmp(n->u.call.name, "print") != 0 &&
	     strcmp(n->u.call.name, "println") != 0))
		return false;
	a = n->u.call.args.v[0];
	s = a->kind == N_SYMBOL ? a->u.symbol.sym : NULL;
	return s && s->kind == SYM_GLOBAL && (s->nkeys > 0 || s->type == TY_STATS);
}

static enum type
ty_call(struct typer *t, struct node *n)
{
	struct function_sym *f = n->u.call.fn;
	const char *name = n->u.call.name;

	if (sema_is_whole_print(t->e->s, n)) {
		n->u.call.args.v[0]->u.symbol.sym->read = true;
		return TY_VOID;
	}
	for (int i = 0; i < n->u.call.args.n; i++) {
		struct node *a = n->u.call.args.v[i];
		if (f && i < f->nparams) {
			struct symbol *p = f->params[i];
			enum type at = ty(t, a);
			if (at == TY_UNKNOWN)
				expect(t, a, p->type);
			else
				unify_sym(t, p, at, a->loc);
		} else {
			ty(t, a);
		}
	}
	if (f)
		return f->ret;
	const struct builtin *b = n->u.call.builtin;
	if (b) {
		for (int i = 0; i < b->nparams; i++)
			expect(t, n->u.call.args.v[i], b->params[i]);
		return b->ret;
	}
	format_hints(t, n);
	if (strncmp(name, "sprint", 6) == 0)
		return TY_STRING;
	return TY_VOID;
}

static enum type
ty_in(struct typer *t, struct node *n)
{
	struct symbol *s = array_symbol(t, n->u.in.array);

	if (s) {
		s->read = true;
		ty_keys(t, s, &n->u.in.keys, n->loc);
	}
	return TY_LONG;
}

static enum type
ty_stat_operand(struct typer *t, struct node *op)
{
	mark(op, false);
	if (op->kind == N_SYMBOL && op->u.symbol.sym) {
		unify_sym(t, op->u.symbol.sym, TY_STATS, op->loc);
		return TY_STATS;
	}
	if (op->kind == N_INDEX) {
		ty(t, op);
		if (op->u.index.base->kind == N_SYMBOL)
			unify_sym(t, op->u.index.base->u.symbol.sym, TY_STATS,
				  op->loc);
		return TY_STATS;
	}
	if (t->final)
		diag_error(D(t), op->loc, "E_NOT_STATS",
			   "statistics operators take a statistics variable or array element");
	return TY_UNKNOWN;
}

/* Index expressions in a $var's or @cast's path are numbers. */
static void
ty_path(struct typer *t, struct target_path *path)
{
	for (int i = 0; i < path->nsteps; i++)
		if (path->steps[i].kind == STEP_INDEX)
			expect(t, path->steps[i].index, TY_LONG);
}

/* What a $target read gives the script (tvar_access.h). */
static enum type
ty_access(const struct ta_access *a)
{
	return a->result.kind == TA_RES_STRING ||
	       a->result.kind == TA_RES_PRETTY ? TY_STRING : TY_LONG;
}

static enum type
ty_hist(struct typer *t, struct node *n)
{
	ty_stat_operand(t, n->u.hist.operand);
	if (n->u.hist.kind == HIST_LINEAR) {
		expect(t, n->u.hist.lo, TY_LONG);
		expect(t, n->u.hist.hi, TY_LONG);
		expect(t, n->u.hist.step, TY_LONG);
	}
	return TY_STATS;
}

static enum type
ty_uncached(struct typer *t, struct node *n)
{
	switch (n->kind) {
	case N_NUMBER: return TY_LONG;
	case N_STRING: return TY_STRING;
	case N_SYMBOL:
		mark(n, false);
		return ty_symbol(t, n);
	case N_TARGET:
		ty_path(t, &n->u.target.path);
		if (n->u.target.access)
			return ty_access(n->u.target.access);
		return n->u.target.cv ? n->u.target.cv->type : TY_UNKNOWN;
	case N_CAST:
		expect(t, n->u.cast.operand, TY_LONG);
		ty_path(t, &n->u.cast.path);
		return n->u.cast.access ? ty_access(n->u.cast.access) : TY_LONG;
	case N_UNARY:
		expect(t, n->u.unary.operand, TY_LONG);
		return TY_LONG;
	case N_CREMENT:
		mark(n->u.crement.operand, true);
		check_autocast_write(t, n->u.crement.operand);
		expect(t, n->u.crement.operand, TY_LONG);
		return TY_LONG;
	case N_BINARY: case N_COMPARE: case N_REGEX: case N_LOGICAL:
		return ty_binary(t, n);
	case N_TERNARY: {
		struct node *then_ = n->u.ternary.then_expr;
		struct node *else_ = n->u.ternary.else_expr;
		bool pending;
		if (branch_on_defined(t, n->u.ternary.cond, &then_, &else_,
				      &pending)) {
			if (pending)
				return TY_UNKNOWN;
			*n = then_ ? *then_ : *else_;	/* the branch taken */
			t->changed = true;
			return ty(t, n);
		}
		expect(t, n->u.ternary.cond, TY_LONG);
		enum type a = ty(t, n->u.ternary.then_expr);
		enum type b = ty(t, n->u.ternary.else_expr);
		if (a == TY_UNKNOWN)
			expect(t, n->u.ternary.then_expr, b);
		if (b == TY_UNKNOWN)
			expect(t, n->u.ternary.else_expr, a);
		if (a != TY_UNKNOWN && b != TY_UNKNOWN && a != b)
			mismatch(t, n->loc, "the two branches of '?:'", a, b);
		return a != TY_UNKNOWN ? a : b;
	}
	case N_ASSIGN: return ty_assign(t, n);
	case N_IN: return ty_in(t, n);
	case N_INDEX: return ty_index(t, n);
	case N_CALL: return ty_call(t, n);
	case N_STAT_OP:
		ty_stat_operand(t, n->u.stat.operand);
		expect(t, n->u.stat.shift, TY_LONG);
		return TY_LONG;
	case N_HIST: return ty_hist(t, n);
	case N_ENTRY: return ty(t, n->u.atop.args.v[0]);
	case N_EMBEDDED_EXPR:
		return strstr(n->u.embedded_expr.code, "/* string */") ?
			TY_STRING : TY_LONG;
	case N_ATVAR:
		ty_path(t, &n->u.atvar.path);
		return n->u.atvar.access ? ty_access(n->u.atvar.access) : TY_LONG;
	case N_AUTOCAST: return ty_autocast(t, n);
	case N_DEFINED: return ty_defined(t, n);
	case N_PROBEWRITE: case N_PERF: case N_REGISTER: case N_DEREF: case N_CONST:
		return TY_LONG;
	case N_PROBE: case N_ALIAS: case N_FUNCTION: case N_GLOBAL:
	case N_EMBED: case N_PROBE_POINT: case N_BLOCK: case N_NULL_STMT:
	case N_EXPR_STMT: case N_IF: case N_WHILE: case N_FOR:
	case N_FOREACH: case N_BREAK: case N_CONTINUE: case N_NEXT:
	case N_RETURN: case N_DELETE: case N_TRY: case N_KIND_COUNT:
		return TY_UNKNOWN;
	}
	return TY_UNKNOWN;
}

static enum type
ty(struct typer *t, struct node *n)
{
	if (!n)
		return TY_UNKNOWN;
	enum type r = ty_uncached(t, n);
	if (r != TY_UNKNOWN && n->type != r)
		n->type = r;
	return r;
}

/* ---- statements ---- */

static void
ty_foreach(struct typer *t, struct node *n)
{
	struct node *arr = n->u.foreach.array;
	struct node_list *keys = &n->u.foreach.keys;
	struct symbol *s = NULL;

	if (arr->kind == N_HIST) {
		ty(t, arr);
		for (int i = 0; i < keys->n; i++)
			expect(t, keys->v[i], TY_LONG);
		expect(t, n->u.foreach.value, TY_LONG);
	} else {
		struct node *base = arr->kind == N_INDEX ? arr->u.index.base
							 : arr;
		s = array_symbol(t, base);
		if (arr->kind == N_INDEX)
			ty(t, arr);
	}
	if (s && t->final && n->u.foreach.sort_aggr != OP_NONE &&
	    s->type != TY_STATS)
		diag_error(D(t), arr->loc, "E_FOREACH_SORT",
			   "%s sorts statistics, but '%s' holds %ss",
			   op_spelling(n->u.foreach.sort_aggr), s->name,
			   type_name(s->type));
	if (s) {
		s->read = true;
		set_arity(t, s, keys->n, arr->loc);
		for (int i = 0; i < keys->n && i < SEMA_MAX_KEYS; i++) {
			mark(keys->v[i], true);
			if (s->key_types[i] != TY_UNKNOWN)
				expect(t, keys->v[i], s->key_types[i]);
			else
				unify_key(t, s, i, ty(t, keys->v[i]),
					  keys->v[i]->loc);
		}
		if (n->u.foreach.value) {
			mark(n->u.foreach.value, true);
			expect(t, n->u.foreach.value,
			       s->type == TY_STATS ? TY_LONG : s->type);
		}
	}
	expect(t, n->u.foreach.limit, TY_LONG);
	ty_stmt(t, n->u.foreach.body);
}

static void
ty_return(struct typer *t, struct node *n)
{
	struct function_sym *f = t->fn;
	enum type rt = n->u.ret.value ? ty(t, n->u.ret.value) : TY_VOID;

	if (!f)
		return;
	if (n->u.ret.value)
		merge_vtype(t, &f->ret_vtype, &f->ret_vtype_mixed,
			    vtype_of(n->u.ret.value));
	if (f->ret == TY_UNKNOWN && rt != TY_UNKNOWN) {
		f->ret = rt;
		t->changed = true;
	} else if (n->u.ret.value && rt == TY_UNKNOWN) {
		expect(t, n->u.ret.value, f->ret);
	} else if (rt != TY_UNKNOWN && rt != f->ret) {
		char what[160];
		snprintf(what, sizeof(what), "the value of function '%s'",
			 f->name);
		mismatch(t, n->loc, what, f->ret, rt);
	}
}

static void
ty_stmt(struct typer *t, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->u.block.stmts.n; i++)
			ty_stmt(t, n->u.block.stmts.v[i]);
		return;
	case N_EXPR_STMT:
		ty(t, n->u.expr_stmt.expr);
		return;
	case N_IF: {
		bool pending;
		if (branch_on_defined(t, n->u.if_stmt.cond,
				      &n->u.if_stmt.then_stmt,
				      &n->u.if_stmt.else_stmt, &pending)) {
			if (pending)
				return;
			if (!n->u.if_stmt.then_stmt)	/* the branch not taken */
				n->u.if_stmt.then_stmt = ast_new(
					t->e->s->arena, N_BLOCK, n->loc);
		}
		expect(t, n->u.if_stmt.cond, TY_LONG);
		ty_stmt(t, n->u.if_stmt.then_stmt);
		ty_stmt(t, n->u.if_stmt.else_stmt);
		return;
	}
	case N_WHILE:
		expect(t, n->u.while_stmt.cond, TY_LONG);
		ty_stmt(t, n->u.while_stmt.body);
		return;
	case N_FOR:
		ty(t, n->u.for_stmt.init);
		expect(t, n->u.for_stmt.cond, TY_LONG);
		ty(t, n->u.for_stmt.step);
		ty_stmt(t, n->u.for_stmt.body);
		return;
	case N_FOREACH:
		ty_foreach(t, n);
		return;
	case N_RETURN:
		ty_return(t, n);
		return;
	case N_DELETE:
		mark(n->u.del.target, true);
		if (n->u.del.target->kind == N_INDEX)
			ty(t, n->u.del.target);
		return;
	case N_TRY:
		ty_stmt(t, n->u.try_stmt.body);
		if (n->u.try_stmt.catch_var) {
			mark(n->u.try_stmt.catch_var, true);
			expect(t, n->u.try_stmt.catch_var, TY_STRING);
		}
		ty_stmt(t, n->u.try_stmt.handler);
		return;
	default:
		return;
	}
}

static void
type_round(struct typer *t)
{
	struct program *p = t->e->prog;

	for (int i = 0; i < p->nprobes; i++) {
		t->fn = NULL;
		expect(t, p->probes[i]->cond, TY_LONG);
		ty_stmt(t, p->probes[i]->body);
	}
	for (int i = 0; i < p->nfunctions; i++) {
		t->fn = p->functions[i];
		ty_stmt(t, p->functions[i]->decl->u.function.body);
	}
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *g = p->globals[i];
		if (g->init)
			unify_sym(t, g, g->init->kind == N_STRING ?
				  TY_STRING : TY_LONG, g->init->loc);
	}
}

/* What is still unknown after inference: warn, and settle on long. */
static void
settle_unknown(struct typer *t, struct symbol *s)
{
	/* Typed by a printf alone and never given a value: most likely a
	 * variable the probe's alias does not have; worth a word still.
	 * A global's initializer is its value. */
	if (s->type != TY_UNKNOWN && s->format_typed && s->nkeys == 0 &&
	    !s->written && s->kind != SYM_PARAM && !s->init)
		diag_warning(D(t), s->decl->loc, "W_NEVER_ASSIGNED",
			     "%s '%s' is never assigned",
			     s->kind == SYM_GLOBAL ? "global" : "local",
			     s->name);
	if (s->type != TY_UNKNOWN)
		return;
	if (s->nkeys == 0 && !s->written && s->kind != SYM_PARAM)
		diag_warning(D(t), s->decl->loc, "W_NEVER_ASSIGNED",
			     "%s '%s' is never assigned",
			     s->kind == SYM_GLOBAL ? "global" : "local",
			     s->name);
	/* a local used as an array has its own error (E_LOCAL_ARRAY) */
	if ((s->read || s->written || s->kind == SYM_PARAM) &&
	    !(s->nkeys > 0 && s->kind != SYM_GLOBAL))
		diag_error(D(t), s->decl->loc, "E_UNRESOLVED_TYPE",
			   "cannot tell the type of %s '%s': nothing gives it a value of a known type",
			   s->kind == SYM_GLOBAL ? "global" :
			   s->kind == SYM_PARAM ? "parameter" : "local",
			   s->name);
	s->type = TY_LONG;
	for (int i = 0; i < s->nkeys && i < SEMA_MAX_KEYS; i++)
		if (s->key_types[i] == TY_UNKNOWN)
			s->key_types[i] = TY_LONG;
}

/* Declarations that only make sense for arrays, and statistics, which
 * only globals can hold (they are per-CPU). */
static void
check_storage(struct typer *t, struct symbol *s)
{
	const struct node *d = s->decl;

	if (s->kind == SYM_GLOBAL && s->nkeys == 0 && d &&
	    d->kind == N_GLOBAL && (d->u.global.size || d->u.global.wrap))
		diag_error(D(t), d->loc, "E_ARRAY_AS_SCALAR",
			   "'%s' is declared as an array (%s) but used without an index",
			   s->name, d->u.global.wrap ? "%" : "[size]");
	if (s->kind != SYM_GLOBAL && s->type == TY_STATS)
		diag_error(D(t), d ? d->loc : (struct loc){ 0 }, "E_STATS_LOCAL",
			   "statistics '%s' must be a global: locals cannot hold statistics",
			   s->name);
}

/* Locals left unused once dead code is gone are dropped quietly. */
static int
drop_unused_locals(struct symbol **v, int n, int keep_first)
{
	int kept = keep_first;

	for (int i = keep_first; i < n; i++)
		if (v[i]->read || v[i]->written || v[i]->kind != SYM_LOCAL) {
			v[i]->index = kept;
			v[kept++] = v[i];
		}
	return kept;
}

static void
settle_all(struct typer *t)
{
	struct program *p = t->e->prog;

	for (int i = 0; i < p->nglobals; i++) {
		if (p->globals[i]->read || p->globals[i]->written)
			check_storage(t, p->globals[i]);
		settle_unknown(t, p->globals[i]);
	}
	for (int i = 0; i < p->nprobes; i++)
		p->probes[i]->nlocals = drop_unused_locals(p->probes[i]->locals,
							   p->probes[i]->nlocals, 0);
	for (int i = 0; i < p->nfunctions; i++)
		p->functions[i]->nlocals = drop_unused_locals(
			p->functions[i]->locals, p->functions[i]->nlocals,
			p->functions[i]->nparams);
	for (int i = 0; i < p->nprobes; i++)
		for (int j = 0; j < p->probes[i]->nlocals; j++) {
			check_storage(t, p->probes[i]->locals[j]);
			settle_unknown(t, p->probes[i]->locals[j]);
		}
	for (int i = 0; i < p->nfunctions; i++) {
		struct function_sym *f = p->functions[i];
		for (int j = 0; j < f->nlocals; j++) {
			check_storage(t, f->locals[j]);
			settle_unknown(t, f->locals[j]);
		}
		if (f->ret == TY_UNKNOWN)
			f->ret = f->decl->u.function.embedded ? TY_LONG : TY_VOID;
	}
}

bool
types_infer(struct elab *e)
{
	struct typer t = { .e = e };
	int errors = e->s->diag.errors;

	/* To a fixed point; then the @defined()s over autocasts not found
	 * by then are 0, which may type more: again. */
	for (int round = 0; round < TYPES_MAX_ROUNDS; round++) {
		t.changed = false;
		type_round(&t);
		if (t.changed) {
			t.decide_defined = false;
			continue;
		}
		if (t.decide_defined)
			break;
		t.decide_defined = true;
	}
	settle_all(&t);
	t.final = true;
	type_round(&t);
	return e->s->diag.errors == errors;
}
