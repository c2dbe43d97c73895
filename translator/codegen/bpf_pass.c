/*
 * bpf_pass.c -- pass 3 for --runtime=bpf, in the two halves pass 4 needs
 * around clang (codegen.h): the BPF C of the kernel-side probes, then the
 * user program's C with the compiled object embedded.
 *
 * Takes s->program.  The user half is the user target's own codegen
 * (codegen.c) run on the same program with only the probes that run in
 * user space and the functions they reach, so begin/end/timer probes,
 * foreach, sorting and printing behave exactly as with --target=user;
 * bpf_user.c adds the glue.  The kernel half is bpf_emit.c's.
 * Must not: leave s->program changed (the probe and function lists are
 * restored before returning).
 */
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/bpf_int.h"
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"

struct bpf_translation {
	struct bpf_cg cg;
	char *user_text;
	size_t user_len;
};

struct reach {
	struct function_sym **v;
	struct node **site;	/* the first call of each */
	int n, cap;
	struct arena *a;
};

static bool reach_visit(struct node *n, void *ctx);

static void
reach_add(struct reach *r, struct function_sym *fn, struct node *call)
{
	for (int i = 0; i < r->n; i++)
		if (r->v[i] == fn)
			return;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		struct function_sym **v = arena_alloc(r->a, sizeof(*v) * (size_t)r->cap);
		struct node **site = arena_alloc(r->a, sizeof(*site) * (size_t)r->cap);
		if (r->n) {
			memcpy(v, r->v, sizeof(*v) * (size_t)r->n);
			memcpy(site, r->site, sizeof(*site) * (size_t)r->n);
		}
		r->v = v;
		r->site = site;
	}
	r->site[r->n] = call;
	r->v[r->n++] = fn;
	if (fn->decl && fn->decl->u.function.body)
		ast_walk(fn->decl->u.function.body, reach_visit, NULL, r);
}

static bool
reach_visit(struct node *n, void *ctx)
{
	if (n->kind == N_CALL && n->u.call.fn)
		reach_add(ctx, n->u.call.fn, n);
	return true;
}

/* Embedded C of a library file that has a `runtime == "kernel"` branch
 * (the file's other branch holds the user-space C, not elaborated
 * here); files without one have the same C for both. */
static bool
is_kernel_c(const struct function_sym *fn)
{
	const struct source *src;

	if (!fn->decl || !fn->decl->u.function.embedded)
		return false;
	src = fn->decl->loc.src;
	return !src || !src->text || strstr(src->text, "runtime == \"kernel\"");
}

/* Kernel-C library functions whose value the user half gives by its own
 * C: the clocks BPF handlers read (bpf_expr.c), so that a time taken in
 * a begin or timer probe and one taken in a handler can be subtracted.
 * ktime_get_ns() is CLOCK_MONOTONIC on both sides (bpf_ktime_get_ns()). */
static const struct user_twin {
	const char *name;
	const char *user_c;
} user_twins[] = {
	{ "ktime_get_ns", "STAP_RETVALUE = tap_monotonic_ns();" },
};

static const char *
user_twin_of(const struct function_sym *fn)
{
	for (size_t i = 0; i < sizeof(user_twins) / sizeof(user_twins[0]); i++)
		if (strcmp(fn->name, user_twins[i].name) == 0)
			return user_twins[i].user_c;
	return NULL;
}

/* The kernel C of the first n reached functions that lent theirs to
 * a user twin, back in place. */
static void
give_back_kernel_c(struct reach *r, const char **kernel_c, int n)
{
	for (int i = 0; i < n; i++)
		if (kernel_c[i])
			r->v[i]->decl->u.function.embedded = kernel_c[i];
}

/* The user target's C for the user-space probes only. */
static bool
translate_user_half(struct session *s, const struct bpf_split *sp,
		    char **text, size_t *len)
{
	struct program *p = s->program;
	struct program saved = *p;
	struct reach r = { .a = s->arena };
	enum target_kind target = s->opts.target;
	FILE *f;
	bool ok;

	for (int i = 0; i < sp->nuser; i++) {
		ast_walk(sp->user[i]->body, reach_visit, NULL, &r);
		if (sp->user[i]->cond)
			ast_walk(sp->user[i]->cond, reach_visit, NULL, &r);
	}
	/* The library is elaborated for the kernel (runtime == "kernel"):
	 * embedded C from a file with a kernel flavour is kernel C, which
	 * the user program cannot compile, unless it has a user twin. */
	const char **kernel_c = arena_alloc(s->arena, sizeof(*kernel_c) * (size_t)(r.n + 1));
	for (int i = 0; i < r.n; i++) {
		kernel_c[i] = NULL;
		if (!is_kernel_c(r.v[i]))
			continue;
		const char *twin = user_twin_of(r.v[i]);
		if (twin) {
			/* lent for this translation, given back below */
			kernel_c[i] = r.v[i]->decl->u.function.embedded;
			r.v[i]->decl->u.function.embedded = twin;
			continue;
		}
		diag_error(&s->diag, r.site[i]->loc, "E_BPF_UNSUPPORTED",
			   "%s() is kernel C (the kernel-module library's), which the user-space half of the BPF backend (--runtime=bpf) cannot run; use the kernel-module backend (--runtime=kernel) or --target=user",
			   r.v[i]->name);
		give_back_kernel_c(&r, kernel_c, i);
		return false;
	}
	/* keep the program's order of functions */
	struct function_sym **fns = arena_alloc(s->arena, sizeof(*fns) * (size_t)(p->nfunctions + 1));
	int nfns = 0;
	for (int i = 0; i < p->nfunctions; i++)
		for (int j = 0; j < r.n; j++)
			if (r.v[j] == p->functions[i])
				fns[nfns++] = p->functions[i];
	p->whole = &saved;
	p->probes = sp->user;
	p->nprobes = p->probes_cap = sp->nuser;
	p->functions = fns;
	p->nfunctions = p->functions_cap = nfns;
	p->nembeds = 0;
	s->opts.target = TARGET_USER;
	f = open_memstream(text, len);
	ok = f && pass_translate(s, f);
	if (f)
		fclose(f);
	s->opts.target = target;
	*p = saved;
	give_back_kernel_c(&r, kernel_c, r.n);
	return ok;
}

/* The kernel BPF programs are built for has bpf_loop() when its BTF has
 * the helper's function (Linux 5.17 and later); without BTF the BPF
 * backend cannot attach anything typed anyway, and C loops still work. */
static bool
kernel_has_bpf_loop(struct session *s)
{
	char err[256];
	const struct btf *btf = s->kernel ? kernel_btf(s->kernel, err, sizeof(err)) : NULL;

	return btf && btf_find(btf, "bpf_loop", BTF_KIND_FUNC) != BTF_NONE;
}

struct bpf_translation *
pass_translate_bpf(struct session *s, FILE *bpf_out)
{
	struct bpf_translation *t;
	struct bpf_split sp;

	if (!s->program || !bpf_split(s, &sp))
		return NULL;
	t = arena_alloc(s->arena, sizeof(*t));
	memset(t, 0, sizeof(*t));
	if (!translate_user_half(s, &sp, &t->user_text, &t->user_len)) {
		free(t->user_text);
		return NULL;
	}
	t->cg.s = s;
	t->cg.prog = s->program;
	t->cg.a = s->arena;
	t->cg.has_bpf_loop = kernel_has_bpf_loop(s);
	if (!bpf_emit_kernel(&t->cg, &sp, bpf_out) || s->diag.errors) {
		free(t->user_text);
		return NULL;
	}
	return t;
}

bool
pass_translate_bpf_user(struct bpf_translation *t, FILE *out,
			const char *object_key)
{
	fwrite(t->user_text, 1, t->user_len, out);
	bpf_emit_user_glue(&t->cg, out, object_key);
	free(t->user_text);
	t->user_text = NULL;
	return !ferror(out);
}
