/*
 * dwarf_access.c -- the DWARF source of `struct ta_access`
 * (dwarf_access.h): where a variable is (its DWARF location reduced by
 * debuginfo/dwarf_vars.c to a register, memory at register + offset, or a
 * constant) becomes the access's base; member chains, indexes, & and
 * pretty printing walk the DWARF types (debuginfo/dwarf_types.c).
 *
 * Same semantics as the BTF walker (target_btf.c), so a script reads the
 * same whichever debug info the kernel has: -> and . follow any number of
 * pointers; char arrays are strings, char * is a pointer; a struct passed
 * by value in a register (at most 8 bytes) gives its members as bits of
 * the register.  Errors are diagnostics at the step that went wrong.
 * Must not: emit C, or read memory.
 */
#include <stdio.h>
#include <string.h>

#include "translator/elab.h"
#include "translator/providers/dwarf_access.h"

#define DWACC_MAX_PRETTY_VALUES 256
#define DWACC_MAX_PRETTY_ELEMS 16
#define DWACC_MAX_DEPTH 8

struct walk {
	struct elab *e;
	struct dw_file *f;
	struct ta_access *t;
	uint64_t cur;			/* type of what the path reached */
	const char *what;
	bool bitfield;
	uint32_t bit_off, bit_size;	/* from V */
	int nvalues;
};

static struct arena *
A(struct walk *w)
{
	return w->e->s->arena;
}

static const char *
type_text(struct walk *w, uint64_t type)
{
	char buf[256];

	return arena_strdup(A(w), dw_type_name(w->f, type, buf, sizeof(buf)));
}

static struct dw_type_info
info(struct walk *w, uint64_t type)
{
	struct dw_type_info ti;

	if (!dw_type_info(w->f, type, &ti))
		ti.kind = DW_TYPE_OTHER;
	return ti;
}

/* ---- the result of a scalar ---- */

static int
round_size(uint64_t n)
{
	return n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : 8;
}

static bool
scalar_of(struct dw_file *f, uint64_t type, struct ta_result *r)
{
	struct dw_type_info ti;

	memset(r, 0, sizeof(*r));
	r->kind = TA_RES_INT;
	if (!dw_type_info(f, type, &ti))
		return false;
	switch (ti.kind) {
	case DW_TYPE_INT: case DW_TYPE_BOOL: case DW_TYPE_ENUM:
		if (!ti.size || ti.size > 8)
			return false;
		r->size = (int)ti.size;
		r->is_signed = ti.is_signed;
		return true;
	case DW_TYPE_POINTER:
		r->size = 8;
		return true;
	default:
		return false;
	}
}

/* ---- bases ---- */

static struct ta_access *
base_of(struct elab *e, const struct dw_loc *l, const char **why)
{
	struct arena *a = e->s->arena;
	const char *reg = dw_x86_64_pt_regs_name(l->reg);
	struct ta_access *t;

	switch (l->kind) {
	case DW_LOC_REG:
		if (!reg)
			break;
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg });
	case DW_LOC_MEM:
		if (!reg)
			break;
		t = ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg,
						.in_memory = true });
		ta_push_add(a, t, l->offset);
		return t;
	case DW_LOC_REG_VALUE:
		if (!reg)
			break;
		if (l->offset)
			return ta_new(a, (struct ta_base){
				.kind = TA_BASE_REGS_EXPR,
				.c_expr = arena_printf(a, "(__r->%s + 0x%llxULL)", reg,
						       (unsigned long long)l->offset) });
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg });
	case DW_LOC_CONST: {
		struct node *n = ast_new(a, N_NUMBER, (struct loc){ 0 });
		n->type = TY_LONG;
		n->u.number.value = (uint64_t)l->value;
		n->u.number.text = arena_printf(a, "%lld", (long long)l->value);
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_EXPR, .expr = n });
	}
	case DW_LOC_EXPR:
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REGS_EXPR,
						   .c_expr = arena_strdup(a, l->expr),
						   .in_memory = !l->is_value });
	case DW_LOC_UNAVAILABLE:
		*why = l->why;
		return NULL;
	}
	*why = "in a register tapc does not know";
	return NULL;
}

struct ta_access *
dwacc_var(struct elab *e, struct dw_file *f, const struct dw_var *v,
	  const char **why)
{
	struct ta_access *t = base_of(e, &v->loc, why);
	char buf[256];

	if (!t)
		return NULL;
	if (!scalar_of(f, v->type, &t->result)) {
		t->result.kind = TA_RES_INT;
		t->result.size = 8;
	}
	t->type_name = arena_strdup(e->s->arena,
				    dw_type_name(f, v->type, buf, sizeof(buf)));
	return t;
}

struct ta_access *
dwacc_return(struct elab *e, struct dw_file *f, uint64_t type)
{
	struct ta_access *t = ta_new(e->s->arena,
				     (struct ta_base){ .kind = TA_BASE_RETURN });
	char buf[256];

	if (!scalar_of(f, type, &t->result)) {
		t->result.kind = TA_RES_INT;
		t->result.size = 8;
	}
	t->type_name = arena_strdup(e->s->arena,
				    dw_type_name(f, type, buf, sizeof(buf)));
	return t;
}

/* ---- the path ---- */

static bool
not_after_bitfield(struct walk *w, struct loc at)
{
	if (!w->bitfield)
		return true;
	diag_error(&w->e->s->diag, at, "E_TARGET_TYPE",
		   "'%s' is a bitfield: it has no members or elements", w->what);
	return false;
}

static uint64_t
follow_pointers(struct walk *w)
{
	uint64_t t = w->cur;
	struct dw_type_info ti = info(w, t);

	while (ti.kind == DW_TYPE_POINTER) {
		ta_push_deref(A(w), w->t);
		t = ti.target;
		ti = info(w, t);
	}
	return t;
}

/* A member of a small aggregate held in a register: bits of V. */
static bool
member_in_register(struct walk *w, const struct target_step *st,
		   uint64_t agg, const struct dw_member *m)
{
	struct dw_type_info ti = info(w, agg), mi = info(w, m->type);

	if (ti.size > 8 || (!m->bit_size && (mi.kind == DW_TYPE_STRUCT ||
					      mi.kind == DW_TYPE_UNION ||
					      mi.kind == DW_TYPE_ARRAY))) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is a struct passed by value in registers; only its scalar members are supported",
			   w->what);
		return false;
	}
	w->bitfield = true;
	w->bit_off += (uint32_t)(m->offset * 8 + (uint64_t)m->bit_offset);
	w->bit_size = m->bit_size ? (uint32_t)m->bit_size : (uint32_t)mi.size * 8;
	return true;
}

static bool
step_member(struct walk *w, const struct target_step *st)
{
	struct dw_member m;

	if (!not_after_bitfield(w, st->loc))
		return false;
	uint64_t t = follow_pointers(w);
	struct dw_type_info ti = info(w, t);
	if (ti.kind != DW_TYPE_STRUCT && ti.kind != DW_TYPE_UNION) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not a struct or union: it has no member '%s'",
			   w->what, type_text(w, w->cur), st->member);
		return false;
	}
	if (!dw_type_member(w->f, t, st->member, &m)) {
		char names[512];
		dw_type_member_names(w->f, t, names, sizeof(names));
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_MEMBER",
			   "'%s' (%s) has no member '%s'", w->what,
			   type_text(w, t), st->member);
		if (*names)
			diag_hint(&w->e->s->diag, "its members: %s", names);
		return false;
	}
	w->what = arena_printf(A(w), "%s->%s", w->what, st->member);
	if (!ta_in_memory(w->t)) {
		w->cur = m.type;
		return member_in_register(w, st, t, &m);
	}
	if (m.bit_size) {
		uint64_t bit = m.offset * 8 + (uint64_t)m.bit_offset;
		ta_push_add(A(w), w->t, (int64_t)(bit / 8));
		w->bitfield = true;
		w->bit_off = (uint32_t)(bit % 8);
		w->bit_size = (uint32_t)m.bit_size;
	} else {
		ta_push_add(A(w), w->t, (int64_t)m.offset);
	}
	w->cur = m.type;
	return true;
}

static bool
step_index(struct walk *w, const struct target_step *st)
{
	if (!not_after_bitfield(w, st->loc))
		return false;
	struct dw_type_info ti = info(w, w->cur);
	bool array = ti.kind == DW_TYPE_ARRAY;

	if (!array && ti.kind != DW_TYPE_POINTER) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not an array or pointer: it cannot be indexed",
			   w->what, type_text(w, w->cur));
		return false;
	}
	if (!array)
		ta_push_deref(A(w), w->t);
	else if (!ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is an array passed by value; that is not supported yet",
			   w->what);
		return false;
	}
	int64_t stride = (int64_t)info(w, ti.target).size;
	if (stride <= 0) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' points to '%s', which has no size: it cannot be indexed",
			   w->what, type_text(w, ti.target));
		return false;
	}
	if (st->index->kind == N_NUMBER) {
		uint64_t i = st->index->u.number.value;
		if (array && ti.nelem && i >= ti.nelem) {
			diag_error(&w->e->s->diag, st->index->loc, "E_TARGET_INDEX",
				   "index %llu is out of bounds for '%s' (%llu elements)",
				   (unsigned long long)i, w->what,
				   (unsigned long long)ti.nelem);
			return false;
		}
		ta_push_add(A(w), w->t, (int64_t)i * stride);
		w->what = arena_printf(A(w), "%s[%llu]", w->what,
				       (unsigned long long)i);
	} else {
		ta_push_index(A(w), w->t, st->index, stride);
		w->what = arena_printf(A(w), "%s[...]", w->what);
	}
	w->cur = ti.target;
	return true;
}

/* ---- results ---- */

static bool
result_value(struct walk *w, struct loc at)
{
	struct dw_type_info ti = info(w, w->cur);

	if (w->bitfield) {
		scalar_of(w->f, w->cur, &w->t->result);
		if (ta_in_memory(w->t))
			w->t->result.size = round_size((w->bit_off + w->bit_size + 7) / 8);
		else
			w->t->result.size = 8;
		w->t->result.bit_offset = w->bit_off;
		w->t->result.bit_size = w->bit_size;
		return w->bit_off + w->bit_size <= 64;
	}
	if (scalar_of(w->f, w->cur, &w->t->result))
		return true;
	if (ti.kind == DW_TYPE_ARRAY && info(w, ti.target).is_char &&
	    ta_in_memory(w->t)) {
		w->t->result = (struct ta_result){ .kind = TA_RES_STRING,
						   .size = (int)ti.nelem };
		return true;
	}
	const char *how =
		ti.kind == DW_TYPE_STRUCT || ti.kind == DW_TYPE_UNION ?
			"take a member (->name), its address (&) or print it with a '$' suffix" :
		ti.kind == DW_TYPE_ARRAY ?
			"index it ([i]), take its address (&) or print it with a '$' suffix" :
		ti.kind == DW_TYPE_FLOAT ? "floating-point values are not supported" :
		"it has no value a script can use";
	diag_error(&w->e->s->diag, at, "E_TARGET_TYPE", "'%s' has type '%s': %s",
		   w->what, type_text(w, w->cur), how);
	return false;
}

static bool
result_address(struct walk *w, struct loc at)
{
	if (w->bitfield || !ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, at, "E_TARGET_ADDR",
			   w->bitfield ? "cannot take the address of bitfield '%s'"
				       : "cannot take the address of '%s': its value is not in memory",
			   w->what);
		return false;
	}
	w->t->result = (struct ta_result){ .kind = TA_RES_ADDRESS, .size = 8 };
	w->t->type_name = arena_printf(A(w), "%s *", type_text(w, w->cur));
	return true;
}

/* ---- pretty printing, as the BTF walker formats it ---- */

static void pretty_type(struct walk *w, struct ta_pretty *p,
			const struct ta_access *at, uint64_t type, int level,
			int depth, bool top);

static struct ta_access *
value_at(struct walk *w, const struct ta_access *at, uint64_t type)
{
	struct ta_access *v = ta_copy(A(w), at);

	scalar_of(w->f, type, &v->result);
	return v;
}

static bool
too_many(struct walk *w, struct ta_pretty *p)
{
	if (w->nvalues < DWACC_MAX_PRETTY_VALUES)
		return false;
	if (w->nvalues++ == DWACC_MAX_PRETTY_VALUES)
		ta_pretty_text(A(w), p, "...");
	return true;
}

/* Members of aggregate `t` in memory at `at`, via their names. */
static void
pretty_members(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	       uint64_t t, int level, int depth)
{
	char names[2048], *save = NULL;
	bool first = true;

	dw_type_member_names(w->f, t, names, sizeof(names));
	for (char *n = strtok_r(names, " ", &save); n && !too_many(w, p);
	     n = strtok_r(NULL, " ", &save)) {
		struct dw_member m;
		if (!dw_type_member(w->f, t, n, &m))
			continue;
		struct ta_access *mat = ta_copy(A(w), at);
		ta_pretty_text(A(w), p, arena_printf(A(w), "%s.%s=",
						     first ? "" : ", ", n));
		first = false;
		if (m.bit_size) {
			uint64_t bit = m.offset * 8 + (uint64_t)m.bit_offset;
			ta_push_add(A(w), mat, (int64_t)(bit / 8));
			struct ta_access *v = value_at(w, mat, m.type);
			v->result.size = round_size((bit % 8 + (uint64_t)m.bit_size + 7) / 8);
			v->result.bit_offset = (uint32_t)(bit % 8);
			v->result.bit_size = (uint32_t)m.bit_size;
			ta_pretty_value(A(w), p, v, TA_FMT_DEC);
			w->nvalues++;
			continue;
		}
		ta_push_add(A(w), mat, (int64_t)m.offset);
		pretty_type(w, p, mat, m.type, level, depth + 1, false);
	}
}

static void
pretty_array(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	     const struct dw_type_info *ti, int level, int depth)
{
	int64_t stride = (int64_t)info(w, ti->target).size;

	if (level < 2 || stride <= 0 || depth > DWACC_MAX_DEPTH) {
		ta_pretty_text(A(w), p, "[...]");
		return;
	}
	ta_pretty_text(A(w), p, "[");
	for (uint64_t i = 0; i < ti->nelem && !too_many(w, p); i++) {
		if (i)
			ta_pretty_text(A(w), p, ", ");
		if (i == DWACC_MAX_PRETTY_ELEMS) {
			ta_pretty_text(A(w), p, "...");
			break;
		}
		struct ta_access *el = ta_copy(A(w), at);
		ta_push_add(A(w), el, (int64_t)i * stride);
		pretty_type(w, p, el, ti->target, level, depth + 1, false);
	}
	ta_pretty_text(A(w), p, "]");
}

static void
pretty_pointer(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	       uint64_t type, int level, int depth, bool top)
{
	struct dw_type_info ti = info(w, type), to = info(w, ti.target);
	struct ta_access *v = value_at(w, at, type);

	w->nvalues++;
	if (to.is_char) {
		ta_pretty_value(A(w), p, v, TA_FMT_QUOTED);
	} else if (to.kind == DW_TYPE_FUNCTION) {
		ta_pretty_value(A(w), p, v, TA_FMT_FUNC);
	} else if (top && (to.kind == DW_TYPE_STRUCT || to.kind == DW_TYPE_UNION)) {
		struct ta_access *in = ta_copy(A(w), at);
		struct ta_pretty *inner = ta_pretty_new(A(w));
		ta_push_deref(A(w), in);
		pretty_type(w, inner, in, ti.target, level, depth, true);
		ta_pretty_struct_ptr(A(w), p, v, inner);
	} else {
		ta_pretty_value(A(w), p, v, TA_FMT_HEX);
	}
}

static void
pretty_type(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	    uint64_t type, int level, int depth, bool top)
{
	struct dw_type_info ti = info(w, type);

	switch (ti.kind) {
	case DW_TYPE_INT: case DW_TYPE_BOOL: case DW_TYPE_ENUM:
		ta_pretty_value(A(w), p, value_at(w, at, type), TA_FMT_DEC);
		w->nvalues++;
		return;
	case DW_TYPE_POINTER:
		pretty_pointer(w, p, at, type, level, depth, top);
		return;
	case DW_TYPE_ARRAY:
		if (!ta_in_memory(at))
			break;
		if (info(w, ti.target).is_char) {
			struct ta_access *s = ta_copy(A(w), at);
			s->result = (struct ta_result){ .kind = TA_RES_STRING,
							.size = (int)ti.nelem };
			ta_pretty_value(A(w), p, s, TA_FMT_QUOTED);
			w->nvalues++;
			return;
		}
		pretty_array(w, p, at, &ti, level, depth);
		return;
	case DW_TYPE_STRUCT: case DW_TYPE_UNION:
		if (!ta_in_memory(at))
			break;
		if (!top && (level < 2 || depth > DWACC_MAX_DEPTH)) {
			ta_pretty_text(A(w), p, "{...}");
			return;
		}
		ta_pretty_text(A(w), p, "{");
		pretty_members(w, p, at, type, level, depth);
		ta_pretty_text(A(w), p, "}");
		return;
	default:
		break;
	}
	ta_pretty_text(A(w), p, "?");
}

static bool
result_pretty(struct walk *w, int level)
{
	struct ta_pretty *p = ta_pretty_new(A(w));

	if (w->bitfield) {
		struct ta_access *v = ta_copy(A(w), w->t);
		result_value(w, (struct loc){ 0 });
		v->result = w->t->result;
		ta_pretty_value(A(w), p, v, TA_FMT_DEC);
	} else {
		pretty_type(w, p, w->t, w->cur, level, 0, true);
	}
	w->t = ta_copy(A(w), w->t);
	w->t->result = (struct ta_result){ .kind = TA_RES_PRETTY, .pretty = p };
	return true;
}

struct ta_access *
dwacc_walk(struct elab *e, struct dw_file *f, uint64_t type,
	   const struct ta_access *base, const struct target_path *path,
	   const char *what, struct loc loc)
{
	struct walk w = { .e = e, .f = f, .cur = type, .what = what };

	w.t = ta_copy(e->s->arena, base);
	for (int i = 0; i < path->nsteps; i++) {
		const struct target_step *st = &path->steps[i];
		if (!(st->kind == STEP_MEMBER ? step_member(&w, st)
					      : step_index(&w, st)))
			return NULL;
	}
	w.t->type_name = type_text(&w, w.cur);
	if (path->addr_of)
		return result_address(&w, loc) ? w.t : NULL;
	if (path->pretty)
		return result_pretty(&w, path->pretty) ? w.t : NULL;
	return result_value(&w, loc) ? w.t : NULL;
}

struct ta_access *
dwacc_target(struct elab *e, struct context_var *cv,
	     const struct target_path *path, const char *what, struct loc loc)
{
	if (!cv->access) {
		diag_error(&e->s->diag, loc, "E_TARGET_UNAVAILABLE",
			   "'%s' cannot be read at this probe point: %s", what,
			   cv->unavailable ? cv->unavailable : "no location");
		diag_hint(&e->s->diag, "@defined(%s) tests for it; a .statement probe at a later line may see it",
			  what);
		return NULL;
	}
	return dwacc_walk(e, cv->dwarf, cv->dwarf_type, cv->access, path, what,
			  loc);
}

struct ta_access *
dwacc_parms(struct elab *e, struct context_var **vars, int nvars, int pretty)
{
	struct arena *a = e->s->arena;
	struct ta_pretty *p = ta_pretty_new(a);
	struct walk w = { .e = e };

	ta_pretty_text(a, p, "");
	for (int i = 0; i < nvars; i++) {
		struct context_var *cv = vars[i];
		ta_pretty_text(a, p, arena_printf(a, "%s%s=", i ? " " : "",
						  cv->name));
		if (!cv->access) {
			ta_pretty_text(a, p, "?");
			continue;
		}
		if (!cv->dwarf) {
			ta_pretty_value(a, p, cv->access, TA_FMT_HEX);
			continue;
		}
		if (!pretty) {
			/* as SystemTap's $$vars: scalars in hex, strings
			 * quoted, aggregates elided */
			struct dw_type_info ti;
			dw_type_info(cv->dwarf, cv->dwarf_type, &ti);
			if (cv->access->result.kind == TA_RES_STRING)
				ta_pretty_value(a, p, cv->access, TA_FMT_QUOTED);
			else if (ti.kind == DW_TYPE_STRUCT || ti.kind == DW_TYPE_UNION)
				ta_pretty_text(a, p, "{...}");
			else if (ti.kind == DW_TYPE_ARRAY)
				ta_pretty_text(a, p, "[...]");
			else
				ta_pretty_value(a, p, cv->access, TA_FMT_HEX);
			continue;
		}
		w.f = cv->dwarf;
		w.t = cv->access;
		pretty_type(&w, p, cv->access, cv->dwarf_type, pretty, 0, true);
	}
	struct ta_access *t = ta_new(a, (struct ta_base){ .kind = TA_BASE_SLOT });
	t->result = (struct ta_result){ .kind = TA_RES_PRETTY, .pretty = p };
	return t;
}
