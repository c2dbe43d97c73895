/*
 * dwarf_vars.c -- the parameters and locals visible at a probe site, and
 * where each one is at that address: DWARF location expressions (and
 * location lists) reduced to a register, memory at register + offset
 * (frame-base and CFA forms resolved through the call frame information),
 * a register-plus-offset value, or a constant.
 *
 * Takes: a site from dwarf_sites.c.  Produces: dw_var arrays cached per
 * site (dwarf.h).  A lone DW_OP_addr is a static (dwarf_statics.c).
 * Forms it does not evaluate (pieces, entry values,
 * computed static addresses, general stack programs) become DW_LOC_UNAVAILABLE
 * with a phrase saying which, so the caller can report it on use.
 * Must not: guess; a location tapc cannot read exactly is unavailable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "translator/debuginfo/dwarf_internal.h"

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

/* ---- register arithmetic as C ----
 * A location that computes from registers and constants only (no memory
 * reads, no division) becomes a C expression over `__r`; anything else
 * stays unavailable. */

#define CEXPR_DEPTH 8
#define CEXPR_LEN 512

struct cexpr {
	char v[CEXPR_DEPTH][CEXPR_LEN];
	int n;
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

/* One op onto the stack; false if tapc cannot compile it. */
static bool
cx_op(struct cexpr *x, const Dwarf_Op *op, int fb_reg, int64_t fb_off,
      bool have_fb)
{
	int64_t off = 0, k;
	int reg;
	const char *name;

	if (op_const(op, &k))
		return cx_push(x, "0x%llxULL", NULL, NULL, (unsigned long long)k);
	if ((reg = op_breg(op, &off)) >= 0 || op->atom == DW_OP_fbreg) {
		if (op->atom == DW_OP_fbreg) {
			if (!have_fb)
				return false;
			reg = fb_reg;
			off = fb_off + (int64_t)op->number;
		}
		if (!(name = dw_x86_64_pt_regs_name(reg)))
			return false;
		return cx_push(x, "(__r->%s + 0x%llxULL)", name, NULL,
			       (unsigned long long)off);
	}
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
		return false;
	}
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
	struct cexpr x = { .n = 0 };
	bool load = ends_in_load(ops, n, var_size);
	bool value = !load && n && ops[n - 1].atom == DW_OP_stack_value;

	if (load)
		n -= 2;	/* what remains computes the address */
	int fb_reg = -1;
	int64_t fb_off = 0;
	bool have_fb = frame_base(f, func, pc, &fb_reg, &fb_off);

	for (size_t i = 0; i < n - value; i++)
		if (!cx_op(&x, &ops[i], fb_reg, fb_off, have_fb))
			return unavailable("computed by a DWARF expression tapc does not evaluate yet (memory reads, calls or division)");
	if (x.n != 1)
		return unavailable("computed by a DWARF expression tapc does not evaluate yet");
	f->nexprs++;
	f->exprs = realloc(f->exprs, f->nexprs * sizeof(*f->exprs));
	if (!f->exprs)
		abort();
	f->exprs[f->nexprs - 1] = dw_xstrdup(x.v[0]);
	return (struct dw_loc){ .kind = DW_LOC_EXPR, .is_value = value,
				.expr = f->exprs[f->nexprs - 1] };
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
		switch (ops[i].atom) {
		case DW_OP_entry_value: case DW_OP_GNU_entry_value:
			return unavailable("known only as its value at function entry (DW_OP_entry_value)");
		case DW_OP_piece: case DW_OP_bit_piece:
			return unavailable("split into pieces (DW_OP_piece)");
		case DW_OP_addr:
			return unavailable("a static variable's address in an expression (DW_OP_addr)");
		default:
			break;
		}
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
		dw_err(err, errlen, "%s: lost the DWARF of %s", f->path,
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
