/* btf_load.c -- turn bytes into a validated, indexed `struct btf`.
 *
 * Takes a raw BTF blob (from a file, from memory, or cut out of an ELF
 * image's .BTF section) and produces the handle the queries in btf_types.c
 * and btf_render.c read: a table from type id to record and a hash table
 * from name to type ids.  Every record, string offset and type reference is
 * checked here once, so that no query needs to distrust the blob; a file
 * that fails any check is refused with a message saying where it is broken.
 * Must not keep any state outside the handle.  Compressed kernel images are
 * btf_vmlinuz.c's business.
 */
#include "translator/debuginfo/btf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
btf_set_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* FNV-1a: short names, no need for anything stronger. */
uint32_t
btf_name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

/* How many bytes of data follow a record of this kind, or -1 for a kind
 * this reader does not know (a newer format: refuse rather than guess). */
static long
btf_extra_size(const struct btf_type_raw *t)
{
	unsigned vlen = btf_raw_vlen(t);

	switch (btf_raw_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array_raw);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member_raw);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum_raw);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64_raw);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param_raw);
	case BTF_KIND_DATASEC:
		return (long)vlen * 12;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static bool
btf_check_header(struct btf *btf, const struct btf_header_raw **hdrp,
		 char *err, size_t errlen)
{
	const struct btf_header_raw *h = (const void *)btf->data;
	uint64_t types_end, strs_end;

	if (btf->size < sizeof(*h)) {
		btf_set_error(err, errlen, "%s: truncated BTF header", btf->source);
		return false;
	}
	if (h->magic != BTF_MAGIC) {
		btf_set_error(err, errlen, h->magic == 0x9FEB
			      ? "%s: BTF is in the other byte order (not supported)"
			      : "%s: not BTF data (bad magic)", btf->source);
		return false;
	}
	if (h->version != 1) {
		btf_set_error(err, errlen, "%s: unsupported BTF version %u",
			      btf->source, h->version);
		return false;
	}
	types_end = (uint64_t)h->hdr_len + h->type_off + h->type_len;
	strs_end = (uint64_t)h->hdr_len + h->str_off + h->str_len;
	if (h->hdr_len < sizeof(*h) || types_end > btf->size ||
	    strs_end > btf->size || (h->hdr_len + h->type_off) % 4 != 0) {
		btf_set_error(err, errlen, "%s: BTF header points outside the data (truncated file?)",
			      btf->source);
		return false;
	}
	if (h->str_len == 0 || btf->data[strs_end - 1] != '\0') {
		btf_set_error(err, errlen, "%s: BTF string section is not terminated",
			      btf->source);
		return false;
	}
	*hdrp = h;
	return true;
}

/* First pass: find where each record starts, checking that it fits. */
static bool
btf_index_records(struct btf *btf, const struct btf_header_raw *h,
		  char *err, size_t errlen)
{
	const char *p = btf->data + h->hdr_len + h->type_off;
	const char *end = p + h->type_len;
	size_t cap = h->type_len / sizeof(struct btf_type_raw) + 1;
	uint32_t n = btf->first_id;

	btf->types = calloc(cap, sizeof(*btf->types));
	if (!btf->types) {
		btf_set_error(err, errlen, "%s: out of memory", btf->source);
		return false;
	}
	while (p < end) {
		const struct btf_type_raw *t = (const void *)p;
		long extra;

		if ((size_t)(end - p) < sizeof(*t) ||
		    (extra = btf_extra_size(t)) < 0 ||
		    (size_t)(end - p) < sizeof(*t) + (size_t)extra) {
			btf_set_error(err, errlen, "%s: BTF type %u is truncated or of unknown kind %u",
				      btf->source, n, btf_raw_kind(t));
			return false;
		}
		btf->types[n++ - btf->first_id] = t;
		p += sizeof(*t) + extra;
	}
	btf->count = n;
	return true;
}

static bool
btf_check_name(const struct btf *btf, uint32_t off)
{
	return off < btf->str_start + btf->str_len;
}

static bool
btf_check_id(const struct btf *btf, uint32_t id)
{
	return id < btf->count;
}

/* The names and type ids one record refers to. */
static bool
btf_check_record(const struct btf *btf, const struct btf_type_raw *t)
{
	unsigned i, vlen = btf_raw_vlen(t);
	const struct btf_member_raw *m = btf_raw_extra(t);
	const struct btf_param_raw *pa = btf_raw_extra(t);
	const struct btf_array_raw *a = btf_raw_extra(t);
	const struct btf_enum_raw *e = btf_raw_extra(t);
	const struct btf_enum64_raw *e64 = btf_raw_extra(t);
	const uint32_t *dsec = btf_raw_extra(t);

	if (!btf_check_name(btf, t->name_off))
		return false;
	switch (btf_raw_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
	case BTF_KIND_FUNC_PROTO: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
	case BTF_KIND_TYPE_TAG:
		if (!btf_check_id(btf, t->size_or_type))
			return false;
		break;
	case BTF_KIND_ARRAY:
		return btf_check_id(btf, a->type) &&
		       btf_check_id(btf, a->index_type);
	default:
		break;
	}
	for (i = 0; i < vlen; i++) {
		switch (btf_raw_kind(t)) {
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			if (!btf_check_name(btf, m[i].name_off) ||
			    !btf_check_id(btf, m[i].type))
				return false;
			break;
		case BTF_KIND_FUNC_PROTO:
			if (!btf_check_name(btf, pa[i].name_off) ||
			    !btf_check_id(btf, pa[i].type))
				return false;
			break;
		case BTF_KIND_ENUM:
			if (!btf_check_name(btf, e[i].name_off))
				return false;
			break;
		case BTF_KIND_ENUM64:
			if (!btf_check_name(btf, e64[i].name_off))
				return false;
			break;
		case BTF_KIND_DATASEC:
			if (!btf_check_id(btf, dsec[3 * i]))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

static bool
btf_build_hash(struct btf *btf, char *err, size_t errlen)
{
	uint32_t id, named = 0, size = 16;

	for (id = btf->first_id; id < btf->count; id++)
		named += btf_raw(btf, id)->name_off != 0;
	while (size < 2 * named)
		size <<= 1;
	btf->hash = calloc(size, sizeof(*btf->hash));
	if (!btf->hash) {
		btf_set_error(err, errlen, "%s: out of memory", btf->source);
		return false;
	}
	btf->hash_mask = size - 1;
	for (id = btf->first_id; id < btf->count; id++) {
		const struct btf_type_raw *t = btf_raw(btf, id);
		uint32_t slot;

		if (t->name_off == 0)
			continue;
		slot = btf_name_hash(btf_str(btf, t->name_off)) & btf->hash_mask;
		while (btf->hash[slot])
			slot = (slot + 1) & btf->hash_mask;
		btf->hash[slot] = id;
	}
	return true;
}

static bool
btf_index(struct btf *btf, char *err, size_t errlen)
{
	const struct btf_header_raw *h;
	uint32_t id;

	if (!btf_check_header(btf, &h, err, errlen) ||
	    !btf_index_records(btf, h, err, errlen))
		return false;
	btf->strs = btf->data + h->hdr_len + h->str_off;
	btf->str_len = h->str_len;
	for (id = btf->first_id; id < btf->count; id++) {
		if (!btf_check_record(btf, btf_raw(btf, id))) {
			btf_set_error(err, errlen, "%s: BTF type %u refers to a missing type or string%s",
				      btf->source, id, btf->base ? ""
				      : " (a module's BTF needs the vmlinux BTF as its base)");
			return false;
		}
	}
	return btf_build_hash(btf, err, errlen);
}

struct btf *
btf_from_owned(char *data, size_t size, const struct btf *base,
	       const char *source, char *err, size_t errlen)
{
	struct btf *btf = calloc(1, sizeof(*btf));

	if (!btf || !(btf->source = strdup(source))) {
		free(btf);
		free(data);
		btf_set_error(err, errlen, "%s: out of memory", source);
		return NULL;
	}
	btf->data = data;
	btf->size = size;
	btf->base = base;
	btf->first_id = base ? base->count : 1;
	btf->str_start = base ? base->str_start + base->str_len : 0;
	if (!btf_index(btf, err, errlen)) {
		btf_free(btf);
		return NULL;
	}
	return btf;
}

void
btf_free(struct btf *btf)
{
	if (!btf)
		return;
	free(btf->data);
	free(btf->types);
	free(btf->hash);
	free(btf->source);
	free(btf);
}

const char *
btf_source(const struct btf *btf)
{
	return btf->source;
}

struct btf *
btf_load_split_mem(const void *data, size_t size, const struct btf *base,
		   char *err, size_t errlen)
{
	char *copy = malloc(size ? size : 1);

	if (!copy) {
		btf_set_error(err, errlen, "BTF: out of memory");
		return NULL;
	}
	memcpy(copy, data, size);
	return btf_from_owned(copy, size, base, "memory", err, errlen);
}

struct btf *
btf_load_mem(const void *data, size_t size, char *err, size_t errlen)
{
	return btf_load_split_mem(data, size, NULL, err, errlen);
}

/* Read a whole file; sysfs files report a size but may not honour it, so
 * read until EOF. */
static bool
btf_read_file(const char *path, char **out, size_t *out_size,
	      char *err, size_t errlen)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		goto fail;
	for (;;) {
		ssize_t n;

		if (!buf || len == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger)
				goto fail;
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	*out = buf;
	*out_size = len;
	return true;
fail:
	btf_set_error(err, errlen, "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return false;
}

struct btf *
btf_load_raw(const char *path, char *err, size_t errlen)
{
	char *data;
	size_t size;

	if (!btf_read_file(path, &data, &size, err, errlen))
		return NULL;
	return btf_from_owned(data, size, NULL, path, err, errlen);
}

static bool
btf_find_section(Elf *elf, Elf_Data **out)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			return false;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && strcmp(name, ".BTF") == 0 && shdr.sh_type != SHT_NOBITS) {
			*out = elf_getdata(scn, NULL);
			return *out != NULL;
		}
	}
	return false;
}

/* Copy .BTF out of an opened ELF; ends the Elf in every case. */
static bool
btf_copy_section(Elf *elf, char **out, size_t *out_size, char *err,
		 size_t errlen)
{
	Elf_Data *data = NULL;
	bool ok = false;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		btf_set_error(err, errlen, "not an ELF image: %s", elf_errmsg(-1));
		goto out;
	}
	if (!btf_find_section(elf, &data) || !data->d_buf) {
		btf_set_error(err, errlen, "ELF image has no .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF?)");
		goto out;
	}
	*out = malloc(data->d_size ? data->d_size : 1);
	if (!*out) {
		btf_set_error(err, errlen, "out of memory");
		goto out;
	}
	memcpy(*out, data->d_buf, data->d_size);
	*out_size = data->d_size;
	ok = true;
out:
	if (elf)
		elf_end(elf);
	return ok;
}

bool
btf_elf_section(const void *image, size_t size, char **out, size_t *out_size,
		char *err, size_t errlen)
{
	elf_version(EV_CURRENT);
	return btf_copy_section(elf_memory((char *)image, size), out, out_size,
				err, errlen);
}

/* Read through libelf from the file, so that a vmlinux with debug info
 * (hundreds of MB) is not read whole for the few MB of .BTF. */
struct btf *
btf_load_elf(const char *path, char *err, size_t errlen)
{
	char *section;
	size_t section_size;
	char why[BTF_ERRLEN];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0) {
		btf_set_error(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	ok = btf_copy_section(elf_begin(fd, ELF_C_READ_MMAP, NULL), &section,
			      &section_size, why, sizeof(why));
	close(fd);
	if (!ok) {
		btf_set_error(err, errlen, "%s: %s", path, why);
		return NULL;
	}
	return btf_from_owned(section, section_size, NULL, path, err, errlen);
}

/* Dispatch on the first bytes: BTF magic, ELF magic, else a kernel image. */
struct btf *
btf_load_path(const char *path, const struct btf_load_opts *opts,
	      char *err, size_t errlen)
{
	unsigned char head[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		btf_set_error(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 2 && head[0] == 0x9f && head[1] == 0xeb)
		return btf_load_raw(path, err, errlen);
	if (n == 4 && memcmp(head, "\177ELF", 4) == 0)
		return btf_load_elf(path, err, errlen);
	return btf_load_vmlinuz(path, opts, err, errlen);
}

/* Module BTF: raw, ELF, or ELF inside xz (Debian compresses modules). */
struct btf *
btf_load_module(const char *path, const struct btf *base, char *err,
		size_t errlen)
{
	static const unsigned char xz_magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0 };
	char *file, *image = NULL, *section = NULL;
	size_t size, image_size, section_size;
	char why[BTF_ERRLEN];

	if (!base) {
		btf_set_error(err, errlen, "%s: module BTF needs the vmlinux BTF as its base", path);
		return NULL;
	}
	if (!btf_read_file(path, &file, &size, err, errlen))
		return NULL;
	if (size >= 2 && (unsigned char)file[0] == 0x9f && (unsigned char)file[1] == 0xeb)
		return btf_from_owned(file, size, base, path, err, errlen);
	if (size >= sizeof(xz_magic) && memcmp(file, xz_magic, sizeof(xz_magic)) == 0) {
		if (!btf_xz_decode((unsigned char *)file, size, &image, &image_size)) {
			btf_set_error(err, errlen, "%s: corrupt xz data", path);
			free(file);
			return NULL;
		}
		free(file);
		file = image;
		size = image_size;
	}
	if (!btf_elf_section(file, size, &section, &section_size, why, sizeof(why))) {
		btf_set_error(err, errlen, "%s: %s", path, why);
		free(file);
		return NULL;
	}
	free(file);
	return btf_from_owned(section, section_size, base, path, err, errlen);
}
