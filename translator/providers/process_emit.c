/*
 * process_emit.c -- the process family's C (process.c matches): the
 * uprobe and process-event tables, the symbol tables of the user files
 * ubacktrace() & co. name addresses with, and the C for $return and the
 * $argN of SDT markers.  The files' call frame information, for
 * ubacktrace() to unwind code without frame pointers, is
 * codegen/codegen_ucfi.c's.  Kernel module only: the user backend has
 * no uprobes.
 *
 * What the emitted C may assume (runtime/linux/probes_uprobe.h): every
 * kernel module defines `struct tap_uprobe_tables tap_uprobe_tables`
 * (empty when there is nothing to probe); a uprobe handler has the user
 * registers in c->regs and tap_uaddr(c) is the probed address; user
 * memory is read with tap_sdt_read(), which raises a script error on a
 * fault.  Symbol tables hold file offsets, which is what the runtime gets
 * from a mapping (address - vm_start + vm_pgoff), so they work for PIE
 * programs and libraries wherever they are loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_ucfi.h"
#include "translator/codegen/codegen_tvar.h"
#include "translator/debuginfo/elf_syms.h"
#include "translator/debuginfo/sdt.h"
#include "translator/providers/process.h"

static const char *
str_or_null(struct cg *g, const char *s)
{
	return s ? cg_c_string(g, s, strlen(s)) : "NULL";
}

struct counters_seen {
	const struct program *prog;
	bool *seen;		/* by counter index */
};

static bool
note_perf_read(struct node *n, void *ctx)
{
	struct counters_seen *cs = ctx;

	if (n->kind == N_PERF) {
		const struct node *arg = n->u.atop.args.v[0];
		cs->seen[program_counter(cs->prog, arg->u.string.raw)->index] = true;
	}
	return true;
}

/* The perf counters dp's body reads with @perf (resolve.c allows them
 * only there, not in functions), as the row's .counters: the runtime
 * opens them for the thread at each hit, before the handler runs. */
static const char *
counters_read(struct cg *g, const struct derived_probe *dp)
{
	const struct program *p = g->prog;
	struct counters_seen cs = { p, NULL };
	const char *list = "";
	int n = 0;

	if (!p->ncounters)
		return "";
	cs.seen = arena_alloc(g->a, p->ncounters * sizeof(bool));
	ast_walk(dp->body, note_perf_read, NULL, &cs);
	for (int i = 0; i < p->ncounters; i++)
		if (cs.seen[i])
			list = cg_fmt(g, "%s%s%d", list, n++ ? ", " : "", i);
	return n ? cg_fmt(g, ", .counters = (const u16[]){ %s }, .n_counters = %d",
			  list, n) : "";
}

static int
uprobe_table(struct cg *g)
{
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_uprobe *pd = process_uprobe_of(dp);
		if (!pd)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_uprobe_probe __tap_uprobes[] =");
		cg_line(&g->w, "{ .probe = %s, .path = %s, .offset = 0x%llxULL, .vaddr = 0x%llxULL, .ref_ctr_offset = 0x%llxULL, .is_return = %s, .at_entry = %s, .optional = %s, .pid = %d, .entry_handler = %s, .data_size = %s, .entry_offset = 0x%llxULL, .entry_vaddr = 0x%llxULL%s },",
			cg_probe_record(g, dp), str_or_null(g, pd->path),
			(unsigned long long)pd->offset,
			(unsigned long long)pd->vaddr,
			(unsigned long long)pd->ref_ctr_offset,
			pd->is_return ? "true" : "false",
			pd->at_entry ? "true" : "false",
			dp->point->u.point.optional ? "true" : "false",
			pd->pid, cg_entry_handler_name(g, dp),
			cg_entry_data_size(g, dp),
			(unsigned long long)pd->entry_offset,
			(unsigned long long)pd->entry_vaddr,
			counters_read(g, dp));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

static int
uproc_table(struct cg *g)
{
	static const char *const events[] = {
		[PROC_BEGIN] = "TAP_UPROC_BEGIN",
		[PROC_END] = "TAP_UPROC_END",
		[PROC_THREAD_BEGIN] = "TAP_UPROC_THREAD_BEGIN",
		[PROC_THREAD_END] = "TAP_UPROC_THREAD_END",
		[PROC_SYSCALL] = "TAP_UPROC_SYSCALL",
		[PROC_SYSCALL_RETURN] = "TAP_UPROC_SYSCALL_RETURN",
	};
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_process *pd = process_event_of(dp);
		if (!pd)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_uproc_probe __tap_uprocs[] =");
		cg_line(&g->w, "{ .probe = %s, .event = %s, .path = %s, .pid = %d, .uses_bias = %s, .load_vaddr = 0x%llxULL },",
			cg_probe_record(g, dp), events[pd->event],
			str_or_null(g, pd->path), pd->pid,
			pd->uses_bias ? "true" : "false",
			(unsigned long long)pd->load_vaddr);
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

/* ---- symbol tables of user files ---- */

struct file_list {
	const char **v;
	int n, cap;
};

static void
add_file(struct cg *g, struct file_list *l, const char *path)
{
	if (!path)
		return;
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i], path) == 0)
			return;
	l->v = arena_grow(g->a, l->v, sizeof(*l->v), &l->cap, l->n + 1);
	l->v[l->n++] = path;
}

/* The shared libraries `ldd path` lists, as --ldd asks. */
static void
add_ldd(struct cg *g, struct file_list *l, const char *path)
{
	const char **libs;
	int n = elf_ldd(g->a, path, &libs);

	for (int i = 0; i < n; i++)
		add_file(g, l, libs[i]);
}

static struct file_list
symbol_files(struct cg *g)
{
	struct file_list l = { 0 };
	struct program *p = g->prog;
	const struct options *o = &g->s->opts;

	for (int i = 0; i < p->nprobes; i++) {
		const struct derived_probe *dp = p->probes[i];
		if (process_uprobe_of(dp))
			add_file(g, &l, process_uprobe_of(dp)->path);
		else if (process_event_of(dp))
			add_file(g, &l, process_event_of(dp)->path);
	}
	if (o->target_command) {	/* -c PROGRAM: its names too */
		const char *cmd = o->target_command + strspn(o->target_command, " \t");
		const char *prog = arena_strndup(g->a, cmd, strcspn(cmd, " \t"));
		add_file(g, &l, *prog ? elf_resolve_program(g->a, prog) : NULL);
	}
	for (int i = 0; i < o->nsym_files; i++) {
		const char *real = elf_resolve_program(g->a, o->sym_files[i]);
		add_file(g, &l, real ? real : o->sym_files[i]);
	}
	if (o->ldd) {
		int nprog = l.n;
		for (int i = 0; i < nprog; i++)
			add_ldd(g, &l, l.v[i]);
	}
	return l;
}

/* One file's symbols; false when it cannot be read (warned). */
static bool
symbol_table(struct cg *g, const char *path, int idx)
{
	char err[512];
	struct elf_image *im = elf_image_get(g->a, path, err, sizeof(err));
	size_t nameoff = 0;
	int n = 0;

	if (!im) {
		diag_warning(&g->s->diag, (struct loc){ 0 }, "W_NO_USER_SYMBOLS",
			     "no symbols for user backtraces: %s", err);
		return false;
	}
	/* one name per address: the first, the preferred one */
	cg_line(&g->w, "static const char __tap_usym_names_%d[] =", idx);
	for (size_t i = 0; i < im->nfuncs; i++)
		if (!i || im->funcs[i].addr != im->funcs[i - 1].addr)
			cg_line(&g->w, "\t\"%s\\0\"", im->funcs[i].name);
	cg_line(&g->w, "\t\"\";");
	cg_open(&g->w, "static const struct tap_usym __tap_usyms_%d[] =", idx);
	for (size_t i = 0; i < im->nfuncs; i++) {
		const struct elf_sym *s = &im->funcs[i];
		uint64_t off;
		if (i && s->addr == im->funcs[i - 1].addr)
			continue;
		if (elf_addr_to_offset(im, s->addr, &off)) {
			cg_line(&g->w, "{ 0x%llxULL, %llu, %zu },",
				(unsigned long long)off,
				(unsigned long long)(s->size > 0xffffffffu ? 0 : s->size),
				nameoff);
			n++;
		}
		nameoff += strlen(s->name) + 1;
	}
	if (!n)
		cg_line(&g->w, "{ 0, 0, 0 },");
	cg_close(&g->w, ";");
	return true;
}

/* Whether the program names user addresses at all (the u* functions of
 * tapsets/linux/ucontext.stp that print symbols); if not, no tables. */
static bool
uses_user_symbols(struct cg *g)
{
	static const char *const users[] = {
		"usymname", "usymdata", "umodname", "umodbuildid", "sprint_ubacktrace",
		"sprint_ustack", "print_ubacktrace", "print_ustack",
	};

	for (int i = 0; i < g->prog->nfunctions; i++)
		for (size_t j = 0; j < sizeof(users) / sizeof(users[0]); j++)
			if (strcmp(g->prog->functions[i]->name, users[j]) == 0)
				return true;
	return false;
}

/* The files user addresses are named and unwound in: their symbols when
 * the program names addresses, their call frame information
 * (codegen_ucfi.c) when it walks stacks. */
static int
usym_files(struct cg *g)
{
	bool names = uses_user_symbols(g), stacks = cg_ucfi_wanted(g);

	if (!names && !stacks)
		return 0;
	struct file_list l = symbol_files(g);
	bool *ok = arena_alloc(g->a, (size_t)(l.n + 1) * sizeof(*ok));
	bool *cfi = arena_alloc(g->a, (size_t)(l.n + 1) * sizeof(*cfi));
	int n = 0;

	for (int i = 0; i < l.n; i++) {
		ok[i] = names ? symbol_table(g, l.v[i], i) : true;
		cfi[i] = ok[i] && stacks && cg_ucfi_table(g, l.v[i], i);
	}
	for (int i = 0; i < l.n; i++) {
		if (!ok[i] || (!names && !cfi[i]))
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_usym_file __tap_usym_files[] =");
		/* cached: symbol_table read it (names), else NULL */
		const struct elf_image *im = names ? elf_image_get(g->a, l.v[i], NULL, 0) : NULL;
		const char *id = im ? im->build_id : NULL;
		cg_line(&g->w, "{ .path = %s, .syms = %s, .nsyms = %s, .names = %s, .cfi = %s, .build_id = %s },",
			cg_c_string(g, l.v[i], strlen(l.v[i])),
			names ? cg_fmt(g, "__tap_usyms_%d", i) : "NULL",
			names ? cg_fmt(g, "ARRAY_SIZE(__tap_usyms_%d)", i) : "0",
			names ? cg_fmt(g, "__tap_usym_names_%d", i) : "NULL",
			cfi[i] ? cg_fmt(g, "&__tap_ucfi_%d", i) : "NULL",
			id ? cg_c_string(g, id, strlen(id)) : "NULL");
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

/* May assume the records __tap_probe_N and the entry handlers. */
void
process_emit_tables(struct cg *g, enum backend b)
{
	int nu, np, nf;

	if (b != BACKEND_KMOD)
		return;
	cg_blank(&g->w);
	nu = uprobe_table(g);
	np = uproc_table(g);
	nf = usym_files(g);
	cg_open(&g->w, "struct tap_uprobe_tables tap_uprobe_tables =");
	cg_line(&g->w, ".uprobes = %s, .n_uprobes = %d,",
		nu ? "__tap_uprobes" : "NULL", nu);
	cg_line(&g->w, ".uprocs = %s, .n_uprocs = %d,",
		np ? "__tap_uprocs" : "NULL", np);
	cg_line(&g->w, ".usym_files = %s, .n_usym_files = %d,",
		nf ? "__tap_usym_files" : "NULL", nf);
	cg_close(&g->w, ";");
}

/* ---- context variables ---- */

static const char *
cast_for(const struct sdt_arg *a)
{
	switch (a->size) {
	case 1: return a->is_signed ? "int8_t" : "uint8_t";
	case 2: return a->is_signed ? "int16_t" : "uint16_t";
	case 4: return a->is_signed ? "int32_t" : "uint32_t";
	default: return a->is_signed ? "int64_t" : "uint64_t";
	}
}

/* The address a memory operand names, as C. */
static const char *
operand_address(struct cg *g, const struct pdata_uprobe *pd, int i)
{
	const struct sdt_arg *a = &pd->args[i];
	const char *addr = cg_fmt(g, "(unsigned long)(%lldLL)",
				  (long long)a->disp);

	if (a->base && strcmp(a->base, "ip") == 0) {
		if (!a->symbol)
			return NULL;	/* needs the next instruction's address */
	} else if (a->base) {
		addr = cg_fmt(g, "%s + c->regs->%s", addr, a->base);
	}
	if (a->index)
		addr = cg_fmt(g, "%s + c->regs->%s * %d", addr, a->index,
			      a->scale);
	if (a->symbol || !a->base) {
		/* a link-time address: add where the file is loaded */
		uint64_t at = a->symbol ? pd->arg_sym_vaddr[i] : 0;
		addr = cg_fmt(g, "%s + 0x%llxULL + (tap_uaddr(c) - 0x%llxULL)",
			      addr, (unsigned long long)at,
			      (unsigned long long)pd->vaddr);
	}
	return addr;
}

static const char *
sdt_arg_expr(struct cg *g, struct node *n, const struct pdata_uprobe *pd,
	     int i)
{
	const struct sdt_arg *a = &pd->args[i];
	const char *addr, *near;

	switch (a->kind) {
	case SDT_ARG_IMM:
		return cg_fmt(g, "((int64_t)(%s)%lldLL)", cast_for(a),
			      (long long)a->value);
	case SDT_ARG_REG:
		return cg_fmt(g, "((int64_t)(%s)c->regs->%s)", cast_for(a),
			      a->reg);
	case SDT_ARG_MEM:
		break;
	}
	addr = operand_address(g, pd, i);
	if (!addr) {
		cg_unsupported(g, n, cg_fmt(g, "the operand '%s'", a->text));
		return "((int64_t)0)";
	}
	near = cg_near(g, n);
	return cg_fmt(g, "({ int64_t __v = tap_sdt_read(c, %s, %d, %s); "
		      "if (unlikely(c->error)) { c->last_stmt = %s; goto %s; } "
		      "__v; })", addr, a->size, a->is_signed ? "true" : "false",
		      cg_c_string(g, near, strlen(near)), g->err_label);
}

/* $return, and a marker's $argN; the rest (DWARF's) have an access. */
const char *
process_target_expr(struct cg *g, enum backend b,
		    const struct derived_probe *dp,
		    const struct context_var *cv, struct node *n)
{
	const struct pdata_uprobe *pd = process_uprobe_of(dp);

	(void)b;
	if (!pd || cv->type != TY_LONG)
		return NULL;
	if (cv->arg_index == UPROBE_ARG_RETURN)
		return "((int64_t)regs_return_value(c->regs))";
	if (cv->arg_index >= 0 && cv->arg_index < pd->nargs)
		return sdt_arg_expr(g, n, pd, cv->arg_index);
	return NULL;
}
