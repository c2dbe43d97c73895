/*
 * kfunc.c -- kernel.function("PATTERN")[.call|.return] without debug info:
 * the function's entry (or return) by symbol name, with its parameters
 * named and typed by the kernel's BTF.
 *
 * Parameters are context variables ($file, $count, ...) read from the
 * argument registers at entry (x86_64: di, si, dx, cx, r8, r9); they are
 * longs (pointers are addresses). In .return probes there is $return; the
 * parameters there need @entry, which is not supported yet. Source-line
 * forms (PATTERN@FILE:LINE), .inline, .exported and $var->member need
 * DWARF and say so.
 */
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/elab.h"
#include "translator/providers/provider.h"

#define KFUNC_MAX_EXPANSION 20000
#define KFUNC_REG_ARGS 6

static bool
kfunc_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "function");
}

static int
kfunc_unsupported(struct elab *e, struct node *point, const char *why)
{
	diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
		   "probe point '%s' is not supported yet (%s)",
		   pp_to_string(e->s->arena, point), why);
	return -1;
}

static struct context_var *
param_var(struct elab *e, const struct btf *btf, const struct btf_param *p,
	  int index)
{
	char type[256];

	btf_type_snprint(btf, p->type, NULL, type, sizeof(type));
	struct context_var *cv = elab_new_context_var(
		e, p->name, TY_LONG, arena_strdup(e->s->arena, type));
	cv->arg_index = index;
	cv->is_pointer = btf_is_pointer(btf, p->type);
	cv->size = (int)btf_sizeof(btf, p->type);
	return cv;
}

/* The function's parameters from BTF, as context variables. */
static void
fill_params(struct elab *e, const struct btf *btf, const char *name,
	    struct pdata_kprobe *pd)
{
	uint32_t id = btf_find(btf, name, BTF_KIND_FUNC);
	int n = id ? btf_param_count(btf, id) : -1;

	pd->nparams = 0;
	if (n <= 0)
		return;
	pd->params = arena_alloc(e->s->arena, sizeof(*pd->params) * (size_t)n);
	for (int i = 0; i < n && i < KFUNC_REG_ARGS; i++) {
		struct btf_param p;
		if (!btf_param_at(btf, id, i, &p) || !*p.name)
			continue;
		pd->params[pd->nparams++] = param_var(e, btf, &p, i);
	}
}

struct kfunc_ctx {
	struct elab *e;
	struct node *point;
	const struct btf *btf;
	bool is_return;
	int count;
};

static bool
add_function(const struct ksym *sym, void *ctx)
{
	struct kfunc_ctx *k = ctx;
	struct elab *e = k->e;
	struct pdata_kprobe *pd;

	if (k->count >= KFUNC_MAX_EXPANSION)
		return false;
	pd = arena_alloc(e->s->arena, sizeof(*pd));
	pd->kind = PD_KPROBE;
	pd->symbol = sym->name;
	pd->is_return = k->is_return;
	pd->from_kernel_function = true;
	if (k->btf)
		fill_params(e, k->btf, sym->name, pd);
	elab_add_probe(e, k->point,
		       arena_printf(e->s->arena, "kernel.function(\"%s\")%s",
				    sym->name, k->is_return ? ".return" : ".call"),
		       pd);
	k->count++;
	return true;
}

static int
kfunc_match(struct elab *e, struct node *point)
{
	const char *pattern = pp_arg_string(point, 1);
	int n = point->u.point.ncomps;
	char err[256];
	struct kfunc_ctx k = { e, point, NULL, false, 0 };

	if (!pattern)
		return kfunc_unsupported(e, point, "expected kernel.function(\"NAME\")");
	if (strchr(pattern, '@'))
		return kfunc_unsupported(e, point, "source file and line need DWARF debug info");
	if (n == 3 && pp_is(point, 2, "return"))
		k.is_return = true;
	else if (n == 3 && pp_is(point, 2, "call"))
		k.is_return = false;
	else if (n != 2)
		return kfunc_unsupported(e, point, "only .call and .return work without DWARF debug info");
	struct kernel_target *kt = elab_kernel(e, point->loc);
	if (!kt)
		return -1;
	struct ksym_table *t = kernel_functions(kt, err, sizeof(err));
	k.btf = kernel_btf(kt, err, sizeof(err));
	if (!t) {
		diag_error(&e->s->diag, point->loc, "E_NO_SYMBOLS",
			   "cannot list kernel functions for '%s': %s", pattern, err);
		return -1;
	}
	if (e->s->opts.verbose && !e->listing)
		fprintf(stderr, "tapc: %s: parameters from %s\n",
			pp_to_string(e->s->arena, point),
			k.btf ? btf_source(k.btf) : "nowhere (no BTF)");
	ksym_foreach(t, pattern, 0, add_function, &k);
	return k.count;
}

static struct context_var *
kfunc_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_kprobe *pd = dp->pdata;

	if (pd->is_return && strcmp(name, "return") == 0) {
		struct context_var *cv = elab_new_context_var(e, "return",
							      TY_LONG, "long");
		cv->arg_index = -1;
		cv->writable = true;
		return cv;
	}
	if (pd->is_return)
		return NULL;
	for (int i = 0; i < pd->nparams; i++)
		if (strcmp(pd->params[i]->name, name) == 0)
			return pd->params[i];
	return NULL;
}

static int
kfunc_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	struct pdata_kprobe *pd = dp->pdata;

	if (pd->is_return) {
		*out = arena_alloc(e->s->arena, sizeof(**out));
		(*out)[0] = kfunc_context(e, dp, "return");
		return 1;
	}
	*out = pd->params;
	return pd->nparams;
}

const struct provider provider_kfunc = {
	.name = "kernel.function",
	.claims = kfunc_claims,
	.match = kfunc_match,
	.context = kfunc_context,
	.list_context = kfunc_list,
};
