/* btf_internal.h -- what the btf_*.c files share and nothing else sees.
 *
 * libbpf owns the BTF data and its decoding; these files add the loaders
 * (btf_load.c, btf_vmlinuz.c), what the translator remembers about each
 * handle (btf_index.c: its source and a name index), the queries
 * (btf_types.c) and C text (btf_render.c).  A handle reaches the queries
 * only after btf_from_owned() has checked that every type id and string
 * offset in it resolves, which libbpf 1.1 does not check itself; readers
 * still treat a NULL from btf_type_at() as "no".
 */
#ifndef TAPC_DEBUGINFO_BTF_INTERNAL_H
#define TAPC_DEBUGINFO_BTF_INTERNAL_H

#include "translator/debuginfo/btf.h"

/* The longest typedef/pointer/qualifier chain followed before deciding
 * the data loops (a corrupt file can make PTR point at itself). */
#define BTF_MAX_CHAIN 64

/* The type record for `id`, NULL for void and ids out of range. */
static inline const struct btf_type *
btf_type_at(const struct btf *btf, uint32_t id)
{
	if (!btf || id == 0 || id >= btf__type_cnt(btf))
		return NULL;
	return btf__type_by_id(btf, id);
}

/* A string of the handle (or its base); "" for a bad offset. */
static inline const char *
btf_str(const struct btf *btf, uint32_t off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

uint32_t
btf_name_hash(const char *name);

/* Hand a raw BTF blob to libbpf (split on `base` unless NULL), check its
 * references, and remember `source` for btf_source().  Takes ownership
 * of `data` (malloc'ed) in every case. */
struct btf *
btf_from_owned(char *data, size_t size, struct btf *base,
	       const char *source, char *err, size_t errlen);

/* Extract the .BTF section of an in-memory ELF image into a new malloc'ed
 * buffer. */
bool
btf_elf_section(const void *image, size_t size, char **out, size_t *out_size,
		char *err, size_t errlen);

/* btf_index.c: what is kept per handle.  btf_index_add() copies
 * `source`; false when out of memory.  btf_index_drop() forgets the
 * handle (btf_free() calls it). */
bool
btf_index_add(const struct btf *btf, const char *source);

void
btf_index_drop(const struct btf *btf);


#endif /* TAPC_DEBUGINFO_BTF_INTERNAL_H */
