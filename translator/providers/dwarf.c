/*
 * dwarf.c -- debug-info probes on kernel code: module("NAME").function,
 * module("NAME").statement, and kernel.function / kernel.statement when
 * the kernel's debug vmlinux is installed (linux-image-KREL-dbg); without
 * it, kernel.function goes to the BTF provider (kfunc.c) unchanged.
 *
 *   module("M").function("PATTERN[@FILE[:LINE[-LINE2]|+N]]")[.call|.return|
 *     .inline|.exported]
 *   module("M").statement("FUNC@FILE:LINE[-LINE2]"), :* for every line,
 *     or +N lines after the function's declaration
 *   kernel.function(...) and kernel.statement(...) likewise
 *
 * M is a name, a path, or a pattern ("*", "nf_*"): a pattern takes the
 * release's modules from debuginfo/kmod_index.h whose symbol tables have
 * a matching function (so not a module whose matching functions are all
 * inlined: kmod_index.h says why), and keeps the sites it finds in the site cache
 * (dw_site_cache_*) so that the next run opens no DWARF until variables
 * are used.  A module without DWARF (no -dbg package, not built with -g)
 * gets entry and return probes from its symbol table, typed by its BTF
 * (kfunc_match_module).
 *
 * Sites come from debuginfo/dwarf.h (after the prologue for .function,
 * every inlined instance for .inline, which plain .function also takes,
 * the entry for .return, the first address of the line for .statement).
 * Each becomes a kprobe by symbol name and offset ("tapkmod:tk_ints" +
 * 0x5), so where the module is loaded does not matter.  Context
 * variables are the site's parameters and locals, read from the
 * registers and stack of the kprobe's pt_regs through the access
 * dwarf_access.c builds; one that DWARF says is not available at the
 * site is an error when used.
 * TAPC_KERNEL_DEBUGINFO=btf in the environment (read by the driver into
 * the kernel handle: kernel_uses_debug_package) ignores the debug vmlinux
 * and the debug package's modules (tests of the BTF path on a host that
 * has them).
 * Its probes are kprobes (kprobe.h: the kprobe backend writes them);
 * kfunc.c's are this provider's too.
 * Must not: hand out load addresses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/dwarf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/kmod_index.h"
#include "translator/sema/elab.h"
#include "translator/providers/dwarf_access.h"
#include "translator/providers/kfunc.h"
#include "translator/providers/kprobe.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"

#define DWARF_MAX_EXPANSION 20000
#define DWARF_LOCAL (-3)	/* context_var.arg_index of a local */

extern const struct provider provider_dwarf;

/* What a derived probe keeps (pdata_kprobe.dwarf). */
struct dwarf_probe {
	struct dw_file *file;		/* NULL until first use when the
					 * site came from the site cache */
	const char *path;		/* the DWARF file, to open then */
	const struct dw_site *site;
	struct context_var **vars;	/* parameters first, then locals */
	int nvars;
	struct context_var *ret;	/* .return: $return, or NULL */
	bool filled;			/* vars read (on first use: a
					 * wildcard's probes mostly never
					 * ask) */
	struct loc at;			/* the point, for errors */
};

static bool
dwarf_claims(const struct node *point)
{
	if (pp_is(point, 0, "module"))
		return pp_is(point, 1, "function") || pp_is(point, 1, "statement");
	return pp_is(point, 0, "kernel") &&
	       (pp_is(point, 1, "function") || pp_is(point, 1, "statement"));
}

static int fail(struct elab *e, struct node *point, const char *id,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
fail(struct elab *e, struct node *point, const char *id, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(&e->s->diag, point->loc, id, "probe point '%s': %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

/* "func@file:10-20" or "func@file+3" into the query; false if the spec
 * is malformed (dw_query_parse). */
static bool
parse_spec(struct arena *a, const char *spec, struct dw_query *q)
{
	return dw_query_parse(arena_strdup(a, spec), q);
}

/* ---- context variables ---- */

static struct context_var *
make_var(struct elab *e, struct dw_file *f, const struct dw_var *v, int index)
{
	return dwacc_context_var(e, f, v, v->is_param ? index : DWARF_LOCAL,
				 false);
}

static bool
fill_vars(struct elab *e, struct dwarf_probe *dp)
{
	const struct dw_var *v;
	char err[512];
	int n, k = 0;

	if (dp->filled)
		return true;
	dp->filled = true;
	n = dw_site_vars(dp->file, dp->site, &v, err, sizeof(err));
	if (n < 0) {
		diag_error(&e->s->diag, dp->at, "E_NO_DEBUGINFO", "%s", err);
		return false;
	}
	dp->vars = arena_alloc(e->s->arena, sizeof(*dp->vars) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		dp->vars[dp->nvars++] = make_var(e, dp->file, &v[i],
						 v[i].is_param ? k++ : 0);
	if (dp->site->kind == DW_SITE_RETURN) {
		uint64_t rt = dw_site_return_type(dp->file, dp->site);
		if (rt) {
			char tn[256];
			dp->ret = elab_new_context_var(e, "return", TY_LONG,
				arena_strdup(e->s->arena, dw_type_name(dp->file, rt, tn, sizeof(tn))));
			dp->ret->arg_index = -1;
			dp->ret->writable = true;
			dp->ret->dwarf = dp->file;
			dp->ret->dwarf_type = rt;
			dp->ret->access = dwacc_return(e, dp->file, rt);
		}
	}
	return true;
}

/* ---- derived probes ---- */

struct match_ctx {
	struct elab *e;
	struct node *point;
	struct dw_file *file;
	const char *modname;		/* kprobe symbol prefix, NULL: kernel */
	const char *point_prefix;	/* "module(\"tapkmod\")" or "kernel" */
	bool exported_only;
	bool capped;			/* DWARF_MAX_EXPANSION reached */
	int count;
	const char *path;		/* of `file`, or of the cached sites */
	/* every site the DWARF queries gave, for the site cache */
	bool record;
	const struct dw_site **found;
	int nfound, capfound;
};

static const char *
suffix_of(enum dw_site_kind k)
{
	switch (k) {
	case DW_SITE_FUNCTION: return ".call";
	case DW_SITE_INLINE: return ".inline";
	case DW_SITE_RETURN: return ".return";
	case DW_SITE_STATEMENT: return "";
	}
	return "";
}

static bool
add_site(const struct dw_site *s, void *ctx)
{
	struct match_ctx *m = ctx;
	struct elab *e = m->e;
	struct arena *a = e->s->arena;

	if (m->record) {
		if (m->nfound == m->capfound) {
			const struct dw_site **b = arena_alloc(a, sizeof(*b) *
				(size_t)(m->capfound = m->capfound ? m->capfound * 2 : 64));
			if (m->nfound)
				memcpy(b, m->found, sizeof(*b) * (size_t)m->nfound);
			m->found = b;
		}
		m->found[m->nfound++] = s;
	}
	if (m->count >= DWARF_MAX_EXPANSION) {
		if (!m->capped)
			elab_expansion_capped(e, m->point, DWARF_MAX_EXPANSION);
		m->capped = true;
		return false;
	}
	if (m->exported_only && !s->exported)
		return true;
	struct pdata_kprobe *pd = arena_alloc(a, sizeof(*pd));
	struct dwarf_probe *dwp = arena_alloc(a, sizeof(*dwp));
	dwp->file = m->file;
	dwp->path = m->path;
	dwp->site = s;
	pd->symbol = m->modname ? arena_printf(a, "%s:%s", m->modname, s->symbol)
				: s->symbol;
	pd->module = m->modname;
	pd->address = s->offset;	/* 0 for .return unless the function's
					 * name is ambiguous (see dwarf.h) */
	pd->is_return = s->kind == DW_SITE_RETURN;
	pd->from_kernel_function = true;	/* parameters in .return are
						 * read at entry (@entry) */
	pd->dwarf = dwp;
	dwp->at = m->point->loc;
	const char *name = s->kind == DW_SITE_STATEMENT
		? arena_printf(a, "%s.statement(\"%s@%s:%d\")", m->point_prefix,
			       s->function, s->decl_file ? s->decl_file : "?", s->line)
		: arena_printf(a, "%s.function(\"%s@%s:%d\")%s", m->point_prefix,
			       s->function, s->decl_file ? s->decl_file : "?",
			       s->decl_line, suffix_of(s->kind));
	elab_add_probe(e, m->point, name, pd);
	m->count++;
	return true;
}

static int
find(struct match_ctx *m, struct dw_query *q, enum dw_site_kind kind)
{
	char err[512];
	int n;

	q->kind = kind;
	n = dw_find_sites(m->file, q, add_site, m, err, sizeof(err));
	if (n < 0)
		return fail(m->e, m->point, "E_NO_DEBUGINFO", "%s", err);
	return n;
}

/* The site kinds the point's suffix asks for, then the matching. */
static int
match_sites(struct match_ctx *m, struct dw_query *q, bool statement)
{
	struct node *point = m->point;
	int ncomps = point->u.point.ncomps;
	const char *suffix = ncomps == 3 ? pp_name(point, 2) : NULL;
	int a, b = 0;

	if (ncomps > 3)
		return fail(m->e, point, "E_UNSUPPORTED_PROBE", "%s",
			    "unknown suffix (expected .call, .return, .inline or .exported)");
	if (statement) {
		if (suffix)
			return fail(m->e, point, "E_UNSUPPORTED_PROBE", "%s",
				    ".statement takes no suffix here");
		if (!q->line_lo && !q->every_line)
			return fail(m->e, point, "E_BAD_PROBE_POINT", "%s",
				    "a statement needs FUNC@FILE:LINE (or :* for every line)");
		return find(m, q, DW_SITE_STATEMENT);
	}
	if (!suffix) {		/* as SystemTap: calls and inlined copies */
		if ((a = find(m, q, DW_SITE_FUNCTION)) < 0)
			return -1;
		if ((b = find(m, q, DW_SITE_INLINE)) < 0)
			return -1;
		return m->count ? m->count : a + b;
	}
	if (strcmp(suffix, "call") == 0)
		return find(m, q, DW_SITE_FUNCTION) < 0 ? -1 : m->count;
	if (strcmp(suffix, "exported") == 0) {
		m->exported_only = true;
		return find(m, q, DW_SITE_FUNCTION) < 0 ? -1 : m->count;
	}
	if (strcmp(suffix, "inline") == 0)
		return find(m, q, DW_SITE_INLINE) < 0 ? -1 : m->count;
	if (strcmp(suffix, "return") == 0)
		return find(m, q, DW_SITE_RETURN) < 0 ? -1 : m->count;
	return fail(m->e, point, "E_UNSUPPORTED_PROBE", "unknown suffix '.%s' (expected .call, .return, .inline or .exported)",
		    suffix);
}

/* "xfs.ko" / "/path/tap-kmod.ko" -> "xfs" / "tap_kmod", as kallsyms
 * names the module. */
static const char *
kallsyms_module_name(struct arena *a, const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = arena_strdup(a, base ? base + 1 : path), *dot;

	if ((dot = strstr(name, ".ko")))
		*dot = '\0';
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

/* The sites of one DWARF file (the debug vmlinux or a module). */
static int
match_dwarf_file(struct match_ctx *m, struct dw_query *q, bool statement,
		 const char *path)
{
	struct elab *e = m->e;
	char err[512];

	m->file = dw_open(path, err, sizeof(err));
	if (!m->file)
		return fail(e, m->point, "E_NO_DEBUGINFO", "%s", err);
	m->path = dw_path(m->file);
	if (e->s->opts.verbose)
		diag_info(&e->s->diag, "%s: DWARF from %s",
			  pp_to_string(e->s->arena, m->point), dw_path(m->file));
	int n = match_sites(m, q, statement);
	int before, after;
	if (n == 0 && statement && !q->every_line && !q->line_hi &&
	    dw_nearby_lines(m->file, q, &before, &after))
		return fail(e, m->point, "E_NO_MATCH", "%s", arena_printf(e->s->arena,
			    "no line records for %s%c%d (try %s%s%s)",
			    q->file, q->relative ? '+' : ':', q->line_lo,
			    before ? arena_printf(e->s->arena, ":%d", before) : "",
			    before && after ? " or " : "",
			    after ? arena_printf(e->s->arena, ":%d", after) : ""));
	return n;
}

/* The debug package's copy of a module file of /lib/modules/KREL
 * (/usr/lib/debug/lib/modules/KREL/..., uncompressed), or NULL. */
static char *
debug_copy(const char *modules_dir, const char *path)
{
	size_t len = strlen(modules_dir);
	char buf[4096];

	if (strncmp(path, modules_dir, len) != 0 || path[len] != '/')
		return NULL;
	const char *rel = strstr(modules_dir, "/modules/");
	snprintf(buf, sizeof(buf), "/usr/lib/debug/lib%s%s", rel ? rel : "",
		 path + len);
	char *xz = strstr(buf, ".ko.xz");
	if (xz)
		xz[3] = '\0';
	return rel && access(buf, R_OK) == 0 ? strdup(buf) : NULL;
}

/* TAPC_KERNEL_DEBUGINFO=btf, as the driver read it into the kernel
 * handle. */
static bool
ignore_debug_package(const struct elab *e)
{
	return e->s->kernel && !kernel_uses_debug_package(e->s->kernel);
}

/* The module's DWARF file (malloc'd), or NULL when it has none. */
static char *
module_dwarf(const struct elab *e, const struct kmod_entry *km,
	     const char *modules_dir)
{
	char *debug = ignore_debug_package(e) ? NULL
					      : debug_copy(modules_dir, km->path);

	if (!debug && km->has_dwarf && !strstr(km->path, ".ko.xz"))
		debug = strdup(km->path);
	return debug;
}

/* The probes of sites the site cache kept: as add_site would make them
 * from the DWARF, which is opened only if their variables are asked
 * for. */
static int
replay_sites(struct match_ctx *m, const struct dw_site *sites, int n)
{
	struct arena *a = m->e->s->arena;
	const char *suffix = m->point->u.point.ncomps == 3 ? pp_name(m->point, 2)
							   : NULL;

	m->exported_only = suffix && strcmp(suffix, "exported") == 0;
	for (int i = 0; i < n; i++) {
		struct dw_site *s = arena_alloc(a, sizeof(*s));
		*s = sites[i];
		s->function = arena_strdup(a, s->function);
		s->decl_file = s->decl_file ? arena_strdup(a, s->decl_file) : NULL;
		s->symbol = arena_strdup(a, s->symbol);
		if (!add_site(s, m))
			break;
	}
	return m->count;
}

/* A module's DWARF sites, through the site cache when there is one. */
static int
match_module_dwarf(struct match_ctx *m, struct dw_query *q, bool statement,
		   const char *debug, struct dw_site_cache *sc)
{
	const struct dw_site *cached;
	int n;

	if (sc && (n = dw_site_cache_get(sc, debug, &cached)) >= 0) {
		m->path = arena_strdup(m->e->s->arena, debug);
		return replay_sites(m, cached, n);
	}
	m->record = sc != NULL;
	n = match_dwarf_file(m, q, statement, debug);
	if (sc && n >= 0 && !m->capped)
		dw_site_cache_put(sc, m->path, m->found, m->nfound);
	return n;
}

/*
 * One module of the release's index: its DWARF when the debug package
 * has it or the file was built with -g, else its symbol table and BTF
 * (which have no source lines: an error here, skipped by wildcards).
 * `sc`: a wildcard's site cache, or NULL.
 */
static int
match_indexed_module(struct elab *e, struct node *point, struct dw_query *q,
		     bool statement, const struct kmod_entry *km,
		     const char *modules_dir, const char *display,
		     struct dw_site_cache *sc)
{
	struct match_ctx m = { .e = e, .point = point };
	char *debug = module_dwarf(e, km, modules_dir);
	int n;

	m.modname = km->name;
	m.point_prefix = arena_printf(e->s->arena, "module(\"%s\")", display);
	if (debug) {
		n = match_module_dwarf(&m, q, statement, debug, sc);
		free(debug);
		return n;
	}
	if (statement || q->file)
		return fail(e, point, "E_NO_DEBUGINFO", "%s", arena_printf(e->s->arena,
			    "module %s has no DWARF debug info (source lines need it: install linux-image-%s-dbg or build the module with -g)",
			    km->name, kernel_release(e->s->kernel)));
	struct kernel_target *kt = e->s->kernel;
	char err[256];
	const struct btf *btf = kernel_module_btf_file(kt, km->name, km->path,
						      err, sizeof(err));
	if (e->s->opts.verbose)
		diag_info(&e->s->diag, "%s: module %s: no DWARF; functions from its symbol table, types from %s",
			  pp_to_string(e->s->arena, point), km->name,
			  btf ? btf_source(btf) : "nowhere (no BTF)");
	return kfunc_match_module(e, point, km->name, display, btf,
				  arena_strdup(e->s->arena, err), km->funcs,
				  km->nfuncs, q->func);
}

/* The index entry of a module named or given by path; NULL if none. */
static const struct kmod_entry *
indexed_module(const struct kmod_index *ix, const char *mod)
{
	for (size_t i = 0; ix && i < kmod_index_count(ix); i++) {
		const struct kmod_entry *km = kmod_index_at(ix, i);
		if (mod[0] == '/' ? strcmp(km->path, mod) == 0
				  : kmod_name_matches(mod, km->name))
			return km;
	}
	return NULL;
}

/* module("PATTERN"): the release's modules whose name matches and whose
 * symbol table has a function matching (so that "*" does not open the
 * debug info of thousands of modules).  A query by function name alone
 * keeps the sites it finds in the site cache for the next run. */
static int
match_module_wildcard(struct elab *e, struct node *point, struct dw_query *q,
		      bool statement, const struct kmod_index *ix,
		      const char *modules_dir, const char *pattern)
{
	const char *suffix = point->u.point.ncomps == 3 ? pp_name(point, 2) : "";
	bool lines = statement || q->file;
	/* what BTF cannot give: modules without DWARF are left out */
	bool needs_dwarf = lines || strcmp(suffix, "inline") == 0 ||
			   strcmp(suffix, "exported") == 0;
	int total = 0, n, no_dwarf = 0;
	struct dw_site_cache *sc = lines ? NULL : dw_site_cache_open(
		arena_printf(e->s->arena, "module(%s).%s(%s).%s in %s%s", pattern,
			     pp_name(point, 1), q->func,
			     point->u.point.ncomps == 3 ? pp_name(point, 2) : "",
			     modules_dir, ignore_debug_package(e) ? " (no -dbg)" : ""));

	for (size_t i = 0; i < kmod_index_count(ix); i++) {
		const struct kmod_entry *km = kmod_index_at(ix, i);
		if (!kmod_name_matches(pattern, km->name) ||
		    !kmod_entry_has_func(km, q->func))
			continue;
		char *dwarf = needs_dwarf ? module_dwarf(e, km, modules_dir) : NULL;
		if (needs_dwarf && !dwarf) {
			no_dwarf++;
			continue;
		}
		free(dwarf);
		n = match_indexed_module(e, point, q, statement, km,
					 modules_dir, km->name, sc);
		if (n < 0) {
			dw_site_cache_close(sc);
			return -1;
		}
		total += n;
		if (total >= DWARF_MAX_EXPANSION) {
			elab_expansion_capped(e, point, DWARF_MAX_EXPANSION);
			break;
		}
	}
	dw_site_cache_close(sc);
	if (!total && no_dwarf)
		return fail(e, point, "E_NO_DEBUGINFO", "source lines, .inline and .exported need DWARF debug info, and none of the matching modules has it (install linux-image-%s-dbg)",
			    kernel_release(e->s->kernel));
	/* the index's limit (kmod_index.h), said where it bites */
	if (!total && !e->listing && !e->cur_optional &&
	    !point->u.point.optional && !point->u.point.sufficient)
		return fail(e, point, "E_NO_MATCH", "no matching module has the function in its symbol table (one that exists only inlined is found by naming its module: module(\"NAME\").function(\"%s\"))",
			    q->func);
	return total;
}

static int
match_module(struct elab *e, struct node *point, struct dw_query *q,
	     bool statement, const char *krel)
{
	const char *mod = pp_arg_string(point, 0);
	char err[512], *path, *modules_dir;
	const struct kmod_index *ix;
	int n;

	if (!mod || !*mod)
		return fail(e, point, "E_BAD_PROBE_POINT", "%s",
			    "module(\"NAME\") needs a module name, pattern or path");
	modules_dir = kernel_modules_dir(e->s->kernel);
	if (mod[0] != '/' && strpbrk(mod, "*?[")) {
		ix = kmod_index_get(modules_dir, err, sizeof(err));
		n = ix ? match_module_wildcard(e, point, q, statement, ix,
					       modules_dir, mod)
		       : fail(e, point, "E_NO_DEBUGINFO", "%s", err);
		free(modules_dir);
		return n;
	}
	/* one module: its DWARF as before (the debug package, a -g build,
	 * a path), else the index's symbol table and BTF */
	path = ignore_debug_package(e) && mod[0] != '/' ? NULL
		: dw_kernel_module(krel, mod, err, sizeof(err));
	if (path) {
		struct match_ctx m = { .e = e, .point = point };
		struct dw_file *f = dw_open(path, err, sizeof(err));
		m.modname = kallsyms_module_name(e->s->arena, path);
		m.point_prefix = arena_printf(e->s->arena, "module(\"%s\")", mod);
		if (f || strncmp(path, modules_dir, strlen(modules_dir)) != 0) {
			n = match_dwarf_file(&m, q, statement, path);
			free(path);
			free(modules_dir);
			return n;
		}
		free(path);
	}
	ix = kmod_index_get(modules_dir, err, sizeof(err));
	const struct kmod_entry *km = indexed_module(ix, mod);
	if (!km)	/* says where it looked */
		free(dw_kernel_module(krel, mod, err, sizeof(err)));
	n = km ? match_indexed_module(e, point, q, statement, km, modules_dir,
				      mod, NULL)
	       : fail(e, point, "E_NO_DEBUGINFO", "%s", err);
	free(modules_dir);
	return n;
}

static int
dwarf_match(struct elab *e, struct node *point)
{
	bool is_module = pp_is(point, 0, "module");
	bool statement = pp_is(point, 1, "statement");
	const char *spec = pp_arg_string(point, 1);
	struct match_ctx m = { .e = e, .point = point };
	struct dw_query q = { 0 };
	char *path = NULL;
	int n;

	struct kernel_target *kt = elab_kernel(e, point->loc);
	if (!kt)
		return -1;
	const char *krel = kernel_release(kt);
	if (!is_module) {
		path = ignore_debug_package(e) ? NULL : dw_kernel_vmlinux(krel);
		if (!path && !statement)
			return kfunc_match(e, point);
		if (!path)
			return fail(e, point, "E_NO_DEBUGINFO", "needs the kernel's DWARF debug info: install linux-image-%s-dbg",
				    krel);
		m.point_prefix = "kernel";
	}
	if (!spec || !parse_spec(e->s->arena, spec, &q)) {
		free(path);
		return fail(e, point, "E_BAD_PROBE_POINT", "%s",
			    "expected \"FUNCTION[@FILE[:LINE[-LINE]|+OFFSET]]\"");
	}
	if (q.relative && !statement)
		diag_warning(&e->s->diag, point->loc, "W_FUNCTION_LINE",
			     "for probing a particular line, use a .statement() probe, not .function()");
	if (is_module)
		return match_module(e, point, &q, statement, krel);
	n = match_dwarf_file(&m, &q, statement, path);
	free(path);
	return n;
}

/* ---- context ---- */

/* The probe's DWARF data with its variables read, or NULL for a probe
 * kfunc.c made or another family's. */
static struct dwarf_probe *
dwarf_of(struct elab *e, const struct derived_probe *dp)
{
	const struct pdata_kprobe *pd = dp && dp->provider == &provider_dwarf ?
		dp->pdata : NULL;
	struct dwarf_probe *d = pd ? (struct dwarf_probe *)pd->dwarf : NULL;
	char err[512];

	if (d && !d->file && d->path) {	/* a cached site: its DWARF now
					 * (gone since: no variables) */
		if (!(d->file = dw_open(d->path, err, sizeof(err)))) {
			diag_error(&e->s->diag, d->at, "E_NO_DEBUGINFO", "%s", err);
			d->filled = true;
			d->path = NULL;
		}
	}
	if (d)
		fill_vars(e, d);
	return d;
}

static struct context_var *
dwarf_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	const struct dwarf_probe *d = dwarf_of(e, dp);

	if (!d)
		return kfunc_context(e, dp, name);
	if (d->ret && strcmp(name, "return") == 0)
		return d->ret;
	for (int i = 0; i < d->nvars; i++)
		if (strcmp(d->vars[i]->name, name) == 0 &&
		    (d->site->kind != DW_SITE_RETURN || d->vars[i]->arg_index >= 0 ||
		     (d->vars[i]->access &&	/* a function's static: the
						 * same place at return */
		      d->vars[i]->access->base.kind == TA_BASE_SYMBOL)))
			return d->vars[i];
	/* a static or global of the function's source file (not part of
	 * $$vars, as in SystemTap) */
	struct dw_var g;
	if (d->file && dw_site_global(d->file, d->site, name, &g))
		return make_var(e, d->file, &g, 0);
	return NULL;
}

static int
dwarf_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	const struct dwarf_probe *d = dwarf_of(e, dp);

	if (!d)
		return kfunc_list(e, dp, out);
	*out = arena_alloc(e->s->arena, sizeof(**out) * (size_t)(d->nvars + 1));
	int n = 0;
	for (int i = 0; i < d->nvars; i++)
		if (d->site->kind != DW_SITE_RETURN || d->vars[i]->arg_index >= 0)
			(*out)[n++] = d->vars[i];
	if (d->ret)
		(*out)[n++] = d->ret;
	return n;
}

static void
dwarf_code(struct cg *g, enum backend b)
{
	kprobe_add_rows(g, b, &provider_dwarf);
}

/* kernel.function(...) and module(...).function(...) */
static const char *const function_heads[] = {
	"kernel", "module(STRING)", NULL,
};
static const char *const function_tails[] = {
	"function(STRING)", "function(STRING).call",
	"function(STRING).return", "function(STRING).inline",
	"function(STRING).exported", "statement(STRING)", NULL,
};

const struct provider provider_dwarf = {
	.name = "dwarf",
	.claims = dwarf_claims,
	.match = dwarf_match,
	.privilege = PRIV_STAPSYS,	/* kernel and module code */
	.context = dwarf_context,
	.list_context = dwarf_list,
	.is_return = kprobe_is_return,
	.untyped_reason = kfunc_untyped_reason,
	.shape_heads = function_heads,
	.shape_tails = function_tails,
	.kernel_only = true,
	.emit_code = dwarf_code,
	.target_expr = kprobe_target_expr,
	.bpf_place = kprobe_bpf_place,
	.bpf_target_expr = kprobe_bpf_target_expr,
};

/* ---- $$vars, $$parms, $$locals (dwarf_access.h) ---- */

bool
dwacc_meta(struct elab *e, const struct derived_probe *dp, const char *name,
	   int pretty, struct ta_access **out)
{
	const struct dwarf_probe *d = dp->provider == &provider_dwarf ?
		dwarf_of(e, dp) : NULL;
	bool parms = strcmp(name, "parms") == 0;
	bool locals = strcmp(name, "locals") == 0;
	struct context_var **vars;
	int n = 0;

	if (!d || (!parms && !locals && strcmp(name, "vars") != 0))
		return false;
	vars = arena_alloc(e->s->arena, sizeof(*vars) * (size_t)(d->nvars + 1));
	for (int i = 0; i < d->nvars; i++) {
		bool is_param = d->vars[i]->arg_index >= 0;
		if (d->site->kind == DW_SITE_RETURN && !is_param)
			continue;	/* locals at entry mean nothing */
		if ((parms && is_param) || (locals && !is_param) ||
		    (!parms && !locals))
			vars[n++] = d->vars[i];
	}
	*out = dwacc_parms(e, vars, n, pretty);
	return true;
}

/* ---- @cast(ptr, "type", "module") on a module's DWARF ---- */

/* The DWARF file @cast's module names, or NULL to leave it to BTF: the
 * kernel and <header> forms, and modules without DWARF. */
static struct dw_file *
cast_file(struct elab *e, const char *module)
{
	char err[512], *path;
	struct dw_file *f;

	if (!module || strcmp(module, "kernel") == 0 || module[0] == '<')
		return NULL;
	struct kernel_target *kt = e->s->kernel;
	if (module[0] == '/')
		path = strdup(module);
	else if (!kt || !(path = dw_kernel_module(kernel_release(kt), module,
						  err, sizeof(err))))
		return NULL;
	f = path ? dw_open(path, err, sizeof(err)) : NULL;
	free(path);
	return f;
}

bool
dwacc_cast(struct elab *e, struct node *n, struct ta_access **out)
{
	struct dw_file *f = cast_file(e, n->u.cast.module);

	*out = NULL;
	if (!f)
		return false;
	*out = dwacc_cast_in(e, f, n, NULL);
	return true;
}

/* ---- @var("name@file"[, "module"]) ---- */

/* The file @var reads: the module named, else the probe's own DWARF
 * file, else the kernel's debug vmlinux.  NULL after an error. */
static struct dw_file *
atvar_file(struct elab *e, struct derived_probe *dp, struct node *n)
{
	const char *module = n->u.atvar.module;
	const struct dwarf_probe *d;
	char err[512], *path;
	struct dw_file *f;

	if (module && strcmp(module, "kernel") != 0) {
		if (!(f = cast_file(e, module)))
			diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
				   "@var: no DWARF debug info found for module '%s'",
				   module);
		return f;
	}
	if (!module && dp && (d = dwarf_of(e, dp)))
		return d->file;
	struct kernel_target *kt = elab_kernel(e, n->loc);
	if (!kt)
		return NULL;
	path = ignore_debug_package(e) ? NULL
				       : dw_kernel_vmlinux(kernel_release(kt));
	if (!path) {
		/* the same words with or without the debug package's name:
		 * the sema cases hold on hosts with and without it */
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
			   "@var needs DWARF debug info (BTF does not describe variables' locations)");
		return NULL;
	}
	f = dw_open(path, err, sizeof(err));
	free(path);
	if (!f)
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO", "%s", err);
	return f;
}

struct ta_access *
dwacc_atvar(struct elab *e, struct derived_probe *dp, struct node *n)
{
	const char *name, *file;
	struct dw_file *f;
	struct dw_var v;

	if (!dwacc_atvar_spec(e, n, &name, &file) ||
	    !(f = atvar_file(e, dp, n)) ||
	    !dwacc_atvar_find(e, f, n, name, file, &v))
		return NULL;
	struct context_var *cv = make_var(e, f, &v, 0);
	return dwacc_target(e, cv, &n->u.atvar.path,
			    arena_printf(e->s->arena, "@var(\"%s\")",
					 n->u.atvar.name), n->loc);
}
