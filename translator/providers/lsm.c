/*
 * lsm.c -- lsm.HOOK: a BPF LSM program on one of the kernel's security
 * hooks (lsm.socket_bind, lsm.file_open), for
 * --runtime=bpf only: the kernel runs it where the hook's LSMs run, and
 * its return value is the hook's verdict (0 allows, a negative errno
 * refuses).  A hook exists where the kernel's BTF has bpf_lsm_HOOK (the
 * kernel is built with CONFIG_BPF_LSM); the program loads only where
 * "bpf" is in the kernel's active LSMs (lsm= / CONFIG_LSM) and, as every
 * BPF trampoline, where the kernel can patch the hook.
 *
 * Context variables: the hook's parameters by their BTF names ($sock,
 * $address), typed ($sock->sk); $ctx, the address of the argument array
 * (SystemTap's); and, for a hook returning int, $return: the verdict so
 * far (an earlier LSM's, or 0), which the handler may set with -g --
 * the program returns it, whatever way the handler ends (an error,
 * `next`).  The kernel-module backend has no such program: refused.
 *
 * What the emitted BPF C may assume (bpf_emit.c): the program is
 * SEC("lsm/HOOK") int probe_N(__u64 *ctx), ctx[i] the hook's argument i
 * and ctx[nargs] the verdict so far; the frame holds lsm_ret, set from
 * ctx[nargs] once the frame is found.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"
#include "translator/sema/tvar_btf.h"

#define LSM_PREFIX "bpf_lsm_"
#define LSM_MAXARGS 6	/* what an LSM hook passes (BPF_PROG's limit 12) */

extern const struct provider provider_lsm;

struct pdata_lsm {
	const char *hook;		/* "socket_bind" */
	int nargs;
	struct context_var **args;	/* the hook's parameters, in order */
	struct context_var *ctx;	/* $ctx */
	struct context_var *ret;	/* $return; NULL for a void hook */
	int ret_slot;			/* its slot: after the arguments */
};

static bool
lsm_claims(const struct node *point)
{
	return pp_is(point, 0, "lsm");
}

/* Parameter i of the hook: slot i of the argument array, typed by BTF. */
static struct context_var *
lsm_param(struct elab *e, const struct btf *btf,
	  const struct btf_param_info *p, int i)
{
	char type[256];
	struct context_var *cv;

	btf_type_snprint(btf, p->type, NULL, type, sizeof(type));
	cv = elab_new_context_var(e, p->name, TY_LONG,
				  arena_strdup(e->s->arena, type));
	cv->arg_index = i;
	cv->is_pointer = btf_is_pointer(btf, p->type);
	cv->size = (int)btf_sizeof(btf, p->type);
	cv->access = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_SLOT,
							    .index = i });
	tbtf_set_scalar_result(btf, p->type, cv->access);
	cv->access->type_name = cv->c_type;
	cv->is_signed = cv->access->result.is_signed;
	cv->btf = btf;
	cv->btf_type = p->type;
	return cv;
}

static struct context_var *
lsm_plain_var(struct elab *e, const char *name, const char *type, int index)
{
	struct context_var *cv = elab_new_context_var(e, name, TY_LONG, type);

	cv->arg_index = index;
	cv->size = 8;
	cv->is_signed = true;
	return cv;
}

static struct pdata_lsm *
lsm_pdata(struct elab *e, const struct btf *btf, uint32_t func,
	  const char *hook)
{
	struct pdata_lsm *pd = arena_alloc(e->s->arena, sizeof(*pd));
	uint32_t ret = btf_return_type(btf, func);
	int n = btf_param_count(btf, func);

	pd->hook = arena_strdup(e->s->arena, hook);
	pd->args = arena_alloc(e->s->arena, sizeof(*pd->args) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		struct btf_param_info p;

		if (btf_param_at(btf, func, i, &p) && *p.name)
			pd->args[pd->nargs++] = lsm_param(e, btf, &p, i);
	}
	pd->ctx = lsm_plain_var(e, "ctx", "unsigned long long *", -2);
	pd->ctx->is_pointer = true;
	if (ret != BTF_NONE) {
		/* the verdict so far; with -g the program's return value */
		/* arg_index -1: a $return the handler may store into */
		pd->ret = lsm_plain_var(e, "return", "int", -1);
		pd->ret->writable = true;
		pd->ret_slot = n;
	}
	return pd;
}

static int
lsm_refuse(struct elab *e, struct node *point, const char *why)
{
	diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
		   "probe point '%s' is not supported: %s",
		   pp_to_string(e->s->arena, point), why);
	return -1;
}

static int
lsm_match(struct elab *e, struct node *point)
{
	const char *pattern = pp_name(point, 1);
	struct kernel_target *kt;
	const struct btf *btf;
	char err[256];
	int count = 0;

	if (point->u.point.ncomps != 2 || !pattern || pp_arg(point, 1) ||
	    pp_arg(point, 0)) {
		diag_error(&e->s->diag, point->loc, "E_BAD_PROBE_POINT",
			   "expected lsm.HOOK, HOOK a security hook's name (lsm.socket_bind)");
		return -1;
	}
	if (e->s->opts.target != TARGET_BPF)
		return lsm_refuse(e, point, "lsm.* probes are BPF LSM programs: use --runtime=bpf");
	if (!(kt = elab_kernel(e, point->loc)))
		return -1;
	if (!(btf = kernel_btf(kt, err, sizeof(err)))) {
		diag_error(&e->s->diag, point->loc, "E_NO_DEBUGINFO",
			   "lsm.* needs the kernel's BTF: %s", err);
		return -1;
	}
	for (uint32_t id = 1, n = btf__type_cnt(btf); id < n; id++) {
		const char *name = btf_name(btf, id), *hook;
		const char *shown;

		if (btf_kind_of(btf, id) != BTF_KIND_FUNC ||
		    strncmp(name, LSM_PREFIX, strlen(LSM_PREFIX)) != 0)
			continue;
		hook = name + strlen(LSM_PREFIX);
		if (fnmatch(pattern, hook, 0) != 0)
			continue;
		if (btf_param_count(btf, id) > LSM_MAXARGS)
			continue;
		shown = arena_printf(e->s->arena, "lsm.%s", hook);
		elab_add_probe(e, point, shown, lsm_pdata(e, btf, id, hook));
		count++;
	}
	return count;
}

static struct context_var *
lsm_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_lsm *pd = dp->pdata;

	(void)e;
	for (int i = 0; i < pd->nargs; i++)
		if (strcmp(pd->args[i]->name, name) == 0)
			return pd->args[i];
	if (strcmp(name, "ctx") == 0)
		return pd->ctx;
	if (strcmp(name, "return") == 0)
		return pd->ret;
	return NULL;
}

static int
lsm_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	struct pdata_lsm *pd = dp->pdata;
	struct context_var **all = arena_alloc(e->s->arena,
					       sizeof(*all) * (size_t)(pd->nargs + 2));
	int n = 0;

	for (int i = 0; i < pd->nargs; i++)
		all[n++] = pd->args[i];
	all[n++] = pd->ctx;
	if (pd->ret)
		all[n++] = pd->ret;
	*out = all;
	return n;
}

/* The program's argument array holds the hook's arguments and then the
 * verdict so far; the frame keeps the verdict the program returns. */
static enum bpf_place
lsm_bpf_place(const struct derived_probe *dp, struct arena *a,
	      struct bpf_attach *att)
{
	const struct pdata_lsm *pd = dp->pdata;

	att->section = arena_printf(a, "lsm/%s", pd->hook);
	att->ctx_type = "__u64";
	att->what = arena_printf(a, "BPF LSM hook %s", pd->hook);
	if (pd->ret) {
		att->ret_frame_member = "int64_t lsm_ret;";
		att->ret_init = arena_printf(a, "f->lsm_ret = (int)ctx[%d];",
					     pd->ret_slot);
		att->ret_early = arena_printf(a, "return (int)ctx[%d];",
					      pd->ret_slot);
		att->ret_stmt = "return (int)f->lsm_ret;";
	}
	return BPF_PLACE_KERNEL;
}

/* Argument i narrowed to its C type, as a raw tracepoint's. */
static const char *
lsm_bpf_target_expr(struct arena *a, const struct derived_probe *dp,
		    const struct context_var *cv)
{
	const struct pdata_lsm *pd = dp->pdata;

	if (cv == pd->ctx)
		return "((int64_t)(unsigned long)ctx)";
	if (cv == pd->ret)
		return "f->lsm_ret";
	return provider_bpf_arg(a, cv, "ctx");
}

/* $return is the frame's verdict: the one variable a handler writes. */
static const char *
lsm_bpf_target_lvalue(struct arena *a, const struct derived_probe *dp,
		      const struct context_var *cv)
{
	const struct pdata_lsm *pd = dp->pdata;

	(void)a;
	return cv == pd->ret ? "f->lsm_ret" : NULL;
}

static const char *const lsm_shapes[] = {
	"lsm", NULL,
};

const struct provider provider_lsm = {
	.name = "lsm",
	.claims = lsm_claims,
	.match = lsm_match,
	.context = lsm_context,
	.list_context = lsm_list,
	.shapes = lsm_shapes,
	.kernel_only = true,
	.bpf_place = lsm_bpf_place,
	.bpf_target_expr = lsm_bpf_target_expr,
	.bpf_target_lvalue = lsm_bpf_target_lvalue,
};
