/*
 * tracepoint.c -- kernel.trace("NAME"): static tracepoints, found in the
 * target kernel's BTF (btf_trace_* types), with subsystem names from the
 * headers or tracefs. NAME may be "sched_switch", "sched:sched_switch" or
 * a glob of either ("sched:*", "*"); a spec the kernel's own tracepoints
 * do not match is looked for in its modules (ext4's, kvm's: their
 * __tracepoint_* symbols in the module index, their types in the module's
 * BTF). The tracepoint's arguments become
 * context variables ($prev, $next, ...) of type long (pointers are
 * addresses, read through kernel_string() and friends), typed by BTF so
 * that $next->pid, $prev$ and $$parms work (tvar_btf.c): the callback
 * copies each argument to its slot of c->probe_data (TA_BASE_SLOT).
 *
 * What the emitted C may assume (kernel module only; runtime/linux/
 * probes.h): a tracepoint callback has the tracepoint's prototype with
 * `void *data` first, data being its struct tap_tracepoint_probe; it
 * enters the context with tap_tracepoint_enter(), runs the handler, and
 * leaves with tap_context_exit(). Arguments are passed as integers or
 * pointers of the same size, which the x86_64 calling convention makes
 * equivalent, so no kernel type needs to be visible here. They are stored
 * as int64_t in an array on the callback's stack (c->probe_data) for the
 * handler's $vars.  The module's one tracepoint table also carries the
 * rows other families add (kernel.syscall's sys_enter and sys_exit).
 */
#include <stdio.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/kmod_index.h"
#include "translator/debuginfo/tracepoints.h"
#include "translator/sema/elab.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"
#include "runtime/core/abi.h"
#include "translator/sema/tvar_btf.h"

#define TP_MAXARGS 12		/* arguments a callback passes on */

extern const struct provider provider_tracepoint;

static bool
tracepoint_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "trace");
}

struct match_ctx {
	struct elab *e;
	struct node *point;
	const struct btf *btf;
	const char *module;	/* the tracepoints' module; NULL: the kernel */
	int count;
};

/* How to read argument i: slot i, as BTF types it. */
static void
type_arg(struct elab *e, const struct btf *btf, const struct tp_arg *a,
	 int i, struct context_var *cv)
{
	cv->access = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_SLOT,
							    .index = i });
	cv->access->type_name = cv->c_type;
	if (!btf || !a->type || a->is_aggregate)
		return;
	tbtf_set_scalar_result(btf, a->type, cv->access);
	cv->btf = btf;
	cv->btf_type = a->type;
}

static struct pdata_tracepoint *
make_pdata(struct elab *e, const struct btf *btf, const struct tracepoint *tp,
	   const char *module)
{
	struct pdata_tracepoint *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->system = tp->system;
	pd->name = tp->name;
	pd->module = module;
	pd->nargs = tp->nargs;
	pd->args = arena_alloc(e->s->arena,
			       sizeof(*pd->args) * (size_t)(tp->nargs + 1));
	for (int i = 0; i < tp->nargs; i++) {
		const struct tp_arg *a = &tp->args[i];
		struct context_var *cv = elab_new_context_var(
			e, a->name, TY_LONG, a->type_text);
		cv->arg_index = i;
		cv->is_pointer = a->is_pointer;
		cv->is_signed = a->is_signed;
		cv->size = (int)a->size;
		type_arg(e, btf, a, i, cv);
		pd->args[i] = cv;
	}
	return pd;
}

static bool
add_one(const struct tracepoint *tp, void *ctx)
{
	struct match_ctx *m = ctx;
	struct elab *e = m->e;
	const char *name = *tp->system ?
		arena_printf(e->s->arena, "kernel.trace(\"%s:%s\")",
			     tp->system, tp->name) :
		arena_printf(e->s->arena, "kernel.trace(\"%s\")", tp->name);

	elab_add_probe(e, m->point, name, make_pdata(e, m->btf, tp, m->module));
	m->count++;
	return true;
}

/* "sched:x" finds nothing when the kernel's subsystem names are unknown
 * (no tracefs mounted, no headers): say so rather than leave the user to
 * guess. */
static bool
systems_unknown(const struct tracepoints *tps)
{
	size_t tracefs, headers, unknown;

	tracepoints_system_stats(tps, &tracefs, &headers, &unknown);
	return unknown > 0 && tracefs + headers == 0;
}

/* The tracepoints of the target's modules that match `spec`: those
 * whose module the index says defines a tracepoint of the name's pattern,
 * read from the module's BTF (their subsystems from the same headers as
 * the kernel's).  The tables live as long as the run. */
static int
match_modules(struct elab *e, struct node *point, struct kernel_target *kt,
	      const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *name = colon ? colon + 1 : spec;
	char *modules_dir = kernel_modules_dir(kt), err[256];
	const struct kmod_index *ix = kmod_index_get(modules_dir, err,
						     sizeof(err));
	struct match_ctx m = { e, point, NULL, NULL, 0 };
	struct tp_sources src = { 0 };

	free(modules_dir);
	kernel_tracepoint_sources(kt, &src);
	for (size_t i = 0; ix && i < kmod_index_count(ix); i++) {
		const struct kmod_entry *km = kmod_index_at(ix, i);
		struct tracepoints *tps;
		struct btf *btf;

		if (!kmod_entry_has_tracepoint(km, name) ||
		    !(btf = kernel_module_btf_file(kt, km->name, km->path, err,
						   sizeof(err))) ||
		    !(tps = tracepoints_load(btf, &src, err, sizeof(err))))
			continue;	/* no BTF: as if it had none */
		m.btf = btf;
		m.module = km->name;
		tracepoints_foreach(tps, spec, add_one, &m);
	}
	return m.count;
}

static int
tracepoint_match(struct elab *e, struct node *point)
{
	const char *spec = pp_arg_string(point, 1);
	char err[256];

	if (!spec || point->u.point.ncomps != 2) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected kernel.trace(\"NAME\") or kernel.trace(\"SUBSYSTEM:NAME\")");
		return -1;
	}
	struct kernel_target *kt = elab_kernel(e, point->loc);
	if (!kt)
		return -1;
	struct tracepoints *tps = kernel_tracepoints(kt, err, sizeof(err));
	if (!tps) {
		diag_error(&e->s->diag, point->loc, "E_NO_TRACEPOINTS",
			   "cannot list the kernel's tracepoints: %s", err);
		return -1;
	}
	struct match_ctx m = { e, point, kernel_btf(kt, err, sizeof(err)), NULL, 0 };
	tracepoints_foreach(tps, spec, add_one, &m);
	if (m.count == 0)
		m.count = match_modules(e, point, kt, spec);
	if (m.count == 0 && strchr(spec, ':') && !e->listing &&
	    !point->u.point.optional && systems_unknown(tps)) {
		diag_error(&e->s->diag, point->loc, "E_NO_MATCH",
			   "probe point '%s' matches nothing",
			   pp_to_string(e->s->arena, point));
		diag_hint(&e->s->diag,
			  "this kernel's tracepoint subsystems are unknown (no tracefs, no headers): name the tracepoint without 'SUBSYSTEM:' or use -r KREL");
		return -1;
	}
	return m.count;
}

static struct context_var *
tracepoint_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_tracepoint *pd = dp->pdata;

	(void)e;	/* $$parms and $$vars: resolve_tvar.c */
	for (int i = 0; i < pd->nargs; i++)
		if (strcmp(pd->args[i]->name, name) == 0)
			return pd->args[i];
	return NULL;
}

static int
tracepoint_list(struct elab *e, struct derived_probe *dp,
		struct context_var ***out)
{
	struct pdata_tracepoint *pd = dp->pdata;

	(void)e;
	*out = pd->args;
	return pd->nargs;
}

/* ---- code generation ---- */

/* The C type a tracepoint argument is passed as. */
static const char *
arg_c_type(const struct context_var *cv)
{
	if (cv->is_pointer)
		return "void *";
	switch (cv->size) {
	case 1: return strcmp(cv->c_type, "bool") == 0 ? "bool" :
		cv->is_signed ? "signed char" : "unsigned char";
	case 2: return cv->is_signed ? "short" : "unsigned short";
	case 4: return cv->is_signed ? "int" : "unsigned int";
	default: return cv->is_signed ? "long" : "unsigned long";
	}
}

static bool
tracepoint_args_ok(struct cg *g, struct derived_probe *dp)
{
	const struct pdata_tracepoint *pd = dp->pdata;

	if (pd->nargs > TP_MAXARGS) {
		diag_error(&g->s->diag, dp->point->loc, "E_UNSUPPORTED",
			   "tracepoint %s has %d arguments; at most %d are supported",
			   pd->name, pd->nargs, TP_MAXARGS);
		return false;
	}
	for (int i = 0; i < pd->nargs; i++)
		if (pd->args[i]->size > 8) {
			diag_error(&g->s->diag, dp->point->loc, "E_UNSUPPORTED",
				   "tracepoint %s passes '%s' by value; that is not supported yet",
				   pd->name, pd->args[i]->name);
			return false;
		}
	return true;
}

static void
tracepoint_callback(struct cg *g, struct derived_probe *dp)
{
	const struct pdata_tracepoint *pd = dp->pdata;
	char *params = cg_fmt(g, "void *__data");

	for (int i = 0; i < pd->nargs; i++)
		params = cg_fmt(g, "%s, %s __a%d", params,
				arg_c_type(pd->args[i]), i);
	cg_blank(&g->w);
	cg_comment(&g->w, "kernel.trace(\"%s\") for probe %d", pd->name,
		dp->index);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_tp_cb_%d(%s)", dp->index, params);
	cg_open_block(&g->w);
	/* The arguments go in the context when they fit: a stack array
	 * would cost the callback a stack canary and its zeroing. */
	if (pd->nargs > TAP_CONTEXT_ARGS_MAX)
		cg_line(&g->w, "int64_t __args[%d];", pd->nargs);
	cg_line(&g->w, "struct tap_context *c = tap_tracepoint_enter(__data);");
	if (pd->nargs <= TAP_CONTEXT_ARGS_MAX)
		cg_line(&g->w, "int64_t *__args;");
	cg_blank(&g->w);
	cg_line(&g->w, "if (!c)");
	cg_line(&g->w, "\treturn;");
	if (pd->nargs <= TAP_CONTEXT_ARGS_MAX)
		cg_line(&g->w, "__args = c->probe_args;");
	for (int i = 0; i < pd->nargs; i++)
		cg_line(&g->w, "__args[%d] = (int64_t)%s__a%d;", i,
			pd->args[i]->is_pointer ? "(unsigned long)" : "", i);
	cg_line(&g->w, "c->probe_data = __args;");
	cg_line(&g->w, "probe_%d(c);", dp->index);
	cg_line(&g->w, "tap_context_exit(c);");
	cg_close(&g->w, NULL);
}

/* May assume the handlers probe_N. */
static void
tracepoint_code(struct cg *g, enum backend b)
{
	struct program *p = g->prog;

	if (b != BACKEND_KMOD)
		return;
	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_tracepoint *pd = dp->pdata;

		if (dp->provider != &provider_tracepoint)
			continue;
		if (tracepoint_args_ok(g, dp))
			tracepoint_callback(g, dp);
		cg_table_row(g, "__tap_tracepoints", dp->index,
			     cg_fmt(g, "{ .probe = %s, .name = \"%s\"%s%s%s, .callback = (void *)__tap_tp_cb_%d },",
				    cg_probe_record(g, dp), pd->name,
				    pd->module ? ", .module = \"" : "",
				    pd->module ? pd->module : "",
				    pd->module ? "\"" : "", dp->index));
	}
}

static int ntracepoints;	/* rows of __tap_tracepoints */

/* May assume every family's emit_code ran (the rows are all added). */
static void
tracepoint_tables(struct cg *g, enum backend b)
{
	if (b != BACKEND_KMOD)
		return;
	cg_blank(&g->w);
	ntracepoints = cg_table_write(g, "__tap_tracepoints",
				      "struct tap_tracepoint_probe");
}

static void
tracepoint_desc(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "tracepoints", "__tap_tracepoints",
			      ntracepoints);
}

/* Argument i is slot i of the callback's array. */
static const char *
tracepoint_target_expr(struct cg *g, enum backend b,
		       const struct derived_probe *dp,
		       const struct context_var *cv, struct node *n)
{
	(void)b; (void)dp; (void)n;
	if (cv->type != TY_LONG)
		return NULL;
	return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])", cv->arg_index);
}

static bool
is_raw_syscall(const struct pdata_tracepoint *pd, const char *name)
{
	return strcmp(pd->system, "raw_syscalls") == 0 &&
	       strcmp(pd->name, name) == 0;
}

/* --runtime=bpf: a raw tracepoint, whose arguments are the TP_PROTO's
 * in order, each in a u64 (ctx->args[i]); where the subsystem is known,
 * also a classic tracepoint on the event's format record. */
static enum bpf_place
tracepoint_bpf_place(const struct derived_probe *dp, struct arena *a,
		     struct bpf_attach *att)
{
	const struct pdata_tracepoint *pd = dp->pdata;

	att->section = arena_printf(a, "raw_tp/%s", pd->name);
	att->ctx_type = "struct bpf_raw_tracepoint_args";
	att->guard = NULL;
	att->what = arena_printf(a, "raw tracepoint %s", pd->name);
	if (*pd->system)
		att->classic_section = arena_printf(a, "tracepoint/%s/%s",
						    pd->system, pd->name);
	if (is_raw_syscall(pd, "sys_enter") || is_raw_syscall(pd, "sys_exit"))
		att->classic_ctx_type = arena_printf(a, "struct trace_event_raw_%s___tap", pd->name);
	return BPF_PLACE_KERNEL;
}

/* The classic tracepoint's record holds the TP_STRUCT fields, which in
 * general are not the TP_PROTO arguments, even where a name is the same
 * (sched_switch's prev_state is computed from the task): only
 * raw_syscalls' records are the arguments themselves -- sys_enter's
 * `id`, sys_exit's `ret` (the user registers, `regs`, are not in them). */
static const char *
tracepoint_bpf_classic_expr(struct arena *a, const struct derived_probe *dp,
			    const struct context_var *cv)
{
	const struct pdata_tracepoint *pd = dp->pdata;

	(void)a;
	if (cv->type != TY_LONG || cv->size != 8 || cv->is_pointer)
		return NULL;
	if (is_raw_syscall(pd, "sys_enter") && strcmp(cv->name, "id") == 0)
		return "((int64_t)rec->id)";
	if (is_raw_syscall(pd, "sys_exit") && strcmp(cv->name, "ret") == 0)
		return "((int64_t)rec->ret)";
	return NULL;
}

/* Argument i of the raw tracepoint, narrowed to its C type's size and
 * signedness as the module's callback does. */
static const char *
tracepoint_bpf_target_expr(struct arena *a, const struct derived_probe *dp,
			   const struct context_var *cv)
{
	(void)dp;
	return provider_bpf_arg(a, cv, "ctx->args");
}

static const char *const tracepoint_shapes[] = {
	"kernel.trace(STRING)", NULL,
};

const struct provider provider_tracepoint = {
	.name = "tracepoint",
	.claims = tracepoint_claims,
	.match = tracepoint_match,
	.privilege = PRIV_STAPSYS,	/* every task's kernel events */
	.context = tracepoint_context,
	.list_context = tracepoint_list,
	.shapes = tracepoint_shapes,
	.kernel_only = true,
	.emit_code = tracepoint_code,
	.emit_tables = tracepoint_tables,
	.emit_desc = tracepoint_desc,
	.target_expr = tracepoint_target_expr,
	.bpf_place = tracepoint_bpf_place,
	.bpf_target_expr = tracepoint_bpf_target_expr,
	.bpf_classic_expr = tracepoint_bpf_classic_expr,
};
