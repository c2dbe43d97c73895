/* btf_index.c -- what the translator keeps about each libbpf handle.
 *
 * libbpf's `struct btf` has no room for where the data came from, and its
 * btf__find_by_name_kind() scans every type on each call (the kernel has
 * over 100,000, and the translator looks up hundreds of names).  So each
 * handle the loaders produce gets an entry here: its source for messages
 * and, on the first lookup, a hash table from name to type ids.  The
 * entries form a short list (vmlinux and a few modules) keyed by handle;
 * btf_free() drops a handle's entry.  A handle made by libbpf directly
 * gets an entry on its first lookup, with no source.
 */
#include "translator/debuginfo/btf_internal.h"

#include <stdlib.h>
#include <string.h>

struct btf_index {
	const struct btf *btf;
	char *source;
	uint32_t *hash;		/* own named type ids, 0 = empty slot */
	uint32_t hash_mask;
	struct btf_index *next;
};

static struct btf_index *btf_indexes;

/* FNV-1a: short names, no need for anything stronger. */
uint32_t
btf_name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

static struct btf_index *
btf_index_of(const struct btf *btf)
{
	struct btf_index *ix;

	for (ix = btf_indexes; ix; ix = ix->next)
		if (ix->btf == btf)
			return ix;
	return NULL;
}

bool
btf_index_add(const struct btf *btf, const char *source)
{
	struct btf_index *ix = calloc(1, sizeof(*ix));

	if (!ix || !(ix->source = strdup(source))) {
		free(ix);
		return false;
	}
	ix->btf = btf;
	ix->next = btf_indexes;
	btf_indexes = ix;
	return true;
}

void
btf_index_drop(const struct btf *btf)
{
	struct btf_index **p, *ix;

	for (p = &btf_indexes; (ix = *p); p = &ix->next) {
		if (ix->btf == btf) {
			*p = ix->next;
			free(ix->source);
			free(ix->hash);
			free(ix);
			return;
		}
	}
}

const char *
btf_source(const struct btf *btf)
{
	struct btf_index *ix = btf_index_of(btf);

	return ix && ix->source ? ix->source : "BTF";
}

static bool
btf_index_build(struct btf_index *ix)
{
	const struct btf *btf = ix->btf;
	uint32_t id, first = btf_first_id(btf), n = btf__type_cnt(btf);
	uint32_t named = 0, size = 16;

	for (id = first; id < n; id++)
		named += btf__type_by_id(btf, id)->name_off != 0;
	while (size < 2 * named)
		size <<= 1;
	if (!(ix->hash = calloc(size, sizeof(*ix->hash))))
		return false;
	ix->hash_mask = size - 1;
	for (id = first; id < n; id++) {
		const char *name = btf_name(btf, id);
		uint32_t slot;

		if (!*name)
			continue;
		slot = btf_name_hash(name) & ix->hash_mask;
		while (ix->hash[slot])
			slot = (slot + 1) & ix->hash_mask;
		ix->hash[slot] = id;
	}
	return true;
}

/* The handle's entry with its name table built; NULL when out of
 * memory. */
static struct btf_index *
btf_index_ready(const struct btf *btf)
{
	struct btf_index *ix = btf_index_of(btf);

	if (!ix && (ix = calloc(1, sizeof(*ix)))) {
		ix->btf = btf;
		ix->next = btf_indexes;
		btf_indexes = ix;
	}
	if (ix && !ix->hash && !btf_index_build(ix))
		return NULL;
	return ix;
}

static bool
btf_kind_matches(const struct btf *btf, uint32_t id, int kind)
{
	return kind == BTF_KIND_ANY || btf_kind_of(btf, id) == kind;
}

/* Lowest id wins, so the answer does not depend on hashing; with
 * BTF_KIND_ANY a definition wins over a forward declaration. */
static uint32_t
btf_better(const struct btf *btf, uint32_t best, uint32_t id)
{
	bool best_fwd, id_fwd;

	if (best == BTF_NONE)
		return id;
	best_fwd = btf_kind_of(btf, best) == BTF_KIND_FWD;
	id_fwd = btf_kind_of(btf, id) == BTF_KIND_FWD;
	if (best_fwd != id_fwd)
		return best_fwd ? id : best;
	return id < best ? id : best;
}

uint32_t
btf_find(const struct btf *btf, const char *name, int kind)
{
	const struct btf *base = btf ? btf__base_btf(btf) : NULL;
	uint32_t slot, id, best = BTF_NONE;
	struct btf_index *ix;

	if (!btf || !name || !*name)
		return BTF_NONE;
	/* Split BTF: the base's types have the lower ids, so look there
	 * first. */
	if (base && (best = btf_find(base, name, kind)) != BTF_NONE &&
	    btf_kind_of(btf, best) != BTF_KIND_FWD)
		return best;
	if (!(ix = btf_index_ready(btf)))
		return best;
	slot = btf_name_hash(name) & ix->hash_mask;
	for (; (id = ix->hash[slot]) != 0; slot = (slot + 1) & ix->hash_mask) {
		if (strcmp(btf_name(btf, id), name) == 0 &&
		    btf_kind_matches(btf, id, kind))
			best = btf_better(btf, best, id);
	}
	return best;
}
