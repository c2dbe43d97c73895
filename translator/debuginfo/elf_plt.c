/*
 * elf_plt.c -- the procedure linkage table entries of an x86_64 program
 * or library (see elf_syms.h), for process("PATH").plt("NAME") probes:
 * each entry's address and the name of the function it calls.
 *
 * An entry is matched to its function through the GOT slot it jumps
 * through, not through its position: a stub's `jmp *DISP(%rip)` names
 * the slot, and the relocation of that slot (R_X86_64_JUMP_SLOT in
 * .rela.plt, R_X86_64_GLOB_DAT in .rela.dyn for the .plt.got stubs of
 * functions whose address is also taken) names the symbol.  So the same
 * code reads lazy .plt stubs, .plt.sec stubs (-fcf-protection, where
 * the .plt stubs only push and jump to PLT0) and .plt.got, and PLT0 and
 * IRELATIVE slots, which name no symbol, are left out.
 *
 * Takes: an open Elf and the image being filled.  Produces: im->plt,
 * sorted by address.  Must not: guess an entry it cannot decode.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/elf_syms.h"

/* A GOT slot and the function its relocation names. */
struct got_slot {
	uint64_t addr;
	const char *name;
};

struct slots {
	struct got_slot *v;
	size_t n;
	int cap;
};

static void
read_relocs(struct arena *a, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
	    struct slots *out)
{
	Elf_Scn *symscn = elf_getscn(elf, sh->sh_link);
	Elf_Data *data = elf_getdata(scn, NULL), *syms;
	GElf_Shdr symsh;
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	if (!data || !symscn || !gelf_getshdr(symscn, &symsh) ||
	    !(syms = elf_getdata(symscn, NULL)))
		return;
	out->v = arena_grow(a, out->v, sizeof(*out->v), &out->cap,
			    (int)(out->n + n));
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getrela(data, (int)i, &r))
			continue;
		type = (int)GELF_R_TYPE(r.r_info);
		if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) ||
		    !GELF_R_SYM(r.r_info) ||
		    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
		    GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			continue;
		name = elf_strptr(elf, symsh.sh_link, sym.st_name);
		if (name && *name)
			out->v[out->n++] = (struct got_slot){
				.addr = r.r_offset, .name = arena_strdup(a, name) };
	}
}

static int
by_slot(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function of GOT slot addr (slots sorted), or NULL. */
static const char *
slot_name(const struct slots *s, uint64_t addr)
{
	struct got_slot key = { .addr = addr };
	const struct got_slot *hit = addr ?
		bsearch(&key, s->v, s->n, sizeof(*s->v), by_slot) : NULL;

	return hit ? hit->name : NULL;
}

/* The GOT slot the stub at p jumps through, or 0: `jmp *DISP(%rip)`
 * (ff 25), after an endbr64 (f3 0f 1e fa) and/or a bnd prefix (f2). */
static uint64_t
stub_slot(const unsigned char *p, size_t size, uint64_t addr)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	size_t at = 0;
	int32_t disp;

	if (size >= 4 && memcmp(p, endbr64, 4) == 0)
		at = 4;
	if (at < size && p[at] == 0xf2)
		at++;
	if (at + 6 > size || p[at] != 0xff || p[at + 1] != 0x25)
		return 0;
	memcpy(&disp, p + at + 2, 4);	/* x86_64: little-endian, as here */
	return addr + at + 6 + (uint64_t)(int64_t)disp;
}

struct plt_vec {
	struct elf_plt *v;
	size_t n;
	int cap;
};

static void
read_stubs(struct arena *a, Elf_Scn *scn, const GElf_Shdr *sh,
	   const struct slots *slots, struct plt_vec *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t step = sh->sh_entsize >= 8 ? sh->sh_entsize : 16;

	if (!data || !data->d_buf || data->d_size < sh->sh_size)
		return;
	for (size_t off = 0; off + step <= sh->sh_size; off += step) {
		uint64_t addr = sh->sh_addr + off;
		const char *name = slot_name(slots,
			stub_slot((const unsigned char *)data->d_buf + off,
				  step, addr));
		if (!name)
			continue;
		out->v = arena_grow(a, out->v, sizeof(*out->v), &out->cap,
				    (int)out->n + 1);
		out->v[out->n++] = (struct elf_plt){ .name = name, .addr = addr };
	}
}

static int
by_addr(const void *a, const void *b)
{
	const struct elf_plt *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool
is_stub_section(const char *name)
{
	return strcmp(name, ".plt") == 0 || strcmp(name, ".plt.sec") == 0 ||
	       strcmp(name, ".plt.got") == 0;
}

void
elf_read_plt(struct arena *a, Elf *elf, struct elf_image *im)
{
	struct slots slots = { 0 };
	struct plt_vec plt = { 0 };
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA)
			read_relocs(a, elf, scn, &sh, &slots);
	}
	if (!slots.n)
		return;
	qsort(slots.v, slots.n, sizeof(*slots.v), by_slot);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    !is_stub_section(name))
			continue;
		read_stubs(a, scn, &sh, &slots, &plt);
	}
	if (plt.n)
		qsort(plt.v, plt.n, sizeof(*plt.v), by_addr);
	im->plt = plt.v;
	im->nplt = plt.n;
}
