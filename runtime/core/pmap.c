/*
 * pmap.c - arrays of statistics (`global s; s[k] <<< v`).
 *
 * One struct tap_map per CPU takes the `<<<` of that CPU, so adding never
 * touches a line another CPU writes and needs only the global's read lock.
 * Reading merges: tap_pmap_get() merges one key into a scratch accumulator,
 * tap_pmap_aggregate() merges every key into the `agg` map, which foreach
 * then iterates; both need the global's write lock.  Each per-CPU map has
 * the array's max_entries (and wrap flag); the merged map has the same
 * bound and never wraps, so more distinct keys across CPUs than it holds
 * is TAP_EAGGOVERFLOW, as SystemTap reports "aggregation overflow".  All
 * memory is allocated in tap_pmap_init().
 */
#include "map.h"
#include "error.h"

int
tap_pmap_init(struct tap_pmap *p, const struct tap_map_spec *spec)
{
	struct tap_map_spec agg_spec;
	int rc;

	tap_memset(p, 0, sizeof(*p));
	if (spec->value != TAP_T_STAT || !spec->stat)
		return TAP_EINVAL;
	p->ncpus = tap_num_cpus();
	p->one = tap_alloc(tap_stat_data_size(spec->stat));
	if (!p->one)
		return TAP_ENOMEM;
	/* The merged map never wraps: evicting while merging would lose a
	 * key the second pass looks up; overflowing is reported instead. */
	agg_spec = *spec;
	agg_spec.wrap = false;
	rc = tap_map_init(&p->agg, &agg_spec);
	if (rc == TAP_OK)
		rc = tap_map_percpu_init(&p->cpu, &p->cpu_mem, p->ncpus, spec);
	if (rc != TAP_OK)
		tap_pmap_free(p);
	return rc;
}

void
tap_pmap_free(struct tap_pmap *p)
{
	tap_map_percpu_free(&p->cpu, &p->cpu_mem, p->ncpus);
	tap_map_free(&p->agg);
	tap_free(p->one);
	p->one = NULL;
}

int
tap_pmap_add(struct tap_pmap *p, const struct tap_value *keys, int64_t v)
{
	return tap_map_add_stat(&p->cpu[tap_cpu_id()], keys, v);
}

/* The mean and variance of one key, CPU by CPU (see stat.h). */
static void
merge_variance(struct tap_pmap *p, const struct tap_value *keys,
	       struct tap_stat_data *into)
{
	const struct tap_stat_desc *d = &p->agg.stat_desc;
	struct tap_stat_pair acc = { 0, 0, 0, 0 };
	unsigned int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++) {
		struct tap_map *m = &p->cpu[cpu];
		struct tap_map_entry *e = tap_map_find(m, keys);

		if (e)
			__tap_stat_pair_step(d, &acc, tap_map_value_stat(m, e));
	}
	__tap_stat_pair_finish(d, &acc, into);
}

/* @count(s[k]) and friends: one key merged from every CPU into `into`
 * (tap_stat_data_size() bytes); NULL when no CPU has the key.  With
 * caller scratch this needs only the global's read lock. */
const struct tap_stat_data *
tap_pmap_get_into(struct tap_pmap *p, const struct tap_value *keys,
		  struct tap_stat_data *into)
{
	const struct tap_stat_desc *d = &p->agg.stat_desc;
	unsigned int cpu;
	bool any = false;

	tap_stat_data_clear(d, into);
	for (cpu = 0; cpu < p->ncpus; cpu++) {
		struct tap_map *m = &p->cpu[cpu];
		struct tap_map_entry *e = tap_map_find(m, keys);

		if (e) {
			__tap_stat_merge_sums(d, into,
					      tap_map_value_stat(m, e));
			any = true;
		}
	}
	if (!any)
		return NULL;
	merge_variance(p, keys, into);
	return into;
}

/* The same into scratch owned by the pmap, valid until the next call;
 * callers share it, so this one needs the write lock. */
const struct tap_stat_data *
tap_pmap_get(struct tap_pmap *p, const struct tap_value *keys)
{
	return tap_pmap_get_into(p, keys, p->one);
}

bool
tap_pmap_exists(struct tap_pmap *p, const struct tap_value *keys)
{
	unsigned int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++)
		if (tap_map_find(&p->cpu[cpu], keys))
			return true;
	return false;
}

/* The keys of entry e of map m, as tap_values pointing into the entry. */
static void
entry_keys(const struct tap_map *m, const struct tap_map_entry *e,
	   struct tap_value *keys)
{
	unsigned int i;

	for (i = 0; i < m->spec.nkeys; i++) {
		keys[i].l = 0;
		keys[i].s = NULL;
		if (m->spec.keys[i] == TAP_T_STRING)
			keys[i].s = tap_map_key_str(m, e, i);
		else
			keys[i].l = tap_map_key_long(m, e, i);
	}
}

/* First pass: sums, extremes and histograms of every CPU's entries, in
 * CPU order then each CPU's insertion order. */
static int
merge_sums(struct tap_pmap *p)
{
	const struct tap_stat_desc *d = &p->agg.stat_desc;
	struct tap_value keys[TAP_MAP_MAX_KEYS];
	unsigned int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++) {
		struct tap_map *m = &p->cpu[cpu];
		struct tap_map_entry *e, *a;

		for (e = m->oldest; e; e = e->next) {
			entry_keys(m, e, keys);
			if (tap_map_find_or_insert(&p->agg, keys, &a))
				return TAP_EAGGOVERFLOW;
			__tap_stat_merge_sums(d, tap_map_value_stat(&p->agg, a),
					      tap_map_value_stat(m, e));
		}
	}
	return TAP_OK;
}

/* Second pass: each key's mean and variance, CPU by CPU. Every per-CPU
 * key is in the merged map once the first pass succeeded. */
static void
merge_spreads(struct tap_pmap *p)
{
	struct tap_value keys[TAP_MAP_MAX_KEYS];
	struct tap_map_entry *a;

	for (a = p->agg.oldest; a; a = a->next) {
		entry_keys(&p->agg, a, keys);
		merge_variance(p, keys, tap_map_value_stat(&p->agg, a));
	}
}

/* Rebuild p->agg from the per-CPU maps; iterate p->agg afterwards.  On
 * TAP_EAGGOVERFLOW p->agg holds what fitted. */
int
tap_pmap_aggregate(struct tap_pmap *p)
{
	int rc;

	tap_map_clear(&p->agg);
	rc = merge_sums(p);
	if (rc != TAP_OK)
		return rc;
	merge_spreads(p);
	return TAP_OK;
}

bool
tap_pmap_delete(struct tap_pmap *p, const struct tap_value *keys)
{
	unsigned int cpu;
	bool any = false;

	for (cpu = 0; cpu < p->ncpus; cpu++)
		any |= tap_map_delete(&p->cpu[cpu], keys);
	tap_map_delete(&p->agg, keys);
	return any;
}

uint32_t
tap_pmap_delete_slice(struct tap_pmap *p, const struct tap_value *keys,
		      uint32_t wildcard)
{
	unsigned int cpu;
	uint32_t n = 0;

	for (cpu = 0; cpu < p->ncpus; cpu++)
		n += tap_map_delete_slice(&p->cpu[cpu], keys, wildcard);
	tap_map_delete_slice(&p->agg, keys, wildcard);
	return n;
}

void
tap_pmap_clear(struct tap_pmap *p)
{
	unsigned int cpu;

	for (cpu = 0; cpu < p->ncpus; cpu++)
		tap_map_clear(&p->cpu[cpu]);
	tap_map_clear(&p->agg);
}
