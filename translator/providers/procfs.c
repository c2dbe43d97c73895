/*
 * procfs.c -- procfs("PATH").read, procfs("PATH").write and their
 * .umask(N) and .read.maxsize(N) forms: a file /proc/systemtap/MODULE/PATH
 * whose reading or writing runs the probe (PATH "command" when not given).
 *
 * The one context variable is $value, a string: a .read probe sets it
 * ('=' or '.='), without guru mode, and the reader gets it; a .write
 * probe reads what was written.  A .read probe never reads it and a
 * .write probe never sets it (resolve.c enforces both through the
 * context_var flags).  Code generation (codegen_procfs.c) groups the
 * probes by file; the runtime is runtime/linux/procfs.c.
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

#define PROCFS_MAXSIZE (4 << 20)	/* a read buffer of at most 4 MiB */

static bool
procfs_claims(const struct node *point)
{
	return pp_is(point, 0, "procfs");
}

static int
procfs_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, point->loc, "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

/* A path below the module's directory: components separated by single
 * '/', none empty, "." or "..". */
static const char *
procfs_bad_path(const char *path)
{
	const char *c = path;

	if (!*path)
		return "the file name is empty";
	if (path[0] == '/')
		return "the file name must be relative (no leading '/')";
	while (*c) {
		size_t len = strcspn(c, "/");
		if (len == 0)
			return "the file name has an empty component ('//' or a trailing '/')";
		if ((len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.'))
			return "the file name must not have '.' or '..' components";
		c += len;
		if (*c == '/' && !*++c)
			return "the file name has an empty component ('//' or a trailing '/')";
	}
	return NULL;
}

static int
procfs_match(struct elab *e, struct node *point)
{
	struct pdata_procfs *pd = arena_alloc(e->s->arena, sizeof(*pd));
	int n = point->u.point.ncomps, i = 1;
	const char *why;
	int64_t v;

	pd->kind = PD_PROCFS;
	pd->path = "command";
	if (pp_arg(point, 0) && !(pd->path = pp_arg_string(point, 0)))
		return procfs_error(e, point, "the file name must be a string");
	if ((why = procfs_bad_path(pd->path)))
		return procfs_error(e, point, why);
	if (pp_is(point, i, "umask")) {
		if (!pp_arg_number(point, i, &v) || v < 0 || v > 0777)
			return procfs_error(e, point, "expected .umask(N) with N from 0 to 0777");
		pd->umask = (int)v;
		i++;
	}
	if (pp_is(point, i, "write") && !pp_arg(point, i)) {
		pd->is_write = true;
	} else if (!pp_is(point, i, "read") || pp_arg(point, i)) {
		return procfs_error(e, point, "expected .read or .write");
	}
	i++;
	if (!pd->is_write && pp_is(point, i, "maxsize")) {
		if (!pp_arg_number(point, i, &v) || v <= 0 ||
		    v > PROCFS_MAXSIZE)
			return procfs_error(e, point, "expected .maxsize(N) with N from 1 to 4194304");
		pd->maxsize = v;
		i++;
	}
	if (i < n)
		return procfs_error(e, point, "unexpected components after .read or .write");
	pd->value = elab_new_context_var(e, "value", TY_STRING, "char *");
	pd->value->arg_index = -1;
	pd->value->script_value = true;
	pd->value->writable = !pd->is_write;
	pd->value->write_only = !pd->is_write;
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

static struct context_var *
procfs_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_procfs *pd = dp->pdata;

	(void)e;
	return strcmp(name, "value") == 0 ? pd->value : NULL;
}

static int
procfs_list(struct elab *e, struct derived_probe *dp,
	    struct context_var ***out)
{
	struct pdata_procfs *pd = dp->pdata;

	(void)e;
	*out = &pd->value;
	return 1;
}

const struct provider provider_procfs = {
	.name = "procfs",
	.claims = procfs_claims,
	.match = procfs_match,
	.context = procfs_context,
	.list_context = procfs_list,
};
