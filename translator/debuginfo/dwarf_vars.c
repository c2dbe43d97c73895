/*
 * dwarf_vars.c -- the parameters and locals visible at a probe site, and
 * where each one is at that address: DWARF location expressions (and
 * location lists) reduced to a register, memory at register + offset
 * (frame-base and CFA forms resolved through the call frame information),
 * a register-plus-offset value, or a constant.
 *
 * Takes: a site from dwarf_sites.c.  Produces: dw_var arrays cached per
 * site (dwarf.h).  A lone DW_OP_addr is a static (dwarf_statics.c).
 * Other expressions become C over the probe's registers, memory reads in
 * them fault-safe calls (DW_OP_deref, DW_OP_deref_size); DW_OP_piece
 * lists are assembled from their pieces; DW_OP_entry_value(DW_OP_regN)
 * is the register itself at the function's entry address and
 * unavailable anywhere else.  Forms it does not evaluate (calls,
 * division, typed values, TLS, computed static addresses) become
 * DW_LOC_UNAVAILABLE with a phrase saying which, so the caller can
 * report it on use.
 * Must not: guess; a location tapc cannot read exactly is unavailable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "translator/debuginfo/dwarf_internal.h"
#include "translator/debuginfo/errbuf.h"

const char *
dw_x86_64_pt_regs_name(int reg)
{
	static const char *const names[] = {
		"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
		"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
	};

	return reg >= 0 && reg < (int)(sizeof(names) / sizeof(names[0]))
		? names[reg] : NULL;
}

static struct dw_loc
unavailable(const char *why)
{
	return (struct dw_loc){ .kind = DW_LOC_UNAVAILABLE, .why = why };
}

/* DW_OP_regN / regx: register number, or -1. */
static int
op_reg(const Dwarf_Op *op)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		return op->atom - DW_OP_reg0;
	return op->atom == DW_OP_regx ? (int)op->number : -1;
}

/* DW_OP_bregN / bregx: register number (offset in *off), or -1. */
static int
op_breg(const Dwarf_Op *op, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*off = (int64_t)op->number;
		return op->atom - DW_OP_breg0;
	}
	if (op->atom == DW_OP_bregx) {
		*off = (int64_t)op->number2;
		return (int)op->number;
	}
	return -1;
}

/* A constant-pushing op: true with its value. */
static bool
op_const(const Dwarf_Op *op, int64_t *v)
{
	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		*v = op->atom - DW_OP_lit0;
		return true;
	}
	switch (op->atom) {
	case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
	case DW_OP_const8u: case DW_OP_constu:
	case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
	case DW_OP_const8s: case DW_OP_consts:
		*v = (int64_t)op->number;
		return true;
	default:
		return false;
	}
}

/* The CFA at DWARF address pc as register + offset. */
static bool
cfa_at(struct dw_file *f, Dwarf_Addr pc, int *reg, int64_t *off)
{
	Dwarf_Addr cbias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(f->mod, &cbias);
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	bool ok = false;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc + f->bias - cbias, &frame) != 0) {
		cfi = dwfl_module_eh_cfi(f->mod, &cbias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc + f->bias - cbias, &frame) != 0)
			return false;
	}
	if (dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
	    (*reg = op_breg(&ops[0], off)) >= 0)
		ok = true;
	free(frame);
	return ok;
}

/* The frame base of `func` at pc, as register + offset (an address). */
static bool
frame_base(struct dw_file *f, Dwarf_Die *func, Dwarf_Addr pc, int *reg,
	   int64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;

	if (!func || !dwarf_attr(func, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &n, 1) != 1 || n != 1)
		return false;
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(f, pc, reg, off);
	if ((*reg = op_breg(&ops[0], off)) >= 0)
		return true;
	*off = 0;
	return (*reg = op_reg(&ops[0])) >= 0;
}

/* ---- location expressions as C ----
 * A location that computes from registers, constants and memory becomes
 * a C expression over `__r`; memory reads are tap_loc_load() calls
 * (fault-safe, dwarf.h).  What tapc cannot compile stays unavailable,
 * with the reason in `why`. */

#define CEXPR_DEPTH 8
#define CEXPR_LEN 1024

struct cexpr {
	char v[CEXPR_DEPTH][CEXPR_LEN];
	int n;
	/* how to evaluate the ops (see cx_op) */
	int fb_reg;
	int64_t fb_off;
	bool have_fb;
	bool at_entry;		/* the probe address is the function's entry */
	struct dw_file *f;
	Dwarf_Addr pc;
	const char *why;	/* set when an op cannot be compiled */
};

static bool
cx_push(struct cexpr *x, const char *fmt, const char *a, const char *b,
	unsigned long long k)
{
	char tmp[CEXPR_LEN];
	int len;

	if (x->n == CEXPR_DEPTH)
		return false;
	if (a && b)
		len = snprintf(tmp, sizeof(tmp), fmt, a, b);
	else if (a)
		len = snprintf(tmp, sizeof(tmp), fmt, a, k);
	else
		len = snprintf(tmp, sizeof(tmp), fmt, k);
	if (len < 0 || len >= CEXPR_LEN)
		return false;
	memcpy(x->v[x->n++], tmp, (size_t)len + 1);
	return true;
}

static bool
cx_binary(struct cexpr *x, const char *fmt)
{
	char a[CEXPR_LEN], b[CEXPR_LEN];

	if (x->n < 2)
		return false;
	memcpy(b, x->v[--x->n], CEXPR_LEN);
	memcpy(a, x->v[--x->n], CEXPR_LEN);
	return cx_push(x, fmt, a, b, 0);
}

static bool
cx_unary(struct cexpr *x, const char *fmt, unsigned long long k)
{
	char a[CEXPR_LEN];

	if (x->n < 1)
		return false;
	memcpy(a, x->v[--x->n], CEXPR_LEN);
	return cx_push(x, fmt, a, NULL, k);
}

static bool
cx_fail(struct cexpr *x, const char *why)
{
	x->why = why;
	return false;
}

/* The block of a DW_OP_entry_value / DW_OP_implicit_value: libdw's
 * number2 points at its ULEB128 length, the bytes follow it. */
static const unsigned char *
op_block(const Dwarf_Op *op)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)op->number2;

	if (!p)
		return NULL;
	while (*p & 0x80)
		p++;
	return p + 1;
}

/* DW_OP_entry_value(DW_OP_regN): register N as it was when the function
 * was entered, which is its value now only at the entry address. */
static bool
cx_entry_value(struct cexpr *x, const Dwarf_Op *op)
{
	const unsigned char *blk = op_block(op);
	const char *name;
	int reg = -1;

	if (op->number == 1 && blk && blk[0] >= DW_OP_reg0 && blk[0] <= DW_OP_reg31)
		reg = blk[0] - DW_OP_reg0;
	if (reg < 0 || !(name = dw_x86_64_pt_regs_name(reg)))
		return cx_fail(x, "computed from a value at function entry that tapc does not evaluate (DW_OP_entry_value of an expression)");
	if (!x->at_entry)
		return cx_fail(x, "known here only as its value at function entry (DW_OP_entry_value), which tapc reads only at the function's entry: probe .function, or .return where parameters are read at entry");
	return cx_push(x, "(uint64_t)__r->%s", name, NULL, 0);
}

/* A memory read of `size` bytes at the address on top of the stack. */
static bool
cx_load(struct cexpr *x, unsigned long long size)
{
	if (size < 1 || size > 8)
		return cx_fail(x, "computed by a DWARF expression reading more than 8 bytes at once (DW_OP_deref_size)");
	return cx_unary(x, "tap_loc_load(c, %s, %llu, &__lf)", size);
}

static bool
cx_stack_op(struct cexpr *x, const Dwarf_Op *op)
{
	switch (op->atom) {
	case DW_OP_plus: return cx_binary(x, "(%s + %s)");
	case DW_OP_minus: return cx_binary(x, "(%s - %s)");
	case DW_OP_mul: return cx_binary(x, "(%s * %s)");
	case DW_OP_and: return cx_binary(x, "(%s & %s)");
	case DW_OP_or: return cx_binary(x, "(%s | %s)");
	case DW_OP_xor: return cx_binary(x, "(%s ^ %s)");
	case DW_OP_shl: return cx_binary(x, "(%s << (%s & 63))");
	case DW_OP_shr: return cx_binary(x, "(%s >> (%s & 63))");
	case DW_OP_shra:
		return cx_binary(x, "(uint64_t)((int64_t)%s >> (%s & 63))");
	case DW_OP_plus_uconst:
		return cx_unary(x, "(%s + 0x%llxULL)", op->number);
	case DW_OP_neg: return cx_unary(x, "(-%s)", 0);
	case DW_OP_not: return cx_unary(x, "(~%s)", 0);
	case DW_OP_abs:
		return cx_unary(x, "(uint64_t)((int64_t)%s < 0 ? -(int64_t)%1$s : (int64_t)%1$s)", 0);
	case DW_OP_dup:
		return x->n >= 1 && cx_push(x, "%s", x->v[x->n - 1], NULL, 0);
	case DW_OP_over:
		return x->n >= 2 && cx_push(x, "%s", x->v[x->n - 2], NULL, 0);
	case DW_OP_drop:
		return x->n >= 1 && (x->n--, true);
	case DW_OP_swap: {
		char t[CEXPR_LEN];
		if (x->n < 2)
			return false;
		memcpy(t, x->v[x->n - 1], CEXPR_LEN);
		memcpy(x->v[x->n - 1], x->v[x->n - 2], CEXPR_LEN);
		memcpy(x->v[x->n - 2], t, CEXPR_LEN);
		return true;
	}
	default:
		return cx_fail(x, "computed by a DWARF expression tapc does not evaluate yet (calls, division, comparisons or typed values)");
	}
}

/* One op onto the stack; false (with x->why set, or a generic reason)
 * if tapc cannot compile it. */
static bool
cx_op(struct cexpr *x, const Dwarf_Op *op)
{
	int64_t off = 0, k;
	int reg;
	const char *name;

	if (op_const(op, &k))
		return cx_push(x, "0x%llxULL", NULL, NULL, (unsigned long long)k);
	if ((reg = op_breg(op, &off)) >= 0 || op->atom == DW_OP_fbreg) {
		if (op->atom == DW_OP_fbreg) {
			if (!x->have_fb)
				return cx_fail(x, "relative to a frame base tapc cannot compute here");
			reg = x->fb_reg;
			off = x->fb_off + (int64_t)op->number;
		}
		if (!(name = dw_x86_64_pt_regs_name(reg)))
			return cx_fail(x, "in a register tapc does not know");
		return cx_push(x, "(__r->%s + 0x%llxULL)", name, NULL,
			       (unsigned long long)off);
	}
	switch (op->atom) {
	case DW_OP_deref:
		return cx_load(x, 8);
	case DW_OP_deref_size:
		return cx_load(x, op->number);
	case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		return cx_entry_value(x, op);
	case DW_OP_call_frame_cfa:
		if (!cfa_at(x->f, x->pc, &reg, &off) ||
		    !(name = dw_x86_64_pt_regs_name(reg)))
			return cx_fail(x, "relative to a call frame address tapc cannot compute here");
		return cx_push(x, "(__r->%s + 0x%llxULL)", name, NULL,
			       (unsigned long long)off);
	case DW_OP_form_tls_address: case DW_OP_GNU_push_tls_address:
		return cx_fail(x, "a thread-local variable (DW_OP_form_tls_address): tapc does not read thread-local storage yet");
	case DW_OP_addr:
		return cx_fail(x, "a static variable's address in an expression (DW_OP_addr)");
	default:
		return cx_stack_op(x, op);
	}
}

/* Runs ops[0..n) and leaves the one result in x->v[0]. */
static bool
cx_run(struct cexpr *x, const Dwarf_Op *ops, size_t n)
{
	x->n = 0;
	for (size_t i = 0; i < n; i++)
		if (!cx_op(x, &ops[i]))
			return false;
	if (x->n != 1)
		return cx_fail(x, "computed by a DWARF expression tapc does not evaluate yet");
	return true;
}

static void
cx_init(struct cexpr *x, struct dw_file *f, Dwarf_Die *func, Dwarf_Addr pc)
{
	Dwarf_Addr entry;

	memset(x, 0, sizeof(*x));
	x->f = f;
	x->pc = pc;
	x->fb_reg = -1;
	x->have_fb = frame_base(f, func, pc, &x->fb_reg, &x->fb_off);
	x->at_entry = func && dwarf_entrypc(func, &entry) == 0 && entry == pc;
}

/* A malloc'd block (a C text, a piece list) kept for the life of the
 * file: f->exprs owns them, dw_close_all frees them. */
static void
keep_block(struct dw_file *f, void *block)
{
	f->nexprs++;
	f->exprs = realloc(f->exprs, f->nexprs * sizeof(*f->exprs));
	if (!f->exprs)
		abort();
	f->exprs[f->nexprs - 1] = block;
}

static const char *
keep(struct dw_file *f, const char *text)
{
	char *copy = dw_xstrdup(text);

	keep_block(f, copy);
	return copy;
}

/* "ADDR deref stack_value" is the value in memory at ADDR: as a location
 * that is the object at ADDR, when the load is as wide as the variable. */
static bool
ends_in_load(Dwarf_Op *ops, size_t n, uint64_t var_size)
{
	const Dwarf_Op *op = n >= 2 ? &ops[n - 2] : NULL;

	if (!op || ops[n - 1].atom != DW_OP_stack_value || !var_size)
		return false;
	return (op->atom == DW_OP_deref && var_size == 8) ||
	       (op->atom == DW_OP_deref_size && op->number == var_size);
}

static struct dw_loc
compile_ops(struct dw_file *f, Dwarf_Op *ops, size_t n, Dwarf_Die *func,
	    Dwarf_Addr pc, uint64_t var_size)
{
	struct cexpr x;
	bool load = ends_in_load(ops, n, var_size);
	bool value = !load && n && ops[n - 1].atom == DW_OP_stack_value;

	if (load)
		n -= 2;	/* what remains computes the address */
	cx_init(&x, f, func, pc);
	if (!cx_run(&x, ops, n - value))
		return unavailable(x.why ? x.why : "computed by a DWARF expression tapc does not evaluate yet");
	return (struct dw_loc){ .kind = DW_LOC_EXPR, .is_value = value,
				.expr = keep(f, x.v[0]) };
}

/* ---- DW_OP_piece ----
 * Each piece's value is C (at most 8 bytes; a piece of memory longer
 * than that is read 8 bytes at a time).  An object of at most 8 bytes is
 * one value, assembled by shifts; a larger one is a DW_LOC_PIECES list
 * that the generated code copies into a temporary. */

#define MAX_PIECES 32
#define MAX_PIECES_SIZE 256	/* bytes: the temporary is a string buffer */

struct piece_list {
	struct dw_piece v[MAX_PIECES];
	int n;
	uint32_t size;
	const char *why;
};

static bool
add_piece(struct dw_file *f, struct piece_list *l, const char *expr,
	  uint32_t size)
{
	if (l->n == MAX_PIECES || l->size + size > MAX_PIECES_SIZE) {
		l->why = "split into more pieces than tapc assembles (DW_OP_piece)";
		return false;
	}
	l->v[l->n++] = (struct dw_piece){ .expr = keep(f, expr), .is_value = true,
					  .offset = l->size, .size = size };
	l->size += size;
	return true;
}

/* One piece: the ops before a DW_OP_piece of `size` bytes. */
static bool
one_piece(struct dw_file *f, struct piece_list *l, const Dwarf_Op *ops,
	  size_t n, uint32_t size, Dwarf_Die *func, Dwarf_Addr pc)
{
	struct cexpr x;
	char buf[CEXPR_LEN + 64];
	const char *name;
	int reg;

	if (n == 0) {
		l->why = "partly optimized out (a DW_OP_piece with no location)";
		return false;
	}
	if (n == 1 && (reg = op_reg(&ops[0])) >= 0) {
		if (!(name = dw_x86_64_pt_regs_name(reg)) || size > 8) {
			l->why = "partly in a register tapc does not read (DW_OP_piece)";
			return false;
		}
		snprintf(buf, sizeof(buf), "(uint64_t)__r->%s", name);
		return add_piece(f, l, buf, size);
	}
	if (n == 1 && ops[0].atom == DW_OP_implicit_value && size <= 8 &&
	    ops[0].number >= size) {
		const unsigned char *b = op_block(&ops[0]);
		unsigned long long v = 0;
		for (int i = (int)size - 1; i >= 0; i--)
			v = (v << 8) | b[i];
		snprintf(buf, sizeof(buf), "0x%llxULL", v);
		return add_piece(f, l, buf, size);
	}
	cx_init(&x, f, func, pc);
	if (ops[n - 1].atom == DW_OP_stack_value) {
		if (!cx_run(&x, ops, n - 1) || size > 8) {
			l->why = x.why ? x.why : "partly computed by a DWARF expression tapc does not evaluate yet";
			return false;
		}
		return add_piece(f, l, x.v[0], size);
	}
	if (!cx_run(&x, ops, n)) {
		l->why = x.why ? x.why : "partly at an address tapc cannot compute";
		return false;
	}
	for (uint32_t done = 0; done < size; done += 8) {	/* memory */
		uint32_t chunk = size - done < 8 ? size - done : 8;
		snprintf(buf, sizeof(buf), "tap_loc_load(c, (%s + %uULL), %u, &__lf)",
			 x.v[0], done, chunk);
		if (!add_piece(f, l, buf, chunk))
			return false;
	}
	return true;
}

/* An object of at most 8 bytes from its pieces: one value. */
static struct dw_loc
pieces_as_value(struct dw_file *f, const struct piece_list *l)
{
	char buf[CEXPR_LEN * 4] = "(0";
	size_t len = 2;

	for (int i = 0; i < l->n; i++) {
		const struct dw_piece *p = &l->v[i];
		int w = snprintf(buf + len, sizeof(buf) - len,
				 " | ((%s & 0x%llxULL) << %u)", p->expr,
				 p->size >= 8 ? ~0ULL : (1ULL << (8 * p->size)) - 1,
				 8 * p->offset);
		if (w < 0 || (size_t)w >= sizeof(buf) - len)
			return unavailable("split into pieces tapc does not assemble (DW_OP_piece)");
		len += (size_t)w;
	}
	snprintf(buf + len, sizeof(buf) - len, ")");
	return (struct dw_loc){ .kind = DW_LOC_EXPR, .is_value = true,
				.expr = keep(f, buf) };
}

static struct dw_loc
decode_pieces(struct dw_file *f, Dwarf_Op *ops, size_t n, Dwarf_Die *func,
	      Dwarf_Addr pc)
{
	struct piece_list l = { .n = 0 };
	size_t start = 0;
	struct dw_piece *out;

	for (size_t i = 0; i < n; i++) {
		uint64_t bytes;
		if (ops[i].atom == DW_OP_piece)
			bytes = ops[i].number;
		else if (ops[i].atom == DW_OP_bit_piece &&
			 ops[i].number % 8 == 0 && ops[i].number2 == 0)
			bytes = ops[i].number / 8;
		else if (ops[i].atom == DW_OP_bit_piece)
			return unavailable("split into bit pieces off byte boundaries (DW_OP_bit_piece)");
		else
			continue;
		if (!bytes || !one_piece(f, &l, ops + start, i - start,
					 (uint32_t)bytes, func, pc))
			return unavailable(l.why ? l.why : "split into an empty piece (DW_OP_piece)");
		start = i + 1;
	}
	if (start != n || l.n == 0)
		return unavailable("split into pieces with a trailing location (DW_OP_piece)");
	if (l.size <= 8)
		return pieces_as_value(f, &l);
	out = calloc((size_t)l.n, sizeof(*out));
	if (!out)
		abort();
	memcpy(out, l.v, (size_t)l.n * sizeof(*out));
	keep_block(f, out);
	return (struct dw_loc){ .kind = DW_LOC_PIECES, .pieces = out,
				.npieces = l.n, .size = l.size };
}

static struct dw_loc
decode_ops(struct dw_file *f, Dwarf_Op *ops, size_t n, Dwarf_Die *func,
	   Dwarf_Addr pc, uint64_t var_size)
{
	struct dw_loc l = { .kind = DW_LOC_UNAVAILABLE };
	bool value = n == 2 && ops[1].atom == DW_OP_stack_value;
	int64_t off = 0, v;
	int reg;

	if (n == 0)
		return unavailable("optimized out");
	if (n == 1 && ops[0].atom == DW_OP_addr)
		return dw_addr_location(f, ops[0].number);
	for (size_t i = 0; i < n; i++)
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			return decode_pieces(f, ops, n, func, pc);
	if (n == 1 && (reg = op_reg(&ops[0])) >= 0)
		return (struct dw_loc){ .kind = DW_LOC_REG, .reg = reg };
	if ((n == 1 || value) && (reg = op_breg(&ops[0], &off)) >= 0) {
		l.kind = value ? DW_LOC_REG_VALUE : DW_LOC_MEM;
		l.reg = reg;
		l.offset = off;
		return l;
	}
	if ((n == 1 || value) && ops[0].atom == DW_OP_fbreg) {
		if (!frame_base(f, func, pc, &reg, &off))
			return unavailable("relative to a frame base tapc cannot compute here");
		l.kind = value ? DW_LOC_REG_VALUE : DW_LOC_MEM;
		l.reg = reg;
		l.offset = off + (int64_t)ops[0].number;
		return l;
	}
	if (value && op_const(&ops[0], &v))
		return (struct dw_loc){ .kind = DW_LOC_CONST, .value = v };
	return compile_ops(f, ops, n, func, pc, var_size);
}

struct dw_loc
dw_var_location(struct dw_file *f, Dwarf_Die *die, Dwarf_Die *func,
		Dwarf_Addr pc)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t n;
	Dwarf_Sword sv;
	int got;

	if (dwarf_attr(die, DW_AT_const_value, &attr)) {
		if (dwarf_formsdata(&attr, &sv) == 0)
			return (struct dw_loc){ .kind = DW_LOC_CONST, .value = sv };
		return unavailable("a constant tapc cannot read");
	}
	if (!dwarf_attr(die, DW_AT_location, &attr))
		return unavailable("optimized out");
	got = dwarf_getlocation_addr(&attr, pc, &ops, &n, 1);
	if (got < 0)
		return unavailable("described by a location tapc cannot read");
	if (got == 0)
		return unavailable("not available at this address");
	/* the variable's size, for loads in expressions */
	Dwarf_Die type, peeled;
	Dwarf_Word size = 0;
	if (dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	    dwarf_formref_die(&attr, &type) && dwarf_peel_type(&type, &peeled) == 0)
		dwarf_formudata(dwarf_attr_integrate(&peeled, DW_AT_byte_size, &attr),
				&size);
	return decode_ops(f, ops, n, func, pc, size);
}

/* ---- the variables of a site ---- */

struct var_list {
	struct dw_var *v;
	int n, cap;
};

/* The slot of `name` if already collected (from an outer scope). */
static struct dw_var *
already(const struct var_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

static void
add_var(struct dw_file *f, struct var_list *l, Dwarf_Die *die,
	Dwarf_Die *func, Dwarf_Addr pc)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	struct dw_var *v;

	if (!name)
		return;
	/* scopes are walked outer first: an inner declaration takes the
	 * outer one's slot, as C's shadowing does */
	if (!(v = already(l, name))) {
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 8;
			l->v = realloc(l->v, (size_t)l->cap * sizeof(*l->v));
			if (!l->v)
				abort();
		}
		v = &l->v[l->n++];
	}
	memset(v, 0, sizeof(*v));
	v->name = name;
	v->is_param = dwarf_tag(die) == DW_TAG_formal_parameter;
	if (dwarf_attr_integrate(die, DW_AT_type, &attr) &&
	    dwarf_formref_die(&attr, &type))
		v->type = dwarf_dieoffset(&type);
	v->loc = dw_var_location(f, die, func, pc);
}

/* Variables of `scope`, then of its lexical blocks holding pc, inner
 * ones last (they hide outer ones). Parameters come first, in DWARF
 * order. Inlined callees' variables are not the site's. */
static void
collect(struct dw_file *f, struct var_list *l, Dwarf_Die *scope,
	Dwarf_Die *func, Dwarf_Addr pc, int depth)
{
	Dwarf_Die child;

	if (depth > 32 || dwarf_child(scope, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable)
			add_var(f, l, &child, func, pc);
	} while (dwarf_siblingof(&child, &child) == 0);
	if (dwarf_child(scope, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_lexical_block &&
		    dwarf_haspc(&child, pc) == 1)
			collect(f, l, &child, func, pc, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The out-of-line subprogram holding pc (its frame base serves inlined
 * code too). */
static bool
enclosing_function(struct dw_file *f, const struct dw_site *s, Dwarf_Addr pc,
		   Dwarf_Die *out)
{
	Dwarf_Die cu, *scopes = NULL;
	int n;
	bool found = false;

	if (!dw_die_at(f, s->cu_off, &cu))
		return false;
	n = dwarf_getscopes(&cu, pc, &scopes);
	for (int i = n - 1; i >= 0 && !found; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*out = scopes[i];
			found = true;
		}
	free(scopes);
	return found;
}

int
dw_site_vars(struct dw_file *f, const struct dw_site *site,
	     const struct dw_var **out, char *err, size_t errlen)
{
	struct var_list l = { 0 };
	Dwarf_Die die, func;
	Dwarf_Addr pc = site->pc - f->bias;

	for (size_t i = 0; i < f->nvarc; i++)
		if (f->varc[i].site == site) {
			*out = f->varc[i].vars;
			return f->varc[i].nvars;
		}
	if (!dw_die_at(f, site->die_off, &die)) {
		errbuf_printf(err, errlen, "%s: lost the DWARF of %s", f->path,
		       site->function);
		return -1;
	}
	if (dwarf_tag(&die) == DW_TAG_subprogram)
		func = die;
	else if (!enclosing_function(f, site, pc, &func))
		func = die;
	collect(f, &l, &die, &func, pc, 0);
	if (f->nvarc == f->capvarc) {
		f->capvarc = f->capvarc ? f->capvarc * 2 : 16;
		f->varc = realloc(f->varc, f->capvarc * sizeof(*f->varc));
		if (!f->varc)
			abort();
	}
	f->varc[f->nvarc++] = (struct dw_var_cache){ site, l.v, l.n };
	*out = l.v;
	return l.n;
}

uint64_t
dw_site_return_type(struct dw_file *f, const struct dw_site *site)
{
	Dwarf_Die die, type;
	Dwarf_Attribute attr;

	if (!dw_die_at(f, site->die_off, &die) ||
	    !dwarf_attr_integrate(&die, DW_AT_type, &attr) ||
	    !dwarf_formref_die(&attr, &type))
		return 0;
	return dwarf_dieoffset(&type);
}
