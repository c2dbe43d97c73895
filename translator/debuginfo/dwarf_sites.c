/*
 * dwarf_sites.c -- probe sites from DWARF: functions by wildcard name and
 * declaring file/line, the address after their prologue (libdw's
 * dwarf_entry_breakpoints, from the line table), their inlined instances,
 * their entries for return probes, and the first address of source lines
 * (.statement).  Each site also gets the ELF symbol holding it and the
 * offset from that symbol, which is what probes register.
 *
 * Takes: an open dw_file and a dw_query.  Produces: dw_site records kept
 * in the file (dwarf.h).  Must not: hand out absolute load addresses.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "translator/debuginfo/dwarf_internal.h"

/* "fs/read_write.c" matches ".../fs/read_write.c"; patterns may glob. */
static bool
file_matches(const char *path, const char *pattern)
{
	size_t plen, len;

	if (!pattern || !*pattern)
		return true;
	if (!path)
		return false;
	if (fnmatch(pattern, path, 0) == 0)
		return true;
	plen = strlen(pattern);
	len = strlen(path);
	if (!strpbrk(pattern, "*?[") && len > plen &&
	    strcmp(path + len - plen, pattern) == 0 && path[len - plen - 1] == '/')
		return true;
	char buf[4096];
	snprintf(buf, sizeof(buf), "*/%s", pattern);
	return fnmatch(buf, path, 0) == 0;
}

static bool
line_in(int line, int lo, int hi)
{
	if (!lo)
		return true;
	return line >= lo && line <= (hi ? hi : lo);
}

struct site_walk {
	struct dw_file *f;
	const struct dw_query *q;
	dw_site_fn fn;
	void *ctx;
	int count;
	bool stop;
	const char *name;
	uint64_t cu_off;
};

static struct dw_site *
keep_site(struct dw_file *f, const struct dw_site *s)
{
	for (size_t i = 0; i < f->nsites; i++) {
		struct dw_site *o = f->sites[i];
		if (o->kind == s->kind && o->pc == s->pc &&
		    o->die_off == s->die_off && o->line == s->line)
			return o;
	}
	if (f->nsites == f->capsites) {
		size_t cap = f->capsites ? f->capsites * 2 : 64;
		struct dw_site **b = realloc(f->sites, cap * sizeof(*b));
		if (!b)
			abort();
		f->sites = b;
		f->capsites = cap;
	}
	struct dw_site *n = dw_xalloc(sizeof(*n));
	*n = *s;
	f->sites[f->nsites++] = n;
	return n;
}

static int
sym_cmp(const void *a, const void *b)
{
	const struct dw_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* global names first among aliases: what kallsyms resolves */
	return (x->name[0] == '_') - (y->name[0] == '_');
}

/* Code that kprobes refuse or that is gone once the kernel or module
 * has started (SystemTap skips the same). */
static bool
unprobeable_section(Elf *elf, GElf_Word shndx)
{
	static const char *const deny[] = {
		".init.text", ".exit.text", ".noinstr.text", ".entry.text",
		".kprobes.text", ".cpuidle.text", ".head.text",
	};
	GElf_Shdr sh;
	size_t shstrndx;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx) ||
	    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
		return false;
	for (size_t i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (strcmp(name, deny[i]) == 0)
			return true;
	return false;
}

static int
sym_name_cmp(const void *a, const void *b)
{
	const struct dw_sym *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* A kprobe by name finds the first of several functions of one name, so
 * sites in such functions are placed from an anchor symbol instead. */
static void
mark_ambiguous(struct dw_file *f)
{
	struct dw_sym **by_name = dw_xalloc((f->nsyms + 1) * sizeof(*by_name));

	for (size_t i = 0; i < f->nsyms; i++)
		by_name[i] = &f->syms[i];
	qsort(by_name, f->nsyms, sizeof(*by_name), sym_name_cmp);
	for (size_t i = 1; i < f->nsyms; i++)
		if (strcmp(by_name[i - 1]->name, by_name[i]->name) == 0 &&
		    by_name[i - 1]->addr != by_name[i]->addr)
			by_name[i - 1]->ambiguous = by_name[i]->ambiguous = true;
	free(by_name);
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Drop the functions NOKPROBE_SYMBOL() put on the kprobe blacklist (each
 * has a _kbl_addr_NAME variable): registering them would fail. */
static void
drop_blacklisted(struct dw_file *f, const char **names, size_t nnames)
{
	size_t k = 0;

	if (!nnames)
		return;
	qsort(names, nnames, sizeof(*names), str_cmp);
	for (size_t i = 0; i < f->nsyms; i++)
		if (!bsearch(&f->syms[i].name, names, nnames, sizeof(*names),
			     str_cmp))
			f->syms[k++] = f->syms[i];
	f->nsyms = k;
}

static void
read_symbols(struct dw_file *f)
{
	int n = dwfl_module_getsymtab(f->mod);
	const char **blacklist;
	size_t nblack = 0;

	f->syms_read = true;
	if (n <= 0)
		return;
	f->syms = dw_xalloc((size_t)n * sizeof(*f->syms));
	f->ksymtab = dw_xalloc((size_t)n * sizeof(*f->ksymtab));
	blacklist = dw_xalloc((size_t)n * sizeof(*blacklist));
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr,
							   &shndx, &elf, NULL);
		if (!name || !*name)
			continue;
		if (strncmp(name, "_kbl_addr_", 10) == 0)
			blacklist[nblack++] = name + 10;
		if (strncmp(name, "__ksymtab_", 10) == 0 &&
		    GELF_ST_TYPE(sym.st_info) != STT_SECTION)
			f->ksymtab[f->nksymtab++] = name + 10;
		if (!f->is_module && !f->anchor &&
		    (strcmp(name, "_stext") == 0 || strcmp(name, "_text") == 0)) {
			f->anchor = name;
			f->anchor_addr = addr;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    shndx == SHN_UNDEF || unprobeable_section(elf, shndx))
			continue;
		f->syms[f->nsyms++] = (struct dw_sym){ addr, sym.st_size, name,
						       false };
	}
	drop_blacklisted(f, blacklist, nblack);
	qsort(f->ksymtab, f->nksymtab, sizeof(*f->ksymtab), str_cmp);
	free(blacklist);
	qsort(f->syms, f->nsyms, sizeof(*f->syms), sym_cmp);
	mark_ambiguous(f);
}

/* Fill symbol/offset from the ELF function symbols; false when pc is in
 * no function symbol (then nothing can be registered there). */
static bool
site_symbol(struct dw_file *f, struct dw_site *s)
{
	size_t lo = 0, hi;

	if (!f->syms_read)
		read_symbols(f);
	hi = f->nsyms;
	while (lo < hi) {	/* first symbol above pc */
		size_t mid = (lo + hi) / 2;
		if (f->syms[mid].addr <= s->pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	const struct dw_sym *sym = &f->syms[lo - 1];
	while (lo - 1 > 0 && f->syms[lo - 2].addr == sym->addr)
		sym = &f->syms[--lo - 1];	/* the first alias */
	if (s->pc >= sym->addr + (sym->size ? sym->size : 1))
		return false;
	s->symbol = sym->name;
	s->offset = s->pc - sym->addr;
	if (sym->ambiguous && f->anchor && s->pc > f->anchor_addr) {
		s->symbol = f->anchor;
		s->offset = s->pc - f->anchor_addr;
	}
	return true;
}

static void
emit(struct site_walk *w, struct dw_site *s, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	bool external = false;

	s->function = w->name;
	s->decl_file = dwarf_decl_file(die);
	dwarf_decl_line(die, &s->decl_line);
	dwarf_formflag(dwarf_attr_integrate(die, DW_AT_external, &attr), &external);
	s->external = external;
	if (!w->f->syms_read)
		read_symbols(w->f);
	s->exported = w->f->nksymtab || w->f->is_module
		? bsearch(&s->function, w->f->ksymtab, w->f->nksymtab,
			  sizeof(*w->f->ksymtab), str_cmp) != NULL
		: external;
	s->link_pc = s->pc - w->f->elf_bias;
	s->die_off = dwarf_dieoffset(die);
	s->cu_off = w->cu_off;
	if (!site_symbol(w->f, s))
		return;
	struct dw_site *kept = keep_site(w->f, s);
	w->count++;
	if (w->fn && !w->fn(kept, w->ctx))
		w->stop = true;
}

/* Whether an ELF function symbol named `name` starts at pc (file
 * layout). */
static bool
symbol_starts_at(struct dw_file *f, const char *name, uint64_t pc)
{
	size_t lo = 0, hi;

	if (!f->syms_read)
		read_symbols(f);
	hi = f->nsyms;
	while (lo < hi) {	/* first symbol at or above pc */
		size_t mid = (lo + hi) / 2;
		if (f->syms[mid].addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < f->nsyms && f->syms[lo].addr == pc; lo++)
		if (strcmp(f->syms[lo].name, name) == 0)
			return true;
	return false;
}

/* The function's entry.  GCC gives a function split into hot and .cold
 * parts DW_AT_ranges and no DW_AT_low_pc or DW_AT_entry_pc, so
 * dwarf_entrypc fails: then the range where the function's own symbol
 * starts, else the first range. */
static bool
function_entry(struct site_walk *w, Dwarf_Die *die, Dwarf_Addr *entry)
{
	Dwarf_Addr base, begin, end;
	ptrdiff_t off = 0;
	bool found = false;

	if (dwarf_entrypc(die, entry) == 0)
		return true;
	while ((off = dwarf_ranges(die, off, &base, &begin, &end)) > 0) {
		if (symbol_starts_at(w->f, w->name, begin + w->f->bias)) {
			*entry = begin;
			return true;
		}
		if (!found)
			*entry = begin;
		found = true;
	}
	return found;
}

static void
function_site(struct site_walk *w, Dwarf_Die *die)
{
	struct dw_site s = { .kind = w->q->kind };
	Dwarf_Addr low = 0, *bk = NULL;
	int n;

	if (!function_entry(w, die, &low))
		return;
	s.pc = low + w->f->bias;
	if (w->q->kind == DW_SITE_FUNCTION &&
	    (n = dwarf_entry_breakpoints(die, &bk)) > 0) {
		s.pc = bk[0] + w->f->bias;
		free(bk);
	}
	emit(w, &s, die);
}

static int
inline_instance(Dwarf_Die *inst, void *arg)
{
	struct site_walk *w = arg;
	struct dw_site s = { .kind = DW_SITE_INLINE };
	Dwarf_Addr pc;

	if (w->stop)
		return DWARF_CB_ABORT;
	if (dwarf_entrypc(inst, &pc) != 0)
		return DWARF_CB_OK;
	s.pc = pc + w->f->bias;
	emit(w, &s, inst);
	/* decl_file/line of the instance are those of the abstract origin */
	return w->stop ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* With FUNC@FILE:*, the lowest and highest line of the function's code
 * in the line table. */
static bool
function_lines(struct site_walk *w, Dwarf_Die *die, Dwarf_Lines *lines,
	       size_t nlines, int *lo, int *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		if (dwarf_lineaddr(l, &a) || dwarf_haspc(die, a) != 1 ||
		    dwarf_lineno(l, &ln) || ln <= 0 ||
		    !file_matches(dwarf_linesrc(l, NULL, NULL), w->q->file))
			continue;
		if (!*lo || ln < *lo)
			*lo = ln;
		if (ln > *hi)
			*hi = ln;
	}
	return *lo > 0;
}

/* The lowest address of line `want` inside `die`, among is_stmt rows
 * (or any rows when `any_row`). */
static bool
line_address(struct site_walk *w, Dwarf_Die *die, Dwarf_Lines *lines,
	     size_t nlines, int want, bool any_row, Dwarf_Addr *best)
{
	bool found = false;

	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		int ln;
		bool stmt;
		Dwarf_Addr a;
		if (dwarf_lineno(l, &ln) || ln != want ||
		    dwarf_linebeginstatement(l, &stmt) || (!stmt && !any_row) ||
		    dwarf_lineaddr(l, &a) || dwarf_haspc(die, a) != 1 ||
		    !file_matches(dwarf_linesrc(l, NULL, NULL), w->q->file))
			continue;
		if (!found || a < *best)
			*best = a;
		found = true;
	}
	return found;
}

/* Every line of lo..hi inside `die`: its lowest is_stmt address.  A
 * single line asked for with no is_stmt row (the compiler marked none
 * there) takes its lowest row of any kind, as SystemTap does. */
static void
statement_sites(struct site_walk *w, Dwarf_Die *die, int lo, int hi)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;
	Dwarf_Addr *done;	/* addresses probed already: several lines
				 * can start at one address (inlined code) */
	size_t ndone = 0;
	bool single;

	hi = hi ? hi : lo;
	if (!dw_die_at(w->f, w->cu_off, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return;
	if (w->q->every_line && !function_lines(w, die, lines, nlines, &lo, &hi))
		return;
	if (hi < lo)
		return;
	single = lo == hi && !w->q->every_line;
	done = dw_xalloc((size_t)(hi - lo + 1) * sizeof(*done));
	for (int want = lo; want <= hi && !w->stop; want++) {
		Dwarf_Addr best = 0;
		bool found = line_address(w, die, lines, nlines, want, false, &best) ||
			     (single && line_address(w, die, lines, nlines, want, true, &best));
		for (size_t i = 0; found && i < ndone; i++)
			found = done[i] != best;
		if (!found)
			continue;
		done[ndone++] = best;
		struct dw_site s = { .kind = DW_SITE_STATEMENT, .line = want,
				     .pc = best + w->f->bias };
		emit(w, &s, die);
	}
	free(done);
}

/* Whether source line `want` is within the lines of the function's own
 * code (an out-of-line function; inlined-only ones have no code of their
 * own), whether or not the line has code itself. */
static bool
code_has_line(struct site_walk *w, Dwarf_Die *die, bool has_code, int want)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;
	int lo, hi;

	if (!has_code || !dw_die_at(w->f, w->cu_off, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return false;
	return function_lines(w, die, lines, nlines, &lo, &hi) &&
	       want >= lo && want <= hi;
}

static void
visit_entry(struct site_walk *w, const struct dw_func_entry *e)
{
	Dwarf_Die die;
	int line = 0;
	const struct dw_query *q = w->q;

	if (!dw_die_at(w->f, e->die_off, &die))
		return;
	w->name = e->name;
	w->cu_off = e->cu_off;
	bool has_code = dwarf_hasattr(&die, DW_AT_low_pc) ||
			dwarf_hasattr(&die, DW_AT_ranges) ||
			dwarf_hasattr(&die, DW_AT_entry_pc);
	dwarf_decl_line(&die, &line);
	if (q->kind == DW_SITE_STATEMENT) {
		if (has_code && q->relative)
			statement_sites(w, &die, line + q->line_lo, 0);
		else if (has_code)
			statement_sites(w, &die, q->line_lo, q->line_hi);
		return;
	}
	if (!file_matches(dwarf_decl_file(&die), q->file))
		return;
	if (q->relative ? q->kind != DW_SITE_INLINE &&
			  !code_has_line(w, &die, has_code, line + q->line_lo)
			: !line_in(line, q->line_lo, q->line_hi) &&
			  (q->line_hi || !code_has_line(w, &die, has_code, q->line_lo)))
		return;
	if (q->kind == DW_SITE_INLINE) {
		if (dwarf_hasattr(&die, DW_AT_inline))
			dwarf_func_inline_instances(&die, inline_instance, w);
		return;
	}
	if (has_code)
		function_site(w, &die);
}

/* For dw_nearby_lines: the closest lines with code around `want`. */
struct nearby {
	int want, before, after;
};

static void
nearby_in(struct site_walk *w, Dwarf_Die *die, struct nearby *nb)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;

	if (!dw_die_at(w->f, w->cu_off, &cu) ||
	    dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return;
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		if (dwarf_lineno(l, &ln) || ln <= 0 || ln == nb->want ||
		    dwarf_lineaddr(l, &a) || dwarf_haspc(die, a) != 1 ||
		    !file_matches(dwarf_linesrc(l, NULL, NULL), w->q->file))
			continue;
		if (ln < nb->want && ln > nb->before)
			nb->before = ln;
		if (ln > nb->want && (!nb->after || ln < nb->after))
			nb->after = ln;
	}
}

bool
dw_nearby_lines(struct dw_file *f, const struct dw_query *q, int *before,
		int *after)
{
	struct site_walk w = { .f = f, .q = q };
	bool literal = !strpbrk(q->func, "*?[");
	char err[64];

	*before = *after = 0;
	if (!dw_build_index(f, err, sizeof(err)))
		return false;
	for (size_t i = 0; i < f->nfuncs; i++) {
		const struct dw_func_entry *e = &f->funcs[i];
		Dwarf_Die die;
		int decl = 0;
		if ((literal ? strcmp(e->name, q->func) != 0
			     : fnmatch(q->func, e->name, 0) != 0) ||
		    !dw_die_at(f, e->die_off, &die) ||
		    (!dwarf_hasattr(&die, DW_AT_low_pc) &&
		     !dwarf_hasattr(&die, DW_AT_ranges)))
			continue;
		dwarf_decl_line(&die, &decl);
		struct nearby nb = { q->relative ? decl + q->line_lo : q->line_lo,
				     0, 0 };
		w.cu_off = e->cu_off;
		nearby_in(&w, &die, &nb);
		if (nb.before > *before)
			*before = nb.before;
		if (nb.after && (!*after || nb.after < *after))
			*after = nb.after;
	}
	return *before || *after;
}

bool
dw_query_parse(char *spec, struct dw_query *q)
{
	char *at = strchr(spec, '@'), *sep, *end;

	q->func = spec;
	if (!at)
		return *spec != '\0';
	*at = '\0';
	q->file = at + 1;
	if ((sep = strrchr(at + 1, '+'))) {	/* FUNC@FILE+N */
		*sep = '\0';
		q->relative = true;
		q->line_lo = (int)strtol(sep + 1, &end, 10);
		return end != sep + 1 && !*end && q->line_lo >= 0 &&
		       *spec != '\0' && *q->file != '\0';
	}
	if ((sep = strrchr(at + 1, ':'))) {
		*sep = '\0';
		if (strcmp(sep + 1, "*") == 0) {
			q->every_line = true;
			return *spec != '\0' && *q->file != '\0';
		}
		q->line_lo = (int)strtol(sep + 1, &end, 10);
		if (end == sep + 1 || q->line_lo <= 0)
			return false;
		if (*end == '-') {
			q->line_hi = (int)strtol(end + 1, &end, 10);
			if (q->line_hi < q->line_lo)
				return false;
		}
		if (*end)
			return false;
	}
	return *spec != '\0' && *q->file != '\0';
}

int
dw_find_sites(struct dw_file *f, const struct dw_query *q, dw_site_fn fn,
	      void *ctx, char *err, size_t errlen)
{
	struct site_walk w = { .f = f, .q = q, .fn = fn, .ctx = ctx };
	bool literal = !strpbrk(q->func, "*?[");

	if (!dw_build_index(f, err, errlen))
		return -1;
	for (size_t i = 0; i < f->nfuncs && !w.stop; i++) {
		const struct dw_func_entry *e = &f->funcs[i];
		if (literal ? strcmp(e->name, q->func) != 0
			    : fnmatch(q->func, e->name, 0) != 0)
			continue;
		visit_entry(&w, e);
	}
	return w.count;
}
