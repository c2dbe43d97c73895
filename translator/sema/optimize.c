/*
 * optimize.c -- the optimisations of pass 2 (skipped with -u), with the
 * warnings SystemTap gives for them: before types are checked, stores to
 * locals that are never read and statements that do nothing are elided;
 * after, globals the script never uses are dropped, arithmetic on
 * constants is folded, and probes left with empty bodies are elided. Folding
 * keeps SystemTap's semantics: 64-bit wrapping, and a division by zero is
 * left for run time to report.
 */
#include <string.h>

#include "translator/sema/builtins.h"
#include "translator/sema/elab.h"

static bool
is_num(const struct node *n)
{
	return n && n->kind == N_NUMBER;
}

static void
make_number(struct arena *a, struct node *n, uint64_t v)
{
	n->kind = N_NUMBER;
	n->u.number.value = v;
	n->u.number.text = arena_printf(a, "%lld", (long long)v);
	n->type = TY_LONG;
}

/* Arithmetic as the runtime does it: 64-bit wrapping, shifts by 0..63
 * (masked), and no folding of a division by zero (run time reports it). */
static bool
fold_arith(enum op op, int64_t a, int64_t b, uint64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case OP_ADD: *v = ua + ub; return true;
	case OP_SUB: *v = ua - ub; return true;
	case OP_MUL: *v = ua * ub; return true;
	case OP_DIV:
	case OP_MOD:
		if (b == 0 || (a == INT64_MIN && b == -1))
			return false;
		*v = (uint64_t)(op == OP_DIV ? a / b : a % b);
		return true;
	case OP_SHL: *v = ua << (ub & 63); return true;
	case OP_SHR: *v = (uint64_t)(a >> (ub & 63)); return true;
	case OP_BAND: *v = ua & ub; return true;
	case OP_BOR: *v = ua | ub; return true;
	case OP_BXOR: *v = ua ^ ub; return true;
	case OP_EQ: *v = a == b; return true;
	case OP_NE: *v = a != b; return true;
	case OP_LT: *v = a < b; return true;
	case OP_LE: *v = a <= b; return true;
	case OP_GT: *v = a > b; return true;
	case OP_GE: *v = a >= b; return true;
	case OP_ANDAND: *v = a && b; return true;
	case OP_OROR: *v = a || b; return true;
	default: return false;
	}
}

static void
fold_node(struct arena *ar, struct node *n)
{
	uint64_t v;

	switch (n->kind) {
	case N_BINARY: case N_COMPARE: case N_LOGICAL: {
		struct node *l = n->u.binary.lhs, *r = n->u.binary.rhs;
		if (n->u.binary.op == OP_CONCAT && l->kind == N_STRING &&
		    r->kind == N_STRING) {
			const char *raw = arena_printf(ar, "%s%s", l->u.string.raw,
						       r->u.string.raw);
			n->kind = N_STRING;
			n->u.string.raw = raw;
			n->type = TY_STRING;
			return;
		}
		if (is_num(l) && is_num(r) &&
		    fold_arith(n->u.binary.op, (int64_t)l->u.number.value,
			       (int64_t)r->u.number.value, &v))
			make_number(ar, n, v);
		return;
	}
	case N_UNARY: {
		struct node *o = n->u.unary.operand;
		if (!is_num(o))
			return;
		uint64_t x = o->u.number.value;
		switch (n->u.unary.op) {
		case OP_NEG: make_number(ar, n, (uint64_t)0 - x); return;
		case OP_PLUS: make_number(ar, n, x); return;
		case OP_NOT: make_number(ar, n, x == 0); return;
		case OP_BNOT: make_number(ar, n, ~x); return;
		default: return;
		}
	}
	case N_TERNARY:
		if (is_num(n->u.ternary.cond)) {
			struct node *pick = n->u.ternary.cond->u.number.value ?
				n->u.ternary.then_expr : n->u.ternary.else_expr;
			*n = *pick;
		}
		return;
	default:
		return;
	}
}

static bool
fold_post(struct node *n, void *ctx)
{
	struct elab *e = ctx;

	fold_node(e->s->arena, n);
	return true;
}

static void
drop_unused_globals(struct elab *e)
{
	struct program *p = e->prog;
	int kept = 0;

	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *g = p->globals[i];
		if (!g->read && !g->written && !g->cmdline_value) {
			diag_warning(&e->s->diag, g->decl->loc, "W_UNUSED_VAR",
				     "eliding unused global '%s'", g->name);
			continue;
		}
		g->index = kept;
		p->globals[kept++] = g;
	}
	p->nglobals = kept;
}

/* ---- functions no call reaches any more ---- */

struct calls_seen {
	struct arena *a;
	const struct function_sym **v;
	int n, cap;
};

static bool
seen_call(const struct calls_seen *cs, const struct function_sym *fn)
{
	for (int i = 0; i < cs->n; i++)
		if (cs->v[i] == fn)
			return true;
	return false;
}

static bool
collect_calls_pre(struct node *n, void *ctx)
{
	struct calls_seen *cs = ctx;
	const struct function_sym *fn;

	if (n->kind != N_CALL || !(fn = n->u.call.fn) || seen_call(cs, fn))
		return true;
	cs->v = arena_grow(cs->a, cs->v, sizeof(*cs->v), &cs->cap, cs->n + 1);
	cs->v[cs->n++] = fn;
	if (fn->decl)
		ast_walk(fn->decl->u.function.body, collect_calls_pre, NULL, cs);
	return true;
}

/* A function whose every call was elided as without effect
 * (`twice(1) + 1;`) is dropped too, as SystemTap drops it: pass 3 would
 * write a static C function nothing calls. */
static void
drop_uncalled_functions(struct elab *e)
{
	struct program *p = e->prog;
	struct calls_seen cs = { .a = e->s->arena };
	int kept = 0;

	for (int i = 0; i < p->nprobes; i++) {
		ast_walk(p->probes[i]->cond, collect_calls_pre, NULL, &cs);
		ast_walk(p->probes[i]->body, collect_calls_pre, NULL, &cs);
	}
	for (int i = 0; i < p->nfunctions; i++)
		if (seen_call(&cs, p->functions[i]))
			p->functions[kept++] = p->functions[i];
	p->nfunctions = kept;
}

void
optimize_program(struct elab *e)
{
	struct program *p = e->prog;

	drop_unused_globals(e);
	drop_uncalled_functions(e);
	for (int i = 0; i < p->nprobes; i++)
		ast_walk(p->probes[i]->body, NULL, fold_post, e);
	for (int i = 0; i < p->nfunctions; i++)
		ast_walk(p->functions[i]->decl->u.function.body, NULL,
			 fold_post, e);
}

/* ---- dead code, before type checking ---- */

struct reads {
	struct symbol **v;
	int n, cap;
	struct arena *a;
	bool in_probe;		/* a probe's body, not a function's */
};

static bool
count_reads_pre(struct node *n, void *ctx)
{
	struct reads *r = ctx;

	if (n->kind == N_ASSIGN && (n->u.binary.op == OP_ASSIGN ||
				    n->u.binary.op == OP_STAT_ADD) &&
	    n->u.binary.lhs->kind == N_SYMBOL) {
		/* the left side of a plain store is not a read */
		ast_walk(n->u.binary.rhs, count_reads_pre, NULL, ctx);
		return false;
	}
	if (n->kind == N_SYMBOL && n->u.symbol.sym) {
		r->v = arena_grow(r->a, r->v, sizeof(*r->v), &r->cap, r->n + 1);
		r->v[r->n++] = n->u.symbol.sym;
	}
	return true;
}

static bool
is_read(const struct reads *r, const struct symbol *s)
{
	for (int i = 0; i < r->n; i++)
		if (r->v[i] == s)
			return true;
	return false;
}

/* Whether node n, apart from its operands, acts or can fail: a store,
 * a call, C code, a read of memory or registers, or a division (by zero
 * is a script error: observable). */
bool
opt_node_acts(const struct node *n)
{
	switch (n->kind) {
	case N_ASSIGN: case N_CREMENT: case N_CALL: case N_EMBEDDED_EXPR:
	case N_CONST: case N_DEREF: case N_REGISTER:
		return true;
	case N_BINARY:
		return n->u.binary.op == OP_DIV || n->u.binary.op == OP_MOD;
	default:
		return false;
	}
}

/*
 * Calls, once resolution has bound them (before, every call acts): an
 * embedded-C function acts unless its code says "/" "* pure *" "/" and
 * can raise no script error or warning (STAP_ERROR, or through the
 * probe's CONTEXT: a read of memory, tap_warn) -- SystemTap would elide
 * those too, tapc keeps their errors as it keeps a division's; a
 * script function acts if its body does anything but compute and return
 * a value (a store, even to its own locals, a loop, delete, next, or a
 * call that acts).  The print family and the builtins always act.  As
 * SystemTap judges them: `get_cycles();` alone is elided.
 */
#define OPT_MAX_CALL_DEPTH 8

struct effect_scan {
	bool effect;
	bool errors_unseen;	/* a library store's value: see stored_acts() */
	const struct function_sym *seen[OPT_MAX_CALL_DEPTH];
	int depth;
};

static bool has_effect_pre(struct node *n, void *ctx);

static bool
script_function_acts(struct effect_scan *sc, const struct function_sym *fn)
{
	for (int i = 0; i < sc->depth; i++)
		if (sc->seen[i] == fn)
			return true;	/* recursion: bounded at run time */
	if (sc->depth == OPT_MAX_CALL_DEPTH)
		return true;
	sc->seen[sc->depth++] = fn;
	ast_walk(fn->decl->u.function.body, has_effect_pre, NULL, sc);
	sc->depth--;
	return sc->effect;
}

/* For a library store's value (errors_unseen): the calls that only
 * compute a value -- the sprint family and the builtins but exit(),
 * error() and tokenize(), whose state a later call reads (but inside a
 * function, which starts its own tokenizing). */
static bool
library_value_call(const struct effect_scan *sc, const struct node *n)
{
	const struct builtin *b = n->u.call.builtin;

	if (b)
		return b->id != BUILTIN_EXIT && b->id != BUILTIN_ERROR &&
		       (b->id != BUILTIN_TOKENIZE || sc->depth > 0);
	if (n->u.call.fn)
		return false;
	/* the print family's s-half returns its text, printing nothing */
	return n->u.call.name[0] == 's' &&
	       sema_is_print_family(n->u.call.name);
}

static bool
call_acts(struct effect_scan *sc, const struct node *n)
{
	const struct function_sym *fn = n->u.call.fn;
	const struct node *decl = fn ? fn->decl : NULL;

	if (sc->errors_unseen && library_value_call(sc, n))
		return false;
	if (!fn || n->u.call.builtin || !decl)
		return true;
	if (decl->u.function.embedded)	/* an error is observable */
		return !decl->u.function.pure ||
		       (!sc->errors_unseen &&
			(strstr(decl->u.function.embedded, "STAP_ERROR") ||
			 strstr(decl->u.function.embedded, "CONTEXT")));
	if (!decl->u.function.body)
		return true;
	return script_function_acts(sc, fn);
}

static bool
is_own_variable(const struct node *n)
{
	return n && n->kind == N_SYMBOL && n->u.symbol.sym &&
	       (n->u.symbol.sym->kind == SYM_LOCAL ||
		n->u.symbol.sym->kind == SYM_PARAM);
}

/* Inside a function a library store's value calls (errors_unseen): what
 * only that call can see -- a store to its own locals or parameters, a
 * loop (MAXACTION bounds it: an error, unseen), a try.  _sc_msg_flags()
 * building its string with s .= "|MSG_PEEK" computes a value. */
static bool
function_private(const struct node *n)
{
	switch (n->kind) {
	case N_ASSIGN:
		return is_own_variable(n->u.binary.lhs);
	case N_CREMENT:
		return is_own_variable(n->u.crement.operand);
	case N_WHILE: case N_FOR: case N_FOREACH: case N_TRY:
		return true;
	default:
		return false;
	}
}

static bool
has_effect_pre(struct node *n, void *ctx)
{
	struct effect_scan *sc = ctx;

	if (sc->errors_unseen && sc->depth > 0 && function_private(n))
		return true;	/* its operands still count */
	switch (n->kind) {
	case N_CALL:
		if (call_acts(sc, n))
			sc->effect = true;
		break;
	case N_DELETE: case N_NEXT: case N_WHILE: case N_FOR:
	case N_FOREACH: case N_TRY:
		sc->effect = true;	/* statements, in a function's body */
		break;
	default:
		if (opt_node_acts(n))
			sc->effect = true;
		break;
	}
	return !sc->effect;
}

static bool
has_side_effects(struct node *n)
{
	struct effect_scan sc = { .effect = false };

	ast_walk(n, has_effect_pre, NULL, &sc);
	return sc.effect;
}

/* Whether the value stored by `x` acts.  A store the library wrote in
 * a probe's body (an alias's prologue: syscall.nanosleep's req_str,
 * which reads the user's timespec) may also be dropped when computing
 * it could only fail: a read fault in a variable the script never reads
 * is no error of the script's, and SystemTap elides those stores too.
 * So a user of the alias pays only for the variables it reads. */
static bool
stored_acts(const struct node *x, struct node *value, bool in_probe)
{
	struct effect_scan sc = {
		.effect = false,
		.errors_unseen = in_probe && x->loc.src && x->loc.src->is_tapset,
	};

	ast_walk(value, has_effect_pre, NULL, &sc);
	return sc.effect;
}

/* A store (= or <<<) to a local nobody reads, of a value without side
 * effects -- or of another such store (x <<< y <<< 1). */
static bool
is_dead_store(const struct reads *r, struct node *x)
{
	if (x->kind != N_ASSIGN || x->u.binary.lhs->kind != N_SYMBOL ||
	    (x->u.binary.op != OP_ASSIGN && x->u.binary.op != OP_STAT_ADD))
		return false;
	struct symbol *s = x->u.binary.lhs->u.symbol.sym;
	if (!s || s->kind != SYM_LOCAL || is_read(r, s))
		return false;
	return !stored_acts(x, x->u.binary.rhs, r->in_probe) ||
	       is_dead_store(r, x->u.binary.rhs);
}

/* A statement to elide: a store to a local nobody reads, or an
 * expression that does nothing. */
static bool
dead_statement(struct elab *e, const struct reads *r, struct node *st)
{
	struct node *x;

	if (st->kind != N_EXPR_STMT)
		return false;
	x = st->u.expr_stmt.expr;
	if (is_dead_store(r, x)) {
		diag_warning(&e->s->diag, x->loc, "W_DEAD_STORE",
			     "eliding the assignment to '%s', which is never read",
			     x->u.binary.lhs->u.symbol.name);
		return true;
	}
	if (has_side_effects(x))
		return false;
	diag_warning(&e->s->diag, x->loc, "W_NO_EFFECT",
		     "eliding an expression that has no effect");
	return true;
}

/* Drops the dead statements in `n`; how many. */
static int
elide_in(struct elab *e, const struct reads *r, struct node *n)
{
	int dropped = 0;

	if (!n)
		return 0;
	switch (n->kind) {
	case N_BLOCK: {
		int kept = 0;
		for (int i = 0; i < n->u.block.stmts.n; i++) {
			struct node *st = n->u.block.stmts.v[i];
			if (dead_statement(e, r, st)) {
				dropped++;
				continue;
			}
			dropped += elide_in(e, r, st);
			n->u.block.stmts.v[kept++] = st;
		}
		n->u.block.stmts.n = kept;
		return dropped;
	}
	case N_IF:
		return elide_in(e, r, n->u.if_stmt.then_stmt) +
		       elide_in(e, r, n->u.if_stmt.else_stmt);
	case N_WHILE: return elide_in(e, r, n->u.while_stmt.body);
	case N_FOR: return elide_in(e, r, n->u.for_stmt.body);
	case N_FOREACH: return elide_in(e, r, n->u.foreach.body);
	case N_TRY:
		return elide_in(e, r, n->u.try_stmt.body) +
		       elide_in(e, r, n->u.try_stmt.handler);
	default:
		return 0;
	}
}

/* Until nothing more goes (a few rounds at most): dropping a store can
 * leave the locals its value read unread -- an alias's argstr =
 * sprintf(..., fd) gone, fd = $fd goes in the next round. */
#define OPT_MAX_ELIDE_ROUNDS 8

static void
elide_body(struct elab *e, struct node *cond, struct node *body,
	   bool in_probe)
{
	for (int round = 0; round < OPT_MAX_ELIDE_ROUNDS; round++) {
		struct reads r = { .a = e->s->arena, .in_probe = in_probe };

		ast_walk(cond, count_reads_pre, NULL, &r);
		ast_walk(body, count_reads_pre, NULL, &r);
		if (!elide_in(e, &r, body))
			break;
	}
}

void
optimize_dead_code(struct elab *e)
{
	struct program *p = e->prog;

	for (int i = 0; i < p->nprobes; i++)
		elide_body(e, p->probes[i]->cond, p->probes[i]->body, true);
	/* a library function's stores keep their errors: a read whose only
	 * use is to fail may be the function's check */
	for (int i = 0; i < p->nfunctions; i++)
		elide_body(e, NULL, p->functions[i]->decl->u.function.body,
			   false);
}

/* ---- empty probes, last ---- */

bool
opt_is_empty(const struct node *n)
{
	if (!n || n->kind == N_NULL_STMT)
		return true;
	if (n->kind != N_BLOCK)
		return false;
	for (int i = 0; i < n->u.block.stmts.n; i++)
		if (!opt_is_empty(n->u.block.stmts.v[i]))
			return false;
	return true;
}

void
optimize_empty_probes(struct elab *e)
{
	struct program *p = e->prog;
	int kept = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		if (opt_is_empty(dp->body) && !dp->cond) {
			diag_warning(&e->s->diag, dp->origin ? dp->origin->loc :
				     dp->point->loc, "W_PROBE_ELIDED",
				     "probe '%s' has an empty body and is elided",
				     dp->name);
			continue;
		}
		dp->index = kept;
		p->probes[kept++] = dp;
	}
	p->nprobes = kept;
}

/* ---- statements without effect, before resolution ---- */

/*
 * Statements that do nothing may name what does not exist ($such in a
 * begin probe): SystemTap drops them before resolving names, and so does
 * this, from what the syntax alone shows: expressions without effects,
 * empty ifs, the pure parts of a for, and stores to names that are read
 * nowhere in the probe and are no global's.
 */
struct pure {
	struct elab *e;
	const char **reads;
	int nreads, cap;
};

static bool
names_read_pre(struct node *n, void *ctx)
{
	struct pure *pu = ctx;

	if (n->kind == N_ASSIGN && n->u.binary.op == OP_ASSIGN &&
	    n->u.binary.lhs->kind == N_SYMBOL) {
		ast_walk(n->u.binary.rhs, names_read_pre, NULL, ctx);
		return false;
	}
	if (n->kind == N_SYMBOL) {
		pu->reads = arena_grow(pu->e->s->arena, pu->reads,
				       sizeof(*pu->reads), &pu->cap,
				       pu->nreads + 1);
		pu->reads[pu->nreads++] = n->u.symbol.name;
	}
	return true;
}

static bool
name_needed(const struct pure *pu, const char *name)
{
	for (int i = 0; i < pu->nreads; i++)
		if (strcmp(pu->reads[i], name) == 0)
			return true;
	for (int i = 0; i < pu->e->nglobals; i++)
		if (strcmp(pu->e->globals[i]->u.global.name, name) == 0)
			return true;
	return false;
}

/* A condition that needs no name resolved to be judged pure: no array
 * use (whether a name is an array is only known after resolution) and no
 * call. */
static bool
condition_is_simple_pre(struct node *n, void *ctx)
{
	bool *simple = ctx;

	if (n->kind == N_IN || n->kind == N_INDEX || n->kind == N_CALL ||
	    n->kind == N_STAT_OP || n->kind == N_HIST)
		*simple = false;
	return *simple;
}

static bool
simple_condition(struct node *n)
{
	bool simple = true;

	ast_walk(n, condition_is_simple_pre, NULL, &simple);
	return simple && !has_side_effects(n);
}

enum purity { IMPURE, PURE_EXPR, DEAD_STORE };

static enum purity
pure_statement(struct pure *pu, struct node *st)
{
	if (st->kind == N_IF && simple_condition(st->u.if_stmt.cond) &&
	    opt_is_empty(st->u.if_stmt.then_stmt) &&
	    opt_is_empty(st->u.if_stmt.else_stmt))
		return PURE_EXPR;
	if (st->kind == N_FOREACH && opt_is_empty(st->u.foreach.body) &&
	    !has_side_effects(st->u.foreach.limit))
		return PURE_EXPR;
	if (st->kind != N_EXPR_STMT)
		return IMPURE;
	struct node *x = st->u.expr_stmt.expr;
	if (!has_side_effects(x))
		return PURE_EXPR;
	if (x->kind == N_ASSIGN && x->u.binary.op == OP_ASSIGN &&
	    x->u.binary.lhs->kind == N_SYMBOL &&
	    !stored_acts(x, x->u.binary.rhs, true) &&
	    !name_needed(pu, x->u.binary.lhs->u.symbol.name))
		return DEAD_STORE;
	return IMPURE;
}

static void
elide_pure_in(struct pure *pu, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK: {
		int kept = 0;
		for (int i = 0; i < n->u.block.stmts.n; i++) {
			struct node *st = n->u.block.stmts.v[i];
			/* if (0) / if (1): only the branch taken stays */
			while (st && st->kind == N_IF &&
			       st->u.if_stmt.cond->kind == N_NUMBER)
				st = st->u.if_stmt.cond->u.number.value ?
					st->u.if_stmt.then_stmt :
					st->u.if_stmt.else_stmt;
			if (!st)
				continue;
			elide_pure_in(pu, st);
			enum purity why = pure_statement(pu, st);
			if (why == DEAD_STORE) {
				struct node *x = st->u.expr_stmt.expr;
				diag_warning(&pu->e->s->diag, x->loc, "W_DEAD_STORE",
					     "eliding the assignment to '%s', which is never read",
					     x->u.binary.lhs->u.symbol.name);
				continue;
			}
			if (why == PURE_EXPR) {
				diag_warning(&pu->e->s->diag, st->loc, "W_NO_EFFECT",
					     "eliding a statement that has no effect");
				continue;
			}
			n->u.block.stmts.v[kept++] = st;
		}
		n->u.block.stmts.n = kept;
		return;
	}
	case N_IF:
		elide_pure_in(pu, n->u.if_stmt.then_stmt);
		elide_pure_in(pu, n->u.if_stmt.else_stmt);
		return;
	case N_WHILE: elide_pure_in(pu, n->u.while_stmt.body); return;
	case N_FOR:
		if (n->u.for_stmt.init && !has_side_effects(n->u.for_stmt.init))
			n->u.for_stmt.init = NULL;
		if (n->u.for_stmt.step && !has_side_effects(n->u.for_stmt.step))
			n->u.for_stmt.step = NULL;
		elide_pure_in(pu, n->u.for_stmt.body);
		return;
	case N_FOREACH:
		elide_pure_in(pu, n->u.foreach.body);
		if (pure_statement(pu, n->u.foreach.body) == PURE_EXPR)
			n->u.foreach.body = ast_new(pu->e->s->arena, N_NULL_STMT,
						    n->u.foreach.body->loc);
		return;
	case N_TRY:
		elide_pure_in(pu, n->u.try_stmt.body);
		elide_pure_in(pu, n->u.try_stmt.handler);
		return;
	default:
		return;
	}
}

void
optimize_pure_statements(struct elab *e)
{
	struct program *p = e->prog;

	/* A few rounds: eliding `if (x) {}` can leave `x = $y` unread. */
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < p->nprobes; i++) {
			struct pure pu = { .e = e };
			ast_walk(p->probes[i]->cond, names_read_pre, NULL, &pu);
			ast_walk(p->probes[i]->body, names_read_pre, NULL, &pu);
			elide_pure_in(&pu, p->probes[i]->body);
		}
}

/* Constants are folded before names are resolved too, so that `if (0)`
 * and `1 ? a : b` lose their dead side before anything in it is looked
 * up. */
void
optimize_fold_early(struct elab *e)
{
	struct program *p = e->prog;

	for (int i = 0; i < p->nprobes; i++)
		ast_walk(p->probes[i]->body, NULL, fold_post, e);
}
