/*
 * modinfo.c -- read a module file's .modinfo strings: the name the kernel
 * will give the module ("name=", which need not match the file name) and the
 * kernel release it was built for ("vermagic=").
 *
 * Takes: a 64-bit little-endian ELF relocatable (.ko).  Produces: copies of
 * the requested values, and whether a module parameter exists (its
 * "parmtype=NAME:" string).  The last file's .modinfo is kept while the
 * file is unchanged, so a module is read once however often it is asked
 * about.  Must not: trust offsets in the file without bounds checks; a
 * malformed file is an error, not a crash; call back into this file from
 * a taprun_modinfo_each() callback (the kept bytes could be replaced).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "loader/taprun.h"

static int
taprun_read_file(const char *path, char **data, size_t *size)
{
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size > (1 << 30)) {
		ret = -EINVAL;
		goto out;
	}
	*data = malloc(st.st_size);
	if (!*data) {
		ret = -ENOMEM;
		goto out;
	}
	n = read(fd, *data, st.st_size);
	if (n != st.st_size) {
		free(*data);
		*data = NULL;
		ret = -EIO;
		goto out;
	}
	*size = st.st_size;
out:
	close(fd);
	return ret;
}

/* Find the .modinfo section: its bytes, or NULL. */
static const char *
taprun_find_modinfo(const char *data, size_t size, size_t *len)
{
	const Elf64_Ehdr *eh = (const void *)data;
	const Elf64_Shdr *sh, *strtab;
	size_t i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const void *)(data + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	if (strtab->sh_offset > size || strtab->sh_size > size - strtab->sh_offset)
		return NULL;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strtab->sh_size ||
		    sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		if (strncmp(data + strtab->sh_offset + sh[i].sh_name, ".modinfo",
			    strtab->sh_size - sh[i].sh_name) == 0) {
			*len = sh[i].sh_size;
			return data + sh[i].sh_offset;
		}
	}
	return NULL;
}

/*
 * Call fn(value, ctx) for each .modinfo string that starts with PREFIX,
 * until fn returns nonzero.  Returns fn's last result, -ENOENT if nothing
 * matched, or -errno.
 */
/*
 * The .modinfo of the module file last asked about, kept while the file
 * is the same (device, inode, size, change time): taprun asks about one
 * module a dozen times before loading it (name, vermagic, privilege,
 * parameters, symbols), and reading a whole .ko each time cost ~50 ms of
 * the load under TCG.
 */
static struct {
	char *path;
	struct stat st;
	char *info;
	size_t len;
} taprun_modinfo_cached;

static bool
taprun_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* PATH's .modinfo bytes (valid until the next call), or -errno. */
static int
taprun_modinfo_load(const char *path, const char **info, size_t *len)
{
	char *data = NULL, *copy;
	const char *found;
	size_t dsize = 0, flen = 0;
	struct stat st;
	int ret;

	if (stat(path, &st) != 0)
		return -errno;
	if (taprun_modinfo_cached.path &&
	    strcmp(taprun_modinfo_cached.path, path) == 0 &&
	    taprun_same_file(&taprun_modinfo_cached.st, &st)) {
		*info = taprun_modinfo_cached.info;
		*len = taprun_modinfo_cached.len;
		return 0;
	}
	ret = taprun_read_file(path, &data, &dsize);
	if (ret)
		return ret;
	found = taprun_find_modinfo(data, dsize, &flen);
	if (!found) {
		free(data);
		return -ENOEXEC;
	}
	copy = malloc(flen + 1);
	if (!copy) {
		free(data);
		return -ENOMEM;
	}
	memcpy(copy, found, flen);
	copy[flen] = 0;
	free(data);
	free(taprun_modinfo_cached.path);
	free(taprun_modinfo_cached.info);
	taprun_modinfo_cached.path = strdup(path);
	taprun_modinfo_cached.st = st;
	taprun_modinfo_cached.info = copy;
	taprun_modinfo_cached.len = flen;
	*info = copy;
	*len = flen;
	return 0;
}

int
taprun_modinfo_each(const char *path, const char *prefix,
		    int (*fn)(const char *value, void *ctx), void *ctx)
{
	const char *info, *p, *end;
	char value[512];
	size_t len = 0, plen = strlen(prefix);
	int ret;

	ret = taprun_modinfo_load(path, &info, &len);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (p = info, end = info + len; p < end; p += strnlen(p, end - p) + 1) {
		if ((size_t)(end - p) <= plen || strncmp(p, prefix, plen) != 0)
			continue;
		snprintf(value, sizeof(value), "%.*s",
			 (int)strnlen(p + plen, end - p - plen), p + plen);
		ret = fn(value, ctx);
		if (ret)
			break;
	}
	return ret;
}

struct taprun_modinfo_copy {
	char *out;
	size_t size;
};

static int
taprun_modinfo_copy_first(const char *value, void *ctx)
{
	struct taprun_modinfo_copy *c = ctx;

	if (c->out)
		snprintf(c->out, c->size, "%s", value);
	return 1;	/* stop at the first */
}

static int
taprun_modinfo_find(const char *path, const char *prefix, char *out,
		    size_t size)
{
	struct taprun_modinfo_copy c = { out, size };
	int ret = taprun_modinfo_each(path, prefix, taprun_modinfo_copy_first, &c);

	return ret == 1 ? 0 : ret;
}

/* Copy the value of KEY= from .modinfo into out; -ENOENT if absent. */
int
taprun_modinfo_get(const char *path, const char *key, char *out, size_t size)
{
	char prefix[128];

	snprintf(prefix, sizeof(prefix), "%s=", key);
	return taprun_modinfo_find(path, prefix, out, size);
}

/* Does the module declare a parameter NAME (module_param)? */
bool
taprun_modinfo_has_param(const char *path, const char *name)
{
	char prefix[192];

	snprintf(prefix, sizeof(prefix), "parmtype=%s:", name);
	return taprun_modinfo_find(path, prefix, NULL, 0) == 0;
}
