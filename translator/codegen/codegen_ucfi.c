/*
 * codegen_ucfi.c -- pass 3: a user file's call frame information
 * (translator/debuginfo/cfi.c) written as the runtime's compact struct
 * tap_ucfi (runtime/linux/ustack.h says how the walk reads it).
 *
 * The rows cfi.c gives are in link-time addresses; the runtime knows a
 * pc's file offset (pc - vm_start + vm_pgoff), so rows are turned into
 * file offsets through the program headers, as the symbol tables are.
 * Each row then costs 4 bytes (a 16-bit offset in its block and a 16-bit
 * rule index), each block of TAP_UCFI_BLOCK rows 8, each distinct rule
 * 20; the comment above a table says what it came from and its size.
 * Offsets that do not fit the runtime's fields make that rule "unknown"
 * (the walk falls back to frame pointers there), never a wrong rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_ucfi.h"
#include "translator/debuginfo/cfi.h"
#include "translator/debuginfo/elf_syms.h"

#define UCFI_BLOCK	32	/* TAP_UCFI_BLOCK */
#define UCFI_NONE	0xffff	/* TAP_UCFI_NONE */
#define UCFI_RULE_BYTES	20	/* sizeof(struct tap_ucfi_rule) */

bool
cg_ucfi_wanted(struct cg *g)
{
	static const char *const walkers[] = {
		"ubacktrace", "ucallers", "sprint_ubacktrace", "print_ubacktrace",
	};

	for (int i = 0; i < g->prog->nfunctions; i++)
		for (size_t j = 0; j < sizeof(walkers) / sizeof(walkers[0]); j++)
			if (strcmp(g->prog->functions[i]->name, walkers[j]) == 0)
				return true;
	return false;
}

static bool
fits(int64_t v, int64_t lo, int64_t hi)
{
	return v >= lo && v <= hi;
}

static const char *
reg_rule(struct cg *g, const struct cfi_reg_rule *r)
{
	static const char *const kinds[] = {
		[CFI_REG_UNDEF] = "TAP_UCFI_UNDEF",
		[CFI_REG_SAME] = "TAP_UCFI_SAME",
		[CFI_REG_AT_CFA] = "TAP_UCFI_AT_CFA",
		[CFI_REG_VAL_CFA] = "TAP_UCFI_VAL_CFA",
		[CFI_REG_AT_REG] = "TAP_UCFI_AT_REG",
		[CFI_REG_VAL_REG] = "TAP_UCFI_VAL_REG",
		[CFI_REG_UNKNOWN] = "TAP_UCFI_UNKNOWN",
	};
	int kind = r->kind;

	if (!fits(r->off, -32768, 32767))
		kind = CFI_REG_UNKNOWN;
	if (kind == CFI_REG_UNKNOWN || kind == CFI_REG_UNDEF ||
	    kind == CFI_REG_SAME)
		return cg_fmt(g, "{ %s }", kinds[kind]);
	return cg_fmt(g, "{ %s, %d, %lld }", kinds[kind], r->reg,
		      (long long)r->off);
}

static void
rule_line(struct cg *g, const struct cfi_rule *r)
{
	static const char *const kinds[] = {
		[CFI_CFA_UNKNOWN] = "TAP_UCFI_CFA_UNKNOWN",
		[CFI_CFA_REG] = "TAP_UCFI_CFA_REG",
		[CFI_CFA_DEREF] = "TAP_UCFI_CFA_DEREF",
		[CFI_CFA_PLT] = "TAP_UCFI_CFA_PLT",
	};
	int kind = fits(r->cfa_off, INT32_MIN, INT32_MAX) ? r->cfa_kind
		   : CFI_CFA_UNKNOWN;

	cg_line(&g->w, "{ %lld, %s, %d, %d, 0, %s, %s, %s },",
		kind == CFI_CFA_UNKNOWN ? 0LL : (long long)r->cfa_off,
		kinds[kind], r->cfa_reg, r->signal ? 1 : 0,
		reg_rule(g, &r->ra), reg_rule(g, &r->sp), reg_rule(g, &r->bp));
}

/* The file offset of a row's start (a row may start right past a
 * segment's file bytes: the end of the last FDE). */
static bool
row_offset(const struct elf_image *im, uint64_t addr, uint64_t *off)
{
	if (elf_addr_to_offset(im, addr, off))
		return true;
	if (addr && elf_addr_to_offset(im, addr - 1, off)) {
		++*off;
		return true;
	}
	return false;
}

struct ucfi_rows {
	uint32_t *start;	/* file offsets */
	uint16_t *rule;
	size_t n;
};

/* The table's rows as file offsets, in order; false when one does not
 * fit the runtime's 32-bit offsets or rule index. */
static bool
file_rows(struct cg *g, const struct cfi_table *t, const struct elf_image *im,
	  struct ucfi_rows *out)
{
	out->start = arena_alloc(g->a, t->nrows * sizeof(*out->start));
	out->rule = arena_alloc(g->a, t->nrows * sizeof(*out->rule));
	out->n = 0;
	if (t->nrules >= UCFI_NONE)
		return false;
	for (size_t i = 0; i < t->nrows; i++) {
		uint64_t off;
		if (!row_offset(im, t->rows[i].start, &off))
			continue;	/* not in the file: cannot be a pc */
		if (off > UINT32_MAX ||
		    (out->n && off < out->start[out->n - 1]))
			return false;
		if (out->n && off == out->start[out->n - 1])
			out->n--;	/* an empty row: the later one holds */
		out->start[out->n] = (uint32_t)off;
		out->rule[out->n++] = t->rows[i].rule < 0 ? UCFI_NONE
				      : (uint16_t)t->rows[i].rule;
	}
	return out->n > 0;
}

/* A u16 array, 12 a line. */
static void
u16_array(struct cg *g, const char *name, const uint16_t *v, size_t n)
{
	char line[128];
	size_t len = 0;

	cg_open(&g->w, "static const u16 %s[] =", name);
	for (size_t i = 0; i < n; i++) {
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%u,",
					len ? " " : "", v[i]);
		if ((i + 1) % 12 == 0 || i + 1 == n) {
			cg_line(&g->w, "%s", line);
			len = 0;
		}
	}
	cg_close(&g->w, ";");
}

/* Blocks and per-row deltas; how many blocks. */
static size_t
emit_rows(struct cg *g, const struct ucfi_rows *r, int idx)
{
	uint16_t *delta = arena_alloc(g->a, r->n * sizeof(*delta));
	size_t nblocks = 0, first = 0;

	cg_open(&g->w, "static const struct tap_ucfi_block __tap_ucfi_blocks_%d[] =", idx);
	for (size_t i = 0; i < r->n; i++) {
		if (i == 0 || i - first == UCFI_BLOCK ||
		    r->start[i] - r->start[first] > 0xffff) {
			first = i;
			cg_line(&g->w, "{ 0x%x, %zu },", r->start[i], i);
			nblocks++;
		}
		delta[i] = (uint16_t)(r->start[i] - r->start[first]);
	}
	cg_close(&g->w, ";");
	u16_array(g, cg_fmt(g, "__tap_ucfi_delta_%d", idx), delta, r->n);
	u16_array(g, cg_fmt(g, "__tap_ucfi_rule_%d", idx), r->rule, r->n);
	return nblocks;
}

static void
warn(struct cg *g, const char *what)
{
	diag_warning(&g->s->diag, (struct loc){ 0 }, "W_NO_USER_UNWIND",
		     "no call frame information for user backtraces (frame pointers only): %s",
		     what);
}

bool
cg_ucfi_table(struct cg *g, const char *path, int idx)
{
	char err[512];
	struct elf_image *im = elf_image_get(g->a, path, err, sizeof(err));
	struct cfi_table *t = im ? cfi_table_build(g->a, path, err, sizeof(err))
			      : NULL;
	struct ucfi_rows rows;
	size_t nblocks, bytes;

	if (!t) {
		warn(g, err);
		return false;
	}
	if (!file_rows(g, t, im, &rows)) {
		warn(g, cg_fmt(g, "%s: its call frame information does not fit the runtime's table", path));
		return false;
	}
	cg_comment(&g->w, "%s: call frame information from .eh_frame (%zu FDEs)%s%s%s, %zu rows merged into %zu, %zu rules",
		path, t->n_eh_fdes, t->n_debug_fdes ? " and .debug_frame" : "",
		t->debug_file ? " of " : "", t->debug_file ? t->debug_file : "",
		t->n_raw_rows, rows.n, t->nrules);
	cg_open(&g->w, "static const struct tap_ucfi_rule __tap_ucfi_rules_%d[] =", idx);
	for (size_t i = 0; i < t->nrules; i++)
		rule_line(g, &t->rules[i]);
	cg_close(&g->w, ";");
	nblocks = emit_rows(g, &rows, idx);
	cg_open(&g->w, "static const struct tap_ucfi __tap_ucfi_%d =", idx);
	cg_line(&g->w, ".blocks = __tap_ucfi_blocks_%d, .nblocks = %zu, .nrows = %zu,",
		idx, nblocks, rows.n);
	cg_line(&g->w, ".delta = __tap_ucfi_delta_%d, .rule = __tap_ucfi_rule_%d, .rules = __tap_ucfi_rules_%d,",
		idx, idx, idx);
	cg_close(&g->w, ";");
	bytes = nblocks * 8 + rows.n * 4 + t->nrules * UCFI_RULE_BYTES;
	cg_comment(&g->w, "%s: %zu bytes of unwind tables", path, bytes);
	if (g->s->opts.verbose && g->s->diag.out)
		fprintf(g->s->diag.out, "tapc: %s: unwind table of %zu bytes (%zu rows, %zu blocks, %zu rules; %zu FDEs from .eh_frame, %zu from .debug_frame)\n",
			path, bytes, rows.n, nblocks, t->nrules, t->n_eh_fdes,
			t->n_debug_fdes);
	return true;
}
