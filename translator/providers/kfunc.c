/*
 * kfunc.c -- kernel.function("PATTERN")[.call|.return] without debug info:
 * the function's entry (or return) by symbol name, with its parameters
 * named and typed by the kernel's BTF.
 *
 * Parameters are context variables ($file, $count, ...) read from the
 * argument registers at entry (x86_64: di, si, dx, cx, r8, r9), typed by
 * BTF (tvar_access.h: an integer of the parameter's size and
 * signedness; pointers are addresses), so that $file->f_pos, $file$ and
 * $$parms walk the BTF types (tvar_btf.c).  In .return probes there is
 * $return, and a parameter means its value at entry (resolve.c wraps it
 * in @entry).  Source-line forms (PATTERN@FILE:LINE), .inline and
 * .exported need DWARF and say so.
 * module("NAME").function(...) on a module without DWARF comes here too
 * (kfunc_match_module, from dwarf.c): the names from the module's symbol
 * table, the types from its BTF.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/providers/kfunc.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"
#include "translator/sema/resolve_tvar.h"
#include "translator/sema/tvar_btf.h"

#define KFUNC_MAX_EXPANSION 20000
#define KFUNC_REG_ARGS 6

/* What this provider keeps per probe: the kprobe codegen reads the first
 * member (dp->pdata is a struct pdata_kprobe *). */
struct kfunc_pdata {
	struct pdata_kprobe pd;
	struct context_var *ret;	/* $return (.return probes) */
	const char *why_untyped;	/* no parameters known: why */
};

static int
kfunc_unsupported(struct elab *e, struct node *point, const char *why)
{
	diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
		   "probe point '%s' is not supported yet (%s)",
		   pp_to_string(e->s->arena, point), why);
	return -1;
}

/* A point that only the kernel's DWARF can serve: what needs it, and
 * the package that has it (providers/dwarf.c serves the point once it is
 * installed). */
static int
kfunc_needs_dwarf(struct elab *e, struct node *point, const char *what)
{
	struct kernel_target *kt = elab_kernel(e, point->loc);

	if (!kt)
		return -1;
	diag_error(&e->s->diag, point->loc, "E_NO_DEBUGINFO",
		   "probe point '%s': %s the kernel's DWARF debug info: install linux-image-%s-dbg",
		   pp_to_string(e->s->arena, point), what, kernel_release(kt));
	return -1;
}

static struct context_var *
param_var(struct elab *e, const struct btf *btf, const struct btf_param_info *p,
	  int index)
{
	char type[256];

	btf_type_snprint(btf, p->type, NULL, type, sizeof(type));
	struct context_var *cv = elab_new_context_var(
		e, p->name, TY_LONG, arena_strdup(e->s->arena, type));
	cv->arg_index = index;
	cv->is_pointer = btf_is_pointer(btf, p->type);
	cv->size = (int)btf_sizeof(btf, p->type);
	cv->access = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_ARG,
							    .index = index });
	tbtf_set_scalar_result(btf, p->type, cv->access);
	cv->access->type_name = cv->c_type;
	cv->is_signed = cv->access->result.is_signed;
	cv->btf = btf;
	cv->btf_type = p->type;
	cv->writable = true;	/* with -g: the argument register, or
				 * memory through it */
	return cv;
}

/* $return, typed by the function's return type in BTF when known. */
static struct context_var *
return_var(struct elab *e, const struct btf *btf, uint32_t func)
{
	uint32_t type = func ? btf_return_type(btf, func) : BTF_NONE;
	char text[256] = "long";
	struct context_var *cv;

	if (func)
		btf_type_snprint(btf, type, NULL, text, sizeof(text));
	cv = elab_new_context_var(e, "return", TY_LONG,
				  arena_strdup(e->s->arena, text));
	cv->arg_index = -1;
	cv->writable = true;
	cv->access = ta_new(e->s->arena,
			    (struct ta_base){ .kind = TA_BASE_RETURN });
	cv->access->type_name = cv->c_type;
	if (func && type != BTF_NONE) {
		tbtf_set_scalar_result(btf, type, cv->access);
		cv->btf = btf;
		cv->btf_type = type;
		cv->is_signed = cv->access->result.is_signed;
	} else if (func) {
		cv->btf = btf;	/* void: $$return is "" */
	}
	return cv;
}

/* The function's parameters from BTF, as context variables. */
static void
fill_params(struct elab *e, const struct btf *btf, const char *name,
	    struct kfunc_pdata *kp)
{
	struct pdata_kprobe *pd = &kp->pd;
	uint32_t id = btf_find(btf, name, BTF_KIND_FUNC);
	int n = id ? btf_param_count(btf, id) : -1;

	pd->nparams = 0;
	pd->nargs = n;
	if (pd->is_return)
		kp->ret = return_var(e, btf, id);
	if (!id)
		kp->why_untyped = arena_printf(e->s->arena,
			"the kernel's BTF (%s) does not describe function '%s', and there is no DWARF debug info",
			btf_source(btf), name);
	if (n <= 0)
		return;
	pd->params = arena_alloc(e->s->arena, sizeof(*pd->params) * (size_t)n);
	pd->args_in_slots = true;
	for (int i = 0; i < n && i < KFUNC_REG_ARGS; i++) {
		struct btf_param_info p;
		if (!btf_param_at(btf, id, i, &p)) {
			pd->args_in_slots = false;
			continue;
		}
		int64_t size = btf_sizeof(btf, p.type);
		if (size < 1 || size > 8)
			pd->args_in_slots = false;
		if (!*p.name)
			continue;
		pd->params[pd->nparams++] = param_var(e, btf, &p, i);
	}
}

struct kfunc_ctx {
	struct elab *e;
	struct node *point;
	const struct btf *btf;
	const char *btf_err;
	bool is_return;
	int64_t maxactive;		/* .return.maxactive(N), 0 when absent */
	int count;
	bool capped;			/* a match past KFUNC_MAX_EXPANSION */
};

static bool
add_function(const struct ksym *sym, void *ctx)
{
	struct kfunc_ctx *k = ctx;
	struct elab *e = k->e;
	struct kfunc_pdata *kp;
	struct pdata_kprobe *pd;

	if (k->count >= KFUNC_MAX_EXPANSION) {
		k->capped = true;
		return false;
	}
	kp = arena_alloc(e->s->arena, sizeof(*kp));
	pd = &kp->pd;
	pd->symbol = sym->name;
	pd->is_return = k->is_return;
	pd->maxactive = (int)k->maxactive;
	pd->from_kernel_function = true;
	if (k->btf) {
		fill_params(e, k->btf, sym->name, kp);
	} else {
		pd->nargs = -1;
		kp->why_untyped = arena_printf(e->s->arena,
			"there is neither BTF nor DWARF debug info for the kernel (%s)",
			k->btf_err);
		if (k->is_return)
			kp->ret = return_var(e, NULL, BTF_NONE);
	}
	elab_add_probe(e, k->point,
		       arena_printf(e->s->arena, "kernel.function(\"%s\")%s",
				    sym->name, k->is_return ? ".return" : ".call"),
		       pd);
	k->count++;
	return true;
}

/* Whether the point's suffix is one BTF serves: none, .call, .return
 * or .return.maxactive(N) (N > 0: how many returns of the function the
 * kretprobe tracks at once, the kernel's default when absent).  Sets
 * *is_return and *maxactive (0: the default). */
static bool
kfunc_suffix(struct elab *e, struct node *point, bool *is_return,
	     int64_t *maxactive)
{
	if (pp_return_suffix(point, 2, is_return, maxactive) ||
	    (point->u.point.ncomps == 3 && pp_is(point, 2, "call") &&
	     !pp_arg(point, 2)))
		return true;
	if (point->u.point.ncomps == 4 && pp_is(point, 2, "return") &&
	    pp_is(point, 3, "maxactive"))
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "probe point '%s': expected .return.maxactive(N) with 0 < N <= %d",
			   pp_to_string(e->s->arena, point), INT_MAX);
	else
		kfunc_needs_dwarf(e, point, "only .call, .return and .return.maxactive(N) work without DWARF; other suffixes (.inline, .exported, .label ...) need");
	return false;
}

int
kfunc_match(struct elab *e, struct node *point)
{
	const char *pattern = pp_arg_string(point, 1);
	char err[256];
	struct kfunc_ctx k = { .e = e, .point = point };

	if (!pattern)
		return kfunc_unsupported(e, point, "expected kernel.function(\"NAME\")");
	if (strchr(pattern, '@'))
		return kfunc_needs_dwarf(e, point, "a source file or line (FUNC@FILE[:LINE]) needs");
	if (!kfunc_suffix(e, point, &k.is_return, &k.maxactive))
		return -1;
	struct kernel_target *kt = elab_kernel(e, point->loc);
	if (!kt)
		return -1;
	struct ksym_table *t = kernel_functions(kt, err, sizeof(err));
	char btf_err[256];
	k.btf = kernel_btf(kt, btf_err, sizeof(btf_err));
	k.btf_err = arena_strdup(e->s->arena, btf_err);
	if (!t) {
		diag_error(&e->s->diag, point->loc, "E_NO_SYMBOLS",
			   "cannot list kernel functions for '%s': %s", pattern, err);
		return -1;
	}
	if (e->s->opts.verbose) {
		if (k.btf)
			diag_info(&e->s->diag, "%s: no DWARF; parameters and types from BTF (%s)",
				  pp_to_string(e->s->arena, point), btf_source(k.btf));
		else
			diag_info(&e->s->diag, "%s: no DWARF and no BTF (%s): no parameters",
				  pp_to_string(e->s->arena, point), k.btf_err);
	}
	ksym_foreach(t, pattern, 0, add_function, &k);
	if (k.capped)
		elab_expansion_capped(e, point, KFUNC_MAX_EXPANSION);
	return k.count;
}


int
kfunc_match_module(struct elab *e, struct node *point, const char *modname,
		   const char *display, const struct btf *btf,
		   const char *btf_err, const char *const *funcs,
		   size_t nfuncs, const char *pattern)
{
	struct arena *a = e->s->arena;
	bool is_return;
	int64_t maxactive;
	int count = 0;

	if (strchr(pattern, '@'))
		return kfunc_needs_dwarf(e, point, "a source file or line (FUNC@FILE[:LINE]) needs");
	if (!kfunc_suffix(e, point, &is_return, &maxactive))
		return -1;
	for (size_t i = 0; i < nfuncs; i++) {
		if (fnmatch(pattern, funcs[i], 0) != 0)
			continue;
		if (count >= KFUNC_MAX_EXPANSION) {
			elab_expansion_capped(e, point, KFUNC_MAX_EXPANSION);
			break;
		}
		struct kfunc_pdata *kp = arena_alloc(a, sizeof(*kp));
		struct pdata_kprobe *pd = &kp->pd;
			pd->symbol = arena_printf(a, "%s:%s", modname, funcs[i]);
		pd->module = modname;
		pd->is_return = is_return;
		pd->maxactive = (int)maxactive;
		pd->from_kernel_function = true;
		if (btf) {
			fill_params(e, btf, funcs[i], kp);
		} else {
			kp->why_untyped = arena_printf(a,
				"module %s has neither BTF nor DWARF debug info (%s)",
				modname, btf_err);
			if (is_return)
				kp->ret = return_var(e, NULL, BTF_NONE);
		}
		elab_add_probe(e, point,
			       arena_printf(a, "module(\"%s\").function(\"%s\")%s",
					    display, funcs[i],
					    is_return ? ".return" : ".call"),
			       pd);
		count++;
	}
	return count;
}

struct context_var *
kfunc_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct kfunc_pdata *kp = dp->pdata;
	struct pdata_kprobe *pd = &kp->pd;

	(void)e;
	if (pd->is_return && strcmp(name, "return") == 0)
		return kp->ret;
	for (int i = 0; i < pd->nparams; i++)
		if (strcmp(pd->params[i]->name, name) == 0)
			return pd->params[i];
	return NULL;
}

const char *
kfunc_untyped_reason(const struct derived_probe *dp)
{
	const struct kfunc_pdata *kp = dp->pdata;

	/* Ours (the DWARF provider hands kernel.function here when the
	 * kernel has no DWARF): a kernel.function kprobe without DWARF. */
	if (!kp || !kp->pd.from_kernel_function || kp->pd.dwarf)
		return NULL;
	return kp->why_untyped;
}

/* The parameters, then $return in .return probes (where the parameters
 * are their values at entry). */
int
kfunc_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	struct kfunc_pdata *kp = dp->pdata;
	struct pdata_kprobe *pd = &kp->pd;
	int n = pd->nparams;

	*out = arena_alloc(e->s->arena, sizeof(**out) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		(*out)[i] = pd->params[i];
	if (pd->is_return && kp->ret)
		(*out)[n++] = kp->ret;
	return n;
}
