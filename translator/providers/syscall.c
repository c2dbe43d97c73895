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
 * pointers are addresses), and $return on .return.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"
#include "translator/providers/syscall_table.h"

static bool
syscall_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "syscall");
}

static struct pdata_syscall *
make_pdata(struct elab *e, const struct syscall_info *si, bool is_return)
{
	struct pdata_syscall *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->kind = PD_SYSCALL;
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
	int n = point->u.point.ncomps, count = 0;
	bool is_return = n == 3 && pp_is(point, 2, "return") &&
			 !pp_arg(point, 2);

	if (!pattern || (n != 2 && !is_return)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected kernel.syscall(\"NAME\") or kernel.syscall(\"NAME\").return");
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

static struct context_var *
arg_var(struct elab *e, const char *name, int index, const char *c_type)
{
	struct context_var *cv = elab_new_context_var(e, name, TY_LONG, c_type);

	cv->arg_index = index;
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

const struct provider provider_syscall = {
	.name = "syscall",
	.claims = syscall_claims,
	.match = syscall_match,
	.context = syscall_context,
	.list_context = syscall_list,
};
