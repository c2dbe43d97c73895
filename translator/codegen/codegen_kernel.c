/*
 * codegen_kernel.c -- pass 3 for the probes only the kernel target has:
 * tracepoints (kernel.trace), kprobes and kretprobes (kprobe.*), system
 * calls (kernel.syscall, under the syscall.* tapset) and timer.profile,
 * and the context variables they offer.
 *
 * What the emitted C may assume (runtime/linux/probes.h): a tracepoint
 * callback has the tracepoint's prototype with `void *data` first, data
 * being its struct tap_tracepoint_probe; it enters the context with
 * tap_tracepoint_enter(), runs the handler, and leaves with
 * tap_context_exit(). Arguments are passed as integers or pointers of the
 * same size, which the x86_64 calling convention makes equivalent, so no
 * kernel type needs to be visible here. They are stored as int64_t in an
 * array on the callback's stack (c->probe_data) for the handler's $vars.
 * All syscall probes share one sys_enter and one sys_exit callback that
 * switch on the syscall number.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_tvar.h"
#include "translator/providers/provider.h"

#define CG_TP_MAXARGS 12	/* tracepoint args, syscall args + nr + ret */
#define CG_SYSCALL_NR_SLOT 6
#define CG_SYSCALL_RET_SLOT 7

static enum pdata_kind
kind_of(const struct derived_probe *dp)
{
	return dp->pdata ? pdata_kind_of(dp->pdata) : PD_NEVER;
}

static const char *
location_of(struct cg *g, const struct derived_probe *dp)
{
	const char *at = cg_where(g, dp->origin ? dp->origin->loc
				  : dp->point->loc, NULL);

	return cg_c_string(g, at, strlen(at));
}

static const char *
probe_record(struct cg *g, const struct derived_probe *dp)
{
	return cg_fmt(g, "{ .point = %s, .location = %s, .handler = probe_%d }",
		      cg_c_string(g, dp->name, strlen(dp->name)),
		      location_of(g, dp), dp->index);
}

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

/* ---- tracepoints ---- */

static bool
tracepoint_args_ok(struct cg *g, struct derived_probe *dp)
{
	const struct pdata_tracepoint *pd = dp->pdata;

	if (pd->nargs > CG_TP_MAXARGS) {
		diag_error(&g->s->diag, dp->point->loc, "E_UNSUPPORTED",
			   "tracepoint %s has %d arguments; at most %d are supported",
			   pd->name, pd->nargs, CG_TP_MAXARGS);
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
	cg_line(&g->w, "int64_t __args[%d];", pd->nargs ? pd->nargs : 1);
	cg_line(&g->w, "struct tap_context *c = tap_tracepoint_enter(__data);");
	cg_blank(&g->w);
	cg_line(&g->w, "if (!c)");
	cg_line(&g->w, "\treturn;");
	for (int i = 0; i < pd->nargs; i++)
		cg_line(&g->w, "__args[%d] = (int64_t)%s__a%d;", i,
			pd->args[i]->is_pointer ? "(unsigned long)" : "", i);
	cg_line(&g->w, "c->probe_data = __args;");
	cg_line(&g->w, "probe_%d(c);", dp->index);
	cg_line(&g->w, "tap_context_exit(c);");
	cg_close(&g->w, NULL);
}

/* ---- system calls: one callback per direction, a switch inside ---- */

static void
syscall_run_probe(struct cg *g, struct derived_probe *dp)
{
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_context *c = tap_context_enter(&__tap_sys_probe_%d, TAP_SESSION_RUNNING);",
		dp->index);
	cg_blank(&g->w);
	cg_line(&g->w, "if (c) {");
	cg_line(&g->w, "\tc->regs = regs;");
	cg_line(&g->w, "\tc->probe_data = __args;");
	cg_line(&g->w, "\tprobe_%d(c);", dp->index);
	cg_line(&g->w, "\ttap_context_exit(c);");
	cg_line(&g->w, "}");
	cg_close(&g->w, NULL);
}

static bool
syscall_probe_is(const struct derived_probe *dp, bool is_return)
{
	const struct pdata_syscall *pd = dp->pdata;

	return kind_of(dp) == PD_SYSCALL && pd->is_return == is_return;
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

/* sys_enter(regs, id) / sys_exit(regs, ret): a syscall the script does
 * not name costs the tracepoint hit and one switch. */
static int
syscall_callback(struct cg *g, bool is_return)
{
	struct program *p = g->prog;
	bool any = false;

	for (int i = 0; i < p->nprobes && !any; i++)
		any = syscall_probe_is(p->probes[i], is_return);
	if (!any)
		return 0;
	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_sys_%s_cb(void *__data, struct pt_regs *regs, long __v)",
		is_return ? "exit" : "enter");
	cg_open_block(&g->w);
	cg_line(&g->w, "int64_t __args[8];");
	cg_line(&g->w, "long __nr = %s;", is_return ?
		"syscall_get_nr(current, regs)" : "__v");
	cg_blank(&g->w);
	cg_line(&g->w, "(void)__data;");
	cg_line(&g->w, "switch (__nr) {");
	syscall_case_labels(g, is_return);
	cg_line(&g->w, "\tbreak;");
	cg_line(&g->w, "default:");
	cg_line(&g->w, "\treturn;");
	cg_line(&g->w, "}");
	cg_line(&g->w, "__tap_syscall_args(regs, __args);");
	cg_line(&g->w, "__args[%d] = __nr;", CG_SYSCALL_NR_SLOT);
	cg_line(&g->w, "__args[%d] = %s;", CG_SYSCALL_RET_SLOT,
		is_return ? "__v" : "0");
	syscall_dispatch(g, is_return);
	cg_close(&g->w, NULL);
	return 1;
}

static void
syscall_records(struct cg *g)
{
	struct program *p = g->prog;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		if (kind_of(dp) != PD_SYSCALL)
			continue;
		cg_line(&g->w, "static const struct tap_probe __tap_sys_probe_%d = %s;",
			dp->index, probe_record(g, dp));
	}
}

static void
syscall_helpers(struct cg *g)
{
	cg_blank(&g->w);
	cg_line(&g->w, "#include <asm/syscall.h>");
	cg_blank(&g->w);
	cg_line(&g->w, "/* The six argument registers of an x86_64 system call. */");
	cg_line(&g->w, "static inline void");
	cg_line(&g->w, "__tap_syscall_args(struct pt_regs *regs, int64_t *a)");
	cg_open_block(&g->w);
	cg_line(&g->w, "a[0] = regs->di; a[1] = regs->si; a[2] = regs->dx;");
	cg_line(&g->w, "a[3] = regs->r10; a[4] = regs->r8; a[5] = regs->r9;");
	cg_close(&g->w, NULL);
}

/* ---- the tables ---- */

static bool
has_kind(struct cg *g, enum pdata_kind k)
{
	for (int i = 0; i < g->prog->nprobes; i++)
		if (kind_of(g->prog->probes[i]) == k)
			return true;
	return false;
}

static int
tracepoint_table(struct cg *g, bool sys_enter, bool sys_exit)
{
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_tracepoint *pd = dp->pdata;
		if (kind_of(dp) != PD_TRACEPOINT)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_tracepoint_probe __tap_tracepoints[] =");
		cg_line(&g->w, "{ .probe = %s, .name = \"%s\", .callback = (void *)__tap_tp_cb_%d },",
			probe_record(g, dp), pd->name, dp->index);
	}
	if (sys_enter || sys_exit) {
		if (!n)
			cg_open(&g->w, "static struct tap_tracepoint_probe __tap_tracepoints[] =");
		if (sys_enter)
			cg_line(&g->w, "{ .probe = { .point = \"kernel.syscall\", .location = \"\" }, .name = \"sys_enter\", .callback = (void *)__tap_sys_enter_cb },");
		if (sys_exit)
			cg_line(&g->w, "{ .probe = { .point = \"kernel.syscall.return\", .location = \"\" }, .name = \"sys_exit\", .callback = (void *)__tap_sys_exit_cb },");
		n += sys_enter + sys_exit;
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

static int
kprobe_table(struct cg *g)
{
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_kprobe *pd = dp->pdata;
		if (kind_of(dp) != PD_KPROBE)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_kprobe_probe __tap_kprobes[] =");
		cg_line(&g->w, "{ .probe = %s, .symbol = %s, .offset = %lluUL, .is_return = %s, .optional = %s, .maxactive = %d, .entry_handler = %s, .data_size = %s },",
			probe_record(g, dp),
			pd->symbol ? cg_c_string(g, pd->symbol, strlen(pd->symbol)) : "NULL",
			(unsigned long long)pd->address,
			pd->is_return ? "true" : "false",
			dp->point->u.point.optional ? "true" : "false",
			pd->maxactive, cg_entry_handler_name(g, dp),
			cg_entry_data_size(g, dp));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

static int
profile_table(struct cg *g)
{
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		if (kind_of(dp) != PD_PROFILE)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_profile_probe __tap_profiles[] =");
		cg_line(&g->w, "{ .probe = %s, .interval_ns = 0 },",
			probe_record(g, dp));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

void
cg_kernel_tables(struct cg *g, struct cg_kernel_counts *out)
{
	struct program *p = g->prog;
	bool enter = false, exit_ = false;

	memset(out, 0, sizeof(*out));
	if (g->s->opts.target == TARGET_USER)
		return;
	for (int i = 0; i < p->nprobes; i++)
		if (kind_of(p->probes[i]) == PD_TRACEPOINT &&
		    tracepoint_args_ok(g, p->probes[i]))
			tracepoint_callback(g, p->probes[i]);
	if (has_kind(g, PD_SYSCALL)) {
		syscall_helpers(g);
		syscall_records(g);
		enter = syscall_callback(g, false) > 0;
		exit_ = syscall_callback(g, true) > 0;
	}
	cg_entry_handlers(g);
	cg_blank(&g->w);
	out->tracepoints = tracepoint_table(g, enter, exit_);
	out->kprobes = kprobe_table(g);
	out->profiles = profile_table(g);
}

/* ---- context variables ---- */

/* The x86_64 argument registers, as struct pt_regs names them. */
static const char *
kernel_arg_reg(int i)
{
	static const char *const regs[] = { "di", "si", "dx", "cx", "r8", "r9" };

	return i >= 0 && i < 6 ? regs[i] : "di";
}

const char *
cg_target_expr(struct cg *g, struct node *n)
{
	const struct context_var *cv = n->u.target.cv;
	const struct derived_probe *dp = NULL;

	if (n->u.target.access)
		return cg_access(g, n->u.target.access, n);
	for (int i = 0; i < g->prog->nprobes && !dp; i++)
		for (int j = 0; j < g->prog->probes[i]->nctxvars; j++)
			if (g->prog->probes[i]->ctxvars[j] == cv)
				dp = g->prog->probes[i];
	if (cv && dp && kind_of(dp) == PD_PROCFS)
		return "tap_procfs_value(c)";	/* a .write probe's */
	if (!cv || !dp || cv->type != TY_LONG) {
		cg_unsupported(g, n, "this context variable");
		return "((int64_t)0)";
	}
	switch (kind_of(dp)) {
	case PD_TRACEPOINT:
		return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])",
			      cv->arg_index);
	case PD_SYSCALL:
		if (cv->arg_index == SYSCALL_ARG_NR)
			return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])",
				      CG_SYSCALL_NR_SLOT);
		if (cv->arg_index == SYSCALL_ARG_RETURN)
			return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])",
				      CG_SYSCALL_RET_SLOT);
		return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])",
			      cv->arg_index);
	case PD_UPROBE:
		return cg_uprobe_target_expr(g, n, dp, cv);
	case PD_KPROBE:
		if (cv->arg_index >= 0)
			return cg_fmt(g, "((int64_t)c->regs->%s)",
				      kernel_arg_reg(cv->arg_index));
		return "((int64_t)regs_return_value(c->regs))";
	default:
		cg_unsupported(g, n, "this context variable");
		return "((int64_t)0)";
	}
}
