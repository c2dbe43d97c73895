/*
 * bpf_effect.c -- does this expression fail or act?  (--runtime=bpf)
 *
 * bpf_stmt() leaves out a store to a local nobody reads only when
 * computing the value could not show (issue #15).  A value can fail:
 * raise a script error (a division or modulo by zero, a kernel or user
 * read fault, a loop's MAXACTION bound); or act: have an effect (a store
 * that outlives the expression, a print, exit(), error(), next, a call
 * of a function doing any of these).  The user's own script gets the
 * rule in full: only a pure value is left out.  A tapset alias's
 * prologue (argstr = ..., task_pid($prev), ...) may also lose a value
 * that can only fail: SystemTap elides those locals when the script does
 * not read them, and most read kernel memory through embedded C that
 * BPF cannot run, so computing them would refuse the whole probe.
 *
 * Takes a bound, typed expression.  Builds on pass 2's judgement of a
 * single node (opt_node_acts(), sema/optimize.c) and refines what the
 * BPF side writes differently: calls (judged by what the callee does),
 * context variables (a typed one reads kernel memory) and the constructs
 * a kernel-side probe cannot compute without refusing.  What it does not
 * know acts: a wrong "acts" costs a computation, a wrong "pure" loses an
 * error.  Must not: write C, or refuse a construct (bpf_expr.c does).
 */
#include <string.h>

#include "translator/codegen/bpf_int.h"
#include "translator/sema/builtins.h"

struct effect_scan {
	enum bpf_effect worst;
	int depth;			/* inside this many function bodies */
	const struct function_sym *seen[BPF_MAX_INLINE + 1];
};

static bool effect_pre(struct node *n, void *ctx);

/* printf and its kin with no function behind them (bpf_expr.c call()):
 * the sprintf family only builds a string. */
static enum bpf_effect
print_call_effect(const struct node *n)
{
	const char *name = n->u.call.name;

	if (strcmp(name, "sprintf") == 0 || strcmp(name, "sprint") == 0 ||
	    strcmp(name, "sprintln") == 0)
		return BPF_PURE;
	return BPF_ACTS;
}

/* Of the builtins (codegen_builtin.c), exit() and error() act and
 * tokenize() keeps where it is; the rest only compute a value. */
static enum bpf_effect
builtin_effect(const struct builtin *bi)
{
	switch (bi->id) {
	case BUILTIN_EXIT: case BUILTIN_ERROR: case BUILTIN_TOKENIZE:
		return BPF_ACTS;
	default:
		return BPF_PURE;
	}
}

/* Embedded-C functions: the intrinsics bpf_expr.c writes with helpers
 * (a user_string() without a default can fault); then what the tapset
 * marks pure (no effect), which fails when its C can report an error or
 * a warning: both go through the probe's CONTEXT (tap_kread(CONTEXT,
 * ...), tap_warn(CONTEXT, ...)) or STAP_ERROR. */
static enum bpf_effect
embedded_effect(const struct node *n)
{
	const char *name = n->u.call.name;
	const struct node *decl = n->u.call.fn->decl;
	const char *c = decl ? decl->u.function.embedded : NULL;

	if (strcmp(name, "uid") == 0 || strcmp(name, "gid") == 0 ||
	    strcmp(name, "ppid") == 0)
		return BPF_PURE;
	if (strcmp(name, "user_string") == 0 ||
	    strcmp(name, "kernel_string") == 0)
		return n->u.call.args.n < 2 ? BPF_FAILS : BPF_PURE;
	if (!c || !decl->u.function.pure)
		return BPF_ACTS;
	if (strstr(c, "CONTEXT") || strstr(c, "STAP_ERROR"))
		return BPF_FAILS;
	return BPF_PURE;
}

/* A script function does what its body does; a recursive or too deeply
 * nested call is refused when written, so it counts as acting. */
static enum bpf_effect
script_effect(struct effect_scan *sc, const struct function_sym *fn)
{
	for (int i = 0; i < sc->depth; i++)
		if (sc->seen[i] == fn)
			return BPF_ACTS;
	if (sc->depth == BPF_MAX_INLINE)
		return BPF_ACTS;
	sc->seen[sc->depth++] = fn;
	ast_walk(fn->decl->u.function.body, effect_pre, NULL, sc);
	sc->depth--;
	return sc->worst;
}

static enum bpf_effect
call_effect(struct effect_scan *sc, const struct node *n)
{
	if (!n->u.call.fn && !n->u.call.builtin)
		return print_call_effect(n);
	if (n->u.call.builtin)
		return builtin_effect(n->u.call.builtin);
	if (bpf_is_script_function(n->u.call.fn))
		return script_effect(sc, n->u.call.fn);
	return embedded_effect(n);
}

/* A store inside a function body to one of its own locals ends with the
 * call; any other store outlives the expression. */
static enum bpf_effect
store_effect(const struct effect_scan *sc, const struct node *target)
{
	if (sc->depth > 0 && target->kind == N_SYMBOL &&
	    target->u.symbol.sym && target->u.symbol.sym->kind != SYM_GLOBAL)
		return BPF_PURE;
	return BPF_ACTS;
}

/* Node n apart from its operands; calls are call_effect()'s. */
static enum bpf_effect
node_effect(struct effect_scan *sc, struct node *n)
{
	switch (n->kind) {
	case N_TARGET:	/* a typed one reads kernel memory: can fault */
		return n->u.target.access && n->u.target.access->nsteps > 0 ?
			BPF_FAILS : BPF_PURE;
	case N_ASSIGN:
		return store_effect(sc, n->u.binary.lhs);
	case N_CREMENT:
		return store_effect(sc, n->u.crement.operand);
	case N_BINARY:	/* '/' and '%' (by zero) */
		return opt_node_acts(n) ? BPF_FAILS : BPF_PURE;
	case N_CAST: case N_ATVAR: case N_AUTOCAST: case N_ENTRY:
	case N_STAT_OP: case N_HIST: case N_PERF: case N_DEREF:
	case N_REGISTER:
		return BPF_FAILS;	/* memory, registers, statistics */
	case N_WHILE: case N_FOR: case N_FOREACH:
		return BPF_FAILS;	/* MAXACTION counts their rounds */
	case N_DELETE: case N_NEXT: case N_PROBEWRITE:
		return BPF_ACTS;
	default:
		return opt_node_acts(n) ? BPF_ACTS : BPF_PURE;
	}
}

static void
note(struct effect_scan *sc, enum bpf_effect e)
{
	if (e > sc->worst)
		sc->worst = e;
}

static bool
effect_pre(struct node *n, void *ctx)
{
	struct effect_scan *sc = ctx;

	if (sc->worst == BPF_ACTS)
		return false;
	if (n->kind == N_CALL) {
		/* the arguments first: they are computed either way */
		for (int i = 0; i < n->u.call.args.n; i++)
			ast_walk(n->u.call.args.v[i], effect_pre, NULL, sc);
		if (sc->worst != BPF_ACTS)
			note(sc, call_effect(sc, n));
		return false;
	}
	note(sc, node_effect(sc, n));
	return sc->worst != BPF_ACTS;
}

enum bpf_effect
bpf_effect_of(struct node *n)
{
	struct effect_scan sc = { .worst = BPF_PURE };

	ast_walk(n, effect_pre, NULL, &sc);
	return sc.worst;
}
