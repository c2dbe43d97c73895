/* btf_types.c -- questions about types in a libbpf `struct btf`.
 *
 * Kinds, names, following typedef/qualifier chains, sizes, integer
 * encodings, struct members (including those reached through anonymous
 * members) and function parameters, answered from libbpf's decoded
 * records (btf__type_by_id() and the accessors of <bpf/btf.h>); name
 * lookup is btf_index.c's.  Takes type ids from the caller, which may be
 * anything: an id out of range answers "no".  Chains are followed at
 * most BTF_MAX_CHAIN steps, so a looping file cannot hang a query.  Never
 * modifies the handle.
 */
#include "translator/debuginfo/btf_internal.h"

#include <string.h>

uint32_t
btf_first_id(const struct btf *btf)
{
	const struct btf *base = btf ? btf__base_btf(btf) : NULL;

	return base ? btf__type_cnt(base) : 1;
}

int
btf_kind_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_at(btf, id);

	return t ? btf_kind(t) : BTF_KIND_UNKN;
}

const char *
btf_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_at(btf, id);

	return t ? btf_str(btf, t->name_off) : "";
}

uint32_t
btf_ref(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_at(btf, id);

	if (!t)
		return BTF_NONE;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC: case BTF_KIND_FUNC_PROTO: case BTF_KIND_VAR:
		return t->type;
	case BTF_KIND_ARRAY:
		return btf_array(t)->type;
	default:
		return BTF_NONE;
	}
}

/* libbpf also sees through VAR and DECL_TAG, which no caller passes;
 * a loop, or a chain that ends in void, is an error there. */
uint32_t
btf_resolve(const struct btf *btf, uint32_t id)
{
	int r = btf_type_at(btf, id) ? btf__resolve_type(btf, id) : -1;

	return r > 0 ? (uint32_t)r : BTF_NONE;
}

/* See through const, volatile, restrict and type tags, keeping typedefs
 * (so `const u64` gives `u64`). */
static uint32_t
btf_skip_qualifiers(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;
	int n;

	for (n = 0; n < BTF_MAX_CHAIN; n++) {
		t = btf_type_at(btf, id);
		if (!t || !(btf_is_mod(t) || btf_is_type_tag(t)))
			return id;
		id = t->type;
	}
	return BTF_NONE;
}

int64_t
btf_sizeof(const struct btf *btf, uint32_t id)
{
	int64_t size = btf_type_at(btf, id) ? btf__resolve_size(btf, id) : -1;

	return size < 0 ? -1 : size;
}

bool
btf_int_info(const struct btf *btf, uint32_t id, struct btf_int_info *out)
{
	const struct btf_type *t = btf_type_at(btf, btf_resolve(btf, id));
	uint8_t enc;

	if (!t)
		return false;
	memset(out, 0, sizeof(*out));
	out->size = t->size;
	if (btf_is_int(t)) {
		enc = btf_int_encoding(t);
		out->bits = btf_int_bits(t);
		out->bit_offset = btf_int_offset(t);
		out->is_signed = enc & BTF_INT_SIGNED;
		out->is_char = enc & BTF_INT_CHAR;
		out->is_bool = enc & BTF_INT_BOOL;
		return true;
	}
	if (btf_is_any_enum(t)) {
		/* kflag set means the enumerators are signed (since 6.0). */
		out->bits = out->size * 8;
		out->is_signed = btf_kflag(t);
		return true;
	}
	return false;
}

bool
btf_is_pointer(const struct btf *btf, uint32_t id)
{
	return btf_kind_of(btf, btf_resolve(btf, id)) == BTF_KIND_PTR;
}

/* `char` in any flavour: an INT of one byte named "char", "signed char"
 * or "unsigned char", or with the CHAR encoding bit.  Typedefs are not
 * seen through: a `u8 *` is a byte buffer, not a string. */
static bool
btf_is_char(const struct btf *btf, uint32_t id)
{
	struct btf_int_info ii;

	id = btf_skip_qualifiers(btf, id);
	if (btf_kind_of(btf, id) != BTF_KIND_INT || !btf_int_info(btf, id, &ii) ||
	    ii.size != 1 || ii.is_bool)
		return false;
	return ii.is_char || strstr(btf_name(btf, id), "char") != NULL;
}

bool
btf_is_string(const struct btf *btf, uint32_t id)
{
	int k;

	id = btf_resolve(btf, id);
	k = btf_kind_of(btf, id);
	if (k != BTF_KIND_PTR && k != BTF_KIND_ARRAY)
		return false;
	return btf_is_char(btf, btf_ref(btf, id));
}

bool
btf_array_info(const struct btf *btf, uint32_t id, struct btf_array_info *out)
{
	const struct btf_type *t = btf_type_at(btf, btf_resolve(btf, id));

	if (!t || !btf_is_array(t))
		return false;
	out->elem_type = btf_array(t)->type;
	out->index_type = btf_array(t)->index_type;
	out->nelems = btf_array(t)->nelems;
	return true;
}

static const struct btf_type *
btf_composite(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_at(btf, btf_resolve(btf, id));

	return t && btf_is_composite(t) ? t : NULL;
}

int
btf_member_count(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_composite(btf, id);

	return t ? (int)btf_vlen(t) : -1;
}

bool
btf_member_at(const struct btf *btf, uint32_t id, int idx,
	      struct btf_member_info *out)
{
	const struct btf_type *t = btf_composite(btf, id);

	if (!t || idx < 0 || idx >= btf_vlen(t))
		return false;
	out->name = btf_str(btf, btf_members(t)[idx].name_off);
	out->type = btf_members(t)[idx].type;
	out->bit_offset = btf_member_bit_offset(t, (uint32_t)idx);
	out->bitfield_size = btf_member_bitfield_size(t, (uint32_t)idx);
	return true;
}

static bool
btf_member_find_depth(const struct btf *btf, uint32_t id, const char *name,
		      struct btf_member_info *out, int depth)
{
	int i, n = btf_member_count(btf, id);
	struct btf_member_info m;

	if (depth > BTF_MAX_CHAIN)
		return false;
	for (i = 0; i < n; i++) {
		if (!btf_member_at(btf, id, i, &m))
			return false;
		if (strcmp(m.name, name) == 0) {
			*out = m;
			return true;
		}
		/* C lets `s.x` reach a member of an anonymous struct or
		 * union member of s; the kernel uses that everywhere. */
		if (!m.name[0] &&
		    btf_member_find_depth(btf, m.type, name, out, depth + 1)) {
			out->bit_offset += m.bit_offset;
			return true;
		}
	}
	return false;
}

bool
btf_member_find(const struct btf *btf, uint32_t id, const char *name,
		struct btf_member_info *out)
{
	if (!name || !*name)
		return false;
	return btf_member_find_depth(btf, id, name, out, 0);
}

uint32_t
btf_func_proto(const struct btf *btf, uint32_t id)
{
	int n;

	for (n = 0; n < BTF_MAX_CHAIN; n++) {
		switch (btf_kind_of(btf, id)) {
		case BTF_KIND_FUNC_PROTO:
			return id;
		case BTF_KIND_FUNC: case BTF_KIND_PTR: case BTF_KIND_TYPEDEF:
		case BTF_KIND_CONST: case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
			id = btf_ref(btf, id);
			break;
		default:
			return BTF_NONE;
		}
	}
	return BTF_NONE;
}

/* The proto's parameter records and how many there are before a `...`
 * (a last parameter of type 0 with no name). */
static const struct btf_param *
btf_proto_params(const struct btf *btf, uint32_t id, int *n)
{
	const struct btf_type *t = btf_type_at(btf, btf_func_proto(btf, id));
	const struct btf_param *p;

	if (!t)
		return NULL;
	p = btf_params(t);
	*n = btf_vlen(t);
	if (*n > 0 && p[*n - 1].type == 0 && p[*n - 1].name_off == 0)
		(*n)--;
	return p;
}

int
btf_param_count(const struct btf *btf, uint32_t id)
{
	int n;

	return btf_proto_params(btf, id, &n) ? n : -1;
}

bool
btf_param_at(const struct btf *btf, uint32_t id, int idx,
	     struct btf_param_info *out)
{
	int n;
	const struct btf_param *p = btf_proto_params(btf, id, &n);

	if (!p || idx < 0 || idx >= n)
		return false;
	out->name = btf_str(btf, p[idx].name_off);
	out->type = p[idx].type;
	return true;
}

bool
btf_is_variadic(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type_at(btf, btf_func_proto(btf, id));
	int n;

	if (!t || !btf_proto_params(btf, id, &n))
		return false;
	return n < btf_vlen(t);
}

uint32_t
btf_return_type(const struct btf *btf, uint32_t id)
{
	return btf_ref(btf, btf_func_proto(btf, id));
}
