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
 * .return probe: an entry-half probe saves x (sema/entry_split.c).  A
 * 32-bit (ia32) process's call runs the probes of the x86_64 call that
 * does the same, with that call's arguments (the ia32 section below).
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
#include <stdlib.h>
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
 * user space gets rax as sys_exit leaves it (an ia32 call's arguments
 * into the registers they were made of: syscall_ia32_writeback_helper).
 * Without -g a write is refused as needing it.
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

/* ---- 32-bit (ia32) calls: seen by the probes of an x86_64 call ---- */

/*
 * A 32-bit process's call (or a 64-bit one's int $0x80) runs the probes
 * of the x86_64 call that does the same (syscall_table.h's ia32 twins):
 * most take ebx, ecx, edx, esi, edi, ebp as that call's arguments in
 * order; the others (pread64's offset in two registers, clone's swapped
 * tls and child_tid, mmap2's offset in pages, _llseek's split offset)
 * have a recipe, which the code below applies for those calls only, so
 * the probes' variables hold what the x86_64 call's promise ($pos of
 * pread64 is pos_lo | pos_hi << 32, $offset of mmap is in bytes).
 */

/* The next ia32 twin of x86_64 call `nr` from *it on, or NULL. */
static const struct syscall_ia32 *
ia32_twin(int nr, size_t *it)
{
	while (*it < syscall_table_ia32_count()) {
		const struct syscall_ia32 *t = syscall_table_ia32_at((*it)++);
		if (t->nr == nr)
			return t;
	}
	return NULL;
}

/* Word `i` of `recipe` (syscall_table.h), or NULL past its last. */
static const char *
ia32_word(const char *recipe, int i)
{
	const char *w = recipe;

	for (int j = 0; j < i && w; j++)
		if ((w = strchr(w, ' ')))
			w++;
	return w;
}

/* One word of a recipe: register `reg` (-1: none), with `hi`, the
 * register of the upper 32 bits (or -1), or times `scale` (or 1). */
struct ia32_word {
	int reg, hi;
	long scale;
};

static struct ia32_word
ia32_parse_word(const char *recipe, int i)
{
	struct ia32_word w = { .reg = -1, .hi = -1, .scale = 1 };
	const char *t = ia32_word(recipe, i);
	char *end;

	if (!t || *t == '-')
		return w;
	w.reg = (int)strtol(t, &end, 10);
	if (*end == ':')
		w.hi = (int)strtol(end + 1, NULL, 10);
	else if (*end == '*')
		w.scale = strtol(end + 1, NULL, 10);
	/* the generator writes registers 0..5 only: anything else is none */
	if (w.reg >= SYSCALL_MAX_ARGS || w.hi >= SYSCALL_MAX_ARGS ||
	    w.hi < -1 || w.scale < 1)
		w.reg = -1, w.hi = -1, w.scale = 1;
	return w;
}

/* x86_64 argument `i` of an ia32 call by `recipe`, as C, with ia32
 * register K read by reg[K] (a 32-bit unsigned expression). */
static const char *
ia32_arg_expr(struct arena *a, const char *recipe, int i,
	      const char *const reg[SYSCALL_MAX_ARGS])
{
	struct ia32_word w = ia32_parse_word(recipe, i);

	if (w.reg < 0)
		return "((int64_t)0)";
	if (w.hi >= 0)
		return arena_printf(a, "((int64_t)((unsigned long long)%s << 32 | %s))",
				    reg[w.hi], reg[w.reg]);
	if (w.scale != 1)
		return arena_printf(a, "((int64_t)%s * %ld)", reg[w.reg],
				    w.scale);
	return arena_printf(a, "((int64_t)%s)", reg[w.reg]);
}

/* The distinct recipes of the ia32 twins of the script's syscall
 * probes: the module's callbacks set __how to 1 + a recipe's index here
 * for a call made by it (0: registers in order). */
struct ia32_recipes {
	const char **recipe;		/* room for every twin's */
	int n;
};

static int
ia32_recipe_index(const struct ia32_recipes *r, const char *recipe)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->recipe[i], recipe) == 0)
			return i + 1;
	return 0;
}

static void
ia32_collect_recipes(struct cg *g, struct ia32_recipes *r)
{
	const struct syscall_ia32 *t;

	r->n = 0;
	r->recipe = arena_alloc(g->s->arena, sizeof(*r->recipe) *
				(syscall_table_ia32_count() + 1));
	for (int i = 0; i < g->prog->nprobes; i++) {
		const struct derived_probe *dp = g->prog->probes[i];
		size_t it = 0;
		if (dp->provider != &provider_syscall)
			continue;
		while ((t = ia32_twin(((const struct pdata_syscall *)dp->pdata)->nr, &it)))
			if (t->recipe && !ia32_recipe_index(r, t->recipe))
				r->recipe[r->n++] = t->recipe;
	}
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
 * whose probes see it (its twins, syscall_table.h), for the syscalls the
 * script probes; the others the probes do not see.  A twin with a
 * recipe sets __how (ia32_collect_recipes). */
static void
syscall_ia32_map(struct cg *g, bool is_return, const struct ia32_recipes *r)
{
	struct program *p = g->prog;
	const struct syscall_ia32 *t;
	bool any = false;

	for (int i = 0; i < p->nprobes && !any; i++) {
		size_t it = 0;
		any = syscall_probe_is(p->probes[i], is_return) &&
		      ia32_twin(((const struct pdata_syscall *)p->probes[i]->pdata)->nr, &it);
	}
	if (!any) {
		cg_line(&g->w, "if (unlikely(__ia32))");
		cg_line(&g->w, "\treturn;	/* none of the probed calls has a 32-bit twin */");
		return;
	}
	cg_line(&g->w, "if (unlikely(__ia32)) {");
	cg_line(&g->w, "\tswitch (__nr) {");
	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_syscall *pd = p->probes[i]->pdata;
		size_t it = 0;
		if (!syscall_probe_is(p->probes[i], is_return) ||
		    nr_seen_before(g, i, pd->nr, is_return))
			continue;
		while ((t = ia32_twin(pd->nr, &it)))
			if (t->recipe)
				cg_line(&g->w, "\tcase %d: __nr = %d; __how = %d; break; /* %s: %s %s */",
					t->ia32_nr, pd->nr,
					ia32_recipe_index(r, t->recipe),
					pd->name, t->entry, t->recipe);
			else
				cg_line(&g->w, "\tcase %d: __nr = %d; break; /* %s */",
					t->ia32_nr, pd->nr, pd->name);
	}
	cg_line(&g->w, "\tdefault: return;");
	cg_line(&g->w, "\t}");
	cg_line(&g->w, "}");
}

/* sys_enter(regs, id) / sys_exit(regs, ret): a syscall the script does
 * not name costs the tracepoint hit and one switch (two for an ia32
 * call).  In guru mode, what the probes changed in the copy goes back
 * into the registers (arg_var).  __how exists only when a probed call
 * has an ia32 twin with a recipe. */
static int
syscall_callback(struct cg *g, bool is_return, const struct ia32_recipes *r)
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
	if (r->n)
		cg_line(&g->w, "int __how = 0;	/* an ia32 call's recipe, or 0 */");
	cg_blank(&g->w);
	cg_line(&g->w, "(void)__data;");
	syscall_ia32_map(g, is_return, r);
	cg_line(&g->w, "switch (__nr) {");
	syscall_case_labels(g, is_return);
	cg_line(&g->w, "\tbreak;");
	cg_line(&g->w, "default:");
	cg_line(&g->w, "\treturn;");
	cg_line(&g->w, "}");
	cg_line(&g->w, "__tap_syscall_args(regs, __args, __ia32);");
	if (r->n) {
		cg_line(&g->w, "if (unlikely(__how))");
		cg_line(&g->w, "\t__tap_syscall_ia32_args(regs, __args, __how);");
	}
	cg_line(&g->w, "__args[TAP_SYSCALL_NR_SLOT] = __nr;");
	cg_line(&g->w, "__args[TAP_SYSCALL_RET_SLOT] = %s;",
		is_return ? "__v" : "0");
	if (guru)
		cg_line(&g->w, "memcpy(__was, __args, sizeof(__was));");
	syscall_dispatch(g, is_return);
	if (guru)
		cg_line(&g->w, "__tap_syscall_writeback(regs, __args, __was, __ia32%s);",
			r->n ? ", __how" : "");
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

/* The x86_64 arguments of the ia32 calls whose entry points split,
 * reorder or scale them, one case per recipe (__how). */
static void
syscall_ia32_args_helper(struct cg *g, const struct ia32_recipes *r)
{
	static const char *const reg[SYSCALL_MAX_ARGS] = {
		"(u32)regs->bx", "(u32)regs->cx", "(u32)regs->dx",
		"(u32)regs->si", "(u32)regs->di", "(u32)regs->bp",
	};

	cg_blank(&g->w);
	cg_line(&g->w, "/* An ia32 call's arguments as the x86_64 call whose probes see it takes");
	cg_line(&g->w, " * them, by the recipe of its entry point (syscall_table.h in tapc). */");
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_syscall_ia32_args(struct pt_regs *regs, int64_t *a, int how)");
	cg_open_block(&g->w);
	cg_line(&g->w, "switch (how) {");
	for (int k = 0; k < r->n; k++) {
		cg_line(&g->w, "case %d:	/* %s */", k + 1, r->recipe[k]);
		for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
			cg_line(&g->w, "\ta[%d] = %s;", i,
				ia32_arg_expr(g->s->arena, r->recipe[k], i, reg));
		cg_line(&g->w, "\tbreak;");
	}
	cg_line(&g->w, "}");
	cg_close(&g->w, NULL);
}

/* Guru mode: writing x86_64 argument `i` back into the registers recipe
 * word `w` made it of (r: ebx..ebp). */
static void
syscall_ia32_writeback_word(struct cg *g, int i, struct ia32_word w)
{
	if (w.reg >= 0 && w.hi < 0 && w.scale == 1) {
		cg_line(&g->w, "\tif (a[%d] != was[%d])", i, i);
		cg_line(&g->w, "\t\t*r[%d] = (u32)a[%d];", w.reg, i);
		return;
	}
	cg_line(&g->w, "\tif (a[%d] != was[%d]) {", i, i);
	if (w.reg < 0) {
		cg_line(&g->w, "\t\t__tap_syscall_ia32_refuse(regs, a, %d, \"no register holds it\");", i);
	} else if (w.hi >= 0) {
		cg_line(&g->w, "\t\t*r[%d] = (u32)a[%d];", w.reg, i);
		cg_line(&g->w, "\t\t*r[%d] = (u32)((u64)a[%d] >> 32);", w.hi, i);
	} else {
		cg_line(&g->w, "\t\tif ((u64)a[%d] %% %ld || (u64)a[%d] / %ld > U32_MAX)",
			i, w.scale, i, w.scale);
		cg_line(&g->w, "\t\t\t__tap_syscall_ia32_refuse(regs, a, %d, \"not a multiple of %ld that 32 bits of them hold\");",
			i, w.scale);
		cg_line(&g->w, "\t\telse");
		cg_line(&g->w, "\t\t\t*r[%d] = (u32)((u64)a[%d] / %ld);", w.reg, i,
			w.scale);
	}
	cg_line(&g->w, "\t}");
}

/*
 * Guru mode, an ia32 call with a recipe: each argument the probes
 * changed goes back into the registers it was made of, inverted (pos
 * into pos_lo and pos_hi, mmap2's offset in pages).  What they cannot
 * hold (an offset that is not a whole number of pages; an argument no
 * register made) is not written, with a warning: the call then runs with
 * the value it had.
 */
static void
syscall_ia32_writeback_helper(struct cg *g, const struct ia32_recipes *r)
{
	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_syscall_ia32_refuse(struct pt_regs *regs, const int64_t *a, int i,");
	cg_line(&g->w, "\t\t\t  const char *why)");
	cg_open_block(&g->w);
	cg_line(&g->w, "char msg[160];");
	cg_line(&g->w, "int n = scnprintf(msg, sizeof(msg), \"ia32 syscall %%d (probed as x86_64 syscall %%lld): $arg%%d = %%lld not written back: %%s\", syscall_get_nr(current, regs), (long long)a[TAP_SYSCALL_NR_SLOT], i + 1, (long long)a[i], why);");
	cg_blank(&g->w);
	cg_line(&g->w, "tap_ctl_send_atomic(TAP_MSG_WARNING, msg, n);");
	cg_close(&g->w, NULL);
	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "__tap_syscall_ia32_writeback(struct pt_regs *regs, const int64_t *a,");
	cg_line(&g->w, "\t\t\t     const int64_t *was, int how)");
	cg_open_block(&g->w);
	cg_line(&g->w, "unsigned long *r[] = { &regs->bx, &regs->cx, &regs->dx, &regs->si, &regs->di, &regs->bp };");
	cg_blank(&g->w);
	cg_line(&g->w, "switch (how) {");
	for (int k = 0; k < r->n; k++) {
		cg_line(&g->w, "case %d:	/* %s */", k + 1, r->recipe[k]);
		for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
			syscall_ia32_writeback_word(g, i,
				ia32_parse_word(r->recipe[k], i));
		cg_line(&g->w, "\tbreak;");
	}
	cg_line(&g->w, "}");
	cg_close(&g->w, NULL);
}

static void
syscall_writeback_helper(struct cg *g, const struct ia32_recipes *r)
{
	cg_blank(&g->w);
	cg_line(&g->w, "/* Guru mode: the arguments and the return value the probes changed,");
	cg_line(&g->w, " * back into the registers the call reads them from. */");
	cg_line(&g->w, "static inline void");
	cg_line(&g->w, "__tap_syscall_writeback(struct pt_regs *regs, const int64_t *a,");
	cg_line(&g->w, "\t\t\tconst int64_t *was, bool ia32%s)", r->n ? ", int how" : "");
	cg_open_block(&g->w);
	cg_line(&g->w, "unsigned long *r64[] = { &regs->di, &regs->si, &regs->dx, &regs->r10, &regs->r8, &regs->r9 };");
	cg_line(&g->w, "unsigned long *r32[] = { &regs->bx, &regs->cx, &regs->dx, &regs->si, &regs->di, &regs->bp };");
	cg_blank(&g->w);
	const char *in = "";	/* the plain loop: the else branch with recipes */
	if (r->n) {
		cg_line(&g->w, "if (unlikely(how))");
		cg_line(&g->w, "\t__tap_syscall_ia32_writeback(regs, a, was, how);");
		cg_line(&g->w, "else");
		in = "\t";
	}
	cg_line(&g->w, "%sfor (int i = 0; i < TAP_SYSCALL_NARGS; i++)", in);
	cg_line(&g->w, "%s\tif (a[i] != was[i])", in);
	cg_line(&g->w, "%s\t\t*(ia32 ? r32 : r64)[i] = ia32 ? (u32)a[i] : (unsigned long)a[i];", in);
	cg_line(&g->w, "if (a[TAP_SYSCALL_RET_SLOT] != was[TAP_SYSCALL_RET_SLOT])");
	cg_line(&g->w, "\tregs_set_return_value(regs, (unsigned long)a[TAP_SYSCALL_RET_SLOT]);");
	cg_close(&g->w, NULL);
}

static void
syscall_helpers(struct cg *g, const struct ia32_recipes *r)
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
	if (r->n)
		syscall_ia32_args_helper(g, r);
	if (!g->s->opts.guru)
		return;
	if (r->n)
		syscall_ia32_writeback_helper(g, r);
	syscall_writeback_helper(g, r);
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
	struct ia32_recipes r;

	if (b != BACKEND_KMOD || !any_syscall_probe(g))
		return;
	ia32_collect_recipes(g, &r);
	syscall_helpers(g, &r);
	syscall_records(g);
	if (syscall_callback(g, false, &r))
		cg_table_row(g, "__tap_tracepoints", INT_MAX,
			     "{ .probe = { .point = \"kernel.syscall\", .location = \"\" }, .name = \"sys_enter\", .callback = (void *)__tap_sys_enter_cb },");
	if (syscall_callback(g, true, &r))
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
 * made the 32-bit way (tap_ia32_syscall) the ia32 numbers of its twins
 * (syscall_table.h), none when it has none.  Arguments are read from the
 * registers through CO-RE, by the convention of the call (x86_64's, or
 * ia32's ebx, ecx, ... and a twin's recipe).  The classic tracepoints
 * raw_syscalls/sys_enter and sys_exit are the other form. */
static const char *
syscall_bpf_guard(struct arena *a, const struct pdata_syscall *pd,
		  const char *nr)
{
	const struct syscall_ia32 *t;
	const char *any = NULL;
	size_t it = 0;

	while ((t = ia32_twin(pd->nr, &it)))
		any = any ? arena_printf(a, "%s || %s == %d", any, nr, t->ia32_nr) :
			    arena_printf(a, "%s == %d", nr, t->ia32_nr);
	if (!any)
		return arena_printf(a, "(%s == %d && !tap_ia32_syscall())", nr,
				    pd->nr);
	return arena_printf(a, "(tap_ia32_syscall() ? (%s) : %s == %d)", any,
			    nr, pd->nr);
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

/* Argument `i` of an ia32 call of `dp`'s syscall, with register K read
 * by reg[K] and the call's ia32 number by `nr`: by the recipe of the twin
 * the number names, or in order (the twin with none). */
static const char *
syscall_bpf_ia32_arg(struct arena *a, const struct derived_probe *dp,
		     int i, const char *const reg[SYSCALL_MAX_ARGS],
		     const char *nr)
{
	const struct pdata_syscall *pd = dp->pdata;
	const struct syscall_ia32 *t;
	const char *e = NULL;
	size_t it = 0;

	/* the plain twin, if any, is the value when no recipe's number is */
	while ((t = ia32_twin(pd->nr, &it)))
		if (!t->recipe)
			e = arena_printf(a, "((int64_t)%s)", reg[i]);
	it = 0;
	while ((t = ia32_twin(pd->nr, &it))) {
		if (!t->recipe)
			continue;
		const char *x = ia32_arg_expr(a, t->recipe, i, reg);
		e = !e ? x : strcmp(x, e) == 0 ? e :
			arena_printf(a, "(%s == %d ? %s : %s)", nr,
				     t->ia32_nr, x, e);
	}
	return e ? e : arena_printf(a, "((int64_t)%s)", reg[i]);
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
	const char *reg[SYSCALL_MAX_ARGS];
	const struct pdata_syscall *pd = dp->pdata;
	const char *nr;

	if (cv->type != TY_LONG)
		return NULL;
	if (cv->arg_index == SYSCALL_ARG_NR)
		return arena_printf(a, "((int64_t)%d)", pd->nr);
	if (cv->arg_index == SYSCALL_ARG_RETURN)
		return !classic ? "((int64_t)ctx->args[1])" :
			pd->is_return ? "((int64_t)rec->ret)" : NULL;
	if (cv->arg_index < 0 || cv->arg_index >= SYSCALL_MAX_ARGS)
		return NULL;
	if (classic && pd->is_return)
		return NULL;
	for (int k = 0; k < SYSCALL_MAX_ARGS; k++)
		reg[k] = classic ?
			arena_printf(a, "(__u32)rec->args[%d]", k) :
			arena_printf(a, "(__u32)BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], %s)",
				     regs32[k]);
	nr = classic ? "rec->id" : pd->is_return ?
		"BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], orig_ax)" :
		"ctx->args[1]";
	return arena_printf(a, "(tap_ia32_syscall() ? %s : (int64_t)%s)",
			    syscall_bpf_ia32_arg(a, dp, cv->arg_index, reg, nr),
			    classic ?
			    arena_printf(a, "rec->args[%d]", cv->arg_index) :
			    arena_printf(a, "BPF_CORE_READ((struct pt_regs___tap *)ctx->args[0], %s)",
					 regs[cv->arg_index]));
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
