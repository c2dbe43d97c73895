/*
 * dwarf_sitecache.c -- the probe sites a module wildcard found, kept on
 * disk between runs (dwarf.h, dw_site_cache_*).
 *
 * module("*").function("*_open") finds sites in hundreds of modules, and
 * opening each one's DWARF (libdwfl relocates its debug sections) costs
 * seconds and gigabytes.  The sites themselves are small: recorded per
 * module file under a key naming the query, a later run with the same
 * query gets them without opening any DWARF, which is then opened only
 * for the probes whose $variables a script reads.
 *
 * Takes: a key (any text: the query), then per DWARF file its sites.
 * Produces: dwsites/HASH.sites in the cache root (cache_dir.h): "TAPCDWS1", the key, then per file "F\tSIZE\tMTIME_NS\tPATH"
 * and its sites "S\t<fields>\tFUNCTION\tDECL_FILE\tSYMBOL", tab-separated.
 * A file whose size or mtime changed has no sites in the cache.
 * Must not: trust a cache file that does not parse (then it is ignored),
 * or fail a run because the cache cannot be written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/dwarf_internal.h"

#define DW_SITES_MAGIC "TAPCDWS1"

struct dw_site_cache_file {
	char *path;
	unsigned long long size, mtime;
	struct dw_site *sites;
	int nsites;
};

struct dw_site_cache {
	char *key;
	char *file;		/* where it lives; NULL: no cache dir */
	struct dw_site_cache_file *files;
	size_t nfiles, capfiles;
	bool dirty;
	char *buf;		/* the loaded text: strings point into it */
};

static bool
sc_stat(const char *path, unsigned long long *size, unsigned long long *mtime)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	*size = (unsigned long long)st.st_size;
	*mtime = (unsigned long long)st.st_mtim.tv_sec * 1000000000ULL +
		 (unsigned long long)st.st_mtim.tv_nsec;
	return true;
}

static char *
sc_path(const char *key)
{
	char dir[4096], out[4200];

	if (!cache_subdir("dwsites", false, dir, sizeof(dir)))
		return NULL;
	snprintf(out, sizeof(out), "%s/%016llx.sites", dir,
		 (unsigned long long)cache_name_hash(key));
	return dw_xstrdup(out);
}

static struct dw_site_cache_file *
sc_add_file(struct dw_site_cache *c)
{
	if (c->nfiles == c->capfiles) {
		size_t cap = c->capfiles ? c->capfiles * 2 : 64;
		struct dw_site_cache_file *b = realloc(c->files, cap * sizeof(*b));
		if (!b)
			abort();
		c->files = b;
		c->capfiles = cap;
	}
	memset(&c->files[c->nfiles], 0, sizeof(c->files[0]));
	return &c->files[c->nfiles++];
}

/* Split a line at tabs into at most max fields; the count. */
static int
sc_fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		if (!(line = strchr(line, '\t')))
			break;
		*line++ = '\0';
	}
	return n;
}

static bool
sc_site(struct dw_site_cache_file *cf, char **f)
{
	struct dw_site s = { 0 };
	char *end;
	unsigned long long v[10];

	for (int i = 0; i < 10; i++) {
		v[i] = strtoull(f[i + 1], &end, 10);
		if (end == f[i + 1] || *end)
			return false;
	}
	if (v[0] > DW_SITE_RETURN)
		return false;
	s.kind = (enum dw_site_kind)v[0];
	s.pc = v[1];
	s.link_pc = v[2];
	s.offset = v[3];
	s.decl_line = (int)v[4];
	s.line = (int)v[5];
	s.external = v[6] != 0;
	s.exported = v[7] != 0;
	s.die_off = v[8];
	s.cu_off = v[9];
	s.function = f[11];
	s.decl_file = *f[12] ? f[12] : NULL;
	s.symbol = f[13];
	struct dw_site *b = realloc(cf->sites, (size_t)(cf->nsites + 1) * sizeof(*b));
	if (!b)
		abort();
	cf->sites = b;
	cf->sites[cf->nsites++] = s;
	return true;
}

static bool
sc_parse(struct dw_site_cache *c, char *buf)
{
	char *line = buf, *next, *f[14];
	struct dw_site_cache_file *cf = NULL;
	int n;

	for (int i = 0; *line; i++, line = next) {
		if (!(next = strchr(line, '\n')))
			return false;
		*next++ = '\0';
		if (i == 0 && strcmp(line, DW_SITES_MAGIC) != 0)
			return false;
		if (i == 1 && strcmp(line, c->key) != 0)
			return false;	/* another query of the same hash */
		if (i < 2)
			continue;
		n = sc_fields(line, f, 14);
		if (n == 4 && strcmp(f[0], "F") == 0) {
			cf = sc_add_file(c);
			cf->size = strtoull(f[1], NULL, 10);
			cf->mtime = strtoull(f[2], NULL, 10);
			cf->path = f[3];
		} else if (n != 14 || strcmp(f[0], "S") != 0 || !cf ||
			   !sc_site(cf, f)) {
			return false;
		}
	}
	return true;
}

static void
sc_free_files(struct dw_site_cache *c, size_t from)
{
	for (size_t i = from; i < c->nfiles; i++)
		free(c->files[i].sites);
}

struct dw_site_cache *
dw_site_cache_open(const char *key)
{
	struct dw_site_cache *c = dw_xalloc(sizeof(*c));
	FILE *in;
	struct stat st;

	c->key = dw_xstrdup(key);
	for (char *p = c->key; *p; p++)	/* one line in the file */
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	c->file = sc_path(c->key);
	if (!c->file || !(in = fopen(c->file, "re")))
		return c;
	if (fstat(fileno(in), &st) == 0 && st.st_size > 0 && st.st_size < (1 << 28)) {
		c->buf = dw_xalloc((size_t)st.st_size + 1);
		if (fread(c->buf, 1, (size_t)st.st_size, in) != (size_t)st.st_size ||
		    !sc_parse(c, c->buf)) {
			sc_free_files(c, 0);
			c->nfiles = 0;
		}
	}
	fclose(in);
	return c;
}

int
dw_site_cache_get(struct dw_site_cache *c, const char *path,
		  const struct dw_site **out)
{
	unsigned long long size, mtime;

	for (size_t i = 0; i < c->nfiles; i++) {
		struct dw_site_cache_file *cf = &c->files[i];
		if (strcmp(cf->path, path) != 0)
			continue;
		if (!sc_stat(path, &size, &mtime) || size != cf->size ||
		    mtime != cf->mtime)
			return -1;
		*out = cf->sites;
		return cf->nsites;
	}
	return -1;
}

void
dw_site_cache_put(struct dw_site_cache *c, const char *path,
		  const struct dw_site *const *sites, int n)
{
	struct dw_site_cache_file *cf = NULL;
	unsigned long long size, mtime;

	if (!sc_stat(path, &size, &mtime))
		return;
	for (size_t i = 0; i < c->nfiles && !cf; i++)
		if (strcmp(c->files[i].path, path) == 0)
			cf = &c->files[i];
	if (!cf)
		cf = sc_add_file(c);
	free(cf->sites);
	/* the strings stay where the sites' file keeps them: written out
	 * by dw_site_cache_close while that file is open */
	cf->path = (char *)path;
	cf->size = size;
	cf->mtime = mtime;
	cf->sites = dw_xalloc((size_t)(n + 1) * sizeof(*cf->sites));
	for (int i = 0; i < n; i++)
		cf->sites[i] = *sites[i];
	cf->nsites = n;
	c->dirty = true;
}

static bool
sc_clean(const char *s)
{
	return !s || !strpbrk(s, "\t\n");
}

static void
sc_store(const struct dw_site_cache *c)
{
	char tmp[4300], dir[4200];
	FILE *out;
	bool ok;

	snprintf(dir, sizeof(dir), "%s", c->file);
	*strrchr(dir, '/') = '\0';
	if (!cache_mkdir_p(dir))
		return;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", c->file, (int)getpid());
	if (!(out = fopen(tmp, "we")))
		return;
	ok = fprintf(out, "%s\n%s\n", DW_SITES_MAGIC, c->key) > 0;
	for (size_t i = 0; ok && i < c->nfiles; i++) {
		const struct dw_site_cache_file *cf = &c->files[i];
		if (!sc_clean(cf->path))
			continue;
		ok = fprintf(out, "F\t%llu\t%llu\t%s\n", cf->size, cf->mtime,
			     cf->path) > 0;
		for (int j = 0; ok && j < cf->nsites; j++) {
			const struct dw_site *s = &cf->sites[j];
			if (!sc_clean(s->function) || !sc_clean(s->decl_file) ||
			    !sc_clean(s->symbol) || !s->symbol)
				continue;
			ok = fprintf(out, "S\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%d\t%d\t%d\t%d\t%" PRIu64 "\t%" PRIu64 "\t%s\t%s\t%s\n",
				     (int)s->kind, s->pc, s->link_pc, s->offset,
				     s->decl_line, s->line, s->external,
				     s->exported, s->die_off, s->cu_off,
				     s->function, s->decl_file ? s->decl_file : "",
				     s->symbol) > 0;
		}
	}
	if (fclose(out) != 0)
		ok = false;
	if (!ok || rename(tmp, c->file) != 0)
		unlink(tmp);
}

void
dw_site_cache_close(struct dw_site_cache *c)
{
	if (!c)
		return;
	if (c->dirty && c->file)
		sc_store(c);
	sc_free_files(c, 0);
	free(c->files);
	free(c->buf);
	free(c->file);
	free(c->key);
	free(c);
}
