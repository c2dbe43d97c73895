/*
 * kprobe.c -- kprobe.function("NAME")[.return][.maxactive(N)],
 * kprobe.module("MOD").function("NAME")[.return], and
 * kprobe.statement(ADDR).absolute (guru mode): probes placed by symbol
 * name with no debug information. Names with wildcards expand over the
 * target's function symbols (kallsyms for the running kernel, BTF for
 * another), skipping what the kernel refuses to probe. The only context
 * variable is $return, in .return probes.
 */
#include <fnmatch.h>
#include <string.h>

#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

#define KPROBE_MAX_EXPANSION 20000

static bool
kprobe_claims(const struct node *point)
{
	return pp_is(point, 0, "kprobe");
}

struct kprobe_shape {
	const char *module;
	const char *pattern;
	bool is_return;
	int64_t maxactive;
	int64_t address;
	bool absolute;
};

static bool
parse_shape(struct elab *e, struct node *point, struct kprobe_shape *k)
{
	int i = 1;

	memset(k, 0, sizeof(*k));
	if (pp_is(point, i, "module")) {
		k->module = pp_arg_string(point, i);
		i++;
	}
	if (pp_is(point, i, "function") && pp_arg_string(point, i)) {
		k->pattern = pp_arg_string(point, i++);
	} else if (pp_is(point, i, "statement") &&
		   pp_arg_number(point, i, &k->address)) {
		i++;
		if (!pp_is(point, i++, "absolute"))
			return false;
		k->absolute = true;
	} else {
		return false;
	}
	for (; i < point->u.point.ncomps; i++) {
		if (pp_is(point, i, "return") && !pp_arg(point, i))
			k->is_return = true;
		else if (pp_is(point, i, "maxactive") &&
			 pp_arg_number(point, i, &k->maxactive))
			;
		else
			return false;
	}
	(void)e;
	return true;
}

static struct pdata_kprobe *
make_pdata(struct elab *e, const struct kprobe_shape *k, const char *symbol)
{
	struct pdata_kprobe *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->kind = PD_KPROBE;
	pd->symbol = symbol;
	pd->module = k->module;
	pd->is_return = k->is_return;
	pd->address = (uint64_t)k->address;
	pd->maxactive = (int)k->maxactive;
	return pd;
}

static const char *
probe_name(struct elab *e, const struct kprobe_shape *k, const char *sym)
{
	return arena_printf(e->s->arena, "kprobe.%s%s%sfunction(\"%s\")%s",
			    k->module ? "module(\"" : "",
			    k->module ? k->module : "",
			    k->module ? "\")." : "", sym,
			    k->is_return ? ".return" : "");
}

struct expand_ctx {
	struct elab *e;
	struct node *point;
	const struct kprobe_shape *k;
	int count;
};

static bool
add_symbol(const struct ksym *sym, void *ctx)
{
	struct expand_ctx *x = ctx;

	if (x->count >= KPROBE_MAX_EXPANSION)
		return false;
	elab_add_probe(x->e, x->point, probe_name(x->e, x->k, sym->name),
		       make_pdata(x->e, x->k, sym->name));
	x->count++;
	return true;
}

static int
kprobe_by_name(struct elab *e, struct node *point, const struct kprobe_shape *k)
{
	char err[256];
	bool wild = strpbrk(k->pattern, "*?[") != NULL;
	struct kernel_target *kt = k->module && !wild ? NULL :
		elab_kernel(e, point->loc);
	struct ksym_table *t = NULL;

	if (kt && k->module) {
		/* a module's functions, from its own BTF */
		struct btf *mb = kernel_module_btf(kt, k->module, err,
						   sizeof(err));
		t = mb ? ksym_load_btf(mb, err, sizeof(err)) : NULL;
	} else if (kt) {
		t = kernel_functions(kt, err, sizeof(err));
	}

	if (!wild && (k->module || !t)) {
		/* A kprobe takes a name; the kernel checks it at load. */
		elab_add_probe(e, point, probe_name(e, k, k->pattern),
			       make_pdata(e, k, k->pattern));
		return 1;
	}
	if (!t) {
		diag_error(&e->s->diag, point->loc, "E_NO_SYMBOLS",
			   "cannot list kernel functions for '%s'",
			   k->pattern);
		return -1;
	}
	struct expand_ctx x = { e, point, k, 0 };
	ksym_foreach(t, k->pattern, 0, add_symbol, &x);
	if (x.count >= KPROBE_MAX_EXPANSION)
		diag_warning(&e->s->diag, point->loc, "W_PROBE_EXPANSION",
			     "'%s' matches too many functions; only the first %d are probed",
			     k->pattern, KPROBE_MAX_EXPANSION);
	return x.count;
}

static int
kprobe_match(struct elab *e, struct node *point)
{
	struct kprobe_shape k;

	if (!parse_shape(e, point, &k)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected kprobe.function(\"NAME\")[.return], kprobe.module(\"M\").function(\"NAME\")[.return] or kprobe.statement(ADDR).absolute");
		return -1;
	}
	if (k.absolute) {
		if (!e->s->opts.guru) {
			diag_error(&e->s->diag, point->loc, "E_GURU_ONLY",
				   "kprobe.statement(ADDR).absolute needs guru mode (-g)");
			return -1;
		}
		elab_add_probe(e, point, NULL, make_pdata(e, &k, NULL));
		return 1;
	}
	return kprobe_by_name(e, point, &k);
}

static struct context_var *
kprobe_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_kprobe *pd = dp->pdata;

	if (pd->is_return && strcmp(name, "return") == 0) {
		struct context_var *cv = elab_new_context_var(e, "return",
							      TY_LONG, "long");
		cv->arg_index = -1;
		cv->writable = true;	/* with -g, as SystemTap allows */
		return cv;
	}
	return NULL;
}

static int
kprobe_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	struct pdata_kprobe *pd = dp->pdata;

	*out = NULL;
	if (!pd->is_return)
		return 0;
	*out = arena_alloc(e->s->arena, sizeof(**out));
	(*out)[0] = kprobe_context(e, dp, "return");
	return 1;
}

const struct provider provider_kprobe = {
	.name = "kprobe",
	.claims = kprobe_claims,
	.match = kprobe_match,
	.context = kprobe_context,
	.list_context = kprobe_list,
};
