/* btf.h -- the kernel's BPF Type Format (BTF), read through libbpf.
 *
 * libbpf parses BTF; the handle is its `struct btf` and the kind numbers
 * are its BTF_KIND_* (from <linux/btf.h>, which <bpf/btf.h> includes).
 * This header adds what the translator needs on top: loading from the
 * places kernels keep BTF (/sys/kernel/btf, the .BTF section of an ELF
 * file, the compressed vmlinux inside /boot/vmlinuz-KREL, a module's .ko,
 * .ko.xz, .ko.zst or .ko.gz), a check that every reference in the data
 * resolves (so a corrupt file is refused with a message, never a crash),
 * where a handle came from for messages, a name index, and the questions
 * the translator asks by type id: see through typedefs, size, integer
 * encoding, struct members found the way C finds them (through anonymous
 * members), function parameters, and a type printed as C text.
 *
 * Queries take any type id: an id out of range answers "no".  Errors are
 * reported as a message in a caller-supplied buffer (`char *err, size_t
 * errlen`); no function prints or exits.  Type ids are uint32_t; id 0 is
 * `void`, and "not found" is also 0 (BTF_NONE), which is fine because no
 * lookup ever means to return void.
 *
 * Handles from this header are released with btf_free(), which also drops
 * what this layer keeps about them.
 */
#ifndef TAPC_DEBUGINFO_BTF_H
#define TAPC_DEBUGINFO_BTF_H

#include <bpf/btf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTF_NONE 0u
#define BTF_ERRLEN 256	/* a good size for the err buffers below */

/* A kind for btf_find() meaning "any kind"; not a kind BTF has. */
#define BTF_KIND_ANY (-1)

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

/* A bzImage (/boot/vmlinuz-KREL): the compressed vmlinux inside is
 * extracted, its .BTF read, and the result cached (keyed by path, mtime
 * and size) because decompression takes most of a second. */
struct btf *
btf_load_vmlinuz(const char *path, const struct btf_load_opts *opts,
		 char *err, size_t errlen);

/* Any of the three, chosen by looking at the file's first bytes. */
struct btf *
btf_load_path(const char *path, const struct btf_load_opts *opts,
	      char *err, size_t errlen);

/* A kernel module's BTF, which is split BTF continuing `base` (the
 * vmlinux BTF, which must outlive it): raw (/sys/kernel/btf/MODULE), or
 * the .BTF of a .ko, compressed or not.  Type ids below btf_first_id()
 * and all lookups fall through to the base. */
struct btf *
btf_load_module(const char *path, struct btf *base, char *err,
		size_t errlen);

/* A raw BTF blob in memory (copied), checked as the loaders above check
 * files.  With a base, the blob is split BTF on top of it. */
struct btf *
btf_load_mem(const void *data, size_t size, char *err, size_t errlen);

struct btf *
btf_load_split_mem(const void *data, size_t size, struct btf *base,
		   char *err, size_t errlen);

void
btf_free(struct btf *btf);

/* Where the data came from ("/sys/kernel/btf/vmlinux", "PATH (cached in
 * FILE)", "memory"). */
const char *
btf_source(const struct btf *btf);

/* ---- types ------------------------------------------------------------- */

/* The first id this handle defines itself: 1, or for split BTF the
 * base's btf__type_cnt().  Iterate from here to btf__type_cnt() to list
 * only a module's own types. */
uint32_t
btf_first_id(const struct btf *btf);

/* The BTF_KIND_* of a type; BTF_KIND_UNKN for void and ids out of
 * range. */
int
btf_kind_of(const struct btf *btf, uint32_t id);

/* The type's name, "" for anonymous types and for ids out of range. */
const char *
btf_name(const struct btf *btf, uint32_t id);

/* The first type (lowest id) with this name and kind, or BTF_NONE.  With
 * BTF_KIND_ANY, any kind, but a definition is preferred to a forward
 * declaration (FWD). */
uint32_t
btf_find(const struct btf *btf, const char *name, int kind);

/* The type referred to by PTR, TYPEDEF, CONST, VOLATILE, RESTRICT,
 * TYPE_TAG, FUNC (its FUNC_PROTO), FUNC_PROTO (its return type), VAR,
 * ARRAY (its element type); BTF_NONE for the other kinds. */
uint32_t
btf_ref(const struct btf *btf, uint32_t id);

/* See through typedef, const, volatile, restrict and type tags; BTF_NONE
 * if the chain loops or ends in void. */
uint32_t
btf_resolve(const struct btf *btf, uint32_t id);

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

/* (libbpf's struct btf_member is the raw record: offsets still packed.) */
struct btf_member_info {
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
	      struct btf_member_info *out);

/* The member called `name`, looking inside anonymous struct and union
 * members the way C does; bit_offset is from the start of `id`. */
bool
btf_member_find(const struct btf *btf, uint32_t id, const char *name,
		struct btf_member_info *out);

/* ---- functions ---------------------------------------------------------- */

struct btf_param_info {
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
	     struct btf_param_info *out);

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
