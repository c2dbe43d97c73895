/*
 * bpf_call.c -- calls of script functions in a kernel-side probe
 * (--runtime=bpf), written inline at each call.
 *
 * Takes a bound N_CALL whose function has a script body (its own or a
 * tapset's).  Each call gets its own frame members (i<inst>_<n> for the
 * function's parameters and locals, i<inst>_r for its value) and its own
 * return label: the arguments are evaluated in the caller, copied into
 * the parameters, the locals cleared (a script function's locals start
 * empty on every call), then the body is written with `return x` as
 * "store x, goto the label".  Inlining instead of BPF-to-BPF calls keeps
 * every value in the per-CPU frame (no pointers to pass, no stack of
 * 512 bytes to share) and lets the body's errors and `next` leave the
 * program directly.  A BPF program cannot recurse, so a recursive call
 * is refused naming the function, as are calls nested deeper than
 * BPF_MAX_INLINE.
 * Must not: handle embedded-C functions (bpf_expr.c's intrinsics do, or
 * refuse them).
 */
#include <string.h>

#include "translator/codegen/bpf_int.h"

bool
bpf_is_script_function(const struct function_sym *fn)
{
	return fn && fn->decl && fn->decl->u.function.body &&
	       !fn->decl->u.function.embedded;
}

/* The frame member of a local of the innermost inline call. */
const char *
bpf_inline_local(struct bpf_cg *b, struct symbol *sym)
{
	const struct bpf_inline *in = &b->inl[b->ninl - 1];

	for (int i = 0; i < in->fn->nlocals; i++)
		if (in->fn->locals[i] == sym)
			return bpf_fmt(b, "f->i%d_%d", in->inst, i);
	return NULL;
}

static bool
refuse_call(struct bpf_cg *b, struct node *n)
{
	struct function_sym *fn = n->u.call.fn;

	for (int i = 0; i < b->ninl; i++)
		if (b->inl[i].fn == fn) {
			bpf_refuse(b, n, bpf_fmt(b, "the recursive call of %s() (a BPF program cannot recurse)", fn->name));
			return true;
		}
	if (b->ninl == BPF_MAX_INLINE) {
		bpf_refuse(b, n, bpf_fmt(b, "calling %s() more than %d functions deep", fn->name, BPF_MAX_INLINE));
		return true;
	}
	if (fn->ret != TY_LONG && fn->ret != TY_STRING && fn->ret != TY_VOID) {
		bpf_refuse(b, n, bpf_fmt(b, "the function %s() returning statistics", fn->name));
		return true;
	}
	for (int i = 0; i < fn->nlocals; i++)
		if (fn->locals[i]->type != TY_LONG &&
		    fn->locals[i]->type != TY_STRING) {
			bpf_refuse(b, n, bpf_fmt(b, "the function %s()'s local '%s' of this type", fn->name, fn->locals[i]->name));
			return true;
		}
	return false;
}

/* The frame members of one inline call, cleared (parameters after). */
static void
declare_frame(struct bpf_cg *b, struct function_sym *fn, int inst)
{
	for (int i = 0; i < fn->nlocals; i++) {
		struct symbol *sym = fn->locals[i];

		if (sym->type == TY_STRING) {
			fprintf(b->frame, "\tchar i%d_%d[TAP_BPF_STRLEN];\t/* %s() %s */\n", inst, i, fn->name, sym->name);
			if (i >= fn->nparams)
				bpf_line(b, "tap_str_clear(f->i%d_%d);", inst, i);
		} else {
			fprintf(b->frame, "\tint64_t i%d_%d;\t/* %s() %s */\n", inst, i, fn->name, sym->name);
			if (i >= fn->nparams)
				bpf_line(b, "f->i%d_%d = 0;", inst, i);
		}
	}
	if (fn->ret == TY_STRING) {
		fprintf(b->frame, "\tchar i%d_r[TAP_BPF_STRLEN];\t/* %s()'s value */\n", inst, fn->name);
		bpf_line(b, "tap_str_clear(f->i%d_r);", inst);
	} else if (fn->ret == TY_LONG) {
		fprintf(b->frame, "\tint64_t i%d_r;\t/* %s()'s value */\n", inst, fn->name);
		bpf_line(b, "f->i%d_r = 0;", inst);
	}
}

struct bval
bpf_call_script(struct bpf_cg *b, struct node *n)
{
	struct function_sym *fn = n->u.call.fn;
	struct node_list *args = &n->u.call.args;
	int inst = b->seq++;
	const char **vals;

	if (refuse_call(b, n))
		return (struct bval){ BX_VOID, "0" };
	/* the arguments, in the caller's scope, left to right */
	vals = arena_alloc(b->a, sizeof(char *) * (size_t)(args->n + 1));
	for (int i = 0; i < args->n && i < fn->nparams; i++) {
		if (fn->params[i]->type == TY_STRING) {
			const char *s = bpf_as_str(b, args->v[i]);
			const char *t = bpf_new_str_temp(b);

			bpf_line(b, "tap_str_copy(%s, %s);", t, s);
			vals[i] = t;
		} else {
			vals[i] = bpf_new_long_temp(b, bpf_as_long(b, args->v[i]).c);
		}
	}
	if (b->failed)
		return (struct bval){ BX_VOID, "0" };
	bpf_line(b, "/* %s() inline */", fn->name);
	declare_frame(b, fn, inst);
	for (int i = 0; i < args->n && i < fn->nparams; i++) {
		if (fn->params[i]->type == TY_STRING)
			bpf_line(b, "tap_str_copy(f->i%d_%d, %s);", inst, i, vals[i]);
		else
			bpf_line(b, "f->i%d_%d = %s;", inst, i, vals[i]);
	}
	/* a loop around the body is not this call's: break/continue in
	 * the body belong to the body's own loops */
	int cont = b->cont;

	b->inl[b->ninl++] = (struct bpf_inline){ fn, inst, b->ncb };
	bpf_stmt(b, fn->decl->u.function.body);
	b->ninl--;
	b->cont = cont;
	bpf_line(b, "ret%d: ;", inst);
	if (fn->ret == TY_STRING)
		return (struct bval){ BX_STR, bpf_fmt(b, "f->i%d_r", inst) };
	if (fn->ret == TY_LONG)
		return (struct bval){ BX_LONG, bpf_fmt(b, "f->i%d_r", inst) };
	return (struct bval){ BX_VOID, "0" };
}

/* `return x` in an inline body: x into the call's value, to its end. */
void
bpf_return(struct bpf_cg *b, struct node *n)
{
	const struct bpf_inline *in = &b->inl[b->ninl - 1];
	struct node *x = n->u.ret.value;

	if (in->ncb != b->ncb) {
		bpf_refuse(b, n, "return from inside a foreach loop in a function a kernel-side probe calls");
		return;
	}
	bpf_line(b, "{");
	b->indent++;
	if (x && in->fn->ret == TY_STRING) {
		const char *s = bpf_as_str(b, x);

		bpf_line(b, "tap_str_copy(f->i%d_r, %s);", in->inst, s);
	} else if (x && in->fn->ret == TY_LONG) {
		struct bval v = bpf_as_long(b, x);

		bpf_line(b, "f->i%d_r = %s;", in->inst, v.c);
	} else if (x) {
		bpf_expr(b, x);
	}
	bpf_line(b, "goto ret%d;", in->inst);
	b->indent--;
	bpf_line(b, "}");
}
