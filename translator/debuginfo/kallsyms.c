/* kallsyms.c -- the table of kernel function names behind kallsyms.h.
 *
 * Takes /proc/kallsyms (plus, optionally, the kprobes blacklist) or a
 * `struct btf`, and produces a sorted table with one entry per distinct
 * name, counting duplicates (static functions of the same name in several
 * files), together with the address ranges the kernel forbids kprobes in.
 * All strings live in one buffer owned by the table.  Must not guess
 * addresses: without them (BTF, or kallsyms read without privilege) the
 * range check is simply not made and the kernel has the last word at
 * registration.
 */
#define _GNU_SOURCE	/* getline, strchrnul */
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/btf.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym_range {
	uint64_t start, end;
};

/* The kprobe-forbidden text, by the names of its start marker. */
static const char *const ksym_forbidden[] = {
	"__kprobes_text", "__noinstr_text", "__entry_text",
	"_init_text",	/* _sinittext.._einittext: freed after boot */
};
#define KSYM_NFORBIDDEN (sizeof(ksym_forbidden) / sizeof(ksym_forbidden[0]))

struct ksym_table {
	struct ksym *syms;
	size_t count;
	char *strings;		/* all names point in here */
	char **blacklist;	/* sorted, pointing into blacklist_text */
	size_t nblacklist;
	char *blacklist_text;
	struct ksym_range forbidden[KSYM_NFORBIDDEN];
	bool has_addresses;
	const char *source;
};

static void
ksym_set_error(char *err, size_t errlen, const char *what, const char *path)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", path, what);
}

static int
ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	int c;

	if (!x->module != !y->module)
		return x->module ? 1 : -1;	/* vmlinux first */
	if (x->module && (c = strcmp(x->module, y->module)) != 0)
		return c;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sort, then fold runs of the same (module, name) into their first entry. */
static void
ksym_sort_and_fold(struct ksym_table *t)
{
	size_t i, out = 0;

	qsort(t->syms, t->count, sizeof(*t->syms), ksym_cmp);
	for (i = 0; i < t->count; i++) {
		struct ksym *prev = out ? &t->syms[out - 1] : NULL;

		if (prev && strcmp(prev->name, t->syms[i].name) == 0 &&
		    (prev->module == t->syms[i].module ||
		     (prev->module && t->syms[i].module &&
		      strcmp(prev->module, t->syms[i].module) == 0))) {
			prev->copies++;
			continue;
		}
		t->syms[out] = t->syms[i];
		t->syms[out++].copies = 1;
	}
	t->count = out;
}

static char *
ksym_slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 65536) {
			char *bigger = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!bigger) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = bigger;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	*size = len;
	return buf;
}

/* Remember where the forbidden text starts and ends. */
static void
ksym_note_marker(struct ksym_table *t, const char *name, uint64_t addr)
{
	size_t i, n;

	if (strcmp(name, "_sinittext") == 0)
		name = "_init_text_start";
	else if (strcmp(name, "_einittext") == 0)
		name = "_init_text_end";
	for (i = 0; i < KSYM_NFORBIDDEN; i++) {
		n = strlen(ksym_forbidden[i]);
		if (strncmp(name, ksym_forbidden[i], n) != 0)
			continue;
		if (strcmp(name + n, "_start") == 0)
			t->forbidden[i].start = addr;
		else if (strcmp(name + n, "_end") == 0)
			t->forbidden[i].end = addr;
	}
}

/* "ffffffff81000000 T _stext" or "... t foo\t[module]"; the line is
 * split in place. */
static bool
ksym_parse_line(struct ksym_table *t, char *line, struct ksym *out)
{
	char *end, *name, *module;
	unsigned long long addr = strtoull(line, &end, 16);

	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	out->type = end[1];
	name = end + 3;
	module = strchr(name, '\t');
	if (module) {
		*module++ = '\0';
		if (*module == '[') {
			module++;
			*strchrnul(module, ']') = '\0';
		}
	}
	out->name = name;
	out->module = module && *module ? module : NULL;
	out->addr = addr;
	if (!out->module)
		ksym_note_marker(t, name, addr);
	return out->type == 't' || out->type == 'T' || out->type == 'W';
}

static bool
ksym_parse_kallsyms(struct ksym_table *t)
{
	char *line = t->strings, *nl;
	size_t cap = 0;

	for (; *line; line = nl) {
		struct ksym sym = { 0 };

		nl = strchrnul(line, '\n');
		if (*nl)
			*nl++ = '\0';
		if (!ksym_parse_line(t, line, &sym))
			continue;
		if (t->count == cap) {
			struct ksym *bigger = realloc(t->syms, (cap = cap ? 2 * cap : 65536) * sizeof(*bigger));

			if (!bigger)
				return false;
			t->syms = bigger;
		}
		t->has_addresses |= sym.addr != 0;
		t->syms[t->count++] = sym;
	}
	return true;
}

static int
ksym_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lines are "0xSTART-0xEND\tname"; only the names are kept. */
static void
ksym_load_blacklist(struct ksym_table *t, const char *path)
{
	size_t size, cap = 0;
	char *line, *nl;

	if (!path || !(t->blacklist_text = ksym_slurp(path, &size)))
		return;
	for (line = t->blacklist_text; *line; line = nl) {
		char *tab, **bigger;

		nl = strchrnul(line, '\n');
		if (*nl)
			*nl++ = '\0';
		if (!(tab = strchr(line, '\t')))
			continue;
		if (t->nblacklist == cap) {
			if (!(bigger = realloc(t->blacklist, (cap = cap ? 2 * cap : 1024) * sizeof(*bigger))))
				return;
			t->blacklist = bigger;
		}
		t->blacklist[t->nblacklist++] = tab + 1;
	}
	qsort(t->blacklist, t->nblacklist, sizeof(char *), ksym_cmp_str);
}

struct ksym_table *
ksym_load_kallsyms(const char *path, const char *blacklist,
		   char *err, size_t errlen)
{
	struct ksym_table *t = calloc(1, sizeof(*t));
	size_t size;

	if (!t) {
		ksym_set_error(err, errlen, "out of memory", path);
		return NULL;
	}
	t->source = "kallsyms";
	if (!(t->strings = ksym_slurp(path, &size))) {
		ksym_set_error(err, errlen, strerror(errno), path);
		ksym_free(t);
		return NULL;
	}
	if (!ksym_parse_kallsyms(t) || t->count == 0) {
		ksym_set_error(err, errlen, t->count ? "out of memory"
				: "no function symbols", path);
		ksym_free(t);
		return NULL;
	}
	ksym_load_blacklist(t, blacklist);
	ksym_sort_and_fold(t);
	return t;
}

struct ksym_table *
ksym_load_btf(const struct btf *btf, char *err, size_t errlen)
{
	struct ksym_table *t = calloc(1, sizeof(*t));
	uint32_t id, n = btf__type_cnt(btf);
	size_t bytes = 0, nfuncs = 0;
	char *p;

	for (id = btf_first_id(btf); id < n; id++) {
		if (btf_kind_of(btf, id) == BTF_KIND_FUNC) {
			bytes += strlen(btf_name(btf, id)) + 1;
			nfuncs++;
		}
	}
	if (!t || !(t->syms = calloc(nfuncs + 1, sizeof(*t->syms))) ||
	    !(t->strings = malloc(bytes + 1))) {
		ksym_set_error(err, errlen, "out of memory", "BTF functions");
		ksym_free(t);
		return NULL;
	}
	t->source = "btf";
	for (id = btf_first_id(btf), p = t->strings; id < n; id++) {
		const char *name = btf_name(btf, id);

		if (btf_kind_of(btf, id) != BTF_KIND_FUNC || !*name)
			continue;
		strcpy(p, name);
		t->syms[t->count].name = p;
		t->syms[t->count++].type = 'F';
		p += strlen(name) + 1;
	}
	ksym_sort_and_fold(t);
	return t;
}

void
ksym_free(struct ksym_table *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->strings);
	free(t->blacklist);
	free(t->blacklist_text);
	free(t);
}

const char *
ksym_source(const struct ksym_table *t)
{
	return t->source;
}

bool
ksym_has_addresses(const struct ksym_table *t)
{
	return t->has_addresses;
}

size_t
ksym_count(const struct ksym_table *t)
{
	return t ? t->count : 0;
}

const struct ksym *
ksym_at(const struct ksym_table *t, size_t idx)
{
	return t && idx < t->count ? &t->syms[idx] : NULL;
}

/* vmlinux symbols come first in the table, sorted by name. */
static size_t
ksym_vmlinux_count(const struct ksym_table *t)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->syms[mid].module)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

const struct ksym *
ksym_find(const struct ksym_table *t, const char *name)
{
	size_t lo = 0, hi = t ? ksym_vmlinux_count(t) : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(t->syms[mid].name, name);

		if (c == 0)
			return &t->syms[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool
ksym_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool
ksym_is_label(const char *name)
{
	return strcmp(name, "_stext") == 0 || strcmp(name, "_etext") == 0 ||
	       strcmp(name, "_sinittext") == 0 ||
	       strcmp(name, "_einittext") == 0 ||
	       (strncmp(name, "__", 2) == 0 &&
		(ksym_ends_with(name, "_text_start") ||
		 ksym_ends_with(name, "_text_end")));
}

static bool
ksym_in_forbidden_text(const struct ksym_table *t, uint64_t addr)
{
	size_t i;

	for (i = 0; addr && i < KSYM_NFORBIDDEN; i++)
		if (t->forbidden[i].start && addr >= t->forbidden[i].start &&
		    addr < t->forbidden[i].end)
			return true;
	return false;
}

static bool
ksym_blacklisted(const struct ksym_table *t, const char *name)
{
	return t->nblacklist &&
	       bsearch(&name, t->blacklist, t->nblacklist, sizeof(char *),
		       ksym_cmp_str) != NULL;
}

enum ksym_probeable
ksym_check(const struct ksym_table *t, const struct ksym *sym,
	   const char **why)
{
	const char *dummy;

	why = why ? why : &dummy;
	*why = NULL;
	if (strncmp(sym->name, "__pfx_", 6) == 0 ||
	    strncmp(sym->name, "__cfi_", 6) == 0 || ksym_is_label(sym->name)) {
		*why = "a label, not a function";
		return KSYM_REFUSED;
	}
	if (strstr(sym->name, ".cold")) {
		*why = "the cold part of a function, not its entry";
		return KSYM_REFUSED;
	}
	if (!sym->module && ksym_in_forbidden_text(t, sym->addr)) {
		*why = "in kernel text where kprobes are not allowed (entry, noinstr or kprobes code)";
		return KSYM_REFUSED;
	}
	if (ksym_blacklisted(t, sym->name)) {
		*why = "on the kernel's kprobes blacklist";
		return KSYM_REFUSED;
	}
	if (strchr(sym->name, '.')) {
		*why = "a compiler-made copy (.isra, .constprop, .part) whose arguments may differ from the source";
		return KSYM_CLONE;
	}
	return KSYM_PROBEABLE;
}

size_t
ksym_foreach(const struct ksym_table *t, const char *glob, unsigned flags,
	     bool (*fn)(const struct ksym *sym, void *ctx), void *ctx)
{
	size_t i, n = 0, end;
	bool want_clones = strchr(glob, '.') != NULL;

	if (!t)
		return 0;
	end = (flags & KSYM_WITH_MODULES) ? t->count : ksym_vmlinux_count(t);
	for (i = 0; i < end; i++) {
		const struct ksym *sym = &t->syms[i];
		enum ksym_probeable p;

		if (fnmatch(glob, sym->name, 0) != 0)
			continue;
		p = ksym_check(t, sym, NULL);
		if ((p == KSYM_REFUSED && !(flags & KSYM_WITH_REFUSED)) ||
		    (p == KSYM_CLONE && !want_clones))
			continue;
		n++;
		if (fn && !fn(sym, ctx))
			break;
	}
	return n;
}
