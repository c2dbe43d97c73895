/* btf.h -- a reader for the kernel's BPF Type Format (BTF).
 *
 * Loads BTF from a raw blob (/sys/kernel/btf/vmlinux), from the .BTF section
 * of an ELF image (a vmlinux), or from a compressed kernel image
 * (/boot/vmlinuz-KREL, whose xz payload is extracted and cached), and answers
 * the questions the translator asks about kernel types: find a type by name
 * and kind, see through typedef/const/volatile, size it, list the members of a
 * struct, the parameters of a function, and print a type as C text.
 *
 * Everything hangs off one handle, `struct btf`: it owns the data and the
 * index, is read-only after loading, and is released with btf_free().  Loading
 * validates the whole blob (every record and every type reference is
 * bounds-checked), so a corrupt or truncated file gives an error message, never
 * a crash; queries take any type id and answer "no" for ids out of range.
 *
 * Errors are reported as a message in a caller-supplied buffer
 * (`char *err, size_t errlen`); no function prints or exits.
 *
 * Type ids are uint32_t; id 0 is `void`, and "not found" is also 0 (BTF_NONE),
 * which is fine because no lookup ever means to return void.
 *
 * Do not include <linux/btf.h> together with this header: the kind names are
 * the same.
 */
#ifndef TAPC_DEBUGINFO_BTF_H
#define TAPC_DEBUGINFO_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

#define BTF_NONE 0u
#define BTF_ERRLEN 256	/* a good size for the err buffers below */

enum btf_kind {
	BTF_KIND_VOID = 0,	/* id 0 only ("UNKN" in the kernel) */
	BTF_KIND_INT = 1,
	BTF_KIND_PTR = 2,
	BTF_KIND_ARRAY = 3,
	BTF_KIND_STRUCT = 4,
	BTF_KIND_UNION = 5,
	BTF_KIND_ENUM = 6,
	BTF_KIND_FWD = 7,
	BTF_KIND_TYPEDEF = 8,
	BTF_KIND_VOLATILE = 9,
	BTF_KIND_CONST = 10,
	BTF_KIND_RESTRICT = 11,
	BTF_KIND_FUNC = 12,
	BTF_KIND_FUNC_PROTO = 13,
	BTF_KIND_VAR = 14,
	BTF_KIND_DATASEC = 15,
	BTF_KIND_FLOAT = 16,
	BTF_KIND_DECL_TAG = 17,
	BTF_KIND_TYPE_TAG = 18,
	BTF_KIND_ENUM64 = 19,
	BTF_KIND_MAX = 19,
	BTF_KIND_ANY = 0xff	/* lookup wildcard for btf_find() */
};

/* ---- loading ---------------------------------------------------------- */

struct btf_load_opts {
	/* Where extracted BTF of compressed kernel images is cached.  NULL
	 * means $XDG_CACHE_HOME/tapc or ~/.cache/tapc; "" disables the cache. */
	const char *cache_dir;
};

/* Raw BTF as the kernel exports it (/sys/kernel/btf/vmlinux). */
struct btf *
btf_load_raw(const char *path, char *err, size_t errlen);

/* The .BTF section of an ELF file (an uncompressed vmlinux or .ko). */
struct btf *
btf_load_elf(const char *path, char *err, size_t errlen);

/* A bzImage (/boot/vmlinuz-KREL): the xz-compressed vmlinux inside is
 * extracted, its .BTF read, and the result cached (keyed by path, mtime and
 * size) because decompression takes most of a second. */
struct btf *
btf_load_vmlinuz(const char *path, const struct btf_load_opts *opts,
		 char *err, size_t errlen);

/* Any of the three, chosen by looking at the file's first bytes. */
struct btf *
btf_load_path(const char *path, const struct btf_load_opts *opts,
	      char *err, size_t errlen);

/* A kernel module's BTF, which is split BTF continuing `base` (the
 * vmlinux BTF, which must outlive it): raw (/sys/kernel/btf/MODULE), or
 * the .BTF of a .ko, or of an xz-compressed .ko.xz.  Type ids below
 * btf_first_id() and all lookups fall through to the base. */
struct btf *
btf_load_module(const char *path, const struct btf *base, char *err,
		size_t errlen);

/* A raw BTF blob in memory; the data is copied.  With a base, the blob
 * is split BTF on top of it. */
struct btf *
btf_load_mem(const void *data, size_t size, char *err, size_t errlen);

struct btf *
btf_load_split_mem(const void *data, size_t size, const struct btf *base,
		   char *err, size_t errlen);

void
btf_free(struct btf *btf);

/* Where the data came from ("/sys/kernel/btf/vmlinux", "cache:PATH", ...). */
const char *
btf_source(const struct btf *btf);

/* ---- types ------------------------------------------------------------- */

/* One past the largest type id (ids run 1 .. count-1; 0 is void). */
uint32_t
btf_type_count(const struct btf *btf);

/* The first id this handle defines itself: 1, or for split BTF the
 * base's count.  Iterate from here to list only a module's own types. */
uint32_t
btf_first_id(const struct btf *btf);

/* The base of split BTF, NULL otherwise. */
const struct btf *
btf_base(const struct btf *btf);

enum btf_kind
btf_kind(const struct btf *btf, uint32_t id);

const char *
btf_kind_name(enum btf_kind kind);

/* The type's name, "" for anonymous types and for ids out of range. */
const char *
btf_name(const struct btf *btf, uint32_t id);

/* The first type (lowest id) with this name and kind, or BTF_NONE.  With
 * BTF_KIND_ANY, any kind, but a definition is preferred to a forward
 * declaration (FWD). */
uint32_t
btf_find(const struct btf *btf, const char *name, enum btf_kind kind);

/* The next type after `after` with the same name and kind, for names that
 * occur more than once (static functions in several files). */
uint32_t
btf_find_next(const struct btf *btf, uint32_t after, enum btf_kind kind);

/* The type referred to by PTR, TYPEDEF, CONST, VOLATILE, RESTRICT,
 * TYPE_TAG, FUNC (its FUNC_PROTO), FUNC_PROTO (its return type), VAR,
 * ARRAY (its element type); BTF_NONE for the other kinds. */
uint32_t
btf_ref(const struct btf *btf, uint32_t id);

/* See through typedef, const, volatile, restrict and type tags. */
uint32_t
btf_resolve(const struct btf *btf, uint32_t id);

/* See through const, volatile, restrict and type tags, keeping typedefs
 * (so `const u64` gives `u64`). */
uint32_t
btf_skip_qualifiers(const struct btf *btf, uint32_t id);

/* sizeof the type in bytes, -1 if it has none (void, functions) or the
 * chain is broken. */
int64_t
btf_sizeof(const struct btf *btf, uint32_t id);

struct btf_int_info {
	uint32_t size;		/* bytes */
	uint8_t bits;		/* value bits */
	uint8_t bit_offset;	/* within the storage (normally 0) */
	bool is_signed;
	bool is_char;
	bool is_bool;
};

/* For INT (after btf_resolve), ENUM and ENUM64 (size and signedness). */
bool
btf_int_info(const struct btf *btf, uint32_t id, struct btf_int_info *out);

/* Pointer-ish: PTR after resolving. */
bool
btf_is_pointer(const struct btf *btf, uint32_t id);

/* A char pointer or array (any signedness or qualifiers): what a script
 * would read with kernel_string(). */
bool
btf_is_string(const struct btf *btf, uint32_t id);

struct btf_array_info {
	uint32_t elem_type;
	uint32_t index_type;
	uint32_t nelems;
};

bool
btf_array_info(const struct btf *btf, uint32_t id, struct btf_array_info *out);

/* ---- struct and union members ------------------------------------------ */

struct btf_member {
	const char *name;	/* "" for an anonymous struct/union member */
	uint32_t type;
	uint32_t bit_offset;	/* from the start of the outermost struct */
	uint32_t bitfield_size;	/* 0 unless a bitfield */
};

/* Number of direct members of a STRUCT or UNION (after resolving), -1 if
 * the type is not one. */
int
btf_member_count(const struct btf *btf, uint32_t id);

/* The idx-th direct member. */
bool
btf_member_at(const struct btf *btf, uint32_t id, int idx,
	      struct btf_member *out);

/* The member called `name`, looking inside anonymous struct and union
 * members the way C does; bit_offset is from the start of `id`. */
bool
btf_member_find(const struct btf *btf, uint32_t id, const char *name,
		struct btf_member *out);

/* ---- enums ------------------------------------------------------------- */

int
btf_enum_count(const struct btf *btf, uint32_t id);

bool
btf_enum_at(const struct btf *btf, uint32_t id, int idx, const char **name,
	    int64_t *value);

/* ---- functions ---------------------------------------------------------- */

struct btf_param {
	const char *name;	/* "" when BTF has none (typedef'd protos) */
	uint32_t type;
};

/* A FUNC's FUNC_PROTO, or the FUNC_PROTO itself, or the one a pointer or
 * typedef chain leads to (btf_trace_* typedefs); BTF_NONE otherwise. */
uint32_t
btf_func_proto(const struct btf *btf, uint32_t id);

/* Parameters of the proto btf_func_proto() finds, not counting a
 * trailing `...`; -1 if there is no proto. */
int
btf_param_count(const struct btf *btf, uint32_t id);

bool
btf_param_at(const struct btf *btf, uint32_t id, int idx,
	     struct btf_param *out);

bool
btf_is_variadic(const struct btf *btf, uint32_t id);

/* BTF_NONE for `void`. */
uint32_t
btf_return_type(const struct btf *btf, uint32_t id);

/* ---- C text ------------------------------------------------------------ */

/* The type as a C declaration of `declname` ("" or NULL: an abstract
 * declarator): `struct task_struct *`, `const char *buf`,
 * `void (*fn)(int, long)`, `u8 [16]`.  Works like snprintf: always
 * NUL-terminates, returns the length the full text needs. */
int
btf_type_snprint(const struct btf *btf, uint32_t id, const char *declname,
		 char *buf, size_t size);

/* A function's prototype, `ssize_t vfs_read(struct file *file, ...)`;
 * `id` is a FUNC (name from it) or anything btf_func_proto() accepts. */
int
btf_func_snprint(const struct btf *btf, uint32_t id, char *buf, size_t size);

#endif /* TAPC_DEBUGINFO_BTF_H */
