/*
 * dwarf_internal.h -- what the dwarf_*.c files share: the open file with
 * its libdwfl handles and its caches.  Not for users of dwarf.h.
 */
#ifndef TAPC_DEBUGINFO_DWARF_INTERNAL_H
#define TAPC_DEBUGINFO_DWARF_INTERNAL_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "translator/debuginfo/dwarf.h"

/* One subprogram of the index: defined out of line (has code) or only
 * inlined (DW_AT_inline), or both. */
struct dw_func_entry {
	const char *name;
	uint64_t die_off;
	uint64_t cu_off;
};

/* A named type of the index: "struct tk_item", "u32". */
struct dw_type_entry {
	char *name;
	uint64_t die_off;
	bool complete;		/* not a declaration */
};

/* The variables of one site, cached by the site's address. */
struct dw_var_cache {
	const struct dw_site *site;
	struct dw_var *vars;
	int nvars;
};

/* A function symbol of the ELF file, for the site -> symbol+offset map. */
struct dw_sym {
	uint64_t addr, size;
	const char *name;
	bool ambiguous;		/* another function has the same name */
};

struct dw_file {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;	/* file layout = DWARF address + bias */
	GElf_Addr elf_bias;	/* file layout = ELF address + elf_bias */
	bool is_module;
	struct dw_func_entry *funcs;	/* the index, built once */
	size_t nfuncs, capfuncs;
	bool indexed;
	char *cache_buf;	/* the disk cache's bytes: funcs[].name
				 * point into them (else into libdw) */
	struct dw_sym *syms;	/* function symbols by address, built once
				 * (dwfl_module_addrinfo is a linear scan) */
	size_t nsyms;
	bool syms_read;
	const char **ksymtab;	/* names with a __ksymtab_ entry, sorted */
	size_t nksymtab;
	uint64_t anchor_addr;	/* _stext / _text of a vmlinux, for sites in
				 * functions whose name is ambiguous */
	const char *anchor;
	struct dw_type_entry *types;	/* named types, sorted, built once */
	size_t ntypes;
	bool types_read;
	struct dw_site **sites;	/* every site handed out (owned) */
	size_t nsites, capsites;
	char **exprs;		/* DW_LOC_EXPR texts and piece lists
				 * handed out (owned, malloc'd) */
	size_t nexprs;
	struct dw_var_cache *varc;
	size_t nvarc, capvarc;
};

/* dwarf_open.c */
bool dw_build_index(struct dw_file *f, char *err, size_t errlen);
void *dw_xalloc(size_t size);	/* zeroed; aborts when out of memory */
char *dw_xstrdup(const char *s);
bool dw_die_at(struct dw_file *f, uint64_t off, Dwarf_Die *out);

/* dwarf_cache.c: the function index of a big file on disk. */
bool dw_cache_load(struct dw_file *f);
void dw_cache_store(const struct dw_file *f);

/* dwarf_vars.c: the location of `die` (a variable or parameter) at DWARF
 * address pc within function `func` (for its frame base). */
struct dw_loc dw_var_location(struct dw_file *f, Dwarf_Die *die,
			      Dwarf_Die *func, Dwarf_Addr pc);

/* dwarf_statics.c: DW_OP_addr's address as symbol + offset. */
struct dw_loc dw_addr_location(struct dw_file *f, uint64_t dwarf_addr);

#endif
