/*
 * process.c -- user-space probes: process("PATH"|PID).function("PATTERN")
 * [.call|.return], .statement(ADDR), .statement("FUNC@FILE:LINE") (DWARF
 * line table), .mark("NAME") (SDT notes), .library("LIB").function(...),
 * .plt[("PATTERN")][.return] (the procedure linkage table stubs of the
 * file, debuginfo/elf_plt.c; $$name is the function a stub calls), the
 * life-cycle events process[("PATH"|PID)].begin/.end,
 * process[...].thread.begin/.end, and the system calls of those
 * processes, process[...].syscall[.return] ($syscall, $arg1..$arg6;
 * $return).
 *
 * PATH is resolved as stap does (a name without '/' is searched in $PATH)
 * or, not found there, as the dynamic linker finds a shared library
 * (process("libc.so.6"): $LD_LIBRARY_PATH, the ld.so cache, the default
 * directories; debuginfo/elf_libpath.c); a path with wildcards is every
 * file it matches (match_path_pattern); each is read with libelf
 * (debuginfo/elf_syms.c): functions come from the
 * symbol table, so no debug information is needed; a probe lands on the
 * function's first instruction, or after its prologue when the program
 * has DWARF (process_dwarf.c), which gives $var, $$parms & co; in a
 * .return probe the parameters are their values at entry (@entry, saved
 * after the prologue).  Without a PATH, .function/.mark/.plt use the
 * program of -c CMD (a script's interpreter, which is what runs).
 * Context variables without DWARF: $return in .return probes,
 * $arg1..$argN in .mark probes.  process(PID) reads the program of a
 * running process from /proc/PID/exe; its probes fire only in it.
 */
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/elf_syms.h"
#include "translator/debuginfo/sdt.h"
#include "translator/sema/elab.h"
#include "translator/common/hash.h"
#include "translator/providers/process.h"
#include "translator/providers/process_dwarf.h"
#include "translator/providers/provider.h"
#include "translator/sema/tvar_access.h"
#include "runtime/core/abi.h"

#define PROCESS_MAX_EXPANSION 5000

enum shape_what { W_EVENT, W_FUNCTION, W_STATEMENT, W_MARK, W_PLT };

struct process_shape {
	const char *path;		/* as written, or NULL */
	int64_t pid;
	const char *library;
	enum shape_what what;
	enum process_event event;
	const char *pattern;		/* function, mark or PLT pattern */
	const char *provider;		/* .provider("P").mark(...) */
	int64_t address;
	const char *statement;		/* .statement("FUNC@FILE:LINE") */
	bool is_return;
};

static bool
process_claims(const struct node *point)
{
	return pp_is(point, 0, "process");
}

static bool
parse_event(const struct node *point, int i, struct process_shape *k)
{
	bool thread = pp_is(point, i, "thread");

	if (pp_is(point, i, "syscall") && !pp_arg(point, i)) {
		k->what = W_EVENT;
		k->event = PROC_SYSCALL;
		if (pp_is(point, i + 1, "return") && !pp_arg(point, i + 1)) {
			k->event = PROC_SYSCALL_RETURN;
			i++;
		}
		return i + 1 == point->u.point.ncomps;
	}
	if (thread)
		i++;
	if (pp_arg(point, i) || i + 1 != point->u.point.ncomps)
		return false;
	k->what = W_EVENT;
	if (pp_is(point, i, "begin"))
		k->event = thread ? PROC_THREAD_BEGIN : PROC_BEGIN;
	else if (pp_is(point, i, "end"))
		k->event = thread ? PROC_THREAD_END : PROC_END;
	else
		return false;
	return true;
}

static bool
parse_probe_kind(const struct node *point, int i, struct process_shape *k)
{
	if (pp_is(point, i, "function") && pp_arg_string(point, i)) {
		k->what = W_FUNCTION;
		k->pattern = pp_arg_string(point, i++);
		if (pp_is(point, i, "return") && !pp_arg(point, i))
			k->is_return = true, i++;
		else if (pp_is(point, i, "call") && !pp_arg(point, i))
			i++;
	} else if (pp_is(point, i, "plt") &&
		   (!pp_arg(point, i) || pp_arg_string(point, i))) {
		k->what = W_PLT;	/* .plt alone: every stub */
		k->pattern = pp_arg(point, i) ? pp_arg_string(point, i) : "*";
		i++;
		if (pp_is(point, i, "return") && !pp_arg(point, i))
			k->is_return = true, i++;
	} else if (pp_is(point, i, "statement") && pp_arg_string(point, i)) {
		k->what = W_STATEMENT;
		k->statement = pp_arg_string(point, i++);
	} else if (pp_is(point, i, "statement") &&
		   pp_arg_number(point, i, &k->address)) {
		k->what = W_STATEMENT;
		i++;
		if (pp_is(point, i, "absolute") && !pp_arg(point, i))
			i++;
	} else {
		if (pp_is(point, i, "provider") && pp_arg_string(point, i))
			k->provider = pp_arg_string(point, i++);
		if (!pp_is(point, i, "mark") || !pp_arg_string(point, i))
			return false;
		k->what = W_MARK;
		k->pattern = pp_arg_string(point, i++);
	}
	return i == point->u.point.ncomps;
}

static bool
parse_shape(const struct node *point, struct process_shape *k)
{
	int i = 1;

	memset(k, 0, sizeof(*k));
	if (pp_arg(point, 0) && !(k->path = pp_arg_string(point, 0)) &&
	    !pp_arg_number(point, 0, &k->pid))
		return false;
	if (pp_is(point, i, "library") && pp_arg_string(point, i))
		k->library = pp_arg_string(point, i++);
	if (pp_is(point, i, "begin") || pp_is(point, i, "end") ||
	    pp_is(point, i, "thread") || pp_is(point, i, "syscall"))
		return !k->library && parse_event(point, i, k);
	return parse_probe_kind(point, i, k);
}

/* The first word of -c CMD, for process.function without a path. */
static const char *
command_program(struct elab *e)
{
	const char *cmd = e->s->opts.target_command;
	size_t len;

	if (!cmd)
		return NULL;
	cmd += strspn(cmd, " \t");
	len = strcspn(cmd, " \t");
	return len ? arena_strndup(e->s->arena, cmd, len) : NULL;
}

/*
 * process(PID) names a process running here (the build host: right for
 * -x PID and local runs), whose program is read from /proc/PID/exe; at
 * run time the probe fires only in that process (its tgid).
 */
static bool
pid_exists(struct elab *e, struct node *point, int64_t pid)
{
	char proc[64];
	struct stat st;

	snprintf(proc, sizeof(proc), "/proc/%lld", (long long)pid);
	if (pid > 0 && pid <= INT32_MAX && stat(proc, &st) == 0)
		return true;
	diag_error(&e->s->diag, point->loc, "E_PROCESS_PID",
		   "probe point '%s': no process %lld is running (process(PID) names a running process; its program is read from /proc/%lld/exe)",
		   pp_to_string(e->s->arena, point), (long long)pid,
		   (long long)pid);
	return false;
}

/*
 * The program a -c command really runs: a script's interpreter (its
 * "#!" line; "#!/usr/bin/env NAME" searches NAME in $PATH), since the
 * kernel executes that, with the script as an argument.  path itself
 * when it is not a script.
 */
static const char *
command_executable(struct elab *e, const char *path)
{
	char line[512], *p, *word;
	FILE *f = fopen(path, "r");
	const char *interp;

	if (!f)
		return path;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	if (!p || strncmp(line, "#!", 2) != 0)
		return path;
	p = line + 2 + strspn(line + 2, " \t");
	word = p;
	p += strcspn(p, " \t\n");
	if (*p && *p != '\n' && strcmp(arena_strndup(e->s->arena, word,
			(size_t)(p - word)), "/usr/bin/env") == 0) {
		word = p + strspn(p, " \t");
		p = word + strcspn(word, " \t\n");
	}
	*p = '\0';
	interp = *word ? elf_resolve_program(e->s->arena, word) : NULL;
	return interp ? interp : path;
}

static const char *
program_path(struct elab *e, struct node *point, const struct process_shape *k)
{
	const char *name = k->path, *path;
	bool from_command = false;
	char buf[64];

	if (k->pid) {
		if (!pid_exists(e, point, k->pid))
			return NULL;
		snprintf(buf, sizeof(buf), "/proc/%lld/exe", (long long)k->pid);
		name = buf;
	} else if (!name && !(name = command_program(e))) {
		diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
			   "probe point '%s' names no program: write process(\"PATH\") or give -c CMD",
			   pp_to_string(e->s->arena, point));
		return NULL;
	} else if (!k->path) {
		from_command = true;
	}
	path = elf_resolve_program(e->s->arena, name);
	if (path && from_command)
		path = command_executable(e, path);
	if (!path && !strchr(name, '/'))	/* process("libc.so.6") */
		path = elf_resolve_library(e->s->arena, name);
	if (path)
		return path;
	if (strchr(name, '/'))
		diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
			   "cannot find program '%s'", name);
	else
		diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
			   "cannot find program or library '%s': not in $PATH, nor in %s",
			   name, elf_library_places(e->s->arena));
	return NULL;
}

const char *
process_command_program(struct elab *e, struct node *point)
{
	struct process_shape k = { 0 };

	return program_path(e, point, &k);
}

/* .library("LIB"): a path, or a pattern matched against the file names
 * of the libraries the program uses ("libc.so.6", "libc*"); a name the
 * program does not link (one it dlopen()s), or with no program named
 * (process.library("libc.so.6") without -c), is found as ld.so would. */
static const char *
library_path(struct elab *e, struct node *point, const struct process_shape *k)
{
	const char *prog, **libs;
	int n;

	if (strchr(k->library, '/'))
		return elf_resolve_program(e->s->arena, k->library);
	struct process_shape p = *k;
	p.library = NULL;
	if (!p.path && !p.pid && !command_program(e))
		return elf_resolve_library(e->s->arena, k->library);
	if (!(prog = program_path(e, point, &p)))
		return NULL;
	n = elf_ldd(e->s->arena, prog, &libs);
	for (int i = 0; i < n; i++) {
		const char *base = strrchr(libs[i], '/');
		if (!fnmatch(k->library, base ? base + 1 : libs[i], 0))
			return libs[i];
	}
	return elf_resolve_library(e->s->arena, k->library);
}

/* The ELF file the probe is in (the library if one is named), or NULL
 * after an error. */
static struct elf_image *
probed_image(struct elab *e, struct node *point, const struct process_shape *k)
{
	int errors = e->s->diag.errors;
	const char *path = k->library ? library_path(e, point, k) :
		program_path(e, point, k);
	struct elf_image *im;
	char err[512];

	if (!path) {
		if (e->s->diag.errors != errors)
			;	/* the program was not found: said so */
		else if (k->library && strchr(k->library, '/'))
			diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
				   "cannot find library '%s'", k->library);
		else if (k->library)
			diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
				   "cannot find library '%s': the program does not use it, and it is not in %s",
				   k->library, elf_library_places(e->s->arena));
		return NULL;
	}
	im = elf_image_get(e->s->arena, path, err, sizeof(err));
	if (!im)
		diag_error(&e->s->diag, point->loc, "E_PROCESS_ELF", "%s", err);
	return im;
}

static struct pdata_uprobe *
new_uprobe(struct elab *e, const struct elf_image *im,
	   const struct process_shape *k, uint64_t vaddr, uint64_t offset)
{
	struct pdata_uprobe *pd = arena_alloc(e->s->arena, sizeof(*pd));

	pd->kind = PROCESS_PD_UPROBE;
	pd->path = im->path;
	pd->vaddr = vaddr;
	pd->offset = offset;
	pd->is_return = k->is_return;
	pd->pid = (int)k->pid;
	pd->is_i386 = im->is_i386;
	return pd;
}

static const char *
quoted_path(struct elab *e, const struct process_shape *k, const char *path)
{
	return k->pid ? arena_printf(e->s->arena, "process(%lld)",
				     (long long)k->pid)
		      : arena_printf(e->s->arena, "process(\"%s\")", path);
}

/* A function's or a variable's link-time address, 0 if none. */
static uint64_t
image_symbol_addr(const char *name, void *ctx)
{
	const struct elf_sym *s = elf_find_func(ctx, name);

	if (!s)
		s = elf_find_object(ctx, name);
	return s ? s->addr : 0;
}

/* Files known to have no DWARF: not opened again for every function. */
struct no_dwarf {
	const char *path;
	struct no_dwarf *next;
};

/* DWARF under another name of the same address: libc's malloc is
 * __libc_malloc in its debug info. */
static struct process_dwarf *
with_dwarf_alias(struct elab *e, const struct elf_image *im, const char *name,
		 bool is_return, uint64_t *vaddr)
{
	const struct elf_sym *s = elf_find_func(im, name);
	const struct elf_sym *first = s ? elf_func_at(im, s->addr) : NULL;
	struct process_dwarf *d = NULL;

	for (const struct elf_sym *a = first;
	     a && !d && a < im->funcs + im->nfuncs && a->addr == s->addr; a++)
		if (strcmp(a->name, name) != 0)
			d = process_dwarf_find(e, im->path, a->name, is_return,
					       image_symbol_addr, (void *)im,
					       vaddr);
	return d;
}

/* DWARF for function `name`: for an entry probe *at moves past the
 * prologue.  NULL (and *at unchanged) without DWARF for it. */
static struct process_dwarf *
with_dwarf(struct elab *e, const struct elf_image *im, const char *name,
	   bool is_return, uint64_t *at)
{
	static struct no_dwarf *none;
	struct process_dwarf *d;
	uint64_t vaddr = *at;

	if (im->is_i386)	/* tapc reads x86_64 DWARF locations only */
		return NULL;
	for (struct no_dwarf *n = none; n; n = n->next)
		if (strcmp(n->path, im->path) == 0)
			return NULL;
	d = process_dwarf_find(e, im->path, name, is_return, image_symbol_addr,
			       (void *)im, &vaddr);
	if (!d)
		d = with_dwarf_alias(e, im, name, is_return, &vaddr);
	if (!d && !im->has_debug_info) {
		struct no_dwarf *n = arena_alloc(e->s->arena, sizeof(*n));
		n->path = im->path;
		n->next = none;
		none = n;
	}
	if (d && !is_return)
		*at = vaddr;
	return d;
}

/*
 * A .return probe's parameters are their values at entry (@entry, as in
 * SystemTap), taken where a .call probe would read them: after the
 * prologue, with the entry probe's DWARF view.  Without DWARF (int_arg()
 * & co in @entry) they are taken on the first instruction.
 */
static void
return_entry_site(struct elab *e, const struct elf_image *im,
		  const struct elf_sym *f, struct pdata_uprobe *pd)
{
	uint64_t at = f->addr, off;
	struct process_dwarf *d = pd->dwarf ?
		with_dwarf(e, im, f->name, false, &at) : NULL;

	if (!d || !elf_addr_to_offset(im, at, &off)) {
		at = f->addr;
		off = pd->offset;
		d = NULL;
	}
	pd->entry_vaddr = at;
	pd->entry_offset = off;
	if (d)
		process_dwarf_set_entry(pd->dwarf, d);
}

static int
match_functions(struct elab *e, struct node *point, struct elf_image *im,
		const struct process_shape *k)
{
	uint64_t last = UINT64_MAX;
	int count = 0;

	for (size_t i = 0; i < im->nfuncs; i++) {
		const struct elf_sym *f = &im->funcs[i];
		uint64_t off;
		/* aliases of one function (malloc, __libc_malloc): once */
		if (fnmatch(k->pattern, f->name, 0) || f->addr == last ||
		    !elf_addr_to_offset(im, f->addr, &off))
			continue;
		last = f->addr;
		uint64_t at = f->addr;
		struct process_dwarf *d = with_dwarf(e, im, f->name,
						     k->is_return, &at);
		if (d && !k->is_return && !elf_addr_to_offset(im, at, &off)) {
			d = NULL;	/* past the prologue is not loadable?! */
			at = f->addr;
			elf_addr_to_offset(im, at, &off);
		}
		if (count >= PROCESS_MAX_EXPANSION) {
			elab_expansion_capped(e, point, PROCESS_MAX_EXPANSION);
			break;
		}
		struct pdata_uprobe *pd = new_uprobe(e, im, k, at, off);
		pd->function = f->name;
		pd->dwarf = d;
		pd->at_entry = !k->is_return && at == f->addr;
		if (k->is_return)
			return_entry_site(e, im, f, pd);
		/* a library's probe is named by the library, as in stap */
		elab_add_probe(e, point, arena_printf(e->s->arena,
			       "%s.function(\"%s\")%s",
			       quoted_path(e, k, im->path), f->name,
			       k->is_return ? ".return" : ""), pd);
		count++;
	}
	return count;
}

struct line_ctx {
	struct elab *e;
	struct node *point;
	struct elf_image *im;
	const struct process_shape *k;
	int count;
};

static void
add_line_site(struct process_dwarf *d, uint64_t vaddr, const char *function,
	      const char *file, int line, void *ctx)
{
	struct line_ctx *l = ctx;
	uint64_t off;

	if (!elf_addr_to_offset(l->im, vaddr, &off))
		return;
	struct pdata_uprobe *pd = new_uprobe(l->e, l->im, l->k, vaddr, off);
	pd->function = function;
	pd->dwarf = d;
	elab_add_probe(l->e, l->point, arena_printf(l->e->s->arena,
		       "%s.statement(\"%s@%s:%d\")",
		       quoted_path(l->e, l->k, l->im->path), function,
		       file ? file : "?", line), pd);
	l->count++;
}

/* .statement("FUNC@FILE:LINE"): every line start DWARF lists. */
static int
match_statement_lines(struct elab *e, struct node *point, struct elf_image *im,
		      const struct process_shape *k)
{
	struct line_ctx l = { e, point, im, k, 0 };
	char err[512];
	int n = process_dwarf_statements(e, im->path, k->statement,
					 image_symbol_addr, im, add_line_site,
					 &l, err, sizeof(err));

	if (n < 0) {
		diag_error(&e->s->diag, point->loc, "E_NO_DEBUGINFO",
			   "probe point '%s': %s",
			   pp_to_string(e->s->arena, point), err);
		return -1;
	}
	return l.count;
}

static int
match_statement(struct elab *e, struct node *point, struct elf_image *im,
		const struct process_shape *k)
{
	uint64_t off;
	const struct elf_sym *f;

	if (k->statement)
		return match_statement_lines(e, point, im, k);

	if (!elf_addr_to_offset(im, (uint64_t)k->address, &off)) {
		diag_error(&e->s->diag, point->loc, "E_PROCESS_ADDR",
			   "address 0x%llx is not in a loadable segment of %s",
			   (unsigned long long)k->address, im->path);
		return -1;
	}
	struct pdata_uprobe *pd = new_uprobe(e, im, k, (uint64_t)k->address, off);
	f = elf_func_at(im, (uint64_t)k->address);
	pd->function = f ? f->name : NULL;
	pd->at_entry = f && f->addr == (uint64_t)k->address;
	elab_add_probe(e, point, arena_printf(e->s->arena,
		       "%s.statement(0x%llx)", quoted_path(e, k, im->path),
		       (unsigned long long)k->address), pd);
	return 1;
}

/* The link-time addresses of the globals rip-relative operands name. */
static bool
resolve_arg_symbols(struct elab *e, struct node *point,
		    const struct elf_image *im, struct pdata_uprobe *pd)
{
	pd->arg_sym_vaddr = arena_alloc(e->s->arena,
				(size_t)(pd->nargs + 1) * sizeof(uint64_t));
	for (int i = 0; i < pd->nargs; i++) {
		const struct sdt_arg *a = &pd->args[i];
		const struct elf_sym *s;
		if (!a->symbol)
			continue;
		s = elf_find_object(im, a->symbol);
		if (!s)
			s = elf_find_func(im, a->symbol);
		if (!s) {
			diag_error(&e->s->diag, point->loc, "E_SDT_ARG",
				   "marker %s: operand '%s' names '%s', which %s has no symbol for",
				   pd->mark, a->text, a->symbol, im->path);
			return false;
		}
		pd->arg_sym_vaddr[i] = s->addr;
	}
	return true;
}

static int
match_marks(struct elab *e, struct node *point, struct elf_image *im,
	    const struct process_shape *k)
{
	size_t n;
	struct sdt_probe *marks = sdt_probes(e->s->arena, im, &n);
	int count = 0;

	for (size_t i = 0; i < n; i++) {
		struct sdt_probe *m = &marks[i];
		uint64_t off, sem = 0;
		if (fnmatch(k->pattern, m->name, 0) ||
		    (k->provider && fnmatch(k->provider, m->provider, 0)))
			continue;
		if (m->bad_arg) {
			diag_error(&e->s->diag, point->loc, "E_SDT_ARG",
				   "marker %s:%s in %s: operand '%s' is not supported yet",
				   m->provider, m->name, im->path, m->bad_arg);
			return -1;
		}
		if (!elf_addr_to_offset(im, m->pc, &off) ||
		    (m->semaphore && !elf_addr_to_offset(im, m->semaphore, &sem)))
			continue;
		struct pdata_uprobe *pd = new_uprobe(e, im, k, m->pc, off);
		pd->mark = m->name;
		pd->mark_provider = m->provider;
		pd->ref_ctr_offset = sem;
		pd->nargs = m->nargs;
		pd->args = m->args;
		if (!resolve_arg_symbols(e, point, im, pd))
			return -1;
		elab_add_probe(e, point, arena_printf(e->s->arena,
			       "%s.provider(\"%s\").mark(\"%s\")",
			       quoted_path(e, k, im->path), m->provider, m->name),
			       pd);
		count++;
	}
	return count;
}

/* .plt("PATTERN"): a uprobe on each PLT stub of a function matching it.
 * A stub is entered by a call and jumps to the function, so at its first
 * instruction the caller's return address is on top of the stack, as at
 * a function's entry: .return probes and backtraces work the same. */
static int
match_plt(struct elab *e, struct node *point, struct elf_image *im,
	  const struct process_shape *k)
{
	int count = 0;

	for (size_t i = 0; i < im->nplt; i++) {
		const struct elf_plt *p = &im->plt[i];
		uint64_t off;
		if (fnmatch(k->pattern, p->name, 0) ||
		    !elf_addr_to_offset(im, p->addr, &off))
			continue;
		struct pdata_uprobe *pd = new_uprobe(e, im, k, p->addr, off);
		pd->plt = p->name;
		pd->at_entry = true;
		pd->entry_vaddr = p->addr;
		pd->entry_offset = off;
		elab_add_probe(e, point, arena_printf(e->s->arena,
			       "%s.plt(\"%s\")%s", quoted_path(e, k, im->path),
			       p->name, k->is_return ? ".return" : ""), pd);
		count++;
	}
	return count;
}

/* $$name and $$provider: the function a .plt stub calls, a marker's
 * name and provider (as SystemTap); NULL where the probe has none. */
static const char *
process_meta_string(const struct derived_probe *dp, const char *name)
{
	const struct pdata_uprobe *pd = process_uprobe_of(dp);

	if (!pd)
		return NULL;
	if (strcmp(name, "name") == 0)
		return pd->plt ? pd->plt : pd->mark;
	if (strcmp(name, "provider") == 0)
		return pd->mark_provider;
	return NULL;
}

static int
match_event(struct elab *e, struct node *point, const struct process_shape *k)
{
	/* No program or process: every process on the system, as stap
	 * 4.8 does for root (pstree.stp); a stapusr module's runtime
	 * limits it to the user's own (runtime/linux/owner.c). */
	static const char *const names[] = {
		[PROC_BEGIN] = "begin", [PROC_END] = "end",
		[PROC_THREAD_BEGIN] = "thread.begin",
		[PROC_THREAD_END] = "thread.end",
		[PROC_SYSCALL] = "syscall",
		[PROC_SYSCALL_RETURN] = "syscall.return",
	};
	struct pdata_process *pd = arena_alloc(e->s->arena, sizeof(*pd));

	if (k->pid && !pid_exists(e, point, k->pid))
		return -1;
	pd->kind = PROCESS_PD_EVENT;
	pd->event = k->event;
	pd->pid = (int)k->pid;
	if (k->path && !(pd->path = program_path(e, point, k)))
		return -1;
	elab_add_probe(e, point, arena_printf(e->s->arena, "%s.%s",
		       pd->pid ? arena_printf(e->s->arena, "process(%d)", pd->pid) :
		       pd->path ? arena_printf(e->s->arena, "process(\"%s\")", pd->path) :
		       "process", names[k->event]), pd);
	return 1;
}

/* The probes of one program (or PID, or none for an event). */
static int
match_program(struct elab *e, struct node *point, const struct process_shape *k)
{
	struct elf_image *im;

	if (k->what == W_EVENT)
		return match_event(e, point, k);
	if (!(im = probed_image(e, point, k)))
		return -1;
	switch (k->what) {
	case W_FUNCTION: return match_functions(e, point, im, k);
	case W_STATEMENT: return match_statement(e, point, im, k);
	case W_MARK: return match_marks(e, point, im, k);
	case W_PLT: return match_plt(e, point, im, k);
	case W_EVENT: break;
	}
	return -1;
}

/*
 * process("/usr/lib/x86_64-linux-gnu/libc.so.[0-9]"): a path with
 * wildcards (* ? [...]) stands for every file it matches, as in stap.
 * A match that cannot be probed (a 32-bit library beside the 64-bit one,
 * a file without the function) is skipped when another one gives probes;
 * when none does and one of them had an error, the pattern is a program
 * not found (E_PROCESS_PATH, with the first file's error as the reason,
 * so that the message names the pattern whatever files a host has): -1;
 * 0 when the files just lack what the probe names.
 * NO_FILE when the pattern matches no file at all: then program_path
 * says so, as for any path not found.
 */
#define NO_FILE (-2)

static int
match_path_pattern(struct elab *e, struct node *point,
		   const struct process_shape *k)
{
	struct diag_mark held;
	glob_t g;
	int total = 0, n;

	if (glob(k->path, 0, NULL, &g) != 0)
		return NO_FILE;
	diag_hold(&e->s->diag, &held);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct process_shape one = *k;
		struct stat st;

		if (stat(g.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		one.path = arena_strdup(e->s->arena, g.gl_pathv[i]);
		n = match_program(e, point, &one);
		if (n > 0)
			total += n;
	}
	globfree(&g);
	if (total > 0 || !diag_held_errors(&e->s->diag, &held)) {
		diag_release(&e->s->diag, &held, total == 0);
		return total;
	}
	/* the first error's words, without its place and id */
	const char *why = strstr(diag_held_text(&held), "error: ");
	why = why ? why + strlen("error: ") : "";
	why = arena_strndup(e->s->arena, why, strcspn(why, "\n"));
	if (strstr(why, " [E_"))
		why = arena_strndup(e->s->arena, why, (size_t)(strstr(why, " [E_") - why));
	diag_release(&e->s->diag, &held, false);
	diag_error(&e->s->diag, point->loc, "E_PROCESS_PATH",
		   "cannot find program '%s' that can be probed: no file it matches can be (%s)",
		   k->path, why);
	return -1;
}

static int
process_match(struct elab *e, struct node *point)
{
	struct process_shape k;
	int n;

	if (pp_is(point, 1, "insn") || pp_is(point, 2, "insn")) {
		diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
			   "probe point '%s' is not supported: single-stepping every instruction (.insn, .insn.block) needs utrace, which mainline kernels do not have (SystemTap cannot on them either)",
			   pp_to_string(e->s->arena, point));
		return -1;
	}
	if (!parse_shape(point, &k)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "expected process[(\"PATH\"|PID)].function(\"PATTERN\")[.call|.return], .statement(ADDR), [.provider(\"P\")].mark(\"NAME\"), .plt[(\"PATTERN\")][.return], .library(\"LIB\").function(...), .begin, .end, .thread.begin, .thread.end, .syscall or .syscall.return");
		return -1;
	}
	if (k.path && strchr(k.path, '/') && strpbrk(k.path, "*?[") &&
	    access(k.path, F_OK) != 0 &&
	    (n = match_path_pattern(e, point, &k)) != NO_FILE)
		return n;
	return match_program(e, point, &k);
}

static struct context_var *
long_var(struct elab *e, const char *name, int index, const char *c_type)
{
	struct context_var *cv = elab_new_context_var(e, name, TY_LONG, c_type);

	cv->arg_index = index;
	cv->size = 8;
	cv->is_signed = true;
	return cv;
}

/* A syscall event's value: slot `slot` of its data. */
static struct context_var *
slot_var(struct elab *e, const char *name, int slot)
{
	struct context_var *cv = long_var(e, name, slot, "long");

	cv->access = ta_new(e->s->arena, (struct ta_base){
		.kind = TA_BASE_SLOT, .index = slot });
	cv->access->type_name = cv->c_type;
	return cv;
}

/* process(...).syscall: $syscall and $arg1..$arg6; .syscall.return:
 * $syscall and $return (stap -p2 refuses $argN there: "only
 * process(PATH_OR_PID).syscall support $argN"). */
static struct context_var *
syscall_context(struct elab *e, const struct pdata_process *pd,
		const char *name)
{
	int n;
	char tail;

	if (strcmp(name, "syscall") == 0)
		return slot_var(e, "syscall", TAP_SYSCALL_NR_SLOT);
	if (pd->event == PROC_SYSCALL_RETURN)
		return strcmp(name, "return") == 0 ?
			slot_var(e, "return", TAP_SYSCALL_RET_SLOT) : NULL;
	if (sscanf(name, "arg%d%c", &n, &tail) == 1 && n >= 1 &&
	    n <= TAP_SYSCALL_NARGS)
		return slot_var(e, arena_strdup(e->s->arena, name), n - 1);
	return NULL;
}

static bool
is_syscall_event(const struct derived_probe *dp)
{
	const struct pdata_process *pd = dp->pdata;

	return process_pdata_kind(pd) == PROCESS_PD_EVENT &&
	       (pd->event == PROC_SYSCALL || pd->event == PROC_SYSCALL_RETURN);
}

static struct context_var *
process_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_uprobe *pd = dp->pdata;
	int n;
	char tail;

	if (is_syscall_event(dp))
		return syscall_context(e, dp->pdata, name);
	if (process_pdata_kind(dp->pdata) != PROCESS_PD_UPROBE)
		return NULL;
	if (pd->dwarf) {
		struct context_var *cv = process_dwarf_var(e, pd->dwarf, name);
		if (cv)
			return cv;
	}
	/* an i386 function returns in eax, not the rax the runtime reads */
	if (pd->is_return && !pd->is_i386 && strcmp(name, "return") == 0)
		return long_var(e, "return", UPROBE_ARG_RETURN, "long");
	if (pd->mark && sscanf(name, "arg%d%c", &n, &tail) == 1 &&
	    n >= 1 && n <= pd->nargs)
		return long_var(e, arena_strdup(e->s->arena, name), n - 1,
				pd->args[n - 1].is_signed ? "long" :
				"unsigned long");
	return NULL;
}

static int
process_list(struct elab *e, struct derived_probe *dp,
	     struct context_var ***out)
{
	struct pdata_uprobe *pd = dp->pdata;
	int n = 0;

	*out = NULL;
	if (is_syscall_event(dp)) {
		const struct pdata_process *pp = dp->pdata;
		*out = arena_alloc(e->s->arena, TAP_SYSCALL_SLOTS * sizeof(**out));
		(*out)[n++] = process_context(e, dp, "syscall");
		if (pp->event == PROC_SYSCALL_RETURN)
			(*out)[n++] = process_context(e, dp, "return");
		for (int i = 1; pp->event == PROC_SYSCALL &&
		     i <= TAP_SYSCALL_NARGS; i++)
			(*out)[n++] = process_context(e, dp,
				arena_printf(e->s->arena, "arg%d", i));
		return n;
	}
	if (process_pdata_kind(dp->pdata) != PROCESS_PD_UPROBE)
		return 0;
	if (pd->dwarf)
		return process_dwarf_list(e, pd->dwarf, out);
	if (pd->function && !pd->mark)
		diag_hint(&e->s->diag, "%s has no DWARF for %s(): $variables of user programs need it (build with -g); int_arg(N), pointer_arg(N) & co read arguments by position",
			  pd->path, pd->function);
	*out = arena_alloc(e->s->arena, (size_t)(pd->nargs + 1) * sizeof(**out));
	if (pd->is_return && !pd->is_i386)
		(*out)[n++] = process_context(e, dp, "return");
	for (int i = 0; pd->mark && i < pd->nargs; i++)
		(*out)[n++] = process_context(e, dp,
			arena_printf(e->s->arena, "arg%d", i + 1));
	return n;
}

/* The program a process event's @var reads, or NULL after an error:
 * the process must have its memory (not at .end) and run PATH. */
static const char *
event_atvar_path(struct elab *e, struct derived_probe *dp, struct node *n)
{
	const struct pdata_process *pd = dp->pdata;

	if (pd->event == PROC_END || pd->event == PROC_THREAD_END) {
		diag_error(&e->s->diag, n->loc, "E_UNSUPPORTED",
			   "@var in %s: an ending process has no memory left to read",
			   dp->name);
		return NULL;
	}
	if (!pd->path)
		diag_error(&e->s->diag, n->loc, "E_UNSUPPORTED",
			   "@var in %s: write process(\"PATH\") to say which program's variable",
			   dp->name);
	return pd->path;
}

/* The page of the first PT_LOAD of im: the bias is where the process
 * mapped it minus this. */
static uint64_t
first_load_page(const struct elf_image *im)
{
	uint64_t low = UINT64_MAX;

	for (size_t i = 0; i < im->nsegs; i++)
		if (im->segs[i].offset == 0 && im->segs[i].vaddr < low)
			low = im->segs[i].vaddr;
	return low == UINT64_MAX ? 0 : low & ~(uint64_t)0xfff;
}

/*
 * The file @var's second argument names in a probe of `path`: a path
 * ("/usr/lib/libfoo.so"), or the file name of path itself or of one of
 * the libraries it uses ("libfoo.so", "libc.so*"), as for .library().
 * NULL after an error was reported.
 */
static const char *
atvar_module_path(struct elab *e, struct node *n, const char *path)
{
	const char *module = n->u.atvar.module, *base, **libs, *found;
	int nlibs;

	if (strchr(module, '/')) {
		if (!(found = elf_resolve_program(e->s->arena, module)))
			diag_error(&e->s->diag, n->loc, "E_PROCESS_PATH",
				   "@var(\"%s\", \"%s\"): no such file",
				   n->u.atvar.name, module);
		return found;
	}
	base = strrchr(path, '/');
	if (!fnmatch(module, base ? base + 1 : path, 0))
		return path;
	nlibs = elf_ldd(e->s->arena, path, &libs);
	for (int i = 0; i < nlibs; i++) {
		base = strrchr(libs[i], '/');
		if (!fnmatch(module, base ? base + 1 : libs[i], 0) &&
		    libs[i][0] == '/')
			return libs[i];
	}
	diag_error(&e->s->diag, n->loc, "E_PROCESS_PATH",
		   "@var(\"%s\", \"%s\"): %s uses no library named \"%s\" (give its path)",
		   n->u.atvar.name, module, path, module);
	return NULL;
}

/* @var("name@file"[, "MODULE"]) in a process probe: a variable of the
 * probed file, or of another file the process maps (a library, MODULE),
 * at its link-time address plus that file's load bias. */
static struct ta_access *
process_atvar(struct elab *e, struct derived_probe *dp, struct node *n)
{
	bool event = process_pdata_kind(dp->pdata) == PROCESS_PD_EVENT;
	const char *path = event ? event_atvar_path(e, dp, n) :
		((const struct pdata_uprobe *)dp->pdata)->path;
	const char *file, *bias = NULL;
	struct elf_image *im;
	char err[512];

	if (!path)
		return NULL;
	file = n->u.atvar.module ? atvar_module_path(e, n, path) : path;
	if (!file)
		return NULL;
	if (!(im = elf_image_get(e->s->arena, file, err, sizeof(err)))) {
		diag_error(&e->s->diag, n->loc, "E_PROCESS_ELF", "%s", err);
		return NULL;
	}
	if (strcmp(file, path)) {
		/* another file: the run time looks for its mapping by path
		 * (a C string literal: refuse what would need escaping) */
		if (strpbrk(file, "\"\\\n?")) {
			diag_error(&e->s->diag, n->loc, "E_UNSUPPORTED",
				   "@var(\"%s\", \"%s\"): a path with quotes, backslashes, '?' or newlines is not supported",
				   n->u.atvar.name, file);
			return NULL;
		}
		bias = arena_printf(e->s->arena, "tap_ubias_file(c, \"%s\", 0x%llxULL)",
				    file, (unsigned long long)first_load_page(im));
	} else if (event) {	/* the run time finds the bias in the maps */
		struct pdata_process *pd = dp->pdata;
		pd->uses_bias = true;
		pd->load_vaddr = first_load_page(im);
	}
	return process_dwarf_atvar(e, file, image_symbol_addr, im, bias, n);
}

/* ---- the module cache ---- */

static void
hash_file_identity(struct hash *h, const char *path)
{
	struct stat st;

	hash_str(h, path);
	if (stat(path, &st) == 0) {
		hash_int(h, (int64_t)st.st_dev);
		hash_int(h, (int64_t)st.st_ino);
		hash_int(h, (int64_t)st.st_size);
		hash_int(h, (int64_t)st.st_mtim.tv_sec);
		hash_int(h, (int64_t)st.st_mtim.tv_nsec);
	}
}

/* The probed files (a rebuilt program moves its offsets), -d, --ldd. */
static void
process_hash_inputs(struct session *s, struct hash *h)
{
	const struct program *p = s->program;

	for (int i = 0; p && i < p->nprobes; i++) {
		const struct pdata_uprobe *up = process_uprobe_of(p->probes[i]);
		const struct pdata_process *ev = process_event_of(p->probes[i]);
		if (up)
			hash_file_identity(h, up->path);
		else if (ev && ev->path)
			hash_file_identity(h, ev->path);
	}
	for (int i = 0; i < s->opts.nsym_files; i++)
		hash_file_identity(h, s->opts.sym_files[i]);
	if (s->opts.target_command) {	/* its program's names are embedded */
		const char *cmd = s->opts.target_command;
		char prog[4096];
		cmd += strspn(cmd, " \t");
		snprintf(prog, sizeof(prog), "%.*s", (int)strcspn(cmd, " \t"), cmd);
		const char *path = *prog ? elf_resolve_program(s->arena, prog) : NULL;
		if (path)
			hash_file_identity(h, path);
	}
	hash_int(h, s->opts.ldd);
}

/* ---- tapc --vm ---- */

static int
add_guest_file(struct session *s, const char ***v, int n, int *cap,
	       const char *path)
{
	if (!path)
		return n;
	for (int i = 0; i < n; i++)
		if (strcmp((*v)[i], path) == 0)
			return n;
	*v = arena_grow(s->arena, *v, sizeof(**v), cap, n + 1);
	(*v)[n] = path;
	return n + 1;
}

/* The probed programs and libraries, and the -c program when it is
 * given by path. */
static int
process_guest_files(struct session *s, const char ***out)
{
	const struct program *p = s->program;
	int n = 0, cap = 0;

	*out = NULL;
	for (int i = 0; p && i < p->nprobes; i++) {
		const struct pdata_uprobe *up = process_uprobe_of(p->probes[i]);
		const struct pdata_process *ev = process_event_of(p->probes[i]);
		if (up)
			n = add_guest_file(s, out, n, &cap, up->path);
		else if (ev)
			n = add_guest_file(s, out, n, &cap, ev->path);
	}
	if (n && s->opts.target_command) {	/* the program it runs */
		const char *cmd = s->opts.target_command;
		cmd += strspn(cmd, " \t");
		const char *prog = arena_strndup(s->arena, cmd, strcspn(cmd, " \t"));
		if (strchr(prog, '/'))
			n = add_guest_file(s, out, n, &cap,
					   elf_resolve_program(s->arena, prog));
	}
	return n;
}

/* ---- the family ---- */

/* A function's .return: a uretprobe whose entry half is a uprobe paired
 * with it (runtime/linux/probes_uprobe.c).  Not .plt(...).return: a stub
 * has no parameters to save. */
static bool
process_is_return(const struct derived_probe *dp)
{
	const struct pdata_uprobe *pd = process_uprobe_of(dp);

	return pd && pd->is_return && pd->function;
}

/* process, process("PATH") and process(PID) */
static const char *const process_heads[] = {
	"process", "process(STRING)", "process(NUMBER)", NULL,
};
static const char *const process_tails[] = {
	"begin", "end", "thread.begin", "thread.end",
	"syscall", "syscall.return",
	"function(STRING)", "function(STRING).call", "function(STRING).return",
	"library(STRING).function(STRING)",
	"library(STRING).function(STRING).call",
	"library(STRING).function(STRING).return",
	"plt", "plt.return", "plt(STRING)", "plt(STRING).return",
	"statement(STRING)", "statement(NUMBER)", "statement(NUMBER).absolute",
	"mark(STRING)", "provider(STRING).mark(STRING)",
	NULL,
};

const struct provider provider_process = {
	.name = "process",
	.claims = process_claims,
	.match = process_match,
	/* SystemTap lets any user probe processes, and its runtime fires
	 * them only in the user's own; so does ours for a stapusr module
	 * (runtime/linux/owner.h, the owner from taprun: loader/owner.c). */
	.privilege = PRIV_STAPUSR,
	/* runtime/user has no way to see other processes' events: a
	 * process probe there would never fire */
	.kernel_only = true,
	.context = process_context,
	.list_context = process_list,
	.is_return = process_is_return,
	.meta_string = process_meta_string,
	.atvar = process_atvar,
	.shape_heads = process_heads,
	.shape_tails = process_tails,
	.emit_tables = process_emit_tables,
	.target_expr = process_target_expr,
	.bpf_place = process_bpf_place,
	.bpf_target_expr = process_bpf_target_expr,
	.hash_inputs = process_hash_inputs,
	.guest_files = process_guest_files,
};
