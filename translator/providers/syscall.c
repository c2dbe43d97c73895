/*
 * syscall.c -- kernel.syscall("NAME") and kernel.syscall("NAME").return:
 * entry to and return from one system call (NAME may be a glob), the
 * provider under the syscall.* tapset.
 *
 * All of a script's syscall probes share one registration on the
 * raw_syscalls sys_enter tracepoint (and one on sys_exit for .return),
 * dispatched by syscall number through a table, so naming more syscalls
 * costs nothing per event beyond the lookup. Context variables: $nr, the
 * syscall's arguments by their kernel names and as $arg1..$arg6 (all long:
 * pointers are addresses), and $return on .return.  @entry(x) in a
 * .return probe: an entry-half probe saves x (sema/entry_split.c).
 *
 * What the emitted C may assume (kernel module only): the sys_enter and
 * sys_exit callbacks are rows of the tracepoint table (tracepoint.c),
 * called with the user registers and the syscall number (enter) or its
 * return value (exit); each switches on the number and runs the probes
 * of that syscall with c->regs and c->probe_data, an int64_t array of
 * TAP_SYSCALL_SLOTS (runtime/core/abi.h).
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"
#include "translator/providers/syscall_table.h"
#include "runtime/core/abi.h"

extern const struct provider provider_syscall;

static bool
syscall_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "syscall");
}

static struct pdata_syscall *
make_pdata(struct elab *e, const struct syscall_info *si, bool is_return)
{
	struct pdata_syscall *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->name = si->name;
	pd->nr = si->nr;
	pd->ia32_nr = si->ia32_nr;
	pd->nargs = si->nargs;
	pd->is_return = is_return;
	return pd;
}

static int
syscall_match(struct elab *e, struct node *point)
{
	const char *pattern = pp_arg_string(point, 1);
	int count = 0;
	int64_t maxactive;
	bool is_return;

	if (!pattern || !pp_return_suffix(point, 2, &is_return, &maxactive)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected kernel.syscall(\"NAME\"), kernel.syscall(\"NAME\").return or kernel.syscall(\"NAME\").return.maxactive(N)");
		return -1;
	}
	for (size_t i = 0; i < syscall_table_count(); i++) {
		const struct syscall_info *si = syscall_table_at(i);
		if (fnmatch(pattern, si->name, 0) != 0)
			continue;
		const char *name = arena_printf(e->s->arena,
						"kernel.syscall(\"%s\")%s",
						si->name,
						is_return ? ".return" : "");
		elab_add_probe(e, point, name, make_pdata(e, si, is_return));
		count++;
	}
	return count;
}

/*
 * In guru mode, on the kernel target, an argument may be assigned (the
 * security stopgaps' `$nr_segs = 0`), and $return at sys_exit.  Reads
 * and writes then go to the handlers' copy (c->probe_data), and once the
 * syscall's probes have run, what changed is written back into the
 * registers sys_enter/sys_exit were given (syscall_writeback): the
 * kernel reads the number and the arguments from them only after the
 * tracepoint (syscall_trace_enter: "probes ... may have changed the
 * system call number"), so the call runs with what the probes left, and
 * user space gets rax as sys_exit leaves it.  Without -g a write is
 * refused as needing it.
 */
static struct context_var *
arg_var(struct elab *e, const char *name, int index, const char *c_type)
{
	struct context_var *cv = elab_new_context_var(e, name, TY_LONG, c_type);

	cv->arg_index = index;
	if (e->s->opts.target != TARGET_KERNEL ||
	    (index != SYSCALL_ARG_RETURN &&
	     (index < 0 || index >= SYSCALL_MAX_ARGS)))
		return cv;
	cv->writable = true;
	if (!e->s->opts.guru)	/* reads stay on the provider's path */
		return cv;
	cv->access = ta_new(e->s->arena, (struct ta_base){
		.kind = TA_BASE_SLOT,
		.index = index == SYSCALL_ARG_RETURN ? TAP_SYSCALL_RET_SLOT :
						       index });
	cv->access->result.is_signed = true;
	cv->access->type_name = c_type;
	return cv;
}

static struct context_var *
syscall_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	const struct pdata_syscall *pd = dp->pdata;
	const struct syscall_info *si = syscall_table_by_nr(pd->nr);
	int k;

	if (strcmp(name, "nr") == 0)
		return arg_var(e, "nr", SYSCALL_ARG_NR, "long");
	if (strcmp(name, "return") == 0)
		return pd->is_return ?
			arg_var(e, "return", SYSCALL_ARG_RETURN, "long") : NULL;
	if (sscanf(name, "arg%d", &k) == 1 && k >= 1 && k <= SYSCALL_MAX_ARGS)
		return arg_var(e, name, k - 1, k <= pd->nargs && si ?
			       si->arg_types[k - 1] : "long");
	for (int i = 0; si && i < si->nargs; i++)
		if (strcmp(si->arg_names[i], name) == 0)
			return arg_var(e, name, i, si->arg_types[i]);
	return NULL;
}

static int
syscall_list(struct elab *e, struct derived_probe *dp,
	     struct context_var ***out)
{
	const struct pdata_syscall *pd = dp->pdata;
	const struct syscall_info *si = syscall_table_by_nr(pd->nr);
	int n = 0;

	*out = arena_alloc(e->s->arena, sizeof(**out) * (SYSCALL_MAX_ARGS + 2));
	for (int i = 0; si && i < si->nargs; i++)
		(*out)[n++] = arg_var(e, si->arg_names[i], i, si->arg_types[i]);
	if (pd->is_return)
		(*out)[n++] = arg_var(e, "return", SYSCALL_ARG_RETURN, "long");
	return n;
}

/* ---- code generation: one callback per direction, a switch inside ---- */

static void
syscall_run_probe(struct cg *g, struct derived_probe *dp)
{
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_context *c = tap_context_enter(&__tap_sys_probe_%d, TAP_SESSION_RUNNING);",
		dp->index);
	cg_blank(&g->w);
	cg_line(&g->w, "if (c) {");
	cg_line(&g->w, "\tc->regs = regs;");
	cg_line(&g->w, "\tc->regs_kind = TAP_REGS_SYSCALL;");
	cg_line(&g->w, "\tc->probe_data = __args;");
	cg_line(&g->w, "\tprobe_%d(c);", dp->index);
	cg_line(&g->w, "\tc->regs_kind = TAP_REGS_CALL;");
	cg_line(&g->w, "\ttap_context_exit(c);");
	cg_line(&g->w, "}");
	cg_close(&g->w, NULL);
}

static bool
syscall_probe_is(const struct derived_probe *dp, bool is_return)
{
	const struct pdata_syscall *pd = dp->pdata;

	return dp->provider == &provider_syscall && pd->is_return == is_return;
}

/* Has an earlier probe of this direction the same number (its case is
 * already written)? */
static bool
nr_seen_before(struct cg *g, int upto, int nr, bool is_return)
{
	for (int i = 0; i < upto; i++) {
		const struct derived_probe *dp = g->prog->probes[i];
		if (syscall_probe_is(dp, is_return) &&
		    ((const struct pdata_syscall *)dp->pdata)->nr == nr)
			return true;
	}
	return false;
}

static void
syscall_case_labels(struct cg *g, bool is_return)
{
	struct program *p = g->prog;

	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_syscall *pd = p->probes[i]->pdata;
		if (syscall_probe_is(p->probes[i], is_return) &&
		    !nr_seen_before(g, i, pd->nr, is_return))
			cg_line(&g->w, "case %d: /* %s */", pd->nr, pd->name);
	}
}

static void
syscall_dispatch(struct cg *g, bool is_return)
{
	struct program *p = g->prog;

	cg_line(&g->w, "switch (__nr) {");
	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_syscall *pd = p->probes[i]->pdata;
		if (!syscall_probe_is(p->probes[i], is_return) ||
		    nr_seen_before(g, i, pd->nr, is_return))
			continue;
		cg_line(&g->w, "case %d: /* %s */", pd->nr, pd->name);
		for (int j = i; j < p->nprobes; j++) {
			const struct pdata_syscall *q = p->probes[j]->pdata;
			if (syscall_probe_is(p->probes[j], is_return) &&
			    q->nr == pd->nr)
				syscall_run_probe(g, p->probes[j]);
		}
		cg_line(&g->w, "\tbreak;");
	}
	cg_line(&g->w, "}");
}

/* A 32-bit (ia32) call's number becomes the x86_64 number of the call
 * that runs the same kernel function (syscall_table.h), for the syscalls
 * the script probes; the others the probes do not see. */
static void
syscall_ia32_map(struct cg *g, bool is_return)
{
	struct program *p = g->prog;
	bool any = false;

	for (int i = 0; i < p->nprobes && !any; i++)
		any = syscall_probe_is(p->probes[i], is_return) &&
		      ((const struct pdata_syscall *)p->probes[i]->pdata)->ia32_nr >= 0;
	if (!any) {
		cg_line(&g->w, "if (unlikely(__ia32))");
		cg_line(&g->w, "\treturn;	/* none of the probed calls has a 32-bit twin */");
		return;
	}
	cg_line(&g->w, "if (unlikely(__ia32)) {");
	cg_line(&g->w, "\tswitch (__nr) {");
	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_syscall *pd = p->probes[i]->pdata;
		if (syscall_probe_is(p->probes[i], is_return) && pd->ia32_nr >= 0 &&
		    !nr_seen_before(g, i, pd->nr, is_return))
			cg_line(&g->w, "\tcase %d: __nr = %d; break; /* %s */",
				pd->ia32_nr, pd->nr, pd->name);
	}
	cg_line(&g->w, "\tdefault: return;");
	cg_line(&g->w, "\t}");
	cg_line(&g->w, "}");
}

/* sys_enter(regs, id) / sys_exit(regs, ret): a syscall the script does
 * not name costs the tracepoint hit and one switch (two for an ia32
 * call).  In guru mode, what the probes changed in the copy goes back
 * into the registers (arg_var). */
static int
syscall_callback(struct cg *g, bool is_return)
{
	struct program *p = g->prog;
	bool any = false, guru = g->s->opts.guru;

	for (int i = 0; i < p->nprobes && !any; i++)
		any = syscall_probe_is(p->probes[i], is_return);
	if (!any)
		return 0;
	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_sys_%s_cb(void *__data, struct pt_regs *regs, long __v)",
		is_return ? "exit" : "enter");
	cg_open_block(&g->w);
	cg_line(&g->w, "int64_t __args[TAP_SYSCALL_SLOTS];");
	if (guru)
		cg_line(&g->w, "int64_t __was[TAP_SYSCALL_SLOTS];");
	cg_line(&g->w, "long __nr = %s;", is_return ?
		"syscall_get_nr(current, regs)" : "__v");
	cg_line(&g->w, "bool __ia32 = in_ia32_syscall();");
	cg_blank(&g->w);
	cg_line(&g->w, "(void)__data;");
	syscall_ia32_map(g, is_return);
	cg_line(&g->w, "switch (__nr) {");
	syscall_case_labels(g, is_return);
	cg_line(&g->w, "\tbreak;");
	cg_line(&g->w, "default:");
	cg_line(&g->w, "\treturn;");
	cg_line(&g->w, "}");
	cg_line(&g->w, "__tap_syscall_args(regs, __args, __ia32);");
	cg_line(&g->w, "__args[TAP_SYSCALL_NR_SLOT] = __nr;");
	cg_line(&g->w, "__args[TAP_SYSCALL_RET_SLOT] = %s;",
		is_return ? "__v" : "0");
	if (guru)
		cg_line(&g->w, "memcpy(__was, __args, sizeof(__was));");
	syscall_dispatch(g, is_return);
	if (guru)
		cg_line(&g->w, "__tap_syscall_writeback(regs, __args, __was, __ia32);");
	cg_close(&g->w, NULL);
	return 1;
}

static void
syscall_records(struct cg *g)
{
	struct program *p = g->prog;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		if (dp->provider != &provider_syscall)
			continue;
		cg_line(&g->w, "static const struct tap_probe __tap_sys_probe_%d = %s;",
			dp->index, cg_probe_record(g, dp));
	}
}

static void
syscall_helpers(struct cg *g)
{
	cg_blank(&g->w);
	cg_line(&g->w, "#include <asm/syscall.h>");
	cg_line(&g->w, "#include <asm/compat.h>");
	cg_blank(&g->w);
	cg_line(&g->w, "/* The six argument registers of a system call: x86_64's, or ia32's");
	cg_line(&g->w, " * (32 bits each, zero-extended as the kernel's compat wrappers take them). */");
	cg_line(&g->w, "static inline void");
	cg_line(&g->w, "__tap_syscall_args(struct pt_regs *regs, int64_t *a, bool ia32)");
	cg_open_block(&g->w);
	cg_line(&g->w, "if (unlikely(ia32)) {");
	cg_line(&g->w, "\ta[0] = (u32)regs->bx; a[1] = (u32)regs->cx; a[2] = (u32)regs->dx;");
	cg_line(&g->w, "\ta[3] = (u32)regs->si; a[4] = (u32)regs->di; a[5] = (u32)regs->bp;");
	cg_line(&g->w, "\treturn;");
	cg_line(&g->w, "}");
	cg_line(&g->w, "a[0] = regs->di; a[1] = regs->si; a[2] = regs->dx;");
	cg_line(&g->w, "a[3] = regs->r10; a[4] = regs->r8; a[5] = regs->r9;");
	cg_close(&g->w, NULL);
	if (!g->s->opts.guru)
		return;
	cg_blank(&g->w);
	cg_line(&g->w, "/* Guru mode: the arguments and the return value the probes changed,");
	cg_line(&g->w, " * back into the registers the call reads them from. */");
	cg_line(&g->w, "static inline void");
	cg_line(&g->w, "__tap_syscall_writeback(struct pt_regs *regs, const int64_t *a,");
	cg_line(&g->w, "\t\t\tconst int64_t *was, bool ia32)");
	cg_open_block(&g->w);
	cg_line(&g->w, "unsigned long *r64[] = { &regs->di, &regs->si, &regs->dx, &regs->r10, &regs->r8, &regs->r9 };");
	cg_line(&g->w, "unsigned long *r32[] = { &regs->bx, &regs->cx, &regs->dx, &regs->si, &regs->di, &regs->bp };");
	cg_blank(&g->w);
	cg_line(&g->w, "for (int i = 0; i < TAP_SYSCALL_NARGS; i++)");
	cg_line(&g->w, "\tif (a[i] != was[i])");
	cg_line(&g->w, "\t\t*(ia32 ? r32 : r64)[i] = ia32 ? (u32)a[i] : (unsigned long)a[i];");
	cg_line(&g->w, "if (a[TAP_SYSCALL_RET_SLOT] != was[TAP_SYSCALL_RET_SLOT])");
	cg_line(&g->w, "\tregs_set_return_value(regs, (unsigned long)a[TAP_SYSCALL_RET_SLOT]);");
	cg_close(&g->w, NULL);
}

static bool
any_syscall_probe(struct cg *g)
{
	for (int i = 0; i < g->prog->nprobes; i++)
		if (g->prog->probes[i]->provider == &provider_syscall)
			return true;
	return false;
}

/* May assume the handlers probe_N; adds the callbacks' rows to the
 * tracepoint table, after kernel.trace's own. */
static void
syscall_code(struct cg *g, enum backend b)
{
	if (b != BACKEND_KMOD || !any_syscall_probe(g))
		return;
	syscall_helpers(g);
	syscall_records(g);
	if (syscall_callback(g, false))
		cg_table_row(g, "__tap_tracepoints", INT_MAX,
			     "{ .probe = { .point = \"kernel.syscall\", .location = \"\" }, .name = \"sys_enter\", .callback = (void *)__tap_sys_enter_cb },");
	if (syscall_callback(g, true))
		cg_table_row(g, "__tap_tracepoints", INT_MAX,
			     "{ .probe = { .point = \"kernel.syscall.return\", .location = \"\" }, .name = \"sys_exit\", .callback = (void *)__tap_sys_exit_cb },");
}

static const char *
syscall_target_expr(struct cg *g, enum backend b,
		    const struct derived_probe *dp,
		    const struct context_var *cv, struct node *n)
{
	(void)b; (void)dp; (void)n;
	if (cv->type != TY_LONG)
		return NULL;
	if (cv->arg_index == SYSCALL_ARG_NR)
		return "(((int64_t *)c->probe_data)[TAP_SYSCALL_NR_SLOT])";
	if (cv->arg_index == SYSCALL_ARG_RETURN)
		return "(((int64_t *)c->probe_data)[TAP_SYSCALL_RET_SLOT])";
	return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])", cv->arg_index);
}

/* A .return probe's @entry values come from a probe on the same
 * syscall's entry (sema/entry_split.c): sys_exit has no entry half. */
static bool
syscall_needs_entry_half(const struct derived_probe *dp)
{
	return ((const struct pdata_syscall *)dp->pdata)->is_return;
}

static void
syscall_add_entry_half(struct elab *e, struct derived_probe *dp)
{
	const struct pdata_syscall *ret = dp->pdata;
	struct pdata_syscall *pd = arena_alloc(e->s->arena, sizeof(*pd));

	*pd = *ret;
	pd->is_return = false;
	elab_add_probe(e, dp->point,
		       arena_printf(e->s->arena, "kernel.syscall(\"%s\")",
				    pd->name), pd);
}

/* --runtime=bpf: raw tracepoints sys_enter (args: the user registers,
 * the number) and sys_exit (the registers, the return value), each
 * program guarded by its syscall's number: the x86_64 one, or for a call
 * made the 32-bit way (tap_ia32_syscall) the ia32 number of the call that
 * runs the same kernel function (syscall_table.h), none when there is no
 * such call.  Arguments are read from the registers through CO-RE, by
 * the convention of the call (x86_64's, or ia32's ebx, ecx, ...).  The
 * classic tracepoints raw_syscalls/sys_enter and sys_exit are the other
 * form. */
static const char *
syscall_bpf_guard(struct arena *a, const struct pdata_syscall *pd,
		  const char *nr)
{
	if (pd->ia32_nr < 0)
		return arena_printf(a, "(%s == %d && !tap_ia32_syscall())", nr,
				    pd->nr);
	return arena_printf(a, "(%s == (tap_ia32_syscall() ? %d : %d))", nr,
			    pd->ia32_nr, pd->nr);
}

static enum bpf_place
syscall_bpf_place(const struct derived_probe *dp, struct arena *a,
		  struct bpf_attach *att)
{
	const struct pdata_syscall *pd = dp->pdata;

	att->ctx_type = "struct bpf_raw_tracepoint_args";
	if (pd->is_return) {
		att->section = "raw_tp/sys_exit";
		att->guard = syscall_bpf_guard(a, pd, "BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], orig_ax)");
		att->what = "raw tracepoint sys_exit";
		att->classic_section = "tracepoint/raw_syscalls/sys_exit";
		att->classic_ctx_type = "struct trace_event_raw_sys_exit___tap";
	} else {
		att->section = "raw_tp/sys_enter";
		att->guard = syscall_bpf_guard(a, pd, "ctx->args[1]");
		att->what = "raw tracepoint sys_enter";
		att->classic_section = "tracepoint/raw_syscalls/sys_enter";
		att->classic_ctx_type = "struct trace_event_raw_sys_enter___tap";
	}
	/* the record's id is syscall_get_nr(), as orig_ax and args[1] */
	att->classic_guard = syscall_bpf_guard(a, pd, "rec->id");
	return BPF_PLACE_KERNEL;
}

/* Context variable `cv` of `dp` in its BPF program: from the raw
 * tracepoint's arguments (the registers through CO-RE; sys_exit's
 * return value), or from the classic tracepoints' records
 * (`classic`), raw_syscalls/sys_enter and sys_exit, which hold the
 * number (`id`), sys_enter's the six arguments (`args`, those
 * registers), sys_exit's the return value (`ret`) -- but not the
 * arguments, so a .return probe reading them has no classic form. */
static const char *
syscall_bpf_read(struct arena *a, const struct derived_probe *dp,
		 const struct context_var *cv, bool classic)
{
	static const char *const regs[SYSCALL_MAX_ARGS] = {
		"di", "si", "dx", "r10", "r8", "r9",
	};
	static const char *const regs32[SYSCALL_MAX_ARGS] = {
		"bx", "cx", "dx", "si", "di", "bp",
	};
	const struct pdata_syscall *pd = dp->pdata;

	if (cv->type != TY_LONG)
		return NULL;
	if (cv->arg_index == SYSCALL_ARG_NR)
		return arena_printf(a, "((int64_t)%d)", pd->nr);
	if (cv->arg_index == SYSCALL_ARG_RETURN)
		return !classic ? "((int64_t)ctx->args[1])" :
			pd->is_return ? "((int64_t)rec->ret)" : NULL;
	if (cv->arg_index < 0 || cv->arg_index >= SYSCALL_MAX_ARGS)
		return NULL;
	if (classic)
		return pd->is_return ? NULL :
			arena_printf(a, "(tap_ia32_syscall() ? (int64_t)(__u32)rec->args[%d] : (int64_t)rec->args[%d])",
				     cv->arg_index, cv->arg_index);
	return arena_printf(a, "(tap_ia32_syscall() ? (int64_t)(__u32)BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], %s) : (int64_t)BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], %s))",
			    regs32[cv->arg_index], regs[cv->arg_index]);
}

static const char *
syscall_bpf_target_expr(struct arena *a, const struct derived_probe *dp,
			const struct context_var *cv)
{
	return syscall_bpf_read(a, dp, cv, false);
}

static const char *
syscall_bpf_classic_expr(struct arena *a, const struct derived_probe *dp,
			 const struct context_var *cv)
{
	return syscall_bpf_read(a, dp, cv, true);
}

static const char *const syscall_shapes[] = {
	"kernel.syscall(STRING)", "kernel.syscall(STRING).return",
	"kernel.syscall(STRING).return.maxactive(NUMBER)", NULL,
};

const struct provider provider_syscall = {
	.name = "syscall",
	.claims = syscall_claims,
	.match = syscall_match,
	.privilege = PRIV_STAPSYS,	/* every task's system calls */
	.context = syscall_context,
	.list_context = syscall_list,
	.shapes = syscall_shapes,
	.emit_code = syscall_code,
	.target_expr = syscall_target_expr,
	.needs_entry_half = syscall_needs_entry_half,
	.add_entry_half = syscall_add_entry_half,
	.bpf_place = syscall_bpf_place,
	.bpf_target_expr = syscall_bpf_target_expr,
	.bpf_classic_expr = syscall_bpf_classic_expr,
};
