/* btf_types.c -- questions about types in a loaded `struct btf`.
 *
 * Name lookup, kinds, following typedef/qualifier chains, sizes, integer
 * encodings, struct members (including those reached through anonymous
 * members), enumerators and function parameters.  Takes type ids from the
 * caller, which may be anything: an id out of range answers "no".  Chains
 * are followed at most BTF_MAX_CHAIN steps, so a looping file cannot hang a
 * query.  Never modifies the handle.
 */
#include "translator/debuginfo/btf_internal.h"

#include <string.h>

uint32_t
btf_type_count(const struct btf *btf)
{
	return btf ? btf->count : 0;
}

uint32_t
btf_first_id(const struct btf *btf)
{
	return btf ? btf->first_id : 1;
}

const struct btf *
btf_base(const struct btf *btf)
{
	return btf ? btf->base : NULL;
}

enum btf_kind
btf_kind(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, id);

	return t ? (enum btf_kind)btf_raw_kind(t) : BTF_KIND_VOID;
}

const char *
btf_kind_name(enum btf_kind kind)
{
	static const char *const names[] = {
		"void", "int", "ptr", "array", "struct", "union", "enum",
		"fwd", "typedef", "volatile", "const", "restrict", "func",
		"func_proto", "var", "datasec", "float", "decl_tag",
		"type_tag", "enum64",
	};

	return (unsigned)kind <= BTF_KIND_MAX ? names[kind] : "?";
}

const char *
btf_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, id);

	return t ? btf_str(btf, t->name_off) : "";
}

static bool
btf_kind_matches(const struct btf *btf, uint32_t id, enum btf_kind kind)
{
	return kind == BTF_KIND_ANY || btf_kind(btf, id) == kind;
}

/* Lowest id wins, so the answer does not depend on hashing; with
 * BTF_KIND_ANY a definition wins over a forward declaration. */
static uint32_t
btf_better(const struct btf *btf, uint32_t best, uint32_t id)
{
	bool best_fwd, id_fwd;

	if (best == BTF_NONE)
		return id;
	best_fwd = btf_kind(btf, best) == BTF_KIND_FWD;
	id_fwd = btf_kind(btf, id) == BTF_KIND_FWD;
	if (best_fwd != id_fwd)
		return best_fwd ? id : best;
	return id < best ? id : best;
}

uint32_t
btf_find(const struct btf *btf, const char *name, enum btf_kind kind)
{
	uint32_t slot, id, best = BTF_NONE;

	if (!btf || !name || !*name)
		return BTF_NONE;
	/* Split BTF: the base's types have the lower ids, so look there
	 * first. */
	if (btf->base && (best = btf_find(btf->base, name, kind)) != BTF_NONE &&
	    btf_kind(btf, best) != BTF_KIND_FWD)
		return best;
	slot = btf_name_hash(name) & btf->hash_mask;
	for (; (id = btf->hash[slot]) != 0; slot = (slot + 1) & btf->hash_mask) {
		if (strcmp(btf_name(btf, id), name) == 0 &&
		    btf_kind_matches(btf, id, kind))
			best = btf_better(btf, best, id);
	}
	return best;
}

uint32_t
btf_find_next(const struct btf *btf, uint32_t after, enum btf_kind kind)
{
	const char *name = btf_name(btf, after);
	uint32_t id;

	if (!*name)
		return BTF_NONE;
	for (id = after + 1; id < btf->count; id++)
		if (btf_kind_matches(btf, id, kind) &&
		    strcmp(btf_name(btf, id), name) == 0)
			return id;
	return BTF_NONE;
}

uint32_t
btf_ref(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, id);

	if (!t)
		return BTF_NONE;
	switch (btf_raw_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_FUNC: case BTF_KIND_FUNC_PROTO: case BTF_KIND_VAR:
		return t->size_or_type;
	case BTF_KIND_ARRAY:
		return ((const struct btf_array_raw *)btf_raw_extra(t))->type;
	default:
		return BTF_NONE;
	}
}

static bool
btf_is_qualifier(enum btf_kind k)
{
	return k == BTF_KIND_CONST || k == BTF_KIND_VOLATILE ||
	       k == BTF_KIND_RESTRICT || k == BTF_KIND_TYPE_TAG;
}

uint32_t
btf_skip_qualifiers(const struct btf *btf, uint32_t id)
{
	int n;

	for (n = 0; n < BTF_MAX_CHAIN && btf_is_qualifier(btf_kind(btf, id)); n++)
		id = btf_ref(btf, id);
	return btf_is_qualifier(btf_kind(btf, id)) ? BTF_NONE : id;
}

uint32_t
btf_resolve(const struct btf *btf, uint32_t id)
{
	int n;

	for (n = 0; n < BTF_MAX_CHAIN; n++) {
		enum btf_kind k = btf_kind(btf, id);

		if (k != BTF_KIND_TYPEDEF && !btf_is_qualifier(k))
			return id;
		id = btf_ref(btf, id);
	}
	return BTF_NONE;
}

int64_t
btf_sizeof(const struct btf *btf, uint32_t id)
{
	int n;
	int64_t mult = 1;

	for (n = 0; n < BTF_MAX_CHAIN; n++) {
		const struct btf_type_raw *t;
		const struct btf_array_raw *a;

		id = btf_resolve(btf, id);
		if (!(t = btf_raw(btf, id)))
			return -1;
		switch (btf_raw_kind(t)) {
		case BTF_KIND_INT: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_FLOAT:
		case BTF_KIND_DATASEC:
			return mult * t->size_or_type;
		case BTF_KIND_PTR:
			/* BTF does not record the pointer size; the kernels
			 * tapc targets are all 64-bit. */
			return mult * 8;
		case BTF_KIND_ARRAY:
			a = btf_raw_extra(t);
			mult *= a->nelems;
			if (mult > ((int64_t)1 << 40))
				return -1;
			id = a->type;
			break;
		default:
			return -1;
		}
	}
	return -1;
}

bool
btf_int_info(const struct btf *btf, uint32_t id, struct btf_int_info *out)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_resolve(btf, id));
	uint32_t enc;

	if (!t)
		return false;
	memset(out, 0, sizeof(*out));
	out->size = t->size_or_type;
	switch (btf_raw_kind(t)) {
	case BTF_KIND_INT:
		enc = *(const uint32_t *)btf_raw_extra(t);
		out->bits = enc & 0xff;
		out->bit_offset = (enc >> 16) & 0xff;
		out->is_signed = (enc >> 24) & 1;
		out->is_char = (enc >> 24) & 2;
		out->is_bool = (enc >> 24) & 4;
		return true;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		/* kflag set means the enumerators are signed (since 6.0). */
		out->bits = out->size * 8;
		out->is_signed = btf_raw_kflag(t);
		return true;
	default:
		return false;
	}
}

bool
btf_is_pointer(const struct btf *btf, uint32_t id)
{
	return btf_kind(btf, btf_resolve(btf, id)) == BTF_KIND_PTR;
}

/* `char` in any flavour: an INT of one byte named "char", "signed char"
 * or "unsigned char", or with the CHAR encoding bit.  Typedefs are not
 * seen through: a `u8 *` is a byte buffer, not a string. */
static bool
btf_is_char(const struct btf *btf, uint32_t id)
{
	struct btf_int_info ii;
	const char *name;

	id = btf_skip_qualifiers(btf, id);
	if (btf_kind(btf, id) != BTF_KIND_INT || !btf_int_info(btf, id, &ii) ||
	    ii.size != 1 || ii.is_bool)
		return false;
	name = btf_name(btf, id);
	return ii.is_char || strstr(name, "char") != NULL;
}

bool
btf_is_string(const struct btf *btf, uint32_t id)
{
	enum btf_kind k;

	id = btf_resolve(btf, id);
	k = btf_kind(btf, id);
	if (k != BTF_KIND_PTR && k != BTF_KIND_ARRAY)
		return false;
	return btf_is_char(btf, btf_ref(btf, id));
}

bool
btf_array_info(const struct btf *btf, uint32_t id, struct btf_array_info *out)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_resolve(btf, id));
	const struct btf_array_raw *a;

	if (!t || btf_raw_kind(t) != BTF_KIND_ARRAY)
		return false;
	a = btf_raw_extra(t);
	out->elem_type = a->type;
	out->index_type = a->index_type;
	out->nelems = a->nelems;
	return true;
}

static const struct btf_type_raw *
btf_composite(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_resolve(btf, id));

	if (!t || (btf_raw_kind(t) != BTF_KIND_STRUCT &&
		   btf_raw_kind(t) != BTF_KIND_UNION))
		return NULL;
	return t;
}

int
btf_member_count(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_composite(btf, id);

	return t ? (int)btf_raw_vlen(t) : -1;
}

bool
btf_member_at(const struct btf *btf, uint32_t id, int idx,
	      struct btf_member *out)
{
	const struct btf_type_raw *t = btf_composite(btf, id);
	const struct btf_member_raw *m;

	if (!t || idx < 0 || (unsigned)idx >= btf_raw_vlen(t))
		return false;
	m = (const struct btf_member_raw *)btf_raw_extra(t) + idx;
	out->name = btf_str(btf, m->name_off);
	out->type = m->type;
	if (btf_raw_kflag(t)) {
		out->bit_offset = m->offset & 0xffffff;
		out->bitfield_size = m->offset >> 24;
	} else {
		out->bit_offset = m->offset;
		out->bitfield_size = 0;
	}
	return true;
}

static bool
btf_member_find_depth(const struct btf *btf, uint32_t id, const char *name,
		      struct btf_member *out, int depth)
{
	int i, n = btf_member_count(btf, id);
	struct btf_member m;

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
		struct btf_member *out)
{
	if (!name || !*name)
		return false;
	return btf_member_find_depth(btf, id, name, out, 0);
}

int
btf_enum_count(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_resolve(btf, id));

	if (!t || (btf_raw_kind(t) != BTF_KIND_ENUM &&
		   btf_raw_kind(t) != BTF_KIND_ENUM64))
		return -1;
	return btf_raw_vlen(t);
}

bool
btf_enum_at(const struct btf *btf, uint32_t id, int idx, const char **name,
	    int64_t *value)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_resolve(btf, id));
	int n = btf_enum_count(btf, id);

	if (n < 0 || idx < 0 || idx >= n)
		return false;
	if (btf_raw_kind(t) == BTF_KIND_ENUM) {
		const struct btf_enum_raw *e =
			(const struct btf_enum_raw *)btf_raw_extra(t) + idx;

		*name = btf_str(btf, e->name_off);
		*value = btf_raw_kflag(t) ? (int64_t)e->val
					  : (int64_t)(uint32_t)e->val;
	} else {
		const struct btf_enum64_raw *e =
			(const struct btf_enum64_raw *)btf_raw_extra(t) + idx;

		*name = btf_str(btf, e->name_off);
		*value = (int64_t)((uint64_t)e->val_hi32 << 32 | e->val_lo32);
	}
	return true;
}

uint32_t
btf_func_proto(const struct btf *btf, uint32_t id)
{
	int n;

	for (n = 0; n < BTF_MAX_CHAIN; n++) {
		switch (btf_kind(btf, id)) {
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

static const struct btf_param_raw *
btf_params(const struct btf *btf, uint32_t id, unsigned *n)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_func_proto(btf, id));
	const struct btf_param_raw *p;

	if (!t)
		return NULL;
	p = btf_raw_extra(t);
	*n = btf_raw_vlen(t);
	/* A last parameter of type 0 with no name is the `...`. */
	if (*n > 0 && p[*n - 1].type == 0 && p[*n - 1].name_off == 0)
		(*n)--;
	return p;
}

int
btf_param_count(const struct btf *btf, uint32_t id)
{
	unsigned n;

	return btf_params(btf, id, &n) ? (int)n : -1;
}

bool
btf_param_at(const struct btf *btf, uint32_t id, int idx,
	     struct btf_param *out)
{
	unsigned n;
	const struct btf_param_raw *p = btf_params(btf, id, &n);

	if (!p || idx < 0 || (unsigned)idx >= n)
		return false;
	out->name = btf_str(btf, p[idx].name_off);
	out->type = p[idx].type;
	return true;
}

bool
btf_is_variadic(const struct btf *btf, uint32_t id)
{
	const struct btf_type_raw *t = btf_raw(btf, btf_func_proto(btf, id));
	unsigned n;

	if (!t || !btf_params(btf, id, &n))
		return false;
	return n < btf_raw_vlen(t);
}

uint32_t
btf_return_type(const struct btf *btf, uint32_t id)
{
	return btf_ref(btf, btf_func_proto(btf, id));
}
