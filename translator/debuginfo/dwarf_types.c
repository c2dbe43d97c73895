/*
 * dwarf_types.c -- DWARF types as member chains need them: kind, size,
 * signedness, pointee/element, members (through anonymous structs and
 * unions, with bitfield positions) and a C spelling for -L and errors.
 *
 * Takes: type handles (DIE offsets) from dw_var / dw_member.  Produces:
 * dw_type_info, dw_member (dwarf.h).  Typedefs and cv-qualifiers are
 * peeled everywhere but in the spelling.
 * Must not: assume DWARF 4 bitfields only (DW_AT_data_bit_offset is
 * DWARF 5's; DW_AT_bit_offset the older big-endian-style one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "translator/debuginfo/dwarf_internal.h"

static bool
type_die(struct dw_file *f, uint64_t type, Dwarf_Die *out)
{
	Dwarf_Die die;

	if (!dw_die_at(f, type, &die))
		return false;
	return dwarf_peel_type(&die, out) == 0;
}

static uint64_t
ref_type(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) ||
	    !dwarf_formref_die(&attr, &t))
		return 0;
	return dwarf_dieoffset(&t);
}

static void
base_info(Dwarf_Die *die, struct dw_type_info *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &attr), &enc);
	switch (enc) {
	case DW_ATE_boolean:
		out->kind = DW_TYPE_BOOL;
		break;
	case DW_ATE_float: case DW_ATE_complex_float:
		out->kind = DW_TYPE_FLOAT;
		break;
	case DW_ATE_signed_char: case DW_ATE_unsigned_char:
		out->is_char = true;
		/* fallthrough */
	default:
		out->kind = DW_TYPE_INT;
		break;
	}
	out->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	const char *name = dwarf_diename(die);
	if (name && strcmp(name, "char") == 0)
		out->is_char = true;
}

static void
array_info(struct dw_file *f, Dwarf_Die *die, struct dw_type_info *out)
{
	Dwarf_Die sub;
	Dwarf_Attribute attr;
	Dwarf_Word n = 0;
	struct dw_type_info elem;

	out->kind = DW_TYPE_ARRAY;
	out->target = ref_type(die);
	if (dwarf_child(die, &sub) == 0 && dwarf_tag(&sub) == DW_TAG_subrange_type) {
		if (dwarf_formudata(dwarf_attr(&sub, DW_AT_count, &attr), &n) == 0)
			out->nelem = n;
		else if (dwarf_formudata(dwarf_attr(&sub, DW_AT_upper_bound, &attr), &n) == 0)
			out->nelem = n + 1;
	}
	if (out->nelem && dw_type_info(f, out->target, &elem))
		out->size = out->nelem * elem.size;
}

bool
dw_type_info(struct dw_file *f, uint64_t type, struct dw_type_info *out)
{
	Dwarf_Die die;
	Dwarf_Attribute attr;
	Dwarf_Word size = 0;

	memset(out, 0, sizeof(*out));
	if (!type) {
		out->kind = DW_TYPE_VOID;
		return true;
	}
	if (!type_die(f, type, &die))
		return false;
	if (dwarf_formudata(dwarf_attr_integrate(&die, DW_AT_byte_size, &attr), &size) == 0)
		out->size = size;
	switch (dwarf_tag(&die)) {
	case DW_TAG_base_type:
		base_info(&die, out);
		break;
	case DW_TAG_enumeration_type:
		out->kind = DW_TYPE_ENUM;
		out->is_signed = true;
		break;
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		out->kind = DW_TYPE_POINTER;
		out->target = ref_type(&die);
		if (!out->size)
			out->size = 8;
		break;
	case DW_TAG_array_type:
		array_info(f, &die, out);
		break;
	case DW_TAG_structure_type: case DW_TAG_class_type:
		out->kind = DW_TYPE_STRUCT;
		break;
	case DW_TAG_union_type:
		out->kind = DW_TYPE_UNION;
		break;
	case DW_TAG_subroutine_type:
		out->kind = DW_TYPE_FUNCTION;
		break;
	case DW_TAG_unspecified_type:
		out->kind = DW_TYPE_VOID;
		break;
	default:
		out->kind = DW_TYPE_OTHER;
		break;
	}
	return true;
}

/* ---- members ---- */

static bool
member_offset(Dwarf_Die *m, uint64_t *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word off = 0;

	if (!dwarf_attr(m, DW_AT_data_member_location, &attr)) {
		*out = 0;	/* union members, and DWARF 5 bitfields */
		return true;
	}
	if (dwarf_formudata(&attr, &off) != 0)
		return false;	/* a location expression: not in C */
	*out = off;
	return true;
}

/* Bit size and bit offset from the LSB of the storage unit at the byte
 * offset (x86_64 is little-endian). */
static void
member_bits(struct dw_file *f, Dwarf_Die *m, struct dw_member *out)
{
	Dwarf_Attribute attr;
	Dwarf_Word bits = 0, boff = 0;
	struct dw_type_info ti;

	if (dwarf_formudata(dwarf_attr(m, DW_AT_bit_size, &attr), &bits) != 0 || !bits)
		return;
	dw_type_info(f, out->type, &ti);
	if (!ti.size)
		ti.size = 4;
	out->bit_size = (int)bits;
	if (dwarf_formudata(dwarf_attr(m, DW_AT_data_bit_offset, &attr), &boff) == 0) {
		/* DWARF 5: bits from the start of the aggregate; align to a
		 * storage unit of the member type's size */
		uint64_t unit = (boff / 8) / ti.size * ti.size;
		out->offset = unit;
		out->bit_offset = (int)(boff - unit * 8);
	} else if (dwarf_formudata(dwarf_attr(m, DW_AT_bit_offset, &attr), &boff) == 0) {
		/* DWARF 2-4: from the MSB of the storage unit */
		out->bit_offset = (int)(ti.size * 8 - boff - bits);
	}
}

bool
dw_type_member(struct dw_file *f, uint64_t type, const char *name,
	       struct dw_member *out)
{
	Dwarf_Die die, m;

	if (!type_die(f, type, &die))
		return false;
	int tag = dwarf_tag(&die);
	if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type &&
	    tag != DW_TAG_class_type)
		return false;
	if (dwarf_child(&die, &m) != 0)
		return false;
	do {
		uint64_t off;
		const char *mname;
		if (dwarf_tag(&m) != DW_TAG_member || !member_offset(&m, &off))
			continue;
		mname = dwarf_diename(&m);
		if (mname && strcmp(mname, name) == 0) {
			memset(out, 0, sizeof(*out));
			out->offset = off;
			out->type = ref_type(&m);
			member_bits(f, &m, out);
			if (out->bit_size && !dwarf_hasattr(&m, DW_AT_data_bit_offset))
				out->offset = off;
			return true;
		}
		if (!mname && dw_type_member(f, ref_type(&m), name, out)) {
			out->offset += off;
			return true;
		}
	} while (dwarf_siblingof(&m, &m) == 0);
	return false;
}

void
dw_type_member_names(struct dw_file *f, uint64_t type, char *buf, size_t len)
{
	Dwarf_Die die, m;
	size_t used = 0;

	buf[0] = '\0';
	if (!type_die(f, type, &die) || dwarf_child(&die, &m) != 0)
		return;
	do {
		const char *n = dwarf_diename(&m);
		if (dwarf_tag(&m) == DW_TAG_member && n && used + strlen(n) + 2 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? " " : "", n);
	} while (dwarf_siblingof(&m, &m) == 0);
}

/* ---- spelling ---- */

const char *
dw_type_name(struct dw_file *f, uint64_t type, char *buf, size_t len)
{
	Dwarf_Die die;
	char inner[256];
	const char *name;

	if (!type) {
		snprintf(buf, len, "void");
		return buf;
	}
	if (!dw_die_at(f, type, &die)) {
		snprintf(buf, len, "?");
		return buf;
	}
	name = dwarf_diename(&die);
	switch (dwarf_tag(&die)) {
	case DW_TAG_pointer_type:
		dw_type_name(f, ref_type(&die), inner, sizeof(inner));
		/* as BTF spells it: "char *", "char **" */
		snprintf(buf, len, "%s%s*", inner,
			 inner[strlen(inner) - 1] == '*' ? "" : " ");
		break;
	case DW_TAG_const_type:
		dw_type_name(f, ref_type(&die), inner, sizeof(inner));
		snprintf(buf, len, "const %s", inner);
		break;
	case DW_TAG_volatile_type:
		dw_type_name(f, ref_type(&die), inner, sizeof(inner));
		snprintf(buf, len, "volatile %s", inner);
		break;
	case DW_TAG_array_type: {
		struct dw_type_info ti;
		dw_type_info(f, type, &ti);
		dw_type_name(f, ti.target, inner, sizeof(inner));
		snprintf(buf, len, "%s[%llu]", inner, (unsigned long long)ti.nelem);
		break;
	}
	case DW_TAG_structure_type:
		snprintf(buf, len, "struct %s", name ? name : "{...}");
		break;
	case DW_TAG_union_type:
		snprintf(buf, len, "union %s", name ? name : "{...}");
		break;
	case DW_TAG_enumeration_type:
		snprintf(buf, len, "enum %s", name ? name : "{...}");
		break;
	case DW_TAG_subroutine_type:
		snprintf(buf, len, "void (*)()");
		break;
	default:
		snprintf(buf, len, "%s", name ? name : "?");
		break;
	}
	return buf;
}

/* ---- the named-type index (for @cast) ---- */

static const char *
type_prefix(int tag)
{
	switch (tag) {
	case DW_TAG_structure_type: return "struct ";
	case DW_TAG_union_type: return "union ";
	case DW_TAG_enumeration_type: return "enum ";
	case DW_TAG_typedef: case DW_TAG_base_type: return "";
	default: return NULL;
	}
}

static void
index_type(struct dw_file *f, Dwarf_Die *die, size_t *cap)
{
	const char *prefix = type_prefix(dwarf_tag(die));
	const char *name = dwarf_diename(die);
	char buf[512];

	if (!prefix || !name)
		return;
	if (f->ntypes == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		f->types = realloc(f->types, *cap * sizeof(*f->types));
		if (!f->types)
			abort();
	}
	snprintf(buf, sizeof(buf), "%s%s", prefix, name);
	f->types[f->ntypes++] = (struct dw_type_entry){
		dw_xstrdup(buf), dwarf_dieoffset(die),
		!dwarf_hasattr(die, DW_AT_declaration) };
}

static int
type_entry_cmp(const void *a, const void *b)
{
	const struct dw_type_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (int)y->complete - (int)x->complete;
}

static void
read_types(struct dw_file *f)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;

	f->types_read = true;
	while (dwarf_nextcu(f->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (dwarf_offdie(f->dw, off + hsize, &cu) &&
		    dwarf_child(&cu, &child) == 0) {
			do
				index_type(f, &child, &cap);
			while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	qsort(f->types, f->ntypes, sizeof(*f->types), type_entry_cmp);
}

uint64_t
dw_find_type(struct dw_file *f, const char *name)
{
	size_t lo = 0, hi;

	if (!f->types_read)
		read_types(f);
	hi = f->ntypes;
	while (lo < hi) {	/* the first entry >= name: complete first */
		size_t mid = (lo + hi) / 2;
		if (strcmp(f->types[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->ntypes && strcmp(f->types[lo].name, name) == 0)
		return f->types[lo].die_off;
	return 0;
}
