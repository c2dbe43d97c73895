/*
 * target_btf.c -- the BTF source of `struct ta_access` (target_btf.h):
 * walks a $var's path (->member, [index], &, $/$$) through the kernel's
 * BTF types, turning members into byte offsets, pointers into DEREF steps
 * and the last type into the result (an integer of its size and
 * signedness, a bitfield, a char array as a string, an address, or
 * pretty-printed text as SystemTap formats it).
 *
 * Errors are diagnostics at the step that went wrong; a member that does
 * not exist names the type and suggests the closest member names.  Must
 * not: emit C (codegen_target.c does), or know where the base value lives
 * (the provider filled the base).
 */
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/elab.h"
#include "translator/target_btf.h"

#define TBTF_MAX_PRETTY_VALUES 256	/* a $$ of a big struct is cut here */
#define TBTF_MAX_PRETTY_ELEMS 16	/* array elements a $$ shows */
#define TBTF_MAX_DEPTH 8		/* nested structs a $$ expands */

struct walk {
	struct elab *e;
	const struct btf *btf;
	struct ta_access *t;
	uint32_t cur;			/* type of what the path reached */
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

static const char *
type_text(struct walk *w, uint32_t id)
{
	char buf[256];

	btf_type_snprint(w->btf, id, NULL, buf, sizeof(buf));
	return arena_strdup(A(w), buf);
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

/* Members of struct `id`, anonymous ones looked into, as C does. */
static void
near_members(const struct btf *btf, uint32_t id, const char *want,
	     struct near_names *nn, int depth)
{
	int n = btf_member_count(btf, id);

	for (int i = 0; i < n && depth < 8; i++) {
		struct btf_member m;
		if (!btf_member_at(btf, id, i, &m))
			continue;
		if (*m.name)
			near_consider(nn, want, m.name);
		else
			near_members(btf, btf_resolve(btf, m.type), want, nn,
				     depth + 1);
	}
}

static void
hint_members(struct walk *w, uint32_t id, const char *want)
{
	struct near_names nn;

	memset(&nn, 0, sizeof(nn));

	near_members(w->btf, id, want, &nn, 0);
	if (!nn.best[0])
		return;
	if (!nn.best[1])
		diag_hint(&w->e->s->diag, "did you mean '%s'?", nn.best[0]);
	else if (!nn.best[2])
		diag_hint(&w->e->s->diag, "did you mean '%s' or '%s'?",
			  nn.best[0], nn.best[1]);
	else
		diag_hint(&w->e->s->diag, "did you mean '%s', '%s' or '%s'?",
			  nn.best[0], nn.best[1], nn.best[2]);
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
static uint32_t
follow_pointers(struct walk *w)
{
	uint32_t t = btf_resolve(w->btf, w->cur);

	while (btf_kind(w->btf, t) == BTF_KIND_PTR) {
		ta_push_deref(A(w), w->t);
		t = btf_resolve(w->btf, btf_ref(w->btf, t));
	}
	return t;
}

static bool
step_member(struct walk *w, const struct target_step *st)
{
	if (!not_after_bitfield(w, st->loc))
		return false;
	uint32_t t = follow_pointers(w);
	enum btf_kind k = btf_kind(w->btf, t);
	struct btf_member m;

	if (k == BTF_KIND_FWD) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', which the kernel's BTF only declares: its members are unknown",
			   w->what, type_text(w, t));
		return false;
	}
	if (k != BTF_KIND_STRUCT && k != BTF_KIND_UNION) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not a struct or union: it has no member '%s'",
			   w->what, type_text(w, w->cur), st->member);
		return false;
	}
	if (!ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is a struct passed by value; its members are not supported yet",
			   w->what);
		return false;
	}
	if (!btf_member_find(w->btf, t, st->member, &m)) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_MEMBER",
			   "'%s' (%s) has no member '%s'", w->what,
			   type_text(w, t), st->member);
		hint_members(w, t, st->member);
		return false;
	}
	ta_push_add(A(w), w->t, m.bit_offset / 8);
	if (m.bitfield_size) {
		w->bitfield = true;
		w->bit_off = m.bit_offset % 8;
		w->bit_size = m.bitfield_size;
	}
	w->cur = m.type;
	w->what = arena_printf(A(w), "%s->%s", w->what, st->member);
	return true;
}

static bool
step_index(struct walk *w, const struct target_step *st)
{
	if (!not_after_bitfield(w, st->loc))
		return false;
	uint32_t t = btf_resolve(w->btf, w->cur), elem;
	struct btf_array_info ai = { 0 };
	bool array = btf_array_info(w->btf, t, &ai);

	if (array) {
		elem = ai.elem_type;
	} else if (btf_kind(w->btf, t) == BTF_KIND_PTR) {
		ta_push_deref(A(w), w->t);
		elem = btf_ref(w->btf, t);
	} else {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' has type '%s', not an array or pointer: it cannot be indexed",
			   w->what, type_text(w, w->cur));
		return false;
	}
	int64_t stride = btf_sizeof(w->btf, elem);
	if (stride <= 0) {
		diag_error(&w->e->s->diag, st->loc, "E_TARGET_TYPE",
			   "'%s' points to '%s', which has no size: it cannot be indexed",
			   w->what, type_text(w, elem));
		return false;
	}
	if (array && !ta_in_memory(w->t)) {
		diag_error(&w->e->s->diag, st->loc, "E_UNSUPPORTED",
			   "'%s' is an array passed by value; that is not supported yet",
			   w->what);
		return false;
	}
	if (st->index->kind == N_NUMBER) {
		uint64_t i = st->index->u.number.value;
		if (array && ai.nelems && i >= ai.nelems) {
			diag_error(&w->e->s->diag, st->index->loc, "E_TARGET_INDEX",
				   "index %llu is out of bounds for '%s' (%u elements)",
				   (unsigned long long)i, w->what, ai.nelems);
			return false;
		}
		ta_push_add(A(w), w->t, (int64_t)i * stride);
		w->what = arena_printf(A(w), "%s[%llu]", w->what,
				       (unsigned long long)i);
	} else {
		ta_push_index(A(w), w->t, st->index, stride);
		w->what = arena_printf(A(w), "%s[...]", w->what);
	}
	w->cur = elem;
	return true;
}

/* ---- the result ---- */

/* An integer result for `type` (already reached by t's steps). */
static bool
scalar_of(const struct btf *btf, uint32_t type, struct ta_result *r)
{
	uint32_t t = btf_resolve(btf, type);
	struct btf_int_info ii;

	memset(r, 0, sizeof(*r));
	r->kind = TA_RES_INT;
	switch (btf_kind(btf, t)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		if (!btf_int_info(btf, t, &ii) || ii.size > 8 || !ii.size)
			return false;
		r->size = (int)ii.size;
		r->is_signed = ii.is_signed;
		return true;
	case BTF_KIND_PTR:
		r->size = 8;
		return true;
	default:
		return false;
	}
}

void
tbtf_set_scalar_result(const struct btf *btf, uint32_t type,
		       struct ta_access *t)
{
	if (!scalar_of(btf, type, &t->result)) {
		t->result.kind = TA_RES_INT;
		t->result.size = 8;
	}
}

static bool
result_value(struct walk *w, struct loc at)
{
	uint32_t t = btf_resolve(w->btf, w->cur);
	enum btf_kind k = btf_kind(w->btf, t);
	struct btf_array_info ai;

	if (w->bitfield) {
		scalar_of(w->btf, w->cur, &w->t->result);
		w->t->result.size = (int)((w->bit_off + w->bit_size + 7) / 8);
		w->t->result.bit_offset = w->bit_off;
		w->t->result.bit_size = w->bit_size;
		return w->t->result.size <= 8;
	}
	if (scalar_of(w->btf, w->cur, &w->t->result))
		return true;
	if (k == BTF_KIND_ARRAY && btf_is_string(w->btf, t) &&
	    ta_in_memory(w->t) && btf_array_info(w->btf, t, &ai)) {
		w->t->result.kind = TA_RES_STRING;
		w->t->result.size = (int)ai.nelems;
		return true;
	}
	const char *how =
		k == BTF_KIND_STRUCT || k == BTF_KIND_UNION ?
			"take a member (->name), its address (&) or print it with a '$' suffix" :
		k == BTF_KIND_ARRAY ?
			"index it ([i]), take its address (&) or print it with a '$' suffix" :
		k == BTF_KIND_FLOAT ? "floating-point values are not supported" :
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
			const struct ta_access *at, uint32_t type, int level,
			int depth, bool top);

static struct ta_access *
value_at(struct walk *w, const struct ta_access *at, uint32_t type)
{
	struct ta_access *v = ta_copy(A(w), at);

	scalar_of(w->btf, type, &v->result);
	return v;
}

static bool
too_many(struct walk *w, struct ta_pretty *p)
{
	if (w->nvalues < TBTF_MAX_PRETTY_VALUES)
		return false;
	if (w->nvalues++ == TBTF_MAX_PRETTY_VALUES)
		ta_pretty_text(A(w), p, "...");
	return true;
}

static void
pretty_members(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	       uint32_t t, int level, int depth, bool *first)
{
	int n = btf_member_count(w->btf, t);

	for (int i = 0; i < n && !too_many(w, p); i++) {
		struct btf_member m;
		if (!btf_member_at(w->btf, t, i, &m))
			continue;
		struct ta_access *mat = ta_copy(A(w), at);
		ta_push_add(A(w), mat, m.bit_offset / 8);
		if (!*m.name) {	/* anonymous: its members stand for it */
			pretty_members(w, p, mat, btf_resolve(w->btf, m.type),
				       level, depth, first);
			continue;
		}
		ta_pretty_text(A(w), p, arena_printf(A(w), "%s.%s=",
						     *first ? "" : ", ", m.name));
		*first = false;
		if (m.bitfield_size) {
			struct ta_access *v = value_at(w, mat, m.type);
			v->result.size = (int)((m.bit_offset % 8 +
						m.bitfield_size + 7) / 8);
			v->result.bit_offset = m.bit_offset % 8;
			v->result.bit_size = m.bitfield_size;
			ta_pretty_value(A(w), p, v, TA_FMT_DEC);
			w->nvalues++;
			continue;
		}
		pretty_type(w, p, mat, m.type, level, depth + 1, false);
	}
}

static void
pretty_array(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	     const struct btf_array_info *ai, int level, int depth)
{
	int64_t stride = btf_sizeof(w->btf, ai->elem_type);
	uint32_t n = ai->nelems;

	if (level < 2 || stride <= 0 || depth > TBTF_MAX_DEPTH) {
		ta_pretty_text(A(w), p, "[...]");
		return;
	}
	ta_pretty_text(A(w), p, "[");
	for (uint32_t i = 0; i < n && !too_many(w, p); i++) {
		if (i)
			ta_pretty_text(A(w), p, ", ");
		if (i == TBTF_MAX_PRETTY_ELEMS) {
			ta_pretty_text(A(w), p, "...");
			break;
		}
		struct ta_access *e = ta_copy(A(w), at);
		ta_push_add(A(w), e, (int64_t)i * stride);
		pretty_type(w, p, e, ai->elem_type, level, depth + 1, false);
	}
	ta_pretty_text(A(w), p, "]");
}

static void
pretty_pointer(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	       uint32_t type, int level, int depth, bool top)
{
	uint32_t t = btf_resolve(w->btf, type);
	uint32_t to = btf_resolve(w->btf, btf_ref(w->btf, t));
	enum btf_kind tk = btf_kind(w->btf, to);
	struct ta_access *v = value_at(w, at, type);

	w->nvalues++;
	if (btf_is_string(w->btf, t)) {
		ta_pretty_value(A(w), p, v, TA_FMT_QUOTED);
	} else if (tk == BTF_KIND_FUNC_PROTO) {
		ta_pretty_value(A(w), p, v, TA_FMT_FUNC);
	} else if (top && (tk == BTF_KIND_STRUCT || tk == BTF_KIND_UNION)) {
		/* A struct pointer at the top is followed, as SystemTap's
		 * $p$ and $$parms$ do; NULL stays 0x0. */
		struct ta_access *in = ta_copy(A(w), at);
		struct ta_pretty *inner = ta_pretty_new(A(w));
		ta_push_deref(A(w), in);
		pretty_type(w, inner, in, to, level, depth, true);
		ta_pretty_struct_ptr(A(w), p, v, inner);
	} else {
		ta_pretty_value(A(w), p, v, TA_FMT_HEX);
	}
}

/* The text of the object `at` reaches, of BTF `type`. */
static void
pretty_type(struct walk *w, struct ta_pretty *p, const struct ta_access *at,
	    uint32_t type, int level, int depth, bool top)
{
	uint32_t t = btf_resolve(w->btf, type);
	struct btf_array_info ai;

	switch (btf_kind(w->btf, t)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		ta_pretty_value(A(w), p, value_at(w, at, type), TA_FMT_DEC);
		w->nvalues++;
		return;
	case BTF_KIND_PTR:
		pretty_pointer(w, p, at, type, level, depth, top);
		return;
	case BTF_KIND_ARRAY:
		if (!btf_array_info(w->btf, t, &ai) || !ta_in_memory(at))
			break;
		if (btf_is_string(w->btf, t)) {
			struct ta_access *s = ta_copy(A(w), at);
			s->result = (struct ta_result){ .kind = TA_RES_STRING,
							.size = (int)ai.nelems };
			ta_pretty_value(A(w), p, s, TA_FMT_QUOTED);
			w->nvalues++;
			return;
		}
		pretty_array(w, p, at, &ai, level, depth);
		return;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		bool first = true;
		if (!ta_in_memory(at))
			break;
		if (!top && (level < 2 || depth > TBTF_MAX_DEPTH)) {
			ta_pretty_text(A(w), p, "{...}");
			return;
		}
		ta_pretty_text(A(w), p, "{");
		pretty_members(w, p, at, t, level, depth, &first);
		ta_pretty_text(A(w), p, "}");
		return;
	}
	default:
		break;
	}
	ta_pretty_text(A(w), p, "?");
}

static bool
result_pretty(struct walk *w, int level)
{
	struct ta_pretty *p = ta_pretty_new(A(w));
	const struct ta_access *at = w->t;

	if (w->bitfield) {
		struct ta_access *v = ta_copy(A(w), w->t);
		result_value(w, (struct loc){ 0 });
		v->result = w->t->result;
		ta_pretty_value(A(w), p, v, TA_FMT_DEC);
	} else {
		pretty_type(w, p, at, w->cur, level, 0, true);
	}
	w->t = ta_copy(A(w), w->t);
	w->t->result = (struct ta_result){ .kind = TA_RES_PRETTY, .pretty = p };
	return true;
}

struct ta_access *
tbtf_walk(struct elab *e, const struct btf *btf, uint32_t type,
	  const struct ta_access *base, const struct target_path *path,
	  const char *what, struct loc loc)
{
	struct walk w = { .e = e, .btf = btf, .cur = type, .what = what };

	w.t = ta_copy(e->s->arena, base);
	for (int i = 0; i < path->nsteps; i++) {
		const struct target_step *st = &path->steps[i];
		bool ok = st->kind == STEP_MEMBER ? step_member(&w, st)
						  : step_index(&w, st);
		if (!ok)
			return NULL;
	}
	w.t->type_name = type_text(&w, w.cur);
	if (path->addr_of)
		return result_address(&w, loc) ? w.t : NULL;
	if (path->pretty)
		return result_pretty(&w, path->pretty) ? w.t : NULL;
	if (!result_value(&w, loc))
		return NULL;
	return w.t;
}

/* ---- @cast ---- */

/* "struct file", "union u", "task_struct" (a struct, union or typedef
 * name): the BTF type, or BTF_NONE. */
static uint32_t
find_cast_type(const struct btf *btf, const char *name, int *pointers)
{
	char buf[256];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", name);
	*pointers = 0;
	for (n = strlen(buf); n && (buf[n - 1] == '*' || buf[n - 1] == ' '); n--)
		if (buf[n - 1] == '*')
			++*pointers;
	buf[n] = '\0';
	if (strncmp(buf, "struct ", 7) == 0)
		return btf_find(btf, buf + 7, BTF_KIND_STRUCT);
	if (strncmp(buf, "union ", 6) == 0)
		return btf_find(btf, buf + 6, BTF_KIND_UNION);
	if (strncmp(buf, "enum ", 5) == 0)
		return btf_find(btf, buf + 5, BTF_KIND_ENUM);
	uint32_t id = btf_find(btf, buf, BTF_KIND_TYPEDEF);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_STRUCT);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_UNION);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_INT);
	return id;
}

/* One module of an @cast's module list: "kernel", "kernel<linux/x.h>"
 * (the header is SystemTap's way to find the type; BTF has it anyway),
 * or a module name; NULL when there is no BTF for it, `why` says. */
static const struct btf *
cast_module_btf(struct kernel_target *kt, const char *part, char *why,
		size_t whylen)
{
	size_t n = strcspn(part, "<");
	char name[128];

	snprintf(name, sizeof(name), "%.*s", (int)n, part);
	if (!*name) {
		snprintf(why, whylen, "user-space types from header files are not supported yet (name \"kernel\" or a module)");
		return NULL;
	}
	if (strcmp(name, "kernel") == 0)
		return kernel_btf(kt, why, whylen);
	return kernel_module_btf(kt, name, why, whylen);
}

/* The BTF and type of @cast's type name, trying each module of a
 * "a:b:c" list in turn; BTF_NONE after an error. */
static uint32_t
cast_type(struct elab *e, struct node *n, const struct btf **btf,
	  int *pointers)
{
	const char *modules = n->u.cast.module ? n->u.cast.module : "kernel";
	struct kernel_target *kt = elab_kernel(e, n->loc);
	char why[256] = "", part[256];
	bool any_btf = false;

	if (!kt)
		return BTF_NONE;
	for (const char *p = modules; *p; p += strcspn(p, ":"), p += *p == ':') {
		snprintf(part, sizeof(part), "%.*s", (int)strcspn(p, ":"), p);
		*btf = cast_module_btf(kt, part, why, sizeof(why));
		if (!*btf)
			continue;
		any_btf = true;
		uint32_t id = find_cast_type(*btf, n->u.cast.type_name, pointers);
		if (id)
			return id;
	}
	if (!any_btf)
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
			   "@cast needs type information for '%s', and there is none: %s",
			   modules, why);
	else
		diag_error(&e->s->diag, n->loc, "E_CAST_TYPE",
			   "@cast: type '%s' is not in the BTF of '%s'",
			   n->u.cast.type_name, modules);
	return BTF_NONE;
}

struct ta_access *
tbtf_cast(struct elab *e, struct node *n)
{
	const struct btf *btf = NULL;
	int pointers = 0;
	uint32_t id = cast_type(e, n, &btf, &pointers);

	if (!id)
		return NULL;
	if (pointers) {
		diag_error(&e->s->diag, n->loc, "E_UNSUPPORTED",
			   "@cast to a pointer type ('%s') is not supported yet; cast to the type pointed to",
			   n->u.cast.type_name);
		return NULL;
	}
	/* The operand is the address of an object of that type. */
	struct ta_access *base = ta_new(e->s->arena, (struct ta_base){
		.kind = TA_BASE_EXPR, .expr = n->u.cast.operand });
	ta_push_deref(e->s->arena, base);
	const struct target_path *path = &n->u.cast.path;
	if (!path->nsteps && !path->addr_of && !path->pretty) {
		/* @cast(p, "T") alone is p, the address. */
		base->result = (struct ta_result){ .kind = TA_RES_ADDRESS,
						   .size = 8 };
		return base;
	}
	return tbtf_walk(e, btf, id, base, path,
			 arena_printf(e->s->arena, "@cast(..., \"%s\")",
				      n->u.cast.type_name), n->loc);
}

/* ---- $$parms ---- */

struct ta_access *
tbtf_parms(struct elab *e, struct context_var **vars, int nvars, int pretty)
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
		if (!pretty || !cv->btf) {
			ta_pretty_value(a, p, cv->access, TA_FMT_HEX);
			continue;
		}
		w.btf = cv->btf;
		w.t = cv->access;
		pretty_type(&w, p, cv->access, cv->btf_type, pretty, 0, true);
	}
	struct ta_access *t = ta_new(a, (struct ta_base){ .kind = TA_BASE_SLOT });
	t->result = (struct ta_result){ .kind = TA_RES_PRETTY, .pretty = p };
	return t;
}
