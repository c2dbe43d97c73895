/*
 * cmap.c - the per-CPU deltas of an array that probes only count
 * (`a[k]++`, `a[k] += x` as statements; translator/codegen/
 * codegen_counters.c decides which arrays qualify).
 *
 * Takes: the array's spec (long values, no wrap).  One struct tap_map per
 * CPU receives that CPU's counts, with no lock: only handlers on that CPU
 * touch it, and a handler never nests inside another on its CPU
 * (runtime/linux/context.h).  tap_cmap_fold() adds every CPU's deltas
 * into the array's ordinary map and empties them; the generated code
 * calls it at the start of the begin, end and error handlers, the only
 * ones that read such an array, and the only ones that run alone.
 * Why: the exclusive lock of an ordinary array was most of what
 * `a[execname()]++` cost, and two CPUs counting waited on it (issue 18);
 * bpftrace's per-CPU count maps work the same way.
 *
 * Order: unsorted foreach visits an array's keys in the order they first
 * appeared.  Each new key takes a number from one counter shared by the
 * CPUs (touched only when a key is new on a CPU, not on each count), and
 * the fold merges the CPUs' lists by it, so the ordinary map learns new
 * keys in the order they appeared across CPUs.
 * Memory: one map per possible CPU beside the array's own, as for arrays
 * of statistics (pmap.c), allocated in tap_cmap_init().  Where that would
 * pass TAP_CMAP_MAX_BYTES (string keys are MAXSTRINGLEN bytes each: some
 * 1.2 MB per CPU at 2048 entries, 330 MB for 288 possible CPUs), there
 * are no per-CPU maps: counts go straight into the array under one spin
 * lock, which costs what an ordinary array's lock did, and folding has
 * nothing to do.
 * Must not: be counted into with preemption on (handlers run with it
 * off), nor folded while a handler that counts can run.
 */
#include "map.h"
#include "error.h"

/* What one CPU's map takes: its entries and their hash chains. */
static uint64_t
map_bytes(const struct tap_map *m)
{
	return (uint64_t)m->spec.max_entries * m->entry_size +
	       ((uint64_t)m->bucket_mask + 1) * sizeof(*m->buckets);
}

int
tap_cmap_init(struct tap_cmap *c, struct tap_map *array,
	      const struct tap_map_spec *spec)
{
	int rc;

	tap_memset(c, 0, sizeof(*c));
	if (spec->value != TAP_T_LONG || spec->wrap)
		return TAP_EINVAL;
	c->array = array;
	tap_spin_init(&c->lock);
	c->ncpus = tap_num_cpus();
	if (map_bytes(array) * c->ncpus > TAP_CMAP_MAX_BYTES)
		return TAP_OK;		/* counts take c->lock instead */
	c->cursor = tap_alloc(c->ncpus * sizeof(*c->cursor));
	if (!c->cursor)
		return TAP_ENOMEM;
	rc = tap_map_percpu_init(&c->cpu, &c->cpu_mem, c->ncpus, spec);
	if (rc != TAP_OK)
		tap_cmap_free(c);
	return rc;
}

void
tap_cmap_free(struct tap_cmap *c)
{
	tap_map_percpu_free(&c->cpu, &c->cpu_mem, c->ncpus);
	tap_free(c->cursor);
	c->cursor = NULL;
}

int
tap_cmap_add(struct tap_cmap *c, const struct tap_value *keys, int64_t delta)
{
	struct tap_map *m;
	struct tap_map_entry *e;
	int64_t *v;

	if (unlikely(!c->cpu)) {
		int rc;

		tap_spin_lock(&c->lock);
		rc = tap_map_add_long(c->array, keys, delta, NULL);
		tap_spin_unlock(&c->lock);
		return rc;
	}
	m = &c->cpu[tap_cpu_id()];
	e = tap_map_find(m, keys);
	if (unlikely(!e)) {
		int rc = tap_map_find_or_insert(m, keys, &e);

		if (rc != TAP_OK)
			return rc;
		e->seq = __atomic_add_fetch(&c->next_seq, 1, __ATOMIC_RELAXED);
	}
	v = tap_map_value_long(m, e);
	*v = (int64_t)((uint64_t)*v + (uint64_t)delta);
	return TAP_OK;
}

/* The CPU whose next unfolded entry is the oldest, or -1 when all are
 * folded. */
static int
oldest_cursor(const struct tap_cmap *c)
{
	unsigned int cpu;
	int best = -1;

	for (cpu = 0; cpu < c->ncpus; cpu++)
		if (c->cursor[cpu] && (best < 0 ||
		    c->cursor[cpu]->seq < c->cursor[best]->seq))
			best = (int)cpu;
	return best;
}

int
tap_cmap_fold(struct tap_cmap *c)
{
	struct tap_value keys[TAP_MAP_MAX_KEYS];
	unsigned int cpu, col;
	int rc = TAP_OK, at;

	if (!c->cpu)
		return TAP_OK;
	for (cpu = 0; cpu < c->ncpus; cpu++)
		c->cursor[cpu] = c->cpu[cpu].oldest;
	while (rc == TAP_OK && (at = oldest_cursor(c)) >= 0) {
		struct tap_map *m = &c->cpu[at];
		struct tap_map_entry *e = c->cursor[at];

		for (col = 0; col < m->spec.nkeys; col++) {
			keys[col].l = 0;
			keys[col].s = NULL;
			if (m->spec.keys[col] == TAP_T_STRING)
				keys[col].s = tap_map_key_str(m, e, col);
			else
				keys[col].l = tap_map_key_long(m, e, col);
		}
		rc = tap_map_add_long(c->array, keys,
				      *tap_map_value_long(m, e), NULL);
		c->cursor[at] = e->next;
	}
	/* What did not fit is reported (the array is full), not kept for
	 * a later fold that would add it twice. */
	tap_cmap_clear(c);
	return rc;
}

void
tap_cmap_clear(struct tap_cmap *c)
{
	unsigned int cpu;

	for (cpu = 0; c->cpu && cpu < c->ncpus; cpu++)
		tap_map_clear(&c->cpu[cpu]);
}
