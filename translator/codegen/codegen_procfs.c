/*
 * codegen_procfs.c -- pass 3 for procfs("PATH").read/.write probes: the
 * table of files (struct tap_procfs_file, runtime/linux/procfs.h), one
 * entry per PATH whatever its probes, the directories the paths need,
 * and $value.
 *
 * What the emitted C may assume: the runtime creates the directories in
 * the order given (parents first) under /proc/systemtap/MODULE, then the
 * files; a handler finds its file in c->probe_data, which
 * tap_procfs_value / tap_procfs_set / tap_procfs_append use.  A file's
 * mode is 0444 for its read probe and 0222 for its write probe, each less
 * that probe's .umask(N) (SystemTap's defaults); its buffer holds
 * .read.maxsize(N) bytes and a NUL, else MAXSTRINGLEN.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/providers/provider.h"

struct procfs_file {
	const char *path;
	const struct derived_probe *read, *write;
	int mode;
	int64_t maxsize;
};

static const struct pdata_procfs *
procfs_of(const struct derived_probe *dp)
{
	return dp->pdata && pdata_kind_of(dp->pdata) == PD_PROCFS ?
	       dp->pdata : NULL;
}

/* The probes grouped by file, in the order their files first appear;
 * how many files (-1 after an error). */
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
		if (pd->is_write ? f[j].write : f[j].read) {
			diag_error(&g->s->diag, p->probes[i]->point->loc,
				   "E_PROBE_ARG",
				   "procfs file '%s' already has a %s probe (at %s)",
				   pd->path, pd->is_write ? "write" : "read",
				   cg_where(g, (pd->is_write ? f[j].write : f[j].read)->point->loc, NULL));
			g->failed = true;
			return -1;
		}
		if (pd->is_write) {
			f[j].write = p->probes[i];
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

void
cg_procfs_tables(struct cg *g, int *nfiles, int *ndirs)
{
	struct procfs_file *f;
	int n;

	*nfiles = *ndirs = 0;
	if (g->s->opts.target == TARGET_USER ||
	    (n = procfs_files(g, &f)) <= 0)
		return;
	*ndirs = procfs_dirs(g, f, n);
	cg_open(&g->w, "static struct tap_procfs_file __tap_procfs[] =");
	for (int i = 0; i < n; i++) {
		const char *size = f[i].maxsize
			? cg_fmt(g, "%lld + 1", (long long)f[i].maxsize)
			: "MAXSTRINGLEN";
		cg_line(&g->w, "{ .path = %s, .mode = 0%o, .read = %s, .write = %s, .bufsize = %s },",
			cg_c_string(g, f[i].path, strlen(f[i].path)),
			f[i].mode, probe_ref(g, f[i].read),
			probe_ref(g, f[i].write), size);
	}
	cg_close(&g->w, ";");
	*nfiles = n;
}

bool
cg_is_procfs_value(const struct node *lhs)
{
	return lhs->kind == N_TARGET && lhs->u.target.cv &&
	       lhs->u.target.cv->script_value;
}

/* $value = v or $value .= v in a .read probe (pass 2 allowed only
 * those); the result is the string stored. */
const char *
cg_procfs_store(struct cg *g, struct node *lhs, enum op op, const char *val)
{
	const char *v = cg_fmt(g, "__t%d", g->label_seq++);

	if (op != OP_ASSIGN && op != OP_CONCAT_ASSIGN) {
		cg_unsupported(g, lhs, "this operator on $value");
		return "\"\"";
	}
	return cg_fmt(g, "({ const char *%s = %s; tap_procfs_%s(c, %s); %s; })",
		      v, val, op == OP_ASSIGN ? "set" : "append", v, v);
}
