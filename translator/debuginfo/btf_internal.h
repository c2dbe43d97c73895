/* btf_internal.h -- the inside of `struct btf`, shared by the btf_*.c files
 * and by nothing else.  It lays out the on-disk records (the format is the
 * kernel's, described in Documentation/bpf/btf.rst) and the index built at
 * load time.  Only btf_load.c writes these fields; after loading they are
 * read-only, and every record reachable from `types[]` has been
 * bounds-checked, so readers may trust btf_raw() for any id < count.
 *
 * Split BTF (a module's) continues its base's numbering: its own types
 * have ids first_id .. count-1 and its string offsets start at
 * str_start; lower ids and offsets belong to the base, and btf_raw() and
 * btf_str() send those there.
 */
#ifndef TAPC_DEBUGINFO_BTF_INTERNAL_H
#define TAPC_DEBUGINFO_BTF_INTERNAL_H

#include "translator/debuginfo/btf.h"

#define BTF_MAGIC 0xeB9F

/* The longest typedef/pointer/qualifier chain followed before deciding
 * the data loops (a corrupt file can make PTR point at itself). */
#define BTF_MAX_CHAIN 64

struct btf_header_raw {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;	/* from the end of the header */
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

struct btf_type_raw {
	uint32_t name_off;
	uint32_t info;		/* vlen:16, unused:8, kind:5, unused:2, kflag:1 */
	uint32_t size_or_type;
};

struct btf_array_raw {
	uint32_t type;
	uint32_t index_type;
	uint32_t nelems;
};

struct btf_member_raw {
	uint32_t name_off;
	uint32_t type;
	uint32_t offset;	/* kflag: bitfield_size:8 << 24 | bit_offset:24 */
};

struct btf_enum_raw {
	uint32_t name_off;
	int32_t val;
};

struct btf_enum64_raw {
	uint32_t name_off;
	uint32_t val_lo32;
	uint32_t val_hi32;
};

struct btf_param_raw {
	uint32_t name_off;
	uint32_t type;
};

struct btf {
	char *data;		/* the whole blob, owned, 4-byte aligned */
	size_t size;
	const char *strs;	/* string section, NUL-terminated at its end */
	uint32_t str_len;
	uint32_t str_start;	/* 0, or the base's string length */
	const struct btf_type_raw **types;	/* own types, [id - first_id] */
	uint32_t first_id;	/* 1, or the base's count */
	uint32_t count;		/* one past the last id, base included */
	const struct btf *base;	/* NULL unless split */
	uint32_t *hash;		/* name hash table of type ids, 0 = empty */
	uint32_t hash_mask;
	char *source;		/* for messages */
};

static inline unsigned
btf_raw_kind(const struct btf_type_raw *t)
{
	return (t->info >> 24) & 0x1f;
}

static inline unsigned
btf_raw_vlen(const struct btf_type_raw *t)
{
	return t->info & 0xffff;
}

static inline bool
btf_raw_kflag(const struct btf_type_raw *t)
{
	return t->info >> 31;
}

/* The record for `id`, NULL for void or out of range. */
static inline const struct btf_type_raw *
btf_raw(const struct btf *btf, uint32_t id)
{
	if (!btf || id == 0 || id >= btf->count)
		return NULL;
	if (id < btf->first_id)
		return btf_raw(btf->base, id);
	return btf->types[id - btf->first_id];
}

/* The variable-length data that follows a record. */
static inline const void *
btf_raw_extra(const struct btf_type_raw *t)
{
	return t + 1;
}

static inline const char *
btf_str(const struct btf *btf, uint32_t off)
{
	if (off < btf->str_start)
		return btf_str(btf->base, off);
	off -= btf->str_start;
	return off < btf->str_len ? btf->strs + off : "";
}

uint32_t
btf_name_hash(const char *name);

/* Takes ownership of `data` (malloc'ed) in every case.  `base` is NULL,
 * or the BTF that split BTF data extends. */
struct btf *
btf_from_owned(char *data, size_t size, const struct btf *base,
	       const char *source, char *err, size_t errlen);

/* Decompress the xz stream at `in` into a new malloc'ed buffer; false if
 * it is not one. */
bool
btf_xz_decode(const unsigned char *in, size_t in_size, char **out,
	      size_t *out_size);

/* Extract the .BTF section of an in-memory ELF image into a new malloc'ed
 * buffer. */
bool
btf_elf_section(const void *image, size_t size, char **out, size_t *out_size,
		char *err, size_t errlen);

void
btf_set_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* TAPC_DEBUGINFO_BTF_INTERNAL_H */
