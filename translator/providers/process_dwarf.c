/*
 * process_dwarf.c -- the DWARF side of process("PATH").function probes
 * (see process_dwarf.h).  A program built with -g gets what SystemTap
 * gives: the probe after the function's prologue, where the parameters
 * have their homes, and $param/$local/$return read through the same
 * `struct ta_access` machinery as kernel DWARF probes
 * (providers/dwarf_access.h).  In a uprobe handler those reads go to the
 * probed task's user memory (runtime/linux/memory.c checks the context).
 * A file without DWARF (a stripped library) is not an error: the probe
 * stays on the symbol and offers int_arg() & co instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/debuginfo/dwarf.h"
#include "translator/sema/elab.h"
#include "translator/providers/dwarf_access.h"
#include "translator/providers/process_dwarf.h"

struct process_dwarf {
	struct dw_file *file;
	const struct dw_site *site;
	struct context_var **vars;
	bool *is_static;		/* vars[i] lives at a symbol */
	int nvars;
	struct context_var *ret;
	bool filled;
	struct process_dwarf *entry;	/* .return: the .call view */
	uint64_t (*symbol_addr)(const char *name, void *ctx);
	void *ctx;
	const char *bias;	/* C expression of the file's load bias;
				 * NULL: the probed file's, tap_ubias(c) */
};

/*
 * A static or global of the program is at its link-time address plus the
 * load bias of the probed file in the process that hit the probe (which
 * tap_ubias() knows; another file's, a library's, by d->bias), not at a
 * kernel symbol: TA_BASE_SYMBOL becomes a
 * C expression.  False when the file has no such symbol.
 */
static bool
user_symbol_base(struct elab *e, struct process_dwarf *d, struct ta_access *t,
		 bool *is_static)
{
	uint64_t at;

	if (!t || t->base.kind != TA_BASE_SYMBOL)
		return true;
	*is_static = true;
	if (t->base.module || !(at = d->symbol_addr(t->base.symbol, d->ctx)))
		return false;
	t->base.kind = TA_BASE_REGS_EXPR;
	t->base.c_expr = arena_printf(e->s->arena, "0x%llxULL + (uint64_t)%lldLL + %s",
				      (unsigned long long)at,
				      (long long)t->base.offset,
				      d->bias ? d->bias : "tap_ubias(c)");
	t->base.symbol = NULL;
	return true;
}

struct find_ctx {
	const char *func;
	const struct dw_site *site;
};

static bool
take_site(const struct dw_site *s, void *ctx)
{
	struct find_ctx *f = ctx;

	if (!f->site && strcmp(s->function, f->func) == 0)
		f->site = s;
	return true;
}

/*
 * Sites come in the address layout libdwfl gave the file (a PIE or a
 * library is placed at some base), so the probe address is taken from
 * the site's symbol and offset, which the file's own symbol table turns
 * into a link-time address.
 */
struct process_dwarf *
process_dwarf_find(struct elab *e, const char *path, const char *func,
		   bool is_return, uint64_t (*symbol_addr)(const char *, void *),
		   void *ctx, uint64_t *vaddr)
{
	char err[512];
	struct dw_file *file = dw_open(path, err, sizeof(err));
	struct dw_query q = { .func = func,
			      .kind = is_return ? DW_SITE_RETURN : DW_SITE_FUNCTION };
	struct find_ctx f = { .func = func };
	struct process_dwarf *d;

	if (!file || strpbrk(func, "*?[") ||
	    dw_find_sites(file, &q, take_site, &f, err, sizeof(err)) <= 0 ||
	    !f.site)
		return NULL;
	uint64_t sym = f.site->symbol ? symbol_addr(f.site->symbol, ctx) : 0;
	if (!sym)
		return NULL;
	d = arena_alloc(e->s->arena, sizeof(*d));
	d->file = file;
	d->site = f.site;
	d->symbol_addr = symbol_addr;
	d->ctx = ctx;
	*vaddr = sym + f.site->offset;
	return d;
}

static void fill(struct elab *e, struct process_dwarf *d);

/* .return: the parameters (and the function's statics) of the .call
 * view, whose values the entry handler saves (@entry). */
static void
fill_entry_params(struct elab *e, struct process_dwarf *d)
{
	struct process_dwarf *in = d->entry;

	if (!in)
		return;
	fill(e, in);
	d->vars = arena_alloc(e->s->arena, sizeof(*d->vars) * (size_t)(in->nvars + 1));
	for (int i = 0; i < in->nvars; i++) {
		struct context_var *cv = in->vars[i];
		/* a static is at the same place at return */
		if (cv->arg_index >= 0 || in->is_static[i])
			d->vars[d->nvars++] = cv;
	}
}

static void
fill(struct elab *e, struct process_dwarf *d)
{
	const struct dw_var *v;
	char err[512];
	int n;

	if (d->filled)
		return;
	d->filled = true;
	if (d->site->kind == DW_SITE_RETURN) {
		fill_entry_params(e, d);
		uint64_t rt = dw_site_return_type(d->file, d->site);
		char tn[256];
		if (!rt)
			return;
		d->ret = elab_new_context_var(e, "return", TY_LONG,
			arena_strdup(e->s->arena, dw_type_name(d->file, rt, tn, sizeof(tn))));
		d->ret->arg_index = -1;
		d->ret->writable = true;	/* with -g: the user ax register */
		d->ret->dwarf = d->file;
		d->ret->dwarf_type = rt;
		d->ret->access = dwacc_return(e, d->file, rt);
		return;	/* parameters at the return: not offered */
	}
	n = dw_site_vars(d->file, d->site, &v, err, sizeof(err));
	if (n <= 0)
		return;
	d->vars = arena_alloc(e->s->arena, sizeof(*d->vars) * (size_t)n);
	d->is_static = arena_alloc(e->s->arena, sizeof(*d->is_static) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct context_var *cv = dwacc_context_var(e, d->file, &v[i],
						v[i].is_param ? 0 : -3, true);
		if (!user_symbol_base(e, d, cv->access, &d->is_static[i])) {
			cv->access = NULL;
			cv->unavailable = "it has no symbol in the program's symbol table";
		}
		d->vars[d->nvars++] = cv;
	}
}

void
process_dwarf_set_entry(struct process_dwarf *ret, struct process_dwarf *call)
{
	ret->entry = call;
}

struct context_var *
process_dwarf_var(struct elab *e, struct process_dwarf *d, const char *name)
{
	fill(e, d);
	if (d->ret && strcmp(name, "return") == 0)
		return d->ret;
	for (int i = 0; i < d->nvars; i++)
		if (strcmp(d->vars[i]->name, name) == 0)
			return d->vars[i];
	/* a static or global of the function's source file (not part of
	 * $$vars), at the program's load address */
	struct dw_var g;
	bool is_static = false;
	if (!dw_site_global(d->file, d->site, name, &g))
		return NULL;
	struct context_var *cv = dwacc_context_var(e, d->file, &g, -3, true);
	if (!user_symbol_base(e, d, cv->access, &is_static)) {
		cv->access = NULL;
		cv->unavailable = "it has no symbol in the program's symbol table";
	}
	return cv;
}

int
process_dwarf_list(struct elab *e, struct process_dwarf *d,
		   struct context_var ***out)
{
	int n = 0;

	fill(e, d);
	*out = arena_alloc(e->s->arena, sizeof(**out) * (size_t)(d->nvars + 1));
	for (int i = 0; i < d->nvars; i++)
		(*out)[n++] = d->vars[i];
	if (d->ret)
		(*out)[n++] = d->ret;
	return n;
}

/* "func@file:line" (or +N from the declaration) into q; false if
 * malformed. */
static bool
parse_statement(struct elab *e, const char *spec, struct dw_query *q)
{
	q->kind = DW_SITE_STATEMENT;
	return dw_query_parse(arena_strdup(e->s->arena, spec), q);
}

struct statement_ctx {
	struct elab *e;
	struct dw_file *file;
	uint64_t (*symbol_addr)(const char *, void *);
	void *ctx;
	void (*fn)(struct process_dwarf *, uint64_t, const char *, const char *,
		   int, void *);
	void *fctx;
	int count;
};

static bool
take_statement(const struct dw_site *s, void *ctx)
{
	struct statement_ctx *c = ctx;
	uint64_t sym = s->symbol ? c->symbol_addr(s->symbol, c->ctx) : 0;
	struct process_dwarf *d;

	if (!sym)
		return true;
	d = arena_alloc(c->e->s->arena, sizeof(*d));
	d->file = c->file;
	d->site = s;
	d->symbol_addr = c->symbol_addr;
	d->ctx = c->ctx;
	c->fn(d, sym + s->offset, s->function, s->decl_file, s->line, c->fctx);
	c->count++;
	return true;
}

int
process_dwarf_statements(struct elab *e, const char *path, const char *spec,
			 uint64_t (*symbol_addr)(const char *, void *),
			 void *ctx,
			 void (*fn)(struct process_dwarf *, uint64_t,
				    const char *, const char *, int, void *),
			 void *fctx, char *err, size_t errlen)
{
	struct dw_query q = { 0 };
	struct statement_ctx c = { e, NULL, symbol_addr, ctx, fn, fctx, 0 };

	if (!parse_statement(e, spec, &q) ||
	    (!q.line_lo && !q.every_line && !q.relative)) {
		snprintf(err, errlen, "expected \"FUNCTION@FILE:LINE\" (LINE, LINE-LINE, * or +N), not \"%s\"",
			 spec);
		return -1;
	}
	if (!(c.file = dw_open(path, err, errlen)))
		return -1;
	if (dw_find_sites(c.file, &q, take_statement, &c, err, errlen) < 0)
		return -1;
	return c.count;
}

struct ta_access *
process_dwarf_atvar(struct elab *e, const char *path,
		    uint64_t (*symbol_addr)(const char *, void *), void *ctx,
		    const char *bias, struct node *n)
{
	struct arena *a = e->s->arena;
	const char *spec = n->u.atvar.name, *name, *file;
	struct process_dwarf d = { .symbol_addr = symbol_addr, .ctx = ctx,
				   .bias = bias };
	struct dw_var v;
	char err[512];
	bool is_static = false;

	if (!dwacc_atvar_spec(e, n, &name, &file))
		return NULL;
	if (!(d.file = dw_open(path, err, sizeof(err)))) {
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
			   "@var(\"%s\") needs the debug info (DWARF) of %s: %s%s",
			   spec, path, err,
			   bias ? " (build the library with -g, or install its -dbg package)" : "");
		return NULL;
	}
	if (!dwacc_atvar_find(e, d.file, n, name, file, &v))
		return NULL;
	struct context_var *cv = dwacc_context_var(e, d.file, &v, 0, true);
	if (!user_symbol_base(e, &d, cv->access, &is_static)) {
		diag_error(&e->s->diag, n->loc, "E_UNRESOLVED_TARGET",
			   "@var(\"%s\"): %s has no symbol for it", spec, path);
		return NULL;
	}
	return dwacc_target(e, cv, &n->u.atvar.path,
			    arena_printf(a, "@var(\"%s\")", spec), n->loc);
}
