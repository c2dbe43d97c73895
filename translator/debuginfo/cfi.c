/*
 * cfi.c -- read a user ELF file's call frame information into the small
 * per-range rule table of cfi.h.
 *
 * libdw answers "what are the rules at address A" (dwarf_cfi_addrframe)
 * and tells the range of addresses the answer holds for; it has no list
 * of the ranges, so the FDEs are listed with dwarf_next_cfi and their
 * initial_location decoded here (the pointer encoding named by the CIE's
 * 'R' augmentation in .eh_frame, a plain address in .debug_frame).  Each
 * FDE is then walked row by row.  Only the CFA, the return address, rsp
 * and rbp are kept: a user stack walk recovers nothing else, so rows that
 * differ only in where rbx or r12..r15 were saved collapse.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/cfi.h"
#include "translator/debuginfo/elf_syms.h"

struct fde_range {
	uint64_t lo, hi;
};

struct raw_row {
	uint64_t start, end;
	struct cfi_rule rule;
};

struct raw_rows {
	struct raw_row *v;
	size_t n, cap;
};

static void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		perror("tapc");
		exit(1);
	}
	return p;
}

/* ---- the FDE list ---- */

/* A little-endian value of format fmt (the low nibble of a DW_EH_PE
 * encoding) at *p. */
static bool
read_value(const uint8_t **p, const uint8_t *end, unsigned fmt,
	   uint64_t *out)
{
	static const int sizes[16] = {
		[DW_EH_PE_absptr] = 8, [DW_EH_PE_udata2] = 2,
		[DW_EH_PE_udata4] = 4, [DW_EH_PE_udata8] = 8,
		[DW_EH_PE_sdata2] = 2, [DW_EH_PE_sdata4] = 4,
		[DW_EH_PE_sdata8] = 8,
	};
	uint64_t v = 0;
	int n = sizes[fmt & 0x0f], shift = 0;

	if (fmt == DW_EH_PE_uleb128 || fmt == DW_EH_PE_sleb128) {
		uint8_t b = 0x80;
		while (*p < end && (b & 0x80) && shift < 64) {
			b = *(*p)++;
			v |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		}
		if (b & 0x80)
			return false;
		if (fmt == DW_EH_PE_sleb128 && shift < 64 && (b & 0x40))
			v |= ~(uint64_t)0 << shift;
		*out = v;
		return true;
	}
	if (!n || end - *p < n)
		return false;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)(*p)[i] << (8 * i);
	*p += n;
	if (n < 8 && (fmt & 0x08) && (v >> (8 * n - 1)))	/* sdataN */
		v |= ~(uint64_t)0 << (8 * n);
	*out = v;
	return true;
}

/* A pointer in encoding enc; field_addr is where it is, for pcrel. */
static bool
read_pointer(const uint8_t **p, const uint8_t *end, unsigned enc,
	     uint64_t field_addr, uint64_t *out)
{
	if (enc == DW_EH_PE_omit || !read_value(p, end, enc & 0x0f, out))
		return false;
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		return true;
	case DW_EH_PE_pcrel:
		*out += field_addr;
		return true;
	default:	/* textrel/datarel/funcrel: not used for FDEs on x86_64 */
		return false;
	}
}

/* The encoding of the FDEs of a CIE, or -1 when its augmentation is not
 * understood. */
static int
fde_encoding(const Dwarf_CIE *cie)
{
	const char *aug = cie->augmentation;
	const uint8_t *d = cie->augmentation_data;
	const uint8_t *end = d ? d + cie->augmentation_data_size : d;
	uint64_t skip;

	if (aug[0] != 'z')
		return aug[0] ? -1 : DW_EH_PE_absptr;
	for (aug++; *aug; aug++) {
		switch (*aug) {
		case 'R':
			return d < end ? *d : -1;
		case 'L':
			d++;
			break;
		case 'P':
			if (d >= end)
				return -1;
			{
				unsigned enc = *d++;
				if (!read_value(&d, end, enc & 0x0f, &skip))
					return -1;
			}
			break;
		case 'S':
		case 'B':
			break;
		default:
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

/* The address range of one FDE, false when it cannot be decoded. */
static bool
fde_range(const unsigned char *ident, Elf_Data *data, bool eh,
	  uint64_t sh_addr, const Dwarf_FDE *fde, struct fde_range *out)
{
	Dwarf_CFI_Entry cie;
	Dwarf_Off next;
	const uint8_t *p = fde->start;
	uint64_t len;
	int enc;

	if (dwarf_next_cfi(ident, data, eh, fde->CIE_pointer, &next, &cie) ||
	    !dwarf_cfi_cie_p(&cie) || (enc = fde_encoding(&cie.cie)) < 0)
		return false;
	if (!read_pointer(&p, fde->end, (unsigned)enc,
			  sh_addr + (uint64_t)(p - (const uint8_t *)data->d_buf),
			  &out->lo) ||
	    !read_value(&p, fde->end, (unsigned)enc & 0x0f, &len) || !len)
		return false;
	out->hi = out->lo + len;
	return true;
}

/* Every FDE's range in section scn (.eh_frame when eh), how many. */
static size_t
list_fdes(Elf *elf, Elf_Scn *scn, bool eh, struct fde_range **out)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	Elf_Data *data;
	GElf_Shdr sh;
	Dwarf_CFI_Entry e;
	Dwarf_Off off = 0, next;
	size_t n = 0, cap = 0;
	int r;

	*out = NULL;
	if (!ident || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return 0;
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf)
		return 0;
	for (;;) {
		next = off;
		r = dwarf_next_cfi(ident, data, eh, off, &next, &e);
		if (r > 0 || (r < 0 && next == off))
			break;
		if (r == 0 && !dwarf_cfi_cie_p(&e)) {
			struct fde_range fr;
			if (fde_range(ident, data, eh, eh ? sh.sh_addr : 0,
				      &e.fde, &fr)) {
				if (n == cap) {
					cap = cap ? 2 * cap : 256;
					*out = xrealloc(*out, cap * sizeof(**out));
				}
				(*out)[n++] = fr;
			}
		}
		off = next;
	}
	return n;
}

/* ---- the rules at one address ---- */

/* A value of the small symbolic DWARF evaluator: a constant, base + off
 * or *(base + off); base -1 is the CFA. */
struct sval {
	enum { SV_CONST, SV_LIN, SV_DEREF } kind;
	int base;
	int64_t off;
};

/* Evaluate ops symbolically; false for anything outside the shapes
 * cfi.h lists.  *is_value: the expression ends in DW_OP_stack_value. */
static bool
eval_ops(const Dwarf_Op *ops, size_t nops, struct sval *out, bool *is_value)
{
	struct sval st[8];
	int sp = 0;

	*is_value = false;
	if (nops == 1 && (ops[0].atom == DW_OP_regx ||
			  (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31))) {
		int reg = ops[0].atom == DW_OP_regx ? (int)ops[0].number
			  : ops[0].atom - DW_OP_reg0;
		*out = (struct sval){ SV_LIN, reg, 0 };	/* a copy in reg */
		*is_value = true;
		return true;
	}
	for (size_t i = 0; i < nops; i++) {
		uint8_t op = ops[i].atom;
		if (*is_value || sp == 8)
			return false;
		if (op == DW_OP_call_frame_cfa)
			st[sp++] = (struct sval){ SV_LIN, -1, 0 };
		else if (op >= DW_OP_breg0 && op <= DW_OP_breg31)
			st[sp++] = (struct sval){ SV_LIN, op - DW_OP_breg0,
						  (int64_t)ops[i].number };
		else if (op == DW_OP_bregx)
			st[sp++] = (struct sval){ SV_LIN, (int)ops[i].number,
						  (int64_t)ops[i].number2 };
		else if (op >= DW_OP_lit0 && op <= DW_OP_lit31)
			st[sp++] = (struct sval){ SV_CONST, 0, op - DW_OP_lit0 };
		else if ((op >= DW_OP_const1u && op <= DW_OP_consts))
			st[sp++] = (struct sval){ SV_CONST, 0,
						  (int64_t)ops[i].number };
		else if (op == DW_OP_plus_uconst && sp >= 1 &&
			 st[sp - 1].kind != SV_DEREF)
			st[sp - 1].off += (int64_t)ops[i].number;
		else if ((op == DW_OP_plus || op == DW_OP_minus) && sp >= 2) {
			struct sval b = st[--sp], *a = &st[sp - 1];
			if (b.kind != SV_CONST && op == DW_OP_plus &&
			    a->kind == SV_CONST) {
				struct sval t = *a;
				*a = b;
				b = t;
			}
			if (b.kind != SV_CONST || a->kind == SV_DEREF)
				return false;
			a->off += op == DW_OP_plus ? b.off : -b.off;
		} else if (op == DW_OP_deref && sp >= 1 &&
			   st[sp - 1].kind == SV_LIN)
			st[sp - 1].kind = SV_DEREF;
		else if (op == DW_OP_stack_value)
			*is_value = true;
		else
			return false;
	}
	if (!sp)
		return false;
	*out = st[sp - 1];
	return true;
}

/* The PLT's CFA as GNU ld writes it: rsp + off, and 8 more once the
 * entry's push has run ((rip & 15) >= limit). */
static bool
plt_cfa(const Dwarf_Op *o, size_t n, struct cfi_rule *r)
{
	if (n != 9 || o[0].atom != DW_OP_breg7 || o[1].atom != DW_OP_breg16 ||
	    o[1].number != 0 || o[2].atom != DW_OP_lit15 ||
	    o[3].atom != DW_OP_and || o[4].atom < DW_OP_lit0 ||
	    o[4].atom > DW_OP_lit31 || o[5].atom != DW_OP_ge ||
	    o[6].atom != DW_OP_lit3 || o[7].atom != DW_OP_shl ||
	    o[8].atom != DW_OP_plus)
		return false;
	r->cfa_kind = CFI_CFA_PLT;
	r->cfa_reg = o[4].atom - DW_OP_lit0;
	r->cfa_off = (int64_t)o[0].number;
	return true;
}

static void
cfa_rule(Dwarf_Frame *fr, struct cfi_rule *r)
{
	Dwarf_Op *ops;
	size_t nops;
	struct sval v;
	bool is_value;

	r->cfa_kind = CFI_CFA_UNKNOWN;
	if (dwarf_frame_cfa(fr, &ops, &nops) || !nops || plt_cfa(ops, nops, r) ||
	    !eval_ops(ops, nops, &v, &is_value) || v.base < 0 || v.base > 16)
		return;
	if (v.kind == SV_LIN)
		r->cfa_kind = CFI_CFA_REG;
	else if (v.kind == SV_DEREF)
		r->cfa_kind = CFI_CFA_DEREF;
	else
		return;
	r->cfa_reg = (uint8_t)v.base;
	r->cfa_off = v.off;
}

static void
reg_rule(Dwarf_Frame *fr, int regno, struct cfi_reg_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	struct sval v;
	bool is_value;

	*r = (struct cfi_reg_rule){ .kind = CFI_REG_UNKNOWN };
	if (dwarf_frame_register(fr, regno, mem, &ops, &nops))
		return;
	if (!nops) {
		r->kind = ops ? CFI_REG_UNDEF : CFI_REG_SAME;
		return;
	}
	if (!eval_ops(ops, nops, &v, &is_value) || v.kind != SV_LIN ||
	    v.base > 16)
		return;
	if (v.base < 0)
		r->kind = is_value ? CFI_REG_VAL_CFA : CFI_REG_AT_CFA;
	else
		r->kind = is_value ? CFI_REG_VAL_REG : CFI_REG_AT_REG;
	r->reg = v.base < 0 ? 0 : (uint8_t)v.base;
	r->off = v.off;
}

static void
frame_rule(Dwarf_Frame *fr, bool signal, struct cfi_rule *r)
{
	memset(r, 0, sizeof(*r));
	cfa_rule(fr, r);
	reg_rule(fr, CFI_X86_RA, &r->ra);
	reg_rule(fr, CFI_X86_RSP, &r->sp);
	reg_rule(fr, CFI_X86_RBP, &r->bp);
	/* rsp with no rule of its own is the CFA, by definition of the CFA */
	if (r->sp.kind == CFI_REG_UNDEF || r->sp.kind == CFI_REG_SAME)
		r->sp = (struct cfi_reg_rule){ .kind = CFI_REG_VAL_CFA };
	r->signal = signal;
}

/* The rows of the FDE covering [lo, hi), appended to rows. */
static void
fde_rows(Dwarf_CFI *cfi, const struct fde_range *f, struct raw_rows *rows)
{
	uint64_t addr = f->lo;

	while (addr < f->hi) {
		Dwarf_Frame *fr;
		Dwarf_Addr start, end;
		bool signal = false;

		if (dwarf_cfi_addrframe(cfi, addr, &fr))
			return;
		if (dwarf_frame_info(fr, &start, &end, &signal) < 0 ||
		    end <= addr) {
			free(fr);
			return;
		}
		if (rows->n == rows->cap) {
			rows->cap = rows->cap ? 2 * rows->cap : 1024;
			rows->v = xrealloc(rows->v, rows->cap * sizeof(*rows->v));
		}
		struct raw_row *r = &rows->v[rows->n++];
		r->start = addr;
		r->end = end < f->hi ? end : f->hi;
		frame_rule(fr, signal, &r->rule);
		free(fr);
		addr = end;
	}
}

/* ---- the sections ---- */

static Elf_Scn *
section_named(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && strcmp(name, want) == 0)
			return sh.sh_type == SHT_NOBITS ? NULL : scn;
	}
	return NULL;
}

/* Whether [f->lo, f->hi) overlaps one of the sorted ranges v. */
static bool
overlaps(const struct fde_range *v, size_t n, const struct fde_range *f)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* first range ending after f->lo */
		size_t mid = (lo + hi) / 2;
		if (v[mid].hi <= f->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].lo < f->hi;
}

static int
by_lo(const void *a, const void *b)
{
	const struct fde_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* .eh_frame's rows; its FDE ranges (sorted) in *fdes. */
static size_t
eh_frame_rows(Elf *elf, struct raw_rows *rows, struct fde_range **fdes,
	      size_t *nfdes)
{
	Elf_Scn *scn = section_named(elf, ".eh_frame");
	Dwarf_CFI *cfi;

	*fdes = NULL;
	*nfdes = 0;
	if (!scn || !(cfi = dwarf_getcfi_elf(elf)))
		return 0;
	*nfdes = list_fdes(elf, scn, true, fdes);
	for (size_t i = 0; i < *nfdes; i++)
		fde_rows(cfi, &(*fdes)[i], rows);
	dwarf_cfi_end(cfi);
	if (*nfdes)
		qsort(*fdes, *nfdes, sizeof(**fdes), by_lo);
	return *nfdes;
}

/* .debug_frame's rows where .eh_frame has none; how many FDEs used. */
static size_t
debug_frame_rows(Elf *elf, const struct fde_range *eh, size_t neh,
		 struct raw_rows *rows)
{
	Elf_Scn *scn = section_named(elf, ".debug_frame");
	struct fde_range *fdes;
	size_t n, used = 0;
	Dwarf *dw;
	Dwarf_CFI *cfi;

	if (!scn || !(dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)))
		return 0;
	cfi = dwarf_getcfi(dw);
	n = cfi ? list_fdes(elf, scn, false, &fdes) : 0;
	for (size_t i = 0; i < n; i++) {
		if (overlaps(eh, neh, &fdes[i]))
			continue;
		fde_rows(cfi, &fdes[i], rows);
		used++;
	}
	if (n)
		free(fdes);
	dwarf_end(dw);
	return used;
}

/* The separate debug file of elf (Debian: by build id under
 * /usr/lib/debug/.build-id, else by .gnu_debuglink), opened, or -1. */
static int
open_debug_file(Elf *elf, const char *path, char *found, size_t size)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	GElf_Word crc;
	const char *link;
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) : 0;
	int fd;

	if (n > 1) {
		const unsigned char *b = id;
		int len = snprintf(found, size, "/usr/lib/debug/.build-id/%02x/", b[0]);
		for (ssize_t i = 1; i < n && len + 3 < (int)size; i++)
			len += snprintf(found + len, size - (size_t)len, "%02x", b[i]);
		snprintf(found + len, size - (size_t)len, ".debug");
		if ((fd = open(found, O_RDONLY | O_CLOEXEC)) >= 0)
			return fd;
	}
	link = dwelf_elf_gnu_debuglink(elf, &crc);
	if (!link || strchr(link, '/'))
		return -1;
	static const char *const where[] = {
		"%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s",
	};
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(found, size, where[i], dirlen, path, link);
		if (strcmp(found, path) != 0 &&
		    (fd = open(found, O_RDONLY | O_CLOEXEC)) >= 0)
			return fd;
	}
	return -1;
}

/* .debug_frame from path's separate debug file, where .eh_frame has
 * nothing. */
static size_t
separate_debug_rows(struct arena *a, Elf *elf, const char *path,
		    const struct fde_range *eh, size_t neh,
		    struct raw_rows *rows, const char **debug_file)
{
	char found[4200];
	int fd = open_debug_file(elf, path, found, sizeof(found));
	Elf *delf;
	size_t used = 0;

	if (fd < 0)
		return 0;
	delf = elf_begin(fd, ELF_C_READ, NULL);
	if (delf && elf_kind(delf) == ELF_K_ELF &&
	    (used = debug_frame_rows(delf, eh, neh, rows)))
		*debug_file = arena_strdup(a, found);
	if (delf)
		elf_end(delf);
	close(fd);
	return used;
}

/* ---- the table ---- */

static int
by_start(const void *a, const void *b)
{
	const struct raw_row *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static bool
same_rule(const struct cfi_rule *x, const struct cfi_rule *y)
{
	return x->cfa_kind == y->cfa_kind && x->cfa_reg == y->cfa_reg &&
	       x->cfa_off == y->cfa_off && x->signal == y->signal &&
	       x->ra.kind == y->ra.kind && x->ra.reg == y->ra.reg &&
	       x->ra.off == y->ra.off && x->sp.kind == y->sp.kind &&
	       x->sp.reg == y->sp.reg && x->sp.off == y->sp.off &&
	       x->bp.kind == y->bp.kind && x->bp.reg == y->bp.reg &&
	       x->bp.off == y->bp.off;
}

static uint64_t
rule_hash(const struct cfi_rule *r)
{
	uint64_t h = 1469598103934665603ull;
	const int64_t v[] = {
		r->cfa_kind, r->cfa_reg, r->cfa_off, r->signal,
		r->ra.kind, r->ra.reg, r->ra.off, r->sp.kind, r->sp.reg,
		r->sp.off, r->bp.kind, r->bp.reg, r->bp.off,
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ (uint64_t)v[i]) * 1099511628211ull;
	return h;
}

/* A gap between two FDEs shorter than this is the padding that aligns
 * the next function: no pc is ever there, so the row before it goes on
 * over it instead of a -1 row (a tenth of libc's rows). */
#ifndef CFI_PADDING
#define CFI_PADDING 16
#endif

/* Rules deduplicated, rows sorted and merged, gaps as -1 rows. */
static void
finish_table(struct arena *a, struct raw_rows *raw, struct cfi_table *t)
{
	size_t nslots = 1024, *slot;
	uint64_t end = 0;

	while (nslots < 2 * raw->n)
		nslots *= 2;
	slot = calloc(nslots, sizeof(*slot));	/* rule index + 1 */
	t->rules = arena_alloc(a, (raw->n + 1) * sizeof(*t->rules));
	t->rows = arena_alloc(a, (2 * raw->n + 1) * sizeof(*t->rows));
	if (!slot) {
		perror("tapc");
		exit(1);
	}
	qsort(raw->v, raw->n, sizeof(*raw->v), by_start);
	for (size_t i = 0; i < raw->n; i++) {
		const struct raw_row *r = &raw->v[i];
		size_t h = (size_t)rule_hash(&r->rule) & (nslots - 1);
		int idx;

		if (r->start < end)	/* overlapping FDEs: the first wins */
			continue;
		while (slot[h] && !same_rule(&t->rules[slot[h] - 1], &r->rule))
			h = (h + 1) & (nslots - 1);
		if (!slot[h]) {
			t->rules[t->nrules] = r->rule;
			slot[h] = ++t->nrules;
		}
		idx = (int)slot[h] - 1;
		if (t->nrows && r->start - end >= CFI_PADDING)
			t->rows[t->nrows++] = (struct cfi_row){ end, -1 };
		if (!t->nrows || r->start - end >= CFI_PADDING ||
		    t->rows[t->nrows - 1].rule != idx)
			t->rows[t->nrows++] = (struct cfi_row){ r->start, idx };
		end = r->end;
	}
	t->rows[t->nrows++] = (struct cfi_row){ end, -1 };
	free(slot);
}

struct cfi_table *
cfi_table_build(struct arena *a, const char *path, char *err, size_t errlen)
{
	struct cfi_table *t = NULL;
	struct raw_rows raw = { 0 };
	struct fde_range *eh = NULL;
	size_t neh = 0;
	int fd, e_type;
	Elf *elf = elf_open_x86_64(path, &fd, &e_type, err, errlen);

	if (!elf)
		return NULL;
	t = arena_alloc(a, sizeof(*t));
	t->n_eh_fdes = eh_frame_rows(elf, &raw, &eh, &neh);
	t->n_debug_fdes = debug_frame_rows(elf, eh, neh, &raw);
	if (!t->n_debug_fdes)
		t->n_debug_fdes = separate_debug_rows(a, elf, path, eh, neh,
						      &raw, &t->debug_file);
	t->n_raw_rows = raw.n;
	if (!raw.n) {
		snprintf(err, errlen, "%s has no call frame information (.eh_frame or .debug_frame)", path);
		t = NULL;
		goto out;
	}
	finish_table(a, &raw, t);
out:
	free(raw.v);
	free(eh);
	elf_end(elf);
	close(fd);
	return t;
}

const struct cfi_rule *
cfi_rule_at(const struct cfi_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nrows;

	while (lo < hi) {	/* first row starting above addr */
		size_t mid = (lo + hi) / 2;
		if (t->rows[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t->rows[lo - 1].rule < 0)
		return NULL;
	return &t->rules[t->rows[lo - 1].rule];
}
