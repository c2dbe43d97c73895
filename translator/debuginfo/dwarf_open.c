/*
 * dwarf_open.c -- opening an ELF file's DWARF through libdwfl (which
 * relocates a kernel module's debug sections), finding the kernel's debug
 * vmlinux and modules where Debian and kbuild put them, and the function
 * index every lookup starts from.
 *
 * Takes: paths.  Produces: cached struct dw_file handles (dwarf.h).
 * Must not: be opened twice for one path (the cache shares them).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/dwarf_internal.h"
#include "translator/debuginfo/errbuf.h"

static struct dw_file **open_files;
static size_t nopen;

void *
dw_xalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		fputs("tapc: out of memory reading DWARF\n", stderr);
		abort();
	}
	return p;
}

char *
dw_xstrdup(const char *s)
{
	char *p = dw_xalloc(strlen(s) + 1);

	return strcpy(p, s);
}

bool
dw_die_at(struct dw_file *f, uint64_t off, Dwarf_Die *out)
{
	return off && dwarf_offdie(f->dw, (Dwarf_Off)off, out) != NULL;
}

static const Dwfl_Callbacks dw_offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static bool
is_elf_rel(const char *path)
{
	size_t len = strlen(path);

	return len > 3 && strcmp(path + len - 3, ".ko") == 0;
}

struct dw_file *
dw_open(const char *path, char *err, size_t errlen)
{
	struct dw_file *f;
	struct dw_file **bigger;

	for (size_t i = 0; i < nopen; i++)
		if (strcmp(open_files[i]->path, path) == 0)
			return open_files[i];
	if (access(path, R_OK) != 0) {
		errbuf_printf(err, errlen, "cannot read %s: %m", path);
		return NULL;
	}
	f = dw_xalloc(sizeof(*f));
	f->path = dw_xstrdup(path);
	f->dwfl = dwfl_begin(&dw_offline_callbacks);
	if (f->dwfl)
		f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	if (!f->mod || dwfl_report_end(f->dwfl, NULL, NULL) != 0 ||
	    !(f->dw = dwfl_module_getdwarf(f->mod, &f->bias))) {
		errbuf_printf(err, errlen, "%s: no DWARF debug info (%s)%s", path,
		       dwfl_errmsg(-1),
		       is_elf_rel(path) ? ": build the module with -g" : "");
		if (f->dwfl)
			dwfl_end(f->dwfl);
		free(f->path);
		free(f);
		return NULL;
	}
	Elf *elf = dwfl_module_getelf(f->mod, &f->elf_bias);
	GElf_Ehdr eh;
	f->is_module = elf && gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
	bigger = realloc(open_files, (nopen + 1) * sizeof(*bigger));
	if (!bigger)
		abort();
	open_files = bigger;
	open_files[nopen++] = f;
	return f;
}

void
dw_close_all(void)
{
	for (size_t i = 0; i < nopen; i++) {
		struct dw_file *f = open_files[i];
		for (size_t j = 0; j < f->nsites; j++)
			free(f->sites[j]);
		for (size_t j = 0; j < f->nvarc; j++)
			free(f->varc[j].vars);
		for (size_t j = 0; j < f->nexprs; j++)
			free(f->exprs[j]);
		free(f->exprs);
		free(f->sites);
		free(f->varc);
		free(f->syms);
		free(f->ksymtab);
		free(f->cache_buf);
		free(f->funcs);
		for (size_t j = 0; j < f->ntypes; j++)
			free(f->types[j].name);
		free(f->types);
		dwfl_end(f->dwfl);
		free(f->path);
		free(f);
	}
	free(open_files);
	open_files = NULL;
	nopen = 0;
}

const char *
dw_path(const struct dw_file *f)
{
	return f->path;
}

bool
dw_is_module(const struct dw_file *f)
{
	return f->is_module;
}

/* ---- where kernel files are ---- */

static char *
path_if_readable(const char *fmt, const char *a, const char *b)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), fmt, a, b);
	return access(buf, R_OK) == 0 ? dw_xstrdup(buf) : NULL;
}

char *
dw_kernel_vmlinux(const char *krel)
{
	char *p = path_if_readable("/usr/lib/debug/boot/vmlinux-%s%s", krel, "");

	if (!p)
		p = path_if_readable("/usr/lib/debug/lib/modules/%s/vmlinux%s",
				     krel, "");
	return p;
}

/* "xfs.ko" names module "xfs"; '-' and '_' are the same. */
static bool
same_module(const char *file, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(file + n, ".ko", 3) != 0 || (file[n + 3] && strcmp(file + n + 3, ".debug") != 0))
		return false;
	for (size_t i = 0; i < n; i++) {
		char x = file[i] == '-' ? '_' : file[i];
		char y = name[i] == '-' ? '_' : name[i];
		if (x != y)
			return false;
	}
	return true;
}

/* Depth-first search of `dir` for the module file; depth-bounded. */
static char *
find_in_tree(const char *dir, const char *name, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;

	if (!d)
		return NULL;
	while (!found && (de = readdir(d))) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (same_module(de->d_name, name))
			found = dw_xstrdup(sub);
		else if (depth > 0 && de->d_type == DT_DIR &&
			 strcmp(de->d_name, "build") && strcmp(de->d_name, "source"))
			found = find_in_tree(sub, name, depth - 1);
	}
	closedir(d);
	return found;
}

char *
dw_kernel_module(const char *krel, const char *name, char *err, size_t errlen)
{
	char dir[4096];
	char *p;

	if (name[0] == '/') {
		if (access(name, R_OK) == 0)
			return dw_xstrdup(name);
		errbuf_printf(err, errlen, "cannot read module %s: %m", name);
		return NULL;
	}
	snprintf(dir, sizeof(dir), "/usr/lib/debug/lib/modules/%s", krel);
	if ((p = find_in_tree(dir, name, 8)))
		return p;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", krel);
	if ((p = find_in_tree(dir, name, 8)))
		return p;
	errbuf_printf(err, errlen, "module %s: no %s.ko under /usr/lib/debug/lib/modules/%s or /lib/modules/%s (give its path: module(\"/path/%s.ko\"))",
	       name, name, krel, krel, name);
	return NULL;
}

/* ---- the function index ---- */

static int
index_one(Dwarf_Die *die, void *arg)
{
	struct dw_file *f = arg;
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	Dwarf_Die cu;

	if (!name || dwarf_hasattr(die, DW_AT_declaration))
		return DWARF_CB_OK;
	if (!dwarf_hasattr(die, DW_AT_low_pc) && !dwarf_hasattr(die, DW_AT_ranges) &&
	    !dwarf_hasattr(die, DW_AT_inline) && !dwarf_hasattr(die, DW_AT_entry_pc))
		return DWARF_CB_OK;
	if (f->nfuncs == f->capfuncs) {
		size_t cap = f->capfuncs ? f->capfuncs * 2 : 256;
		struct dw_func_entry *b = realloc(f->funcs, cap * sizeof(*b));
		if (!b)
			abort();
		f->funcs = b;
		f->capfuncs = cap;
	}
	dwarf_diecu(die, &cu, NULL, NULL);
	f->funcs[f->nfuncs].name = name;
	f->funcs[f->nfuncs].die_off = dwarf_dieoffset(die);
	f->funcs[f->nfuncs].cu_off = dwarf_dieoffset(&cu);
	f->nfuncs++;
	return DWARF_CB_OK;
}

bool
dw_build_index(struct dw_file *f, char *err, size_t errlen)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (f->indexed)
		return true;
	if (dw_cache_load(f)) {
		f->indexed = true;
		return true;
	}
	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(f->dw, off + hsize, &cu) &&
		    dwarf_getfuncs(&cu, index_one, f, 0) < 0) {
			errbuf_printf(err, errlen, "%s: bad DWARF: %s", f->path,
			       dwarf_errmsg(-1));
			return false;
		}
		off = next;
	}
	f->indexed = true;
	dw_cache_store(f);
	return true;
}
