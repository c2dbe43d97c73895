/* btf_load.c -- turn bytes into a checked libbpf `struct btf`.
 *
 * Takes a raw BTF blob (from a file, from memory, or cut out of an ELF
 * image's .BTF section, the image perhaps compressed) and hands it to
 * libbpf, which parses it.  libbpf 1.1 checks the layout (header, record
 * sizes, string section) but not that the type ids and string offsets
 * inside the records resolve; btf_check_refs() does that once, over
 * libbpf's decoded records, so that no query and no libbpf function ever
 * follows a dangling reference in a corrupt file.  libbpf's own messages
 * are caught rather than printed, and become the error text.  Compressed
 * kernel images are btf_vmlinuz.c's business; what is remembered per
 * handle is btf_index.c's.
 */
#define _GNU_SOURCE	/* memfd_create */
#include "config.h"
#include "translator/debuginfo/btf_internal.h"
#include "translator/debuginfo/errbuf.h"
#include "translator/debuginfo/zfile.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- libbpf's messages -------------------------------------------------- */

/* The first thing libbpf said during one call: the most specific. */
static char btf_libbpf_said[BTF_ERRLEN];

static int
btf_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *nl;

	(void)level;
	if (btf_libbpf_said[0])
		return 0;
	vsnprintf(btf_libbpf_said, sizeof(btf_libbpf_said), fmt, ap);
	if ((nl = strchr(btf_libbpf_said, '\n')))
		*nl = '\0';
	return 0;
}

/* Split BTF from memory.  Where libbpf does not export btf__new_split()
 * (Debian 12's 1.1), btf__parse_raw_split() reads the same bytes from a
 * file: one that lives in memory only. */
static struct btf *
btf_libbpf_new_split(const void *data, uint32_t size, struct btf *base)
{
#ifdef HAVE_BTF__NEW_SPLIT
	return btf__new_split(data, size, base);
#else
	char path[64];
	struct btf *btf = NULL;
	int fd = memfd_create("tapc-btf", MFD_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		btf = btf__parse_raw_split(path, base);
	}
	close(fd);
	return btf;
#endif
}

/* btf__new() or its split variant with libbpf's messages caught. */
static struct btf *
btf_libbpf_new(const void *data, size_t size, struct btf *base)
{
	libbpf_print_fn_t old;
	struct btf *btf;

	if (size > UINT32_MAX) {
		errno = EFBIG;
		return NULL;
	}
	btf_libbpf_said[0] = '\0';
	old = libbpf_set_print(btf_libbpf_print);
	btf = base ? btf_libbpf_new_split(data, (uint32_t)size, base)
		   : btf__new(data, (uint32_t)size);
	libbpf_set_print(old);
	return btf;
}

/* "libbpf: Invalid BTF magic: 6973" -> "Invalid BTF magic: 6973" */
static const char *
btf_libbpf_message(int errnum)
{
	const char *msg = btf_libbpf_said;

	if (strncmp(msg, "libbpf: ", 8) == 0)
		msg += 8;
	return *msg ? msg : strerror(errnum);
}

/* ---- reference check ---------------------------------------------------- */

static bool
btf_check_members(const struct btf *btf, const struct btf_type *t, uint32_t n)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!btf__name_by_offset(btf, m[i].name_off) || m[i].type >= n)
			return false;
	return true;
}

static bool
btf_check_params(const struct btf *btf, const struct btf_type *t, uint32_t n)
{
	const struct btf_param *p = btf_params(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!btf__name_by_offset(btf, p[i].name_off) || p[i].type >= n)
			return false;
	return t->type < n;
}

static bool
btf_check_enumerators(const struct btf *btf, const struct btf_type *t)
{
	int i;

	for (i = 0; i < btf_vlen(t); i++) {
		uint32_t off = btf_is_enum(t) ? btf_enum(t)[i].name_off
					      : btf_enum64(t)[i].name_off;

		if (!btf__name_by_offset(btf, off))
			return false;
	}
	return true;
}

static bool
btf_check_secinfos(const struct btf_type *t, uint32_t n)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++)
		if (v[i].type >= n)
			return false;
	return true;
}

/* The names and type ids one record refers to. */
static bool
btf_check_type(const struct btf *btf, const struct btf_type *t)
{
	uint32_t n = btf__type_cnt(btf);

	if (!btf__name_by_offset(btf, t->name_off))
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC:
	case BTF_KIND_VAR: case BTF_KIND_DECL_TAG: case BTF_KIND_TYPE_TAG:
		return t->type < n;
	case BTF_KIND_ARRAY:
		return btf_array(t)->type < n && btf_array(t)->index_type < n;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return btf_check_members(btf, t, n);
	case BTF_KIND_FUNC_PROTO:
		return btf_check_params(btf, t, n);
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		return btf_check_enumerators(btf, t);
	case BTF_KIND_DATASEC:
		return btf_check_secinfos(t, n);
	default:
		return true;
	}
}

static bool
btf_check_refs(const struct btf *btf, const char *source, char *err,
	       size_t errlen)
{
	uint32_t id, n = btf__type_cnt(btf);

	for (id = btf_first_id(btf); id < n; id++) {
		if (!btf_check_type(btf, btf__type_by_id(btf, id))) {
			errbuf_printf(err, errlen, "%s: BTF type %u refers to a missing type or string%s",
				      source, id, btf__base_btf(btf) ? ""
				      : " (a module's BTF needs the vmlinux BTF as its base)");
			return false;
		}
	}
	return true;
}

/* ---- handles ------------------------------------------------------------ */

/* A handle on BTF that `data` holds; libbpf copies it, so the caller
 * keeps (and frees or unmaps) `data`. */
static struct btf *
btf_from_borrowed(const char *data, size_t size, struct btf *base,
		  const char *source, char *err, size_t errlen)
{
	struct btf *btf = btf_libbpf_new(data, size, base);

	if (!btf) {
		errbuf_printf(err, errlen, "%s: not valid BTF: %s", source,
			      btf_libbpf_message(errno));
		return NULL;
	}
	if (!btf_check_refs(btf, source, err, errlen)) {
		btf__free(btf);
		return NULL;
	}
	if (!btf_index_add(btf, source)) {
		errbuf_printf(err, errlen, "%s: out of memory", source);
		btf__free(btf);
		return NULL;
	}
	return btf;
}

struct btf *
btf_from_owned(char *data, size_t size, struct btf *base,
	       const char *source, char *err, size_t errlen)
{
	struct btf *btf = btf_from_borrowed(data, size, base, source, err, errlen);

	free(data);
	return btf;
}

void
btf_free(struct btf *btf)
{
	if (!btf)
		return;
	btf_index_drop(btf);
	btf__free(btf);
}

struct btf *
btf_load_split_mem(const void *data, size_t size, struct btf *base,
		   char *err, size_t errlen)
{
	char *copy = malloc(size ? size : 1);

	if (!copy) {
		errbuf_printf(err, errlen, "BTF: out of memory");
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

/*
 * Uncompressed BTF in a file of known size, mapped rather than read:
 * the running kernel's /sys/kernel/btf/vmlinux (5 MB) is read 4 KiB a
 * call, ~1,300 reads into a buffer that grows, which with libbpf's own
 * copy was most of pass 2 on a small script.  Linux 6.16+ maps it; on
 * older kernels (and for compressed files) NULL with *tried false, and
 * the caller reads the file.
 */
static struct btf *
btf_load_mapped(const char *path, bool *tried, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct btf *btf = NULL;
	struct stat st;
	void *map;

	*tried = false;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 4 ||
	    (uint64_t)st.st_size > UINT32_MAX) {
		close(fd);
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	if (zfile_format(map, (size_t)st.st_size) == ZFILE_PLAIN) {
		*tried = true;
		btf = btf_from_borrowed(map, (size_t)st.st_size, NULL, path, err, errlen);
	}
	munmap(map, (size_t)st.st_size);
	return btf;
}

struct btf *
btf_load_raw(const char *path, char *err, size_t errlen)
{
	char *data;
	size_t size;
	bool mapped;
	struct btf *btf = btf_load_mapped(path, &mapped, err, errlen);

	if (mapped)
		return btf;
	if (!zfile_read(path, &data, &size, err, errlen))
		return NULL;
	return btf_from_owned(data, size, NULL, path, err, errlen);
}

/* ---- ELF ---------------------------------------------------------------- */

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
		errbuf_printf(err, errlen, "not an ELF image: %s", elf_errmsg(-1));
		goto out;
	}
	if (!btf_find_section(elf, &data) || !data->d_buf) {
		errbuf_printf(err, errlen, "ELF image has no .BTF section (kernel built without CONFIG_DEBUG_INFO_BTF?)");
		goto out;
	}
	*out = malloc(data->d_size ? data->d_size : 1);
	if (!*out) {
		errbuf_printf(err, errlen, "out of memory");
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
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	ok = btf_copy_section(elf_begin(fd, ELF_C_READ_MMAP, NULL), &section,
			      &section_size, why, sizeof(why));
	close(fd);
	if (!ok) {
		errbuf_printf(err, errlen, "%s: %s", path, why);
		return NULL;
	}
	return btf_from_owned(section, section_size, NULL, path, err, errlen);
}

static bool
btf_is_raw(const void *data, size_t size)
{
	const unsigned char *p = data;

	return size >= 2 && p[0] == 0x9f && p[1] == 0xeb;
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
		errbuf_printf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n >= 2 && btf_is_raw(head, (size_t)n))
		return btf_load_raw(path, err, errlen);
	if (n == 4 && memcmp(head, "\177ELF", 4) == 0)
		return btf_load_elf(path, err, errlen);
	return btf_load_vmlinuz(path, opts, err, errlen);
}

/* Module BTF: raw, or ELF, the ELF perhaps compressed (zfile_read()
 * decompresses xz, zstd and gzip: Debian's .ko.xz, others' .ko.zst). */
struct btf *
btf_load_module(const char *path, struct btf *base, char *err,
		size_t errlen)
{
	char *file, *section = NULL;
	size_t size, section_size;
	char why[BTF_ERRLEN];

	if (!base) {
		errbuf_printf(err, errlen, "%s: module BTF needs the vmlinux BTF as its base", path);
		return NULL;
	}
	if (!zfile_read(path, &file, &size, err, errlen))
		return NULL;
	if (btf_is_raw(file, size))
		return btf_from_owned(file, size, base, path, err, errlen);
	if (!btf_elf_section(file, size, &section, &section_size, why, sizeof(why))) {
		errbuf_printf(err, errlen, "%s: %s", path, why);
		free(file);
		return NULL;
	}
	free(file);
	return btf_from_owned(section, section_size, base, path, err, errlen);
}
