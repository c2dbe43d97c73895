/*
 * elf_syms.c -- read a user-space ELF file's function symbols, loadable
 * segments and SDT notes with libelf (see elf_syms.h).  .symtab is used
 * when the file has one (unstripped programs), .dynsym otherwise (system
 * libraries); both are merged so that a stripped library still offers its
 * exported functions.  Symbols are kept sorted by address, one name per
 * address (the global one wins over local aliases), so that an address
 * symbolizes the same way every time.
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/elf_syms.h"

struct sym_vec {
	struct elf_sym *v;
	size_t n, cap;
};

static void
vec_push(struct sym_vec *s, const struct elf_sym *e)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v) {
			perror("tapc");
			exit(1);
		}
	}
	s->v[s->n++] = *e;
}

static size_t
underscores(const char *s)
{
	return strspn(s, "_");
}

/* By address; at one address the name to show first: global, then the
 * fewest leading underscores ("malloc" before "__libc_malloc"). */
static int
by_addr(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	if (underscores(x->name) != underscores(y->name))
		return underscores(x->name) < underscores(y->name) ? -1 : 1;
	if (strlen(x->name) != strlen(y->name))
		return strlen(x->name) < strlen(y->name) ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorted, every name kept once (.symtab and .dynsym repeat each other),
 * copied into the arena. */
static struct elf_sym *
finish(struct arena *a, struct sym_vec *s, size_t *n_out)
{
	struct elf_sym *out;
	size_t n = 0;

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), by_addr);
	out = arena_alloc(a, (s->n ? s->n : 1) * sizeof(*out));
	for (size_t i = 0; i < s->n; i++) {
		if (n && out[n - 1].addr == s->v[i].addr &&
		    strcmp(out[n - 1].name, s->v[i].name) == 0)
			continue;
		out[n++] = s->v[i];
	}
	free(s->v);
	*n_out = n;
	return out;
}

static void
read_symtab(struct arena *a, Elf *elf, Elf_Scn *scn, GElf_Shdr *sh,
	    struct sym_vec *funcs, struct sym_vec *objs)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (!gelf_getsym(data, (int)i, &sym) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    type != STT_OBJECT)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		struct elf_sym e = {
			.name = arena_strdup(a, name),
			.addr = sym.st_value,
			.size = sym.st_size,
			.global = GELF_ST_BIND(sym.st_info) != STB_LOCAL,
		};
		vec_push(type == STT_OBJECT ? objs : funcs, &e);
	}
}

static void
read_segments(struct arena *a, Elf *elf, struct elf_image *im)
{
	size_t phnum = 0;

	if (elf_getphdrnum(elf, &phnum) || !phnum)
		return;
	im->segs = arena_alloc(a, phnum * sizeof(*im->segs));
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		im->segs[im->nsegs++] = (struct elf_segment){
			.vaddr = ph.p_vaddr, .offset = ph.p_offset,
			.filesz = ph.p_filesz,
		};
	}
}

/* Keep the raw .note.stapsdt descriptors for sdt.c. */
static void
keep_sdt(struct arena *a, Elf_Scn *scn, GElf_Shdr *sh, struct elf_image *im)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	unsigned char *copy;

	if (!data || !data->d_buf || !data->d_size)
		return;
	copy = arena_alloc(a, data->d_size);
	memcpy(copy, data->d_buf, data->d_size);
	im->sdt_notes = copy;
	im->sdt_notes_size = data->d_size;
	(void)sh;
}

static void
read_sections(struct arena *a, Elf *elf, struct elf_image *im)
{
	struct sym_vec funcs = { 0 }, objs = { 0 };
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		shstrndx = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			read_symtab(a, elf, scn, &sh, &funcs, &objs);
		else if (sh.sh_type == SHT_NOTE && name &&
			 strcmp(name, ".note.stapsdt") == 0)
			keep_sdt(a, scn, &sh, im);
		else if (name && strcmp(name, ".debug_info") == 0)
			im->has_debug_info = true;
		else if (name && strcmp(name, ".stapsdt.base") == 0) {
			im->sdt_base_addr = sh.sh_addr;
			im->has_sdt_base = true;
		}
	}
	im->funcs = finish(a, &funcs, &im->nfuncs);
	im->objects = finish(a, &objs, &im->nobjects);
}

/* path as an ELF file for libelf, x86_64 only or (also_i386) i386 too;
 * *is_i386 says which it is. */
static Elf *
elf_open_x86(const char *path, bool also_i386, int *fd, int *e_type,
	     bool *is_i386, char *err, size_t errsize)
{
	const char *why = NULL;
	GElf_Ehdr eh;
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		snprintf(err, errsize, "cannot open %s: %s", path,
			 strerror(errno));
		return NULL;
	}
	elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		why = "an ELF file";
	else if ((eh.e_machine != EM_X86_64 || eh.e_ident[EI_CLASS] != ELFCLASS64) &&
		 !(also_i386 && eh.e_machine == EM_386 &&
		   eh.e_ident[EI_CLASS] == ELFCLASS32))
		why = also_i386 ? "an x86_64 or i386 ELF file" : "an x86_64 ELF file";
	if (why) {
		snprintf(err, errsize, "%s is not %s", path, why);
		if (elf)
			elf_end(elf);
		close(*fd);
		return NULL;
	}
	*e_type = eh.e_type;
	*is_i386 = eh.e_machine == EM_386;
	return elf;
}

Elf *
elf_open_x86_64(const char *path, int *fd, int *e_type, char *err,
		size_t errsize)
{
	bool is_i386;

	return elf_open_x86(path, false, fd, e_type, &is_i386, err, errsize);
}

/* The file's GNU build id in hex (umodbuildid()), or NULL. */
static const char *
read_build_id(struct arena *a, Elf *elf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &id);
	char *hex;

	if (n <= 0)
		return NULL;
	hex = arena_alloc(a, (size_t)n * 2 + 1);
	for (ssize_t i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", ((const unsigned char *)id)[i]);
	return hex;
}

struct elf_image *
elf_image_load(struct arena *a, const char *path, char *err, size_t errsize)
{
	struct elf_image *im = NULL;
	int fd, e_type;
	bool is_i386;
	/* i386 too: a 32-bit library matched by process("/lib32/libc.so.6")
	 * is probed as in stap, by file offset, without context variables
	 * (elf_image.is_i386) */
	Elf *elf = elf_open_x86(path, true, &fd, &e_type, &is_i386, err,
				errsize);

	if (!elf)
		return NULL;
	if (e_type != ET_EXEC && e_type != ET_DYN) {
		snprintf(err, errsize, "%s is neither a program nor a shared library", path);
		goto out;
	}
	im = arena_alloc(a, sizeof(*im));
	im->path = arena_strdup(a, path);
	im->is_dyn = e_type == ET_DYN;
	im->is_i386 = is_i386;
	read_segments(a, elf, im);
	read_sections(a, elf, im);
	im->build_id = read_build_id(a, elf);
	if (!is_i386)	/* elf_plt.c reads x86_64 relocations only */
		elf_read_plt(a, elf, im);
out:
	elf_end(elf);
	close(fd);
	return im;
}

bool
elf_addr_to_offset(const struct elf_image *im, uint64_t addr,
		   uint64_t *offset)
{
	for (size_t i = 0; i < im->nsegs; i++) {
		const struct elf_segment *s = &im->segs[i];
		if (addr >= s->vaddr && addr < s->vaddr + s->filesz) {
			*offset = addr - s->vaddr + s->offset;
			return true;
		}
	}
	return false;
}

static const struct elf_sym *
find_in(const struct elf_sym *v, size_t n, const char *name)
{
	const struct elf_sym *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0 && (!best || v[i].global))
			best = &v[i];
	return best;
}

const struct elf_sym *
elf_find_func(const struct elf_image *im, const char *name)
{
	return find_in(im->funcs, im->nfuncs, name);
}

const struct elf_sym *
elf_find_object(const struct elf_image *im, const char *name)
{
	return find_in(im->objects, im->nobjects, name);
}

const struct elf_sym *
elf_func_at(const struct elf_image *im, uint64_t addr)
{
	size_t lo = 0, hi = im->nfuncs;

	while (lo < hi) {	/* first symbol above addr */
		size_t mid = (lo + hi) / 2;
		if (im->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	while (lo && im->funcs[lo - 1].addr == im->funcs[lo].addr)
		lo--;	/* the preferred name of that address */
	const struct elf_sym *s = &im->funcs[lo];
	return !s->size || addr < s->addr + s->size ? s : NULL;
}

const char *
elf_resolve_program(struct arena *a, const char *name)
{
	char buf[PATH_MAX], cand[PATH_MAX];
	const char *path = getenv("PATH");

	if (strchr(name, '/'))
		return realpath(name, buf) ? arena_strdup(a, buf) : NULL;
	while (path && *path) {
		size_t len = strcspn(path, ":");
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)len,
			 len ? path : ".", name);
		if (access(cand, X_OK) == 0 && realpath(cand, buf))
			return arena_strdup(a, buf);
		path += len + (path[len] == ':');
	}
	return NULL;
}

/* Images already read in this run: a probe point and code generation
 * both ask for the same files. */
struct image_cache_entry {
	struct arena *arena;	/* the session's: another session misses */
	const char *path;
	struct elf_image *im;
	struct image_cache_entry *next;
};
static struct image_cache_entry *image_cache;

struct elf_image *
elf_image_get(struct arena *a, const char *path, char *err, size_t errsize)
{
	struct image_cache_entry *c;
	struct elf_image *im;

	for (c = image_cache; c; c = c->next)
		if (c->arena == a && strcmp(c->path, path) == 0)
			return c->im;
	im = elf_image_load(a, path, err, errsize);
	if (!im)
		return NULL;
	c = arena_alloc(a, sizeof(*c));
	c->arena = a;
	c->path = im->path;
	c->im = im;
	c->next = image_cache;
	image_cache = c;
	return im;
}

int
elf_ldd(struct arena *a, const char *path, const char ***out)
{
	char cmd[4200], line[4200];
	int n = 0, cap = 0;
	FILE *f;

	*out = NULL;
	if (strchr(path, '\''))
		return 0;
	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *arrow = strstr(line, "=> /");
		char *lib = arrow ? arrow + 3 : strchr(line, '/');
		if (!lib)
			continue;
		lib[strcspn(lib, " \t\n(")] = '\0';
		const char *real = elf_resolve_program(a, lib);
		*out = arena_grow(a, *out, sizeof(**out), &cap, n + 1);
		(*out)[n++] = real ? real : arena_strdup(a, lib);
	}
	pclose(f);
	return n;
}
