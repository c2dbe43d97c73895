/*
 * map.h - associative arrays (script globals `a[k1, ..., k9]`).
 *
 * A map is created at init time from a struct tap_map_spec: up to nine key
 * columns, each long or string, and a value that is a long, a string or a
 * statistics accumulator.  All of its entries are allocated then, up to
 * max_entries (MAXMAPENTRIES unless `global a[N]` says otherwise), and are
 * recycled through a free list: no operation after tap_map_init()
 * allocates.  Strings, keys and values alike, are stored inline in
 * MAXSTRINGLEN-byte buffers and silently truncated to MAXSTRINGLEN - 1
 * bytes; lookups truncate the same way, so a long key finds its entry.
 *
 * Inserting a new key into a full map fails with TAP_EMAPFULL, which the
 * caller reports naming the array -- unless the map was declared with
 * wrap (`global a%[N]`), in which case the oldest entry is evicted.
 * Reading a missing key yields 0 or "" and does not insert it.
 *
 * Entries remember insertion order: unsorted iteration visits them oldest
 * first, as SystemTap does, and sorted iteration breaks ties in that order.
 * Iteration sorts pointers into caller-provided storage (one slot per
 * possible entry, see tap_map_iter_slots()), so the map is not reordered,
 * concurrent readers do not disturb each other, and nested loops over the
 * same map each use their own storage.
 *
 * Locking is the caller's: lookups and iteration need the global's read
 * lock, anything that inserts, deletes or changes a value its write lock.
 * A map must not be changed while a loop iterates it (the translator
 * rejects such scripts, as stap does): the iteration holds pointers to
 * entries, and a deleted entry is recycled.
 * Arrays of statistics, where `<<<` must not take a shared lock, are
 * struct tap_pmap (pmap.c): one map per CPU plus a merged one; arrays
 * that probes only count add per-CPU deltas (struct tap_cmap, cmap.c).
 */
#ifndef TAP_CORE_MAP_H
#define TAP_CORE_MAP_H

#include "platform.h"
#include "error.h"
#include "value.h"
#include "stat.h"

#define TAP_MAP_MAX_KEYS 9

struct tap_map_spec {
	unsigned int nkeys;			/* 1..TAP_MAP_MAX_KEYS */
	enum tap_type keys[TAP_MAP_MAX_KEYS];	/* TAP_T_LONG or _STRING */
	enum tap_type value;			/* TAP_T_LONG, _STRING, _STAT */
	uint32_t max_entries;			/* 0: MAXMAPENTRIES */
	bool wrap;				/* evict oldest when full */
	const struct tap_stat_desc *stat;	/* for TAP_T_STAT values */
};

/* One entry.  Only map.c looks inside; keys and value follow the header
 * at offsets the map computes. */
struct tap_map_entry {
	struct tap_map_entry *hnext;	/* hash chain */
	struct tap_map_entry *prev;	/* insertion order, oldest first */
	struct tap_map_entry *next;	/* ... or the free list */
	uint64_t seq;			/* insertion number, breaks ties */
	uint32_t hash;
	uint32_t __pad;
};

struct tap_map {
	struct tap_map_spec spec;
	struct tap_stat_desc stat_desc;
	uint32_t key_off[TAP_MAP_MAX_KEYS];
	uint32_t value_off;
	size_t entry_size;
	uint32_t count;
	uint32_t bucket_mask;
	uint64_t next_seq;
	void *pool;
	struct tap_map_entry **buckets;
	struct tap_map_entry *oldest;
	struct tap_map_entry *newest;
	struct tap_map_entry *free;
} __attribute__((aligned(TAP_CACHELINE)));	/* per-CPU maps sit side by
						   side: no shared lines */

/* Life cycle (init time only). */
int tap_map_init(struct tap_map *m, const struct tap_map_spec *spec);
void tap_map_free(struct tap_map *m);
/* n maps alike, one per CPU, each on cache lines of its own (pmap.c,
 * cmap.c); *mem is the allocation, for tap_map_percpu_free(), which
 * also undoes a failed init. */
int tap_map_percpu_init(struct tap_map **maps, void **mem, unsigned int n,
			const struct tap_map_spec *spec);
void tap_map_percpu_free(struct tap_map **maps, void **mem, unsigned int n);

static inline uint32_t
tap_map_size(const struct tap_map *m)
{
	return m->count;
}

static inline uint32_t
tap_map_max_entries(const struct tap_map *m)
{
	return m->spec.max_entries;
}

/* Finding and creating entries.  keys[] has one tap_value per column. */
struct tap_map_entry *tap_map_find(struct tap_map *m,
				   const struct tap_value *keys);
int tap_map_find_or_insert(struct tap_map *m, const struct tap_value *keys,
			   struct tap_map_entry **out);

/* Typed operations; the value type must match the map's.  Strings read
 * from a map point into it: copy them before an insert that may evict
 * (wrap) or a delete recycles their entry. */
int64_t tap_map_get_long(struct tap_map *m, const struct tap_value *keys);
const char *tap_map_get_str(struct tap_map *m, const struct tap_value *keys);
int tap_map_set_long(struct tap_map *m, const struct tap_value *keys,
		     int64_t v);
int tap_map_set_str(struct tap_map *m, const struct tap_value *keys,
		    const char *s);
int tap_map_add_long(struct tap_map *m, const struct tap_value *keys,
		     int64_t delta, int64_t *result);
int tap_map_add_stat(struct tap_map *m, const struct tap_value *keys,
		     int64_t v);
bool tap_map_exists(struct tap_map *m, const struct tap_value *keys);

/* Deleting. */
bool tap_map_delete(struct tap_map *m, const struct tap_value *keys);
void tap_map_delete_entry(struct tap_map *m, struct tap_map_entry *e);
void tap_map_clear(struct tap_map *m);
uint32_t tap_map_delete_slice(struct tap_map *m,
			      const struct tap_value *keys,
			      uint32_t wildcard);
bool tap_map_entry_matches(const struct tap_map *m,
			   const struct tap_map_entry *e,
			   const struct tap_value *keys, uint32_t wildcard);

/* Reading an entry. */
int64_t tap_map_key_long(const struct tap_map *m,
			 const struct tap_map_entry *e, unsigned int col);
const char *tap_map_key_str(const struct tap_map *m,
			    const struct tap_map_entry *e, unsigned int col);
int64_t *tap_map_value_long(const struct tap_map *m,
			    struct tap_map_entry *e);
char *tap_map_value_str(const struct tap_map *m, struct tap_map_entry *e);
struct tap_stat_data *tap_map_value_stat(const struct tap_map *m,
					 struct tap_map_entry *e);

/* Iteration: foreach ([k1, ...] in m[slice] sort limit N). */
enum tap_stat_field {
	TAP_STAT_COUNT,
	TAP_STAT_SUM,
	TAP_STAT_MIN,
	TAP_STAT_MAX,
	TAP_STAT_AVG,
};

struct tap_map_order {
	int dir;			/* 0 unsorted, 1 ascending, -1 descending */
	unsigned int column;		/* 0: by value, 1..nkeys: by that key */
	enum tap_stat_field field;	/* which statistic, sorting stats */
	int64_t limit;			/* < 0: all entries */
	const struct tap_value *slice;	/* NULL: every entry */
	uint32_t wildcard;		/* bit i: slice column i is '*' */
};

struct tap_map_iter {
	struct tap_map_entry **v;
	uint32_t n;
	uint32_t pos;
};

static inline size_t
tap_map_iter_slots(const struct tap_map *m)
{
	return m->spec.max_entries;
}

void tap_map_iter_start(struct tap_map *m, const struct tap_map_order *o,
			struct tap_map_iter *it,
			struct tap_map_entry **storage);

static inline struct tap_map_entry *
tap_map_iter_next(struct tap_map_iter *it)
{
	return it->pos < it->n ? it->v[it->pos++] : NULL;
}

/* Arrays of statistics: per-CPU maps merged on read (pmap.c). */
struct tap_pmap {
	unsigned int ncpus;
	void *cpu_mem;			/* what tap_alloc() returned */
	struct tap_map *cpu;		/* ncpus maps, written by `<<<` */
	struct tap_map agg;		/* merged by tap_pmap_aggregate() */
	struct tap_stat_data *one;	/* scratch for tap_pmap_get() */
};

int tap_pmap_init(struct tap_pmap *p, const struct tap_map_spec *spec);
void tap_pmap_free(struct tap_pmap *p);
int tap_pmap_add(struct tap_pmap *p, const struct tap_value *keys,
		 int64_t v);
const struct tap_stat_data *tap_pmap_get(struct tap_pmap *p,
					 const struct tap_value *keys);
const struct tap_stat_data *tap_pmap_get_into(struct tap_pmap *p,
					      const struct tap_value *keys,
					      struct tap_stat_data *into);
bool tap_pmap_exists(struct tap_pmap *p, const struct tap_value *keys);
int tap_pmap_aggregate(struct tap_pmap *p);
bool tap_pmap_delete(struct tap_pmap *p, const struct tap_value *keys);
uint32_t tap_pmap_delete_slice(struct tap_pmap *p,
			       const struct tap_value *keys,
			       uint32_t wildcard);
void tap_pmap_clear(struct tap_pmap *p);

/* Arrays that probes only count: per-CPU deltas folded into the array's
 * ordinary map where nothing else runs (cmap.c). */
struct tap_cmap {
	unsigned int ncpus;
	void *cpu_mem;			/* what tap_alloc() returned */
	struct tap_map *cpu;		/* ncpus maps, written by counts;
					 * NULL: counts go to `array` under
					 * `lock` (too many CPUs) */
	struct tap_map_entry **cursor;	/* one per CPU, for the fold */
	uint64_t next_seq;		/* order of first appearance */
	struct tap_map *array;		/* the array's ordinary map */
	tap_spin_t lock;
};

/* The most memory an array's per-CPU maps may take, for all CPUs. */
#ifndef TAP_CMAP_MAX_BYTES
#define TAP_CMAP_MAX_BYTES (64u << 20)
#endif

int tap_cmap_init(struct tap_cmap *c, struct tap_map *array,
		  const struct tap_map_spec *spec);
void tap_cmap_free(struct tap_cmap *c);
int tap_cmap_add(struct tap_cmap *c, const struct tap_value *keys,
		 int64_t delta);
int tap_cmap_fold(struct tap_cmap *c);
void tap_cmap_clear(struct tap_cmap *c);

#endif /* TAP_CORE_MAP_H */
