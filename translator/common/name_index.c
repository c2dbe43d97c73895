/*
 * name_index.c -- a string-keyed hash table of item lists for the passes'
 * name lookups (name_index.h).  Open addressing on the names, FNV-1a
 * hashed (a lookup table, not a cache key: a collision costs a string
 * compare, never a wrong answer); each slot keeps its items as a list in
 * insertion order.  Memory comes from the session arena, like the rest of
 * the translator's.
 */
#include "translator/common/name_index.h"

#include <stdint.h>
#include <string.h>

#include "translator/common/arena.h"

struct name_slot {
	const char *name;		/* NULL: empty */
	struct name_entry *first, *last;
};

struct name_index {
	struct arena *a;
	struct name_slot *slots;
	unsigned nslots;		/* a power of two */
	unsigned used;
};

static uint32_t
name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot that holds `name`, or the empty one where it would go. */
static struct name_slot *
slot_for(struct name_slot *slots, unsigned nslots, const char *name)
{
	unsigned mask = nslots - 1;

	for (unsigned i = name_hash(name) & mask;; i = (i + 1) & mask)
		if (!slots[i].name || strcmp(slots[i].name, name) == 0)
			return &slots[i];
}

struct name_index *
name_index_new(struct arena *a)
{
	struct name_index *ix = arena_alloc(a, sizeof(*ix));

	ix->a = a;
	ix->nslots = 64;
	ix->slots = arena_alloc(a, sizeof(*ix->slots) * ix->nslots);
	return ix;
}

/* Keep the table at most half full, so probes stay short. */
static void
grow(struct name_index *ix)
{
	unsigned n = ix->nslots * 2;
	struct name_slot *slots = arena_alloc(ix->a, sizeof(*slots) * n);

	for (unsigned i = 0; i < ix->nslots; i++)
		if (ix->slots[i].name)
			*slot_for(slots, n, ix->slots[i].name) = ix->slots[i];
	ix->slots = slots;
	ix->nslots = n;
}

void
name_index_add(struct name_index *ix, const char *name, void *item)
{
	struct name_entry *e = arena_alloc(ix->a, sizeof(*e));
	struct name_slot *s;

	if (2 * (ix->used + 1) > ix->nslots)
		grow(ix);
	s = slot_for(ix->slots, ix->nslots, name);
	e->item = item;
	if (!s->name) {
		s->name = name;
		s->first = e;
		ix->used++;
	} else {
		s->last->next = e;
	}
	s->last = e;
}

const struct name_entry *
name_index_find(const struct name_index *ix, const char *name)
{
	return slot_for(ix->slots, ix->nslots, name)->first;
}
