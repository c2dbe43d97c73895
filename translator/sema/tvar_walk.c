/*
 * tvar_walk.c -- the walk of a $var's path over any debug info's types
 * (tvar_walk.h): members become byte offsets (ADD steps; a member of a
 * named struct or union is also remembered by name, a ta_hop, for the
 * BPF backend's CO-RE relocations), pointers DEREF steps, indexes ADD
 * or INDEX steps, and the last type the result:
 * an integer of its size and signedness, a bitfield, an address (&x, and
 * any array's value, char arrays too, as in SystemTap), or
 * pretty-printed text as SystemTap formats it (char arrays quoted).
 *
 * Errors are diagnostics at the step that went wrong; a member that does
 * not exist names the type and suggests the closest member names.  Must
 * not: emit C (codegen_tvar.c does), know where the base value lives
 * (the provider filled the base), or know which debug info it walks (the
 * tw_ops do).
 */
#include <stdio.h>
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/sema/tvar_walk.h"

#define TW_MAX_PRETTY_VALUES 256	/* a $$ of a big struct is cut here */
#define TW_MAX_PRETTY_ELEMS 16		/* array elements a $$ shows */
#define TW_MAX_DEPTH 8			/* nested structs a $$ expands */

struct walk {
	struct elab *e;
	struct tw_source s;
	struct ta_access *t;
	uint64_t cur;			/* type of what the path reached */
	const char *what;		/* the path so far, as written */
	bool bitfield;
	uint32_t bit_off, bit_size;	/* of the bitfield, from V */
	int nvalues;			/* pretty values so far */
};

static struct arena *
A(struct walk *w)
{
	return w->e->s->arena;
}

static struct tw_type
info(const struct tw_source *s, uint64_t type)
{
	struct tw_type ti;

	memset(&ti, 0, sizeof(ti));
	s->ops->type(s->src, type, &ti);
	return ti;
}

static const char *
type_text(struct walk *w, uint64_t type)
{
	char buf[256];

	return arena_strdup(A(w), w->s.ops->name(w->s.src, type, buf,
						  sizeof(buf)));
}

/* Bytes a bitfield read covers: from its first byte, rounded up to an
 * integer size where the source asks for it. */
static int
bitfield_bytes(const struct walk *w, uint64_t bits)
{
	uint64_t n = (bits + 7) / 8;

	if (!w->s.ops->round_bitfield_bytes)
		return (int)n;
	return n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : 8;
}

/* ---- "did you mean" for members ---- */

struct near_names {
	const char *best[3];
	int dist[3];
};

static void
near_consider(struct near_names *nn, const char *want, const char *name)
{
	int d = elab_edit_distance(want, name);
	int limit = (int)strlen(want) / 3 + 2;

	if (d > limit)
		return;
	for (int i = 0; i < 3; i++) {
		if (nn->best[i] && nn->dist[i] <= d)
			continue;
		for (int j = 2; j > i; j--) {
			nn->best[j] = nn->best[j - 1];
			nn->dist[j] = nn->dist[j - 1];
		}
		nn->best[i] = name;
		nn->dist[i] = d;
		return;
	}
}

/* Members of aggregate `type`, anonymous ones looked into, as C does. */
static void
near_members(struct walk *w, uint64_t type, const char *want,
	     struct near_names *nn, int depth)
{
	struct tw_member *ms;
	int n = w->s.ops->members(w->s.src, type, A(w), &ms);

	for (int i = 0; i < n && depth < 8; i++) {
		if (*ms[i].name)
			near_consider(nn, want, ms[i].name);
		else
			near_members(w, ms[i].type, want, nn, depth + 1);
	}
}

static void
hint_members(struct walk *w, uint64_t type, const char *want)
{
	struct diag *d = &w->e->s->diag;
	struct near_names nn;

	if (w->s.ops->member_hint) {
		w->s.ops->member_hint(w->s.src, type, d);
		return;
	}
	memset(&nn, 0, sizeof(nn));
	near_members(w, type, want, &nn, 0);
	if (!nn.best[0])
		return;
	if (!nn.best[1])
		diag_hint(d, "did you mean '%s'?", nn.best[0]);
	else if (!nn.best[2])
		diag_hint(d, "did you mean '%s' or '%s'?", nn.best[0],
			  nn.best[1]);
	else
		diag_hint(d, "did you mean '%s', '%s' or '%s'?", nn.best[0],
			  nn.best[1], nn.best[2]);
}

/* ---- the path ---- */

static bool
not_after_bitfield(struct walk *w, struct loc at)
{
	if (!w->bitfield)
		return true;
	diag_error(&w->e->s->diag, at, "E_TARGET_TYPE",
		   "'%s' is a bitfield: it has no members or elements",
		   w->what);
	return false;
}

/* Through any number of pointers, as SystemTap's -> goes. */
static uint64_t
follow_pointers(struct walk *w)
{
	uint64_t t = w->cur;
	struct tw_type ti = info(&w->s, t);

	while (ti.kind == TW_POINTER) {
		ta_push_deref(A(w), w->t);
		t = ti.target;
		ti = info(&w->s, t);
	}
	return t;
}

/* A member of a small aggregate held in a register: bits of V. */
static bool
member_in_register(struct walk *w, const struct target_step *st,
		   uint64_t agg, const struct tw_member *m)
{
	struct tw_type ti = info(&w->s, agg), mi = info(&w->s, m->type);

	if (ti.size > 8 || (!m->bit_size && (mi.kind == TW_STRUCT ||
					      mi.kind == TW_UNION ||
					      mi.kind == TW_ARRAY))) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is a struct passed by value in registers; only its scalar members are supported",
			   w->what);
		return false;
	}
	w->bitfield = true;
	w->bit_off += (uint32_t)m->bit_offset;
	w->bit_size = m->bit_size ? m->bit_size : (uint32_t)mi.size * 8;
	return true;
}

/* The aggregate a member step looks into, or an error. */
static bool
member_parent_ok(struct walk *w, const struct target_step *st, uint64_t t,
		 enum tw_kind k)
{
	if (k == TW_FWD) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', which the kernel's BTF only declares: its members are unknown",
			   w->what, type_text(w, t));
		return false;
	}
	if (k != TW_STRUCT && k != TW_UNION) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not a struct or union: it has no member '%s'",
			   w->what, type_text(w, w->cur), st->member);
		return false;
	}
	if (!w->s.ops->members_in_registers && !ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is a struct passed by value; its members are not supported yet",
			   w->what);
		return false;
	}
	return true;
}

/* The kind of member type `type` for a ta_hop (arrays of it counted
 * into `h`); false when a relocation could not name it: floats, sizes
 * other than 1, 2, 4, 8, arrays nested too deep. */
static bool
hop_field_kind(struct walk *w, uint64_t type, struct ta_hop *h)
{
	struct tw_type ti = info(&w->s, type);

	while (ti.kind == TW_ARRAY) {
		if (h->ndims == TA_HOP_MAX_DIMS)
			return false;
		h->dims[h->ndims++] = ti.nelem;
		ti = info(&w->s, ti.target);
	}
	switch (ti.kind) {
	case TW_INT:
		if (ti.size != 1 && ti.size != 2 && ti.size != 4 &&
		    ti.size != 8)
			return false;
		/* an 8-byte enum is BTF's ENUM64 kind, which the flavor's
		 * plain enum would not match */
		if (ti.is_enum && ti.size == 8)
			return false;
		h->kind = ti.is_enum ? TA_FIELD_ENUM : TA_FIELD_INT;
		h->size = (int)ti.size;
		return true;
	case TW_POINTER:
		h->kind = TA_FIELD_PTR;
		return true;
	case TW_STRUCT: case TW_UNION:
		h->kind = TA_FIELD_COMPOSITE;
		return true;
	case TW_ARRAY: case TW_FWD: case TW_FUNC: case TW_FLOAT:
	case TW_OTHER:
		break;
	}
	return false;
}

/* V += the offset of member `m` (named `name`) of aggregate `agg`,
 * remembered as a ta_hop when a relocation can find it again by name:
 * the aggregate is named and the member is no bitfield (whose bit
 * position no relocation here redoes) and has a nameable type.  Else
 * the offset is a constant. */
static void
push_member(struct walk *w, uint64_t agg, const char *name,
	    const struct tw_member *m)
{
	struct tw_type ai = info(&w->s, agg);
	struct ta_hop h = { .offset = (int64_t)(m->bit_offset / 8) };

	if (m->bit_size || !ai.tag || !*ai.tag ||
	    !hop_field_kind(w, m->type, &h)) {
		ta_push_add(A(w), w->t, h.offset);
		return;
	}
	h.container = ai.tag;
	h.container_union = ai.kind == TW_UNION;
	h.member = name;
	ta_push_member(A(w), w->t, &h);
}

static bool
step_member(struct walk *w, const struct target_step *st)
{
	struct tw_member m;

	if (!not_after_bitfield(w, st->loc))
		return false;
	uint64_t t = follow_pointers(w);
	if (!member_parent_ok(w, st, t, info(&w->s, t).kind))
		return false;
	if (!w->s.ops->member(w->s.src, t, st->member, &m)) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_MEMBER",
			   "'%s' (%s) has no member '%s'", w->what,
			   type_text(w, t), st->member);
		hint_members(w, t, st->member);
		return false;
	}
	w->what = arena_printf(A(w), "%s->%s", w->what, st->member);
	w->cur = m.type;
	if (!ta_in_memory(w->t))
		return member_in_register(w, st, t, &m);
	push_member(w, t, st->member, &m);
	if (m.bit_size) {
		w->bitfield = true;
		w->bit_off = (uint32_t)(m.bit_offset % 8);
		w->bit_size = m.bit_size;
	}
	return true;
}

/* A constant index: bounds checked, folded into an ADD. */
static bool
index_constant(struct walk *w, const struct target_step *st,
	       const struct tw_type *ti, int64_t stride)
{
	uint64_t i = st->index->u.number.value;

	if (ti->kind == TW_ARRAY && ti->nelem && i >= ti->nelem) {
		diag_error(&w->e->s->diag, st->index->loc, "E_TARGET_INDEX",
			   "index %llu is out of bounds for '%s' (%llu elements)",
			   (unsigned long long)i, w->what,
			   (unsigned long long)ti->nelem);
		return false;
	}
	ta_push_add(A(w), w->t, (int64_t)i * stride);
	w->what = arena_printf(A(w), "%s[%llu]", w->what,
			       (unsigned long long)i);
	return true;
}

static bool
step_index(struct walk *w, const struct target_step *st)
{
	if (!not_after_bitfield(w, st->loc))
		return false;
	struct tw_type ti = info(&w->s, w->cur);
	bool array = ti.kind == TW_ARRAY;

	if (!array && ti.kind != TW_POINTER) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not an array or pointer: it cannot be indexed",
			   w->what, type_text(w, w->cur));
		return false;
	}
	if (!array) {
		ta_push_deref(A(w), w->t);
	} else if (!ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is an array passed by value; that is not supported yet",
			   w->what);
		return false;
	}
	int64_t stride = info(&w->s, ti.target).size;
	if (stride <= 0) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' points to '%s', which has no size: it cannot be indexed",
			   w->what, type_text(w, ti.target));
		return false;
	}
	if (st->index->kind == N_NUMBER) {
		if (!index_constant(w, st, &ti, stride))
			return false;
	} else {
		ta_push_index(A(w), w->t, st->index, stride);
		w->what = arena_printf(A(w), "%s[...]", w->what);
	}
	w->cur = ti.target;
	return true;
}

/* ---- the result ---- */

/* An integer result for `type` (already reached by the steps). */
static bool
scalar_of(const struct tw_source *s, uint64_t type, struct ta_result *r)
{
	struct tw_type ti = info(s, type);

	memset(r, 0, sizeof(*r));
	r->kind = TA_RES_INT;
	switch (ti.kind) {
	case TW_INT:
		if (ti.size <= 0 || ti.size > 8)
			return false;
		r->size = (int)ti.size;
		r->is_signed = ti.is_signed;
		return true;
	case TW_POINTER:
		r->size = 8;
		return true;
	default:
		return false;
	}
}

void
tw_set_scalar_result(struct tw_source s, uint64_t type, struct ta_access *t)
{
	if (info(&s, type).kind == TW_ARRAY && ta_in_memory(t)) {
		/* its address, as result_value() gives it */
		t->result = (struct ta_result){ .kind = TA_RES_ADDRESS,
						.size = 8 };
		t->vtype = tw_vtype(s, type, false);
		return;
	}
	if (!scalar_of(&s, type, &t->result)) {
		t->result.kind = TA_RES_INT;
		t->result.size = 8;
	}
	t->vtype = tw_vtype(s, type, false);
}

static bool
result_bitfield(struct walk *w)
{
	scalar_of(&w->s, w->cur, &w->t->result);
	if (ta_in_memory(w->t))
		w->t->result.size = bitfield_bytes(w, w->bit_off + w->bit_size);
	else
		w->t->result.size = 8;	/* bits of a register */
	w->t->result.bit_offset = w->bit_off;
	w->t->result.bit_size = w->bit_size;
	return w->bit_off + w->bit_size <= 64;
}

static bool
result_value(struct walk *w, struct loc at)
{
	struct tw_type ti = info(&w->s, w->cur);

	if (w->bitfield)
		return result_bitfield(w);
	if (scalar_of(&w->s, w->cur, &w->t->result))
		return true;
	/* An array, char arrays included, is its address, as in
	 * SystemTap: scripts read the text with kernel_string() or
	 * user_string() ($t->comm), or index it ($t->comm[0]). */
	if (ti.kind == TW_ARRAY && ta_in_memory(w->t)) {
		w->t->result = (struct ta_result){ .kind = TA_RES_ADDRESS,
						   .size = 8 };
		return true;
	}
	const char *how =
		ti.kind == TW_STRUCT || ti.kind == TW_UNION ?
			"take a member (->name), its address (&) or print it with a '$' suffix" :
		ti.kind == TW_ARRAY ?
			"index it ([i]), take its address (&) or print it with a '$' suffix" :
		ti.kind == TW_FLOAT ? "floating-point values are not supported" :
		"it has no value a script can use";
	diag_error(&w->e->s->diag, at, "E_TARGET_TYPE",
		   "'%s' has type '%s': %s", w->what, type_text(w, w->cur), how);
	return false;
}

static bool
result_address(struct walk *w, struct loc at)
{
	if (w->bitfield) {
		diag_error(&w->e->s->diag, at, "E_TARGET_ADDR",
			   "cannot take the address of bitfield '%s'", w->what);
		return false;
	}
	if (!ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, at, "E_TARGET_ADDR",
			   "cannot take the address of '%s': its value is not in memory",
			   w->what);
		return false;
	}
	w->t->result = (struct ta_result){ .kind = TA_RES_ADDRESS, .size = 8 };
	w->t->type_name = arena_printf(A(w), "%s *", type_text(w, w->cur));
	return true;
}

/* ---- pretty printing ---- */

static void pretty_type(struct walk *w, struct ta_pretty *p,
			const struct ta_access *at, uint64_t type, int level,
			int depth, bool top);

static struct ta_access *
value_at(struct walk *w, const struct ta_access *at, uint64_t type)
{
	struct ta_access *v = ta_copy(A(w), at);

	scalar_of(&w->s, type, &v->result);
	return v;
}

static bool
too_many(struct walk *w, struct ta_pretty *p)
{
	if (w->nvalues < TW_MAX_PRETTY_VALUES)
		return false;
	if (w->nvalues++ == TW_MAX_PRETTY_VALUES)
		ta_pretty_text(A(w), p, "...");
	return true;
}

/* ".name=" and the value of bitfield `m` of the object `mat` reaches. */
static void
pretty_bitfield(struct walk *w, struct ta_pretty *p,
		const struct ta_access *mat, const struct tw_member *m)
{
	struct ta_access *v = value_at(w, mat, m->type);
	uint32_t bit = (uint32_t)(m->bit_offset % 8);

	v->result.size = bitfield_bytes(w, bit + m->bit_size);
	v->result.bit_offset = bit;
	v->result.bit_size = m->bit_size;
	ta_pretty_value(A(w), p, v, TA_FMT_DEC);
	w->nvalues++;
}

static void
pretty_members(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	       uint64_t type, int level, int depth, bool *first)
{
	struct tw_member *ms;
	int n = w->s.ops->members(w->s.src, type, A(w), &ms);

	for (int i = 0; i < n && !too_many(w, p); i++) {
		const struct tw_member *m = &ms[i];
		struct ta_access *mat = ta_copy(A(w), at);
		ta_push_add(A(w), mat, (int64_t)(m->bit_offset / 8));
		if (!*m->name) {	/* anonymous: its members stand for it */
			pretty_members(w, p, mat, m->type, level, depth, first);
			continue;
		}
		ta_pretty_text(A(w), p, arena_printf(A(w), "%s.%s=",
						     *first ? "" : ", ", m->name));
		*first = false;
		if (m->bit_size)
			pretty_bitfield(w, p, mat, m);
		else
			pretty_type(w, p, mat, m->type, level, depth + 1, false);
	}
}

static void
pretty_array(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	     const struct tw_type *ti, int level, int depth)
{
	int64_t stride = info(&w->s, ti->target).size;

	if (level < 2 || stride <= 0 || depth > TW_MAX_DEPTH) {
		ta_pretty_text(A(w), p, "[...]");
		return;
	}
	ta_pretty_text(A(w), p, "[");
	for (uint64_t i = 0; i < ti->nelem && !too_many(w, p); i++) {
		if (i)
			ta_pretty_text(A(w), p, ", ");
		if (i == TW_MAX_PRETTY_ELEMS) {
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
	struct tw_type ti = info(&w->s, type), to = info(&w->s, ti.target);
	struct ta_access *v = value_at(w, at, type);

	w->nvalues++;
	if (ti.is_string) {
		ta_pretty_value(A(w), p, v, TA_FMT_QUOTED);
	} else if (to.kind == TW_FUNC) {
		ta_pretty_value(A(w), p, v, TA_FMT_FUNC);
	} else if (top && (to.kind == TW_STRUCT || to.kind == TW_UNION)) {
		/* A struct pointer at the top is followed, as SystemTap's
		 * $p$ and $$parms$ do; NULL stays 0x0. */
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
pretty_aggregate(struct walk *w, struct ta_pretty *p,
		 const struct ta_access *at, uint64_t type, int level,
		 int depth, bool top)
{
	bool first = true;

	if (!top && (level < 2 || depth > TW_MAX_DEPTH)) {
		ta_pretty_text(A(w), p, "{...}");
		return;
	}
	ta_pretty_text(A(w), p, "{");
	pretty_members(w, p, at, type, level, depth, &first);
	ta_pretty_text(A(w), p, "}");
}

/* The text of the object `at` reaches, of `type`. */
static void
pretty_type(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	    uint64_t type, int level, int depth, bool top)
{
	struct tw_type ti = info(&w->s, type);

	switch (ti.kind) {
	case TW_INT:
		ta_pretty_value(A(w), p, value_at(w, at, type), TA_FMT_DEC);
		w->nvalues++;
		return;
	case TW_POINTER:
		pretty_pointer(w, p, at, type, level, depth, top);
		return;
	case TW_ARRAY:
		if (!ta_in_memory(at))
			break;
		if (ti.is_string) {
			struct ta_access *s = ta_copy(A(w), at);
			s->result = (struct ta_result){ .kind = TA_RES_STRING,
							.size = (int)ti.nelem };
			ta_pretty_value(A(w), p, s, TA_FMT_QUOTED);
			w->nvalues++;
			return;
		}
		pretty_array(w, p, at, &ti, level, depth);
		return;
	case TW_STRUCT: case TW_UNION:
		if (!ta_in_memory(at))
			break;
		pretty_aggregate(w, p, at, type, level, depth, top);
		return;
	case TW_FWD: case TW_FUNC: case TW_FLOAT: case TW_OTHER:
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
tw_walk(struct elab *e, struct tw_source s, uint64_t type,
	const struct ta_access *base, const struct target_path *path,
	const char *what, struct loc loc)
{
	struct walk w = { .e = e, .s = s, .cur = type, .what = what };

	w.t = ta_copy(e->s->arena, base);
	for (int i = 0; i < path->nsteps; i++) {
		const struct target_step *st = &path->steps[i];
		bool ok = st->kind == STEP_MEMBER ? step_member(&w, st)
						  : step_index(&w, st);
		if (!ok)
			return NULL;
	}
	w.t->type_name = type_text(&w, w.cur);
	w.t->vtype = (struct ta_vtype){ 0 };
	if (path->addr_of) {
		if (!result_address(&w, loc))
			return NULL;
		w.t->vtype = tw_vtype(s, w.cur, true);
		return w.t;
	}
	if (path->pretty)
		return result_pretty(&w, path->pretty) ? w.t : NULL;
	if (!result_value(&w, loc))
		return NULL;
	if (w.t->result.kind != TA_RES_PRETTY && !w.bitfield)
		w.t->vtype = tw_vtype(s, w.cur, false);	/* an array's too */
	return w.t;
}

struct ta_access *
tw_walk_cast_node(struct elab *e, struct tw_source s, uint64_t type,
		  int pointers, struct node *n)
{
	if (pointers) {
		diag_error(&e->s->diag, n->loc, "E_UNSUPPORTED",
			   "@cast to a pointer type ('%s') is not supported yet; cast to the type pointed to",
			   n->u.cast.type_name);
		return NULL;
	}
	return tw_walk_cast(e, s, type, n->u.cast.operand, &n->u.cast.path,
			    arena_printf(e->s->arena, "@cast(..., \"%s\")",
					 n->u.cast.type_name), n->loc);
}

struct ta_access *
tw_walk_cast(struct elab *e, struct tw_source s, uint64_t type,
	     struct node *operand, const struct target_path *path,
	     const char *what, struct loc loc)
{
	struct arena *a = e->s->arena;
	struct ta_access *base = ta_new(a, (struct ta_base){
		.kind = TA_BASE_EXPR, .expr = operand });
	struct target_path rest = *path;

	ta_push_deref(a, base);		/* V: the address of the object */
	if (!path->nsteps && !path->addr_of && !path->pretty) {
		base->result = (struct ta_result){ .kind = TA_RES_ADDRESS,
						   .size = 8 };
		base->vtype = tw_vtype(s, type, true);
		return base;
	}
	if (path->nsteps && path->steps[0].kind == STEP_INDEX) {
		/* @cast(p, "T")[i]: p is a T *, indexed as C indexes it */
		const struct target_step *st = &path->steps[0];
		int64_t size = info(&s, type).size;
		if (size <= 0) {
			diag_error(&e->s->diag, st->loc, "E_TARGET_TYPE",
				   "'%s' has no size: it cannot be indexed",
				   what);
			return NULL;
		}
		if (st->index->kind == N_NUMBER)
			ta_push_add(a, base,
				    (int64_t)st->index->u.number.value * size);
		else
			ta_push_index(a, base, st->index, size);
		rest.steps++;
		rest.nsteps--;
		what = arena_printf(a, "%s[...]", what);
	}
	return tw_walk(e, s, type, base, &rest, what, loc);
}

struct ta_vtype
tw_vtype(struct tw_source s, uint64_t type, bool addr_of)
{
	return (struct ta_vtype){ .ops = s.ops, .src = s.src, .type = type,
				  .addr_of = addr_of };
}

struct ta_access *
tw_walk_value(struct elab *e, const struct ta_vtype *vt, struct node *expr,
	      const struct target_path *path, const char *what,
	      struct loc loc)
{
	struct tw_source s = { .ops = vt->ops, .src = vt->src };
	struct ta_access *base;

	/* The address of an object (&x->m): as @cast's operand, so that
	 * (p)[i] indexes it as a pointer. */
	if (vt->addr_of)
		return tw_walk_cast(e, s, vt->type, expr, path, what, loc);
	base = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_EXPR,
						     .expr = expr });
	/* An array's value is its address: (a)[i] indexes the array. */
	if (info(&s, vt->type).kind == TW_ARRAY)
		ta_push_deref(e->s->arena, base);
	return tw_walk(e, s, vt->type, base, path, what, loc);
}

/* ---- $$parms ---- */

/* A variable of $$vars without '$': scalars in hex, strings quoted,
 * aggregates elided, as SystemTap prints them. */
static void
plain_var(struct arena *a, struct ta_pretty *p, const struct context_var *cv,
	  const struct tw_source *s, uint64_t type)
{
	struct tw_type ti = info(s, type);
	enum tw_kind k = ti.kind;

	if (k == TW_ARRAY && ti.is_string && ta_in_memory(cv->access)) {
		/* the variable's value is the array's address; its text
		 * is printed */
		struct ta_access *str = ta_copy(a, cv->access);
		str->result = (struct ta_result){ .kind = TA_RES_STRING,
						  .size = (int)ti.nelem };
		ta_pretty_value(a, p, str, TA_FMT_QUOTED);
	} else if (k == TW_STRUCT || k == TW_UNION)
		ta_pretty_text(a, p, "{...}");
	else if (k == TW_ARRAY)
		ta_pretty_text(a, p, "[...]");
	else
		ta_pretty_value(a, p, cv->access, TA_FMT_HEX);
}

struct ta_access *
tw_parms(struct elab *e, struct context_var **vars, int nvars, int pretty,
	 tw_source_of_fn *source_of)
{
	struct arena *a = e->s->arena;
	struct ta_pretty *p = ta_pretty_new(a);
	struct walk w = { .e = e };
	uint64_t type;

	ta_pretty_text(a, p, "");
	for (int i = 0; i < nvars; i++) {
		struct context_var *cv = vars[i];
		ta_pretty_text(a, p, arena_printf(a, "%s%s=", i ? " " : "",
						  cv->name));
		if (!cv->access) {
			ta_pretty_text(a, p, "?");
			continue;
		}
		if (!source_of(cv, &w.s, &type) ||
		    (!pretty && !w.s.ops->plain_vars_by_kind)) {
			ta_pretty_value(a, p, cv->access, TA_FMT_HEX);
			continue;
		}
		if (!pretty) {
			plain_var(a, p, cv, &w.s, type);
			continue;
		}
		w.t = cv->access;
		pretty_type(&w, p, cv->access, type, pretty, 0, true);
	}
	struct ta_access *t = ta_new(a, (struct ta_base){ .kind = TA_BASE_SLOT });
	t->result = (struct ta_result){ .kind = TA_RES_PRETTY, .pretty = p };
	return t;
}
