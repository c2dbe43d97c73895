/*
 * tvar_access.c -- building and describing `struct ta_access`
 * (tvar_access.h), the debug-info-neutral description of how to read a
 * $target value.  Sources (tvar_btf.c, the DWARF layer) call these; pass
 * 3 (codegen_tvar.c) reads the result.  Nothing here knows a type format.
 */
#include <string.h>

#include "translator/sema/tvar_access.h"

struct ta_access *
ta_new(struct arena *a, struct ta_base base)
{
	struct ta_access *t = arena_alloc(a, sizeof(*t));

	t->base = base;
	t->result.kind = TA_RES_INT;
	t->result.size = 8;
	return t;
}

struct ta_access *
ta_copy(struct arena *a, const struct ta_access *from)
{
	struct ta_access *t = arena_alloc(a, sizeof(*t));

	*t = *from;
	t->steps = NULL;
	t->nsteps = t->cap = 0;
	for (int i = 0; i < from->nsteps; i++) {
		t->steps = arena_grow(a, t->steps, sizeof(*t->steps), &t->cap,
				      t->nsteps + 1);
		t->steps[t->nsteps++] = from->steps[i];
	}
	return t;
}

static void
push(struct arena *a, struct ta_access *t, struct ta_step s)
{
	t->steps = arena_grow(a, t->steps, sizeof(*t->steps), &t->cap,
			      t->nsteps + 1);
	t->steps[t->nsteps++] = s;
}

void
ta_push_deref(struct arena *a, struct ta_access *t)
{
	push(a, t, (struct ta_step){ .kind = TA_STEP_DEREF });
}

void
ta_push_add(struct arena *a, struct ta_access *t, int64_t offset)
{
	if (offset == 0)
		return;
	if (t->nsteps && t->steps[t->nsteps - 1].kind == TA_STEP_ADD) {
		t->steps[t->nsteps - 1].offset += offset;
		return;
	}
	push(a, t, (struct ta_step){ .kind = TA_STEP_ADD, .offset = offset });
}

void
ta_push_member(struct arena *a, struct ta_access *t, const struct ta_hop *hop)
{
	struct ta_step *st;
	struct ta_hop *hops;

	if (!t->nsteps || t->steps[t->nsteps - 1].kind != TA_STEP_ADD)
		push(a, t, (struct ta_step){ .kind = TA_STEP_ADD });
	st = &t->steps[t->nsteps - 1];
	st->offset += hop->offset;
	/* A new array each time: copies of the access (ta_copy) share the
	 * old one. */
	hops = arena_alloc(a, sizeof(*hops) * (size_t)(st->nhops + 1));
	if (st->nhops)
		memcpy(hops, st->hops, sizeof(*hops) * (size_t)st->nhops);
	hops[st->nhops] = *hop;
	st->hops = hops;
	st->nhops++;
}

void
ta_push_index(struct arena *a, struct ta_access *t, struct node *index,
	      int64_t stride)
{
	push(a, t, (struct ta_step){ .kind = TA_STEP_INDEX, .index = index,
				     .stride = stride });
}

bool
ta_in_memory(const struct ta_access *t)
{
	bool mem = t->base.in_memory;

	for (int i = 0; i < t->nsteps; i++)
		if (t->steps[i].kind == TA_STEP_DEREF)
			mem = true;
	return mem;
}

struct ta_pretty *
ta_pretty_new(struct arena *a)
{
	return arena_alloc(a, sizeof(struct ta_pretty));
}

static struct ta_piece *
new_piece(struct arena *a, struct ta_pretty *p)
{
	p->pieces = arena_grow(a, p->pieces, sizeof(*p->pieces), &p->cap,
			       p->npieces + 1);
	memset(&p->pieces[p->npieces], 0, sizeof(p->pieces[0]));
	return &p->pieces[p->npieces++];
}

void
ta_pretty_text(struct arena *a, struct ta_pretty *p, const char *text)
{
	/* Adjacent texts are joined: fewer pieces, shorter generated C. */
	if (p->npieces && !p->pieces[p->npieces - 1].value) {
		struct ta_piece *last = &p->pieces[p->npieces - 1];
		last->text = arena_printf(a, "%s%s", last->text, text);
		return;
	}
	new_piece(a, p)->text = arena_strdup(a, text);
}

void
ta_pretty_value(struct arena *a, struct ta_pretty *p, struct ta_access *value,
		enum ta_fmt fmt)
{
	struct ta_piece *pc = new_piece(a, p);

	pc->value = value;
	pc->fmt = fmt;
}

void
ta_pretty_struct_ptr(struct arena *a, struct ta_pretty *p,
		     struct ta_access *ptr, struct ta_pretty *inner)
{
	struct ta_piece *pc = new_piece(a, p);

	pc->value = ptr;
	pc->fmt = TA_FMT_STRUCT_PTR;
	pc->inner = inner;
}

static const char *
describe_base(struct arena *a, const struct ta_base *b)
{
	switch (b->kind) {
	case TA_BASE_ARG: return arena_printf(a, "arg%d", b->index);
	case TA_BASE_REG: return arena_printf(a, "reg %s", b->reg);
	case TA_BASE_RETURN: return "return";
	case TA_BASE_SLOT: return arena_printf(a, "slot%d", b->index);
	case TA_BASE_SYMBOL:
		return arena_printf(a, "&%s%s%s%s+%lld", b->percpu ? "percpu " : "",
				    b->module ? b->module : "",
				    b->module ? ":" : "", b->symbol,
				    (long long)b->offset);
	case TA_BASE_EXPR: return "expr";
	case TA_BASE_REGS_EXPR: return arena_printf(a, "regs %s", b->c_expr);
	case TA_BASE_PIECES:
		return arena_printf(a, "%d pieces (%u bytes)", b->npieces,
				    b->size);
	}
	return "?";
}

bool
ta_writable(const struct ta_access *t, const char **why)
{
	const struct ta_base *b = &t->base;

	if (t->result.kind != TA_RES_INT) {
		*why = t->result.kind == TA_RES_ADDRESS ?
			"it is an address (of an array, or '&'), not an object: write its elements or members" :
			"it is not an integer or pointer";
		return false;
	}
	if (ta_in_memory(t)) {
		if (b->kind == TA_BASE_PIECES && !t->nsteps) {
			*why = "it is split over registers and memory (DW_OP_piece): writing it is not supported";
			return false;
		}
		if (b->kind == TA_BASE_PIECES) {
			*why = "its object is split over registers and memory (DW_OP_piece): writing into it is not supported";
			return false;
		}
		return true;
	}
	if (t->nsteps == 0 && !t->result.bit_size &&
	    (b->kind == TA_BASE_REG || b->kind == TA_BASE_ARG ||
	     b->kind == TA_BASE_RETURN || b->kind == TA_BASE_SLOT))
		return true;	/* a slot: only where the provider made the
				 * variable writable (netfilter's $verdict) */
	if (t->nsteps == 0 && t->result.bit_size &&
	    (b->kind == TA_BASE_REG || b->kind == TA_BASE_ARG))
		return true;	/* a member of a struct in a register */
	*why = b->kind == TA_BASE_EXPR ? "it is a constant or a script value, not an object" :
	       "it is a value computed from registers or memory (a DWARF location expression), not an object";
	return false;
}

bool
ta_vtype_same(const struct ta_vtype *a, const struct ta_vtype *b)
{
	return a->ops && a->ops == b->ops && a->src == b->src &&
	       a->type == b->type && a->addr_of == b->addr_of;
}

static const char *
describe_result(struct arena *a, const struct ta_result *r)
{
	switch (r->kind) {
	case TA_RES_INT:
		if (r->bit_size)
			return arena_printf(a, "%c%d:%u@%u",
					    r->is_signed ? 's' : 'u',
					    r->size * 8, r->bit_size,
					    r->bit_offset);
		return arena_printf(a, "%c%d", r->is_signed ? 's' : 'u',
				    r->size * 8);
	case TA_RES_ADDRESS: return "address";
	case TA_RES_STRING:
		return arena_printf(a, "string[%d]", r->size);
	case TA_RES_PRETTY: return "pretty";
	}
	return "?";
}

const char *
ta_describe(struct arena *a, const struct ta_access *t)
{
	const char *s = describe_base(a, &t->base);

	if (t->base.in_memory)
		s = arena_printf(a, "%s (in memory)", s);
	for (int i = 0; i < t->nsteps; i++) {
		const struct ta_step *st = &t->steps[i];
		switch (st->kind) {
		case TA_STEP_DEREF:
			s = arena_printf(a, "%s deref", s);
			break;
		case TA_STEP_ADD:
			if (st->offset)	/* an ADD of 0 is kept for its hops */
				s = arena_printf(a, "%s +%lld", s,
						 (long long)st->offset);
			break;
		case TA_STEP_INDEX:
			s = arena_printf(a, "%s +[i]*%lld", s,
					 (long long)st->stride);
			break;
		}
	}
	return arena_printf(a, "%s -> %s", s, describe_result(a, &t->result));
}
