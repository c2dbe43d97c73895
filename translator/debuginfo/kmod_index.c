/*
 * kmod_index.c -- the per-release index of kernel modules and their
 * function names (kmod_index.h): a walk of /lib/modules/KREL reading
 * each module's ELF symbol table (decompressing .ko.xz, .ko.zst and
 * .ko.gz), kept on disk.
 *
 * Cache format (text, one item a line): "TAPCKMI2", then per module
 * "M <name> <0|1 has DWARF> <path>" followed by its function names, one
 * a line, and its tracepoint names, each as "T <name>".  A cache file that does not parse is rebuilt.
 * Must not: trust a truncated cache file; keep files open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/kmod_index.h"
#include "translator/debuginfo/zfile.h"

#define KMOD_INDEX_MAGIC "TAPCKMI2"
#define KMI_MAX_MODULE ((size_t)1 << 28)	/* decompressed .ko, at most */
#define KMI_TRACEPOINT "__tracepoint_"	/* DEFINE_TRACE's struct tracepoint */

struct kmod_index {
	char *dir;
	struct kmod_entry *mods;
	size_t nmods, capmods;
	char **owned;		/* strings and arrays to free: none are
				 * freed before exit (the index is per run) */
};

static struct kmod_index *cached;

static void *
kmi_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q) {
		fputs("tapc: out of memory indexing kernel modules\n", stderr);
		abort();
	}
	return q;
}

static char *
kmi_xstrdup(const char *s)
{
	return strcpy(kmi_xrealloc(NULL, strlen(s) + 1), s);
}

static int
kmi_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static struct kmod_entry *
kmi_add(struct kmod_index *ix)
{
	if (ix->nmods == ix->capmods) {
		ix->capmods = ix->capmods ? ix->capmods * 2 : 1024;
		ix->mods = kmi_xrealloc(ix->mods, ix->capmods * sizeof(*ix->mods));
	}
	memset(&ix->mods[ix->nmods], 0, sizeof(ix->mods[0]));
	return &ix->mods[ix->nmods++];
}

/* "nf_conntrack.ko.xz" -> "nf_conntrack"; NULL if not a module file
 * (.ko, or compressed as kmod names them: .ko.xz, .ko.zst, .ko.gz). */
static char *
kmi_module_name(const char *file)
{
	const char *ko = strstr(file, ".ko");
	char *name;

	if (!ko || (ko[3] && strcmp(ko + 3, ".xz") != 0 &&
		    strcmp(ko + 3, ".zst") != 0 && strcmp(ko + 3, ".gz") != 0) ||
	    ko == file)
		return NULL;
	name = kmi_xrealloc(NULL, (size_t)(ko - file) + 1);
	memcpy(name, file, (size_t)(ko - file));
	name[ko - file] = '\0';
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

/* Text kprobes refuse or that is gone once a module runs (as
 * dwarf_sites.c's list). */
static bool
kmi_unprobeable(const char *section)
{
	static const char *const deny[] = {
		".init.text", ".exit.text", ".noinstr.text", ".entry.text",
		".kprobes.text", ".cpuidle.text", ".head.text",
	};

	for (size_t i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (strcmp(section, deny[i]) == 0)
			return true;
	return false;
}

/* The function names and the DWARF flag of one ELF image in memory. */
static void
kmi_read_elf(struct kmod_entry *m, const void *image, size_t size)
{
	Elf *elf = elf_memory((char *)image, size);
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0, cap = 0, ntp = 0, captp = 0;
	const char **funcs = NULL, **tps = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0) {
		if (elf)
			elf_end(elf);
		return;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sname;
		if (!gelf_getshdr(scn, &sh) ||
		    !(sname = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(sname, ".debug_info") == 0)
			m->has_dwarf = true;
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t count = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 1; d && i < count; i++) {
			GElf_Sym sym;
			GElf_Shdr fsh;
			const char *name, *fsec;
			if (!gelf_getsym(d, (int)i, &sym) ||
			    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
			    !(name = elf_strptr(elf, sh.sh_link, sym.st_name)) || !*name)
				continue;
			if (GELF_ST_TYPE(sym.st_info) == STT_OBJECT &&
			    strncmp(name, KMI_TRACEPOINT, strlen(KMI_TRACEPOINT)) == 0 &&
			    name[strlen(KMI_TRACEPOINT)]) {
				if (ntp == captp) {
					captp = captp ? captp * 2 : 16;
					tps = kmi_xrealloc(tps, captp * sizeof(*tps));
				}
				tps[ntp++] = kmi_xstrdup(name + strlen(KMI_TRACEPOINT));
				continue;
			}
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			if (!gelf_getshdr(elf_getscn(elf, sym.st_shndx), &fsh) ||
			    !(fsec = elf_strptr(elf, shstrndx, fsh.sh_name)) ||
			    kmi_unprobeable(fsec))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				funcs = kmi_xrealloc(funcs, cap * sizeof(*funcs));
			}
			funcs[n++] = kmi_xstrdup(name);
		}
	}
	elf_end(elf);
	if (n)
		qsort(funcs, n, sizeof(*funcs), kmi_str_cmp);
	if (ntp)
		qsort(tps, ntp, sizeof(*tps), kmi_str_cmp);
	m->funcs = funcs;
	m->nfuncs = n;
	m->tracepoints = tps;
	m->ntracepoints = ntp;
}

static void
kmi_read_module(struct kmod_entry *m)
{
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map;

	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || st.st_size < 64 ||
	    (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	if (zfile_format(map, (size_t)st.st_size) != ZFILE_PLAIN) {
		char *image;
		size_t isize;
		if (zfile_decode(map, (size_t)st.st_size, KMI_MAX_MODULE, &image, &isize)) {
			kmi_read_elf(m, image, isize);
			free(image);
		}
	} else {
		kmi_read_elf(m, map, (size_t)st.st_size);
	}
	munmap(map, (size_t)st.st_size);
}

/* A directory entry that is a directory (some file systems do not fill
 * d_type: then stat says). */
static bool
kmi_is_dir(const struct dirent *de, const char *path)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
kmi_walk(struct kmod_index *ix, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[4096], *name;
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if ((name = kmi_module_name(de->d_name))) {
			struct kmod_entry *m = kmi_add(ix);
			m->name = name;
			m->path = kmi_xstrdup(sub);
			kmi_read_module(m);
		} else if (depth > 0 && kmi_is_dir(de, sub) &&
			   strcmp(de->d_name, "build") && strcmp(de->d_name, "source")) {
			kmi_walk(ix, sub, depth - 1);
		}
	}
	closedir(d);
}

/* ---- the disk cache ---- */

static bool
kmi_cache_path(const char *modules_dir, char *out, size_t len, bool create)
{
	char dir[4096], dep[4096];
	struct stat st;

	snprintf(dep, sizeof(dep), "%s/modules.dep", modules_dir);
	if (stat(dep, &st) != 0 && stat(modules_dir, &st) != 0)
		return false;
	if (!cache_subdir("kmods", create, dir, sizeof(dir)))
		return false;
	snprintf(out, len, "%s/%016llx-%llx-%llx.idx", dir,
		 (unsigned long long)cache_name_hash(modules_dir),
		 (unsigned long long)st.st_size,
		 (unsigned long long)st.st_mtim.tv_sec * 1000000000ULL +
		 (unsigned long long)st.st_mtim.tv_nsec);
	return true;
}

/* Parse the cache in place: names and paths point into buf. */
static bool
kmi_cache_parse(struct kmod_index *ix, char *buf)
{
	char *line = buf, *next;
	const char **funcs = NULL, **tps = NULL;
	size_t nf = 0, capf = 0, at = 0, ntp = 0, captp = 0, attp = 0;

	if (strncmp(buf, KMOD_INDEX_MAGIC "\n", 9) != 0)
		return false;
	line += 9;
	/* one array for all names; each module points at its slice */
	for (; *line; line = next) {
		if (!(next = strchr(line, '\n')))
			return false;	/* truncated */
		*next++ = '\0';
		if (line[0] == 'M' && line[1] == ' ') {
			char *name = line + 2, *flag = strchr(name, ' '), *path;
			if (!flag || (flag[1] != '0' && flag[1] != '1') || flag[2] != ' ')
				return false;
			*flag = '\0';
			path = flag + 3;
			struct kmod_entry *m = kmi_add(ix);
			m->name = name;
			m->path = path;
			m->has_dwarf = flag[1] == '1';
			continue;
		}
		if (!ix->nmods)
			return false;
		if (line[0] == 'T' && line[1] == ' ') {
			if (ntp == captp) {
				captp = captp ? captp * 2 : 1024;
				tps = kmi_xrealloc(tps, captp * sizeof(*tps));
			}
			tps[ntp++] = line + 2;
			ix->mods[ix->nmods - 1].ntracepoints++;
			continue;
		}
		if (nf == capf) {
			capf = capf ? capf * 2 : 4096;
			funcs = kmi_xrealloc(funcs, capf * sizeof(*funcs));
		}
		funcs[nf++] = line;
		ix->mods[ix->nmods - 1].nfuncs++;
	}
	/* the names are in module order: each module's slice follows */
	for (size_t i = 0; i < ix->nmods; at += ix->mods[i++].nfuncs)
		ix->mods[i].funcs = funcs + at;
	for (size_t i = 0; i < ix->nmods; attp += ix->mods[i++].ntracepoints)
		ix->mods[i].tracepoints = tps + attp;
	return true;
}

static bool
kmi_cache_load(struct kmod_index *ix, const char *path)
{
	FILE *in = fopen(path, "re");
	struct stat st;
	char *buf;

	if (!in)
		return false;
	if (fstat(fileno(in), &st) != 0 || st.st_size < 9 || st.st_size > (1 << 30)) {
		fclose(in);
		return false;
	}
	buf = kmi_xrealloc(NULL, (size_t)st.st_size + 1);
	if (fread(buf, 1, (size_t)st.st_size, in) != (size_t)st.st_size) {
		fclose(in);
		free(buf);
		return false;
	}
	fclose(in);
	buf[st.st_size] = '\0';
	if (!kmi_cache_parse(ix, buf)) {
		free(buf);
		ix->nmods = 0;
		return false;
	}
	return true;
}

static void
kmi_cache_store(const struct kmod_index *ix, const char *path)
{
	char tmp[4300];
	FILE *out;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (!(out = fopen(tmp, "we")))
		return;
	ok = fputs(KMOD_INDEX_MAGIC "\n", out) >= 0;
	for (size_t i = 0; ok && i < ix->nmods; i++) {
		const struct kmod_entry *m = &ix->mods[i];
		if (strchr(m->path, '\n'))
			continue;
		ok = fprintf(out, "M %s %d %s\n", m->name, m->has_dwarf, m->path) > 0;
		for (size_t j = 0; ok && j < m->nfuncs; j++)
			ok = fprintf(out, "%s\n", m->funcs[j]) > 0;
		for (size_t j = 0; ok && j < m->ntracepoints; j++)
			ok = fprintf(out, "T %s\n", m->tracepoints[j]) > 0;
	}
	if (fclose(out) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
}

const struct kmod_index *
kmod_index_get(const char *modules_dir, char *err, size_t errlen)
{
	char cache[4200];
	bool have_cache;
	struct stat st;

	if (cached && strcmp(cached->dir, modules_dir) == 0)
		return cached;
	if (stat(modules_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "no module directory %s", modules_dir);
		return NULL;
	}
	struct kmod_index *ix = kmi_xrealloc(NULL, sizeof(*ix));
	memset(ix, 0, sizeof(*ix));
	ix->dir = kmi_xstrdup(modules_dir);
	have_cache = kmi_cache_path(modules_dir, cache, sizeof(cache), false);
	if (!have_cache || !kmi_cache_load(ix, cache)) {
		elf_version(EV_CURRENT);
		kmi_walk(ix, modules_dir, 8);
		if (kmi_cache_path(modules_dir, cache, sizeof(cache), true))
			kmi_cache_store(ix, cache);
	}
	cached = ix;
	return ix;
}

size_t
kmod_index_count(const struct kmod_index *ix)
{
	return ix->nmods;
}

const struct kmod_entry *
kmod_index_at(const struct kmod_index *ix, size_t i)
{
	return i < ix->nmods ? &ix->mods[i] : NULL;
}

bool
kmod_name_matches(const char *pattern, const char *name)
{
	char p[512], n[512];
	bool in_set = false;

	snprintf(p, sizeof(p), "%s", pattern);
	snprintf(n, sizeof(n), "%s", name);
	for (char *c = p; *c; c++) {	/* not the '-' of a range [a-z] */
		if (*c == '[')
			in_set = true;
		else if (*c == ']')
			in_set = false;
		else if (*c == '-' && !in_set)
			*c = '_';
	}
	for (char *c = n; *c; c++)
		if (*c == '-')
			*c = '_';
	return fnmatch(p, n, 0) == 0;
}

bool
kmod_entry_has_func(const struct kmod_entry *m, const char *pattern)
{
	if (!strpbrk(pattern, "*?["))
		return bsearch(&pattern, m->funcs, m->nfuncs, sizeof(*m->funcs),
			       kmi_str_cmp) != NULL;
	for (size_t i = 0; i < m->nfuncs; i++)
		if (fnmatch(pattern, m->funcs[i], 0) == 0)
			return true;
	return false;
}

bool
kmod_entry_has_tracepoint(const struct kmod_entry *m, const char *pattern)
{
	for (size_t i = 0; i < m->ntracepoints; i++)
		if (fnmatch(pattern, m->tracepoints[i], 0) == 0)
			return true;
	return false;
}
