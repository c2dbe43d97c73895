/*
 * kprobe.c -- kprobe.function("NAME")[.return][.maxactive(N)],
 * kprobe.module("MOD").function("NAME")[.return], and
 * kprobe.statement(ADDR).absolute (guru mode): probes placed by symbol
 * name with no debug information. Names with wildcards expand over the
 * target's function symbols (kallsyms for the running kernel, BTF for
 * another), skipping what the kernel refuses to probe. The only context
 * variable is $return, in .return probes.
 *
 * The file also holds the kprobe backend (kprobe.h) of every family whose
 * probes are kprobes.  What the emitted C may assume (kernel module only;
 * runtime/linux/probes.h): each struct tap_kprobe_probe is registered by
 * symbol and offset (or address); a handler has the registers in c->regs;
 * a .return probe's entry_handler (probe_N_entry, codegen_tvar.c) runs at
 * entry and both halves find its data_size bytes in c->probe_data.
 */
#include <fnmatch.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_tvar.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/providers/kprobe.h"
#include "translator/providers/pdata.h"
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
	(void)e;
	return pp_return_suffix(point, i, &k->is_return, &k->maxactive);
}

static struct pdata_kprobe *
make_pdata(struct elab *e, const struct kprobe_shape *k, const char *symbol)
{
	struct pdata_kprobe *pd = arena_alloc(e->s->arena, sizeof(*pd));

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
		elab_expansion_capped(e, point, KPROBE_MAX_EXPANSION);
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

/* ---- the kprobe backend (kprobe.h) ---- */

void
kprobe_add_rows(struct cg *g, enum backend b, const struct provider *p)
{
	struct program *prog = g->prog;

	if (b != BACKEND_KMOD)
		return;
	for (int i = 0; i < prog->nprobes; i++) {
		struct derived_probe *dp = prog->probes[i];
		const struct pdata_kprobe *pd = dp->pdata;
		if (dp->provider != p)
			continue;
		cg_table_row(g, "__tap_kprobes", dp->index, cg_fmt(g,
			"{ .probe = %s, .symbol = %s, .offset = %lluUL, .is_return = %s, .optional = %s, .maxactive = %d, .entry_handler = %s, .data_size = %s },",
			cg_probe_record(g, dp),
			pd->symbol ? cg_c_string(g, pd->symbol, strlen(pd->symbol)) : "NULL",
			(unsigned long long)pd->address,
			pd->is_return ? "true" : "false",
			dp->point->u.point.optional ? "true" : "false",
			pd->maxactive, cg_entry_handler_name(g, dp),
			cg_entry_data_size(g, dp)));
	}
}

bool
kprobe_is_return(const struct derived_probe *dp)
{
	return ((const struct pdata_kprobe *)dp->pdata)->is_return;
}

/* The x86_64 argument registers, as struct pt_regs names them. */
static const char *
kernel_arg_reg(int i)
{
	static const char *const regs[] = { "di", "si", "dx", "cx", "r8", "r9" };

	return i >= 0 && i < 6 ? regs[i] : "di";
}

const char *
kprobe_target_expr(struct cg *g, enum backend b,
		   const struct derived_probe *dp,
		   const struct context_var *cv, struct node *n)
{
	(void)b; (void)dp; (void)n;
	if (cv->type != TY_LONG)
		return NULL;
	if (cv->arg_index >= 0)
		return cg_fmt(g, "((int64_t)c->regs->%s)",
			      kernel_arg_reg(cv->arg_index));
	return "((int64_t)regs_return_value(c->regs))";
}

extern const struct provider provider_kprobe;

/* Whether a kernel.function probe also gets an fentry/fexit form: its
 * every argument known from BTF and 1-8 bytes (one u64 slot each in the
 * trampoline's array, so argument i is slot i and fexit's return value
 * slot nargs), in registers (at most 6), no DWARF site (a statement or
 * inline site is no function entry) and no module (a module's BTF
 * is its own object, which fentry would have to name).  kprobe.function
 * stays a kprobe, as it says. */
bool
kprobe_bpf_has_fentry(const struct derived_probe *dp)
{
	const struct pdata_kprobe *pd = dp->pdata;

	if (!pd->from_kernel_function || pd->dwarf || pd->module ||
	    !pd->symbol || pd->address || pd->nargs < 0 || pd->nargs > 6)
		return false;
	return pd->nargs == 0 || pd->args_in_slots;
}

/* --runtime=bpf: a kprobe (or kretprobe) program on the function's
 * symbol; kernels without kprobes refuse the attach, which the user
 * program reports naming the probe.  Shared with dwarf.c
 * (kernel.function), whose probes keep the same pdata. */
enum bpf_place
kprobe_bpf_place(const struct derived_probe *dp, struct arena *a,
		 struct bpf_attach *att)
{
	const struct pdata_kprobe *pd = dp->pdata;

	if (!pd->symbol || pd->module || pd->address)
		return BPF_PLACE_NONE;
	att->section = arena_printf(a, "%s/%s", pd->is_return ? "kretprobe" : "kprobe",
				    pd->symbol);
	att->ctx_type = "struct pt_regs___tap";
	att->guard = NULL;
	att->what = pd->is_return ? "kretprobe" : "kprobe";
	if (kprobe_bpf_has_fentry(dp))
		att->fentry_section = arena_printf(a, "%s/%s",
			pd->is_return ? "fexit" : "fentry", pd->symbol);
	return BPF_PLACE_KERNEL;
}

/* Arguments in the registers of the kernel's calling convention;
 * $return in ax (CO-RE relocated accesses to the program's context). */
const char *
kprobe_bpf_target_expr(struct arena *a, const struct derived_probe *dp,
		       const struct context_var *cv)
{
	const struct pdata_kprobe *pd = dp->pdata;
	const char *regs;
	int slot;

	if (cv->type != TY_LONG || cv->arg_index > 5)
		return NULL;
	regs = cv->arg_index >= 0 ?
		arena_printf(a, "((int64_t)ctx->%s)", kernel_arg_reg(cv->arg_index)) :
		"((int64_t)ctx->ax)";
	if (!kprobe_bpf_has_fentry(dp))
		return regs;
	/* the fentry/fexit form's array: the arguments, then the value */
	slot = cv->arg_index >= 0 ? cv->arg_index : pd->nargs;
	return arena_printf(a, "(__fentry ? ((int64_t)((__u64 *)__ctx)[%d]) : %s)",
			    slot, regs);
}

static void
kprobe_code(struct cg *g, enum backend b)
{
	kprobe_add_rows(g, b, &provider_kprobe);
}

static int nkprobes;	/* rows of __tap_kprobes */

/* May assume every family's emit_code ran (the rows are all added). */
static void
kprobe_tables(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		nkprobes = cg_table_write(g, "__tap_kprobes",
					  "struct tap_kprobe_probe");
}

static void
kprobe_desc(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "kprobes", "__tap_kprobes", nkprobes);
}

static const char *const kprobe_shapes[] = {
	"kprobe.function(STRING)", "kprobe.function(STRING).return",
	"kprobe.function(STRING).return.maxactive(NUMBER)",
	"kprobe.module(STRING).function(STRING)",
	"kprobe.module(STRING).function(STRING).return",
	"kprobe.statement(NUMBER).absolute",
	NULL,
};

const struct provider provider_kprobe = {
	.name = "kprobe",
	.claims = kprobe_claims,
	.match = kprobe_match,
	.privilege = PRIV_STAPSYS,	/* .absolute also needs -g (stapdev) */
	.context = kprobe_context,
	.list_context = kprobe_list,
	.is_return = kprobe_is_return,
	.shapes = kprobe_shapes,
	.kernel_only = true,
	.emit_code = kprobe_code,
	.emit_tables = kprobe_tables,
	.emit_desc = kprobe_desc,
	.target_expr = kprobe_target_expr,
	.bpf_place = kprobe_bpf_place,
	.bpf_target_expr = kprobe_bpf_target_expr,
};
