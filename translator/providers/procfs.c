/*
 * procfs.c -- procfs("PATH").read, procfs("PATH").write and their
 * .umask(N) and .read.maxsize(N) forms: a file /proc/systemtap/MODULE/PATH
 * whose reading or writing runs the probe (PATH "command" when not given).
 *
 * The one context variable is $value, a string: a .read probe sets it
 * ('=' or '.='), without guru mode, and the reader gets it; a .write
 * probe reads what was written.  A .read probe never reads it and a
 * .write probe never sets it (resolve.c enforces both through the
 * context_var flags).  Its emit hooks group the probes by file; the
 * runtime is runtime/linux/procfs.c.
 *
 * What the emitted C may assume (kernel module only): the runtime creates
 * the directories in the order given (parents first) under
 * /proc/systemtap/MODULE, then the files (struct tap_procfs_file,
 * runtime/linux/procfs.h); a handler finds its file in c->probe_data,
 * which tap_procfs_value / tap_procfs_set / tap_procfs_append use.  A
 * file's mode is 0444 for its read probe and 0222 for its write probe,
 * each less that probe's .umask(N), else less 0066: by default only root
 * may read (0400) or write (0200) them, as in SystemTap, since a write
 * probe runs script code for whoever writes.  Its buffer holds
 * .read.maxsize(N) bytes and a NUL, else MAXSTRINGLEN.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

extern const struct provider provider_procfs;

/* procfs[("PATH")][.umask(N)].read[.maxsize(N)] / .write:
 * the file /proc/systemtap/MODULE/PATH. */
struct pdata_procfs {
	const char *path;		/* "command" when not given */
	bool is_write;
	int umask;			/* .umask(N), else PROCFS_UMASK */
	int64_t maxsize;		/* .read.maxsize(N), 0 when not given */
	struct context_var *value;	/* its $value */
};

#define PROCFS_MAXSIZE (4 << 20)	/* a read buffer of at most 4 MiB */
#define PROCFS_UMASK 0066		/* without .umask(N): root only */

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

	pd->path = "command";
	pd->umask = PROCFS_UMASK;
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

/* ---- code generation ---- */

struct procfs_file {
	const char *path;
	const struct derived_probe *read;
	const struct derived_probe **writes;	/* nwrites of them */
	int nwrites;
	int mode;
	int64_t maxsize;
};

static const struct pdata_procfs *
procfs_of(const struct derived_probe *dp)
{
	return dp->provider == &provider_procfs ? dp->pdata : NULL;
}

/* Where a probe on a file is written: the script's `probe` when it came
 * through an alias (probe prometheus), so that a clash names the script's
 * lines, not the library's. */
static struct loc
procfs_site(const struct derived_probe *dp)
{
	return dp->alias_name && dp->origin ? dp->origin->loc : dp->point->loc;
}

/* The probes grouped by file, in the order their files first appear;
 * how many files (-1 after an error).  A file has one read probe at
 * most (its handler makes the file's contents), and any number of write
 * probes: each runs for every write. */
static int
procfs_files(struct cg *g, struct procfs_file **out)
{
	struct program *p = g->prog;
	struct procfs_file *f = arena_alloc(g->a, sizeof(*f) * (size_t)(p->nprobes + 1));
	int n = 0, j;

	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_procfs *pd = procfs_of(p->probes[i]);
		if (!pd)
			continue;
		for (j = 0; j < n && strcmp(f[j].path, pd->path) != 0; j++)
			;
		if (j == n)
			f[n++].path = pd->path;
		if (!pd->is_write && f[j].read) {
			diag_error(&g->s->diag, procfs_site(p->probes[i]),
				   "E_PROBE_ARG",
				   "procfs file '%s' already has a read probe (at %s)",
				   pd->path,
				   cg_where(g, procfs_site(f[j].read), NULL));
			g->failed = true;
			return -1;
		}
		if (pd->is_write) {
			if (!f[j].writes)
				f[j].writes = arena_alloc(g->a, sizeof(*f[j].writes) *
							  (size_t)p->nprobes);
			f[j].writes[f[j].nwrites++] = p->probes[i];
			f[j].mode |= 0222 & ~pd->umask;
		} else {
			f[j].read = p->probes[i];
			f[j].mode |= 0444 & ~pd->umask;
			f[j].maxsize = pd->maxsize;
		}
	}
	*out = f;
	return n;
}

static bool
dir_listed(const char **dirs, int n, const char *d)
{
	for (int i = 0; i < n; i++)
		if (strcmp(dirs[i], d) == 0)
			return true;
	return false;
}

/* "a/b/c" needs "a" and "a/b", parents first. */
static int
procfs_dirs(struct cg *g, const struct procfs_file *f, int nf)
{
	const char **dirs = NULL;
	int n = 0, cap = 0;

	for (int i = 0; i < nf; i++)
		for (const char *s = strchr(f[i].path, '/'); s;
		     s = strchr(s + 1, '/')) {
			const char *d = cg_fmt(g, "%.*s", (int)(s - f[i].path),
					       f[i].path);
			if (dir_listed(dirs, n, d))
				continue;
			dirs = arena_grow(g->a, dirs, sizeof(*dirs), &cap, n + 1);
			dirs[n++] = d;
		}
	if (!n)
		return 0;
	cg_open(&g->w, "static const char *const __tap_procfs_dirs[] =");
	for (int i = 0; i < n; i++)
		cg_line(&g->w, "%s,", cg_c_string(g, dirs[i], strlen(dirs[i])));
	cg_close(&g->w, ";");
	return n;
}

static const char *
probe_ref(struct cg *g, const struct derived_probe *dp)
{
	return dp ? cg_fmt(g, "&__tap_probe_%d", dp->index) : "NULL";
}

static int nfiles, ndirs;	/* rows of __tap_procfs, __tap_procfs_dirs */

/* May assume the records __tap_probe_N. */
static void
procfs_tables(struct cg *g, enum backend b)
{
	struct procfs_file *f;
	int n;

	nfiles = ndirs = 0;
	if (b != BACKEND_KMOD || (n = procfs_files(g, &f)) <= 0)
		return;
	ndirs = procfs_dirs(g, f, n);
	for (int i = 0; i < n; i++) {	/* each file's write probes */
		if (!f[i].nwrites)
			continue;
		cg_open(&g->w, "static const struct tap_probe *const __tap_procfs_writes_%d[] =", i);
		for (int k = 0; k < f[i].nwrites; k++)
			cg_line(&g->w, "%s,", probe_ref(g, f[i].writes[k]));
		cg_line(&g->w, "NULL,");
		cg_close(&g->w, ";");
	}
	cg_open(&g->w, "static struct tap_procfs_file __tap_procfs[] =");
	for (int i = 0; i < n; i++) {
		const char *size = f[i].maxsize
			? cg_fmt(g, "%lld + 1", (long long)f[i].maxsize)
			: "MAXSTRINGLEN";
		const char *writes = f[i].nwrites
			? cg_fmt(g, "__tap_procfs_writes_%d", i) : "NULL";

		cg_line(&g->w, "{ .path = %s, .mode = 0%o, .read = %s, .writes = %s, .bufsize = %s },",
			cg_c_string(g, f[i].path, strlen(f[i].path)),
			f[i].mode, probe_ref(g, f[i].read), writes, size);
	}
	cg_close(&g->w, ";");
	nfiles = n;
}

static void
procfs_desc(struct cg *g, enum backend b)
{
	if (b != BACKEND_KMOD)
		return;
	cg_desc_array(g, "procfs", "__tap_procfs", nfiles);
	cg_desc_array(g, "procfs_dirs", "__tap_procfs_dirs", ndirs);
}

/* A .write probe's $value: what was written. */
static const char *
procfs_target_expr(struct cg *g, enum backend b,
		   const struct derived_probe *dp,
		   const struct context_var *cv, struct node *n)
{
	(void)g; (void)b; (void)dp; (void)cv; (void)n;
	return "tap_procfs_value(c)";
}

/* $value = v or $value .= v in a .read probe (pass 2 allowed only
 * those); the result is the string stored. */
static const char *
procfs_value_store(struct cg *g, enum backend b,
		   const struct derived_probe *dp, struct node *lhs,
		   enum op op, const char *val)
{
	const char *v = cg_fmt(g, "__t%d", g->label_seq++);

	(void)b; (void)dp;
	if (op != OP_ASSIGN && op != OP_CONCAT_ASSIGN) {
		cg_unsupported(g, lhs, "this operator on $value");
		return "\"\"";
	}
	return cg_fmt(g, "({ const char *%s = %s; tap_procfs_%s(c, %s); %s; })",
		      v, val, op == OP_ASSIGN ? "set" : "append", v, v);
}

/* procfs and procfs("PATH"), each with an optional .umask(N) */
static const char *const procfs_heads[] = {
	"procfs", "procfs(STRING)", "procfs.umask(NUMBER)",
	"procfs(STRING).umask(NUMBER)", NULL,
};
static const char *const procfs_tails[] = {
	"read", "read.maxsize(NUMBER)", "write", NULL,
};

const struct provider provider_procfs = {
	.name = "procfs",
	.claims = procfs_claims,
	.match = procfs_match,
	.privilege = PRIV_STAPSYS,	/* a file every user sees */
	.context = procfs_context,
	.list_context = procfs_list,
	.shape_heads = procfs_heads,
	.shape_tails = procfs_tails,
	.kernel_only = true,
	.emit_tables = procfs_tables,
	.emit_desc = procfs_desc,
	.target_expr = procfs_target_expr,
	.value_store = procfs_value_store,
};
