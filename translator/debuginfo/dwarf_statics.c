/*
 * dwarf_statics.c -- static and global variables: a DW_OP_addr location
 * as "ELF symbol + offset" (what stays true however the kernel or module
 * is loaded), the file-scope variables a probe site sees, and @var's
 * lookup of "name@file" across a file's compilation units (a variable
 * the DWARF only declares, such as jiffies, is found by its ELF symbol).
 *
 * Takes: a dw_file (dwarf_open.c); for a .ko, libdwfl has placed its
 * sections and relocated the DWARF, so DW_OP_addr and the symbol table
 * agree.  Produces: DW_LOC_SYMBOL locations (dwarf.h).
 * A variable in per-CPU space (.data..percpu) is a symbol too, marked
 * `percpu`: the generated code reads this CPU's copy.
 * Must not: hand out a bare address; a variable with no symbol around it
 * is unavailable with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <gelf.h>

#include "translator/debuginfo/dwarf_internal.h"
#include "translator/debuginfo/errbuf.h"

static struct dw_loc
unavailable(const char *why)
{
	return (struct dw_loc){ .kind = DW_LOC_UNAVAILABLE, .why = why };
}

/* The name of the ELF section holding file-layout address `addr`. */
static const char *
section_of(struct dw_file *f, Dwarf_Addr addr)
{
	Dwarf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(f->mod, &a, &bias);
	Elf *elf = dwfl_module_getelf(f->mod, &bias);
	GElf_Shdr sh;
	size_t shstrndx;

	if (!scn || !elf || !gelf_getshdr(scn, &sh) ||
	    elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	return elf_strptr(elf, shstrndx, sh.sh_name);
}

struct dw_loc
dw_addr_location(struct dw_file *f, uint64_t dwarf_addr)
{
	Dwarf_Addr addr = dwarf_addr + f->bias;
	int n = dwfl_module_getsymtab(f->mod);
	const char *best = NULL, *sec = section_of(f, addr);
	GElf_Addr best_addr = 0, anchor_addr = 0;
	const char *anchor = NULL;
	int same_name = 0, best_rank = 0;

	/* per-CPU space: the symbol's address is an offset that
	 * this_cpu_ptr() turns into this CPU's copy */
	bool percpu = sec && strncmp(sec, ".data..percpu", 13) == 0;
	const char *anchor_name = percpu ? "__per_cpu_start" : NULL;
	/* The object symbol holding addr: a sized one whose range covers
	 * it, else a zero-sized one exactly at it. */
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &a,
							   &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || shndx == SHN_UNDEF)
			continue;
		if (!f->is_module && !anchor &&
		    (anchor_name ? strcmp(name, anchor_name) == 0 :
		     strcmp(name, "_stext") == 0 || strcmp(name, "_text") == 0)) {
			anchor = name;
			anchor_addr = a;
		}
		if (type != STT_OBJECT && type != STT_NOTYPE)
			continue;
		/* a sized object covering addr beats a label that happens
		 * to sit at the same place (__start_SECTION markers) */
		int rank = type == STT_OBJECT && addr < a + sym.st_size ? 2 :
			   sym.st_size == 0 && addr == a ? 1 : 0;
		if (a > addr || !rank)
			continue;
		if (!best || rank > best_rank ||
		    (rank == best_rank && (a > best_addr ||
		     (a == best_addr && GELF_ST_BIND(sym.st_info) != STB_LOCAL)))) {
			best = name;
			best_addr = a;
			best_rank = rank;
		}
	}
	if (!best)
		return unavailable("at an address no ELF symbol covers");
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name = dwfl_module_getsym(f->mod, i, &sym, NULL);
		if (name && strcmp(name, best) == 0 && sym.st_shndx != SHN_UNDEF)
			same_name++;
	}
	if (same_name > 1) {
		/* kallsyms would give the first of the namesakes: in a vmlinux
		 * place it from the image's start instead (KASLR moves the
		 * whole image) or, per-CPU, from the start of per-CPU space;
		 * in a module there is no such anchor. */
		if (!anchor || addr < anchor_addr)
			return unavailable("in a symbol whose name is not unique in its file");
		return (struct dw_loc){ .kind = DW_LOC_SYMBOL, .symbol = anchor,
					.offset = (int64_t)(addr - anchor_addr),
					.percpu = percpu };
	}
	return (struct dw_loc){ .kind = DW_LOC_SYMBOL, .symbol = best,
				.offset = (int64_t)(addr - best_addr),
				.percpu = percpu };
}

/* A variable DIE (with a location, or a declaration whose definition
 * libdw can reach) into `out`. */
static bool
var_of(struct dw_file *f, Dwarf_Die *die, struct dw_var *out)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));

	if (!name || !dwarf_attr(die, DW_AT_location, &attr))
		return false;
	memset(out, 0, sizeof(*out));
	out->name = name;
	if (dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	    dwarf_formref_die(&attr, &type))
		out->type = dwarf_dieoffset(&type);
	/* a static's location is the same at every pc */
	out->loc = dw_var_location(f, die, NULL, 0);
	return true;
}

/* Whether the file's symbol table defines `name` as a data object. */
static bool
has_object_symbol(struct dw_file *f, const char *name)
{
	int n = dwfl_module_getsymtab(f->mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *sn = dwfl_module_getsym(f->mod, i, &sym, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (sn && strcmp(sn, name) == 0 && sym.st_shndx != SHN_UNDEF &&
		    (type == STT_OBJECT || type == STT_NOTYPE))
			return true;
	}
	return false;
}

/* The top-level variable `name` of compilation unit `cu`.  A declaration
 * with no location (`extern unsigned long volatile jiffies;`, whose
 * definition is a linker-script symbol) goes into *decl if that is
 * still unset, for the caller to fall back on. */
static bool
cu_var(struct dw_file *f, Dwarf_Die *cu, const char *name, struct dw_var *out,
       struct dw_var *decl, bool *have_decl)
{
	Dwarf_Die child, type;
	Dwarf_Attribute attr;

	if (dwarf_child(cu, &child) != 0)
		return false;
	do {
		const char *n;
		if (dwarf_tag(&child) != DW_TAG_variable)
			continue;
		n = dwarf_formstring(dwarf_attr_integrate(&child, DW_AT_name, &attr));
		if (!n || strcmp(n, name) != 0)
			continue;
		if (var_of(f, &child, out))
			return true;
		if (decl && !*have_decl && dwarf_hasattr(&child, DW_AT_declaration)) {
			memset(decl, 0, sizeof(*decl));
			decl->name = n;
			if (dwarf_attr_integrate(&child, DW_AT_type, &attr) &&
			    dwarf_formref_die(&attr, &type))
				decl->type = dwarf_dieoffset(&type);
			*have_decl = true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

bool
dw_site_global(struct dw_file *f, const struct dw_site *site, const char *name,
	       struct dw_var *out)
{
	Dwarf_Die cu;

	return dw_die_at(f, site->cu_off, &cu) &&
	       cu_var(f, &cu, name, out, NULL, NULL);
}

/* Whether CU path `cu` ends with `want` at a '/' boundary ("fs/x.c"). */
static bool
file_matches(const char *cu, const char *want)
{
	size_t lc = strlen(cu), lw = strlen(want);

	if (lw > lc || strcmp(cu + lc - lw, want) != 0)
		return false;
	return lw == lc || cu[lc - lw - 1] == '/';
}

int
dw_find_global(struct dw_file *f, const char *name, const char *file,
	       struct dw_var *out, char *err, size_t errlen)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct dw_var decl;
	bool have_decl = false;

	if (!f->dw) {
		errbuf_printf(err, errlen, "%s has no DWARF", f->path);
		return -1;
	}
	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		const char *cuname;
		if (dwarf_offdie(f->dw, off + hsize, &cu) &&
		    (cuname = dwarf_diename(&cu)) &&
		    (!file || file_matches(cuname, file)) &&
		    cu_var(f, &cu, name, out, &decl, &have_decl))
			return 1;
		off = next;
	}
	/* only declared in DWARF, defined by the symbol table */
	if (have_decl && has_object_symbol(f, name)) {
		*out = decl;
		out->loc = (struct dw_loc){ .kind = DW_LOC_SYMBOL, .symbol = decl.name };
		return 1;
	}
	return 0;
}
