/*
 * map.c - associative arrays: a preallocated pool of fixed-size entries,
 * a chained hash table over them, and a list in insertion order.
 *
 * Takes a struct tap_map_spec at init and computes the entry layout (the
 * header, then each key column, then the value).  After tap_map_init()
 * nothing allocates: entries move between the free list and the live list.
 * Sorting for iteration uses an in-place heap sort on caller storage, so it
 * needs neither recursion nor scratch memory.  See map.h for the contract.
 */
#include "map.h"
#include "error.h"

/* ---- layout ---------------------------------------------------------- */

static size_t
column_size(enum tap_type t)
{
	return t == TAP_T_STRING ? TAP_ALIGN_UP(MAXSTRINGLEN, 8) : 8;
}

static size_t
value_size(const struct tap_map *m)
{
	switch (m->spec.value) {
	case TAP_T_STRING:
		return TAP_ALIGN_UP(MAXSTRINGLEN, 8);
	case TAP_T_STAT:
		return TAP_ALIGN_UP(tap_stat_data_size(&m->stat_desc), 8);
	case TAP_T_LONG:
	case TAP_T_NONE:
		break;
	}
	return 8;
}

static bool
spec_valid(const struct tap_map_spec *spec)
{
	unsigned int i;

	if (spec->nkeys < 1 || spec->nkeys > TAP_MAP_MAX_KEYS)
		return false;
	for (i = 0; i < spec->nkeys; i++)
		if (spec->keys[i] != TAP_T_LONG &&
		    spec->keys[i] != TAP_T_STRING)
			return false;
	if (spec->value == TAP_T_STAT)
		return spec->stat != NULL;
	return spec->value == TAP_T_LONG || spec->value == TAP_T_STRING;
}

static void
compute_layout(struct tap_map *m)
{
	size_t off = TAP_ALIGN_UP(sizeof(struct tap_map_entry), 8);
	unsigned int i;

	for (i = 0; i < m->spec.nkeys; i++) {
		m->key_off[i] = (uint32_t)off;
		off += column_size(m->spec.keys[i]);
	}
	m->value_off = (uint32_t)off;
	off += value_size(m);
	m->entry_size = TAP_ALIGN_UP(off, 8);
}

static inline struct tap_map_entry *
pool_entry(const struct tap_map *m, uint32_t i)
{
	return (struct tap_map_entry *)((char *)m->pool + i * m->entry_size);
}

static inline void *
field(const struct tap_map *m, const struct tap_map_entry *e, uint32_t off)
{
	return (char *)e + off;
}

/* Put every entry on the free list and empty the hash table. */
static void
reset_entries(struct tap_map *m)
{
	uint32_t i;

	tap_memset(m->buckets, 0, (m->bucket_mask + 1) * sizeof(*m->buckets));
	m->free = NULL;
	for (i = m->spec.max_entries; i > 0; i--) {
		struct tap_map_entry *e = pool_entry(m, i - 1);

		e->next = m->free;
		m->free = e;
	}
	m->oldest = m->newest = NULL;
	m->count = 0;
}

int
tap_map_init(struct tap_map *m, const struct tap_map_spec *spec)
{
	uint32_t nbuckets = 1;

	tap_memset(m, 0, sizeof(*m));
	if (!spec_valid(spec))
		return TAP_EINVAL;
	m->spec = *spec;
	if (m->spec.max_entries == 0)
		m->spec.max_entries = MAXMAPENTRIES;
	if (spec->value == TAP_T_STAT)
		m->stat_desc = *spec->stat;
	m->spec.stat = &m->stat_desc;
	compute_layout(m);

	/* Twice as many chains as entries keeps chains short. */
	while (nbuckets < 2 * m->spec.max_entries && nbuckets < (1u << 30))
		nbuckets <<= 1;
	m->bucket_mask = nbuckets - 1;
	m->buckets = tap_alloc(nbuckets * sizeof(*m->buckets));
	m->pool = tap_alloc((size_t)m->spec.max_entries * m->entry_size);
	if (!m->buckets || !m->pool) {
		tap_map_free(m);
		return TAP_ENOMEM;
	}
	reset_entries(m);
	return TAP_OK;
}

void
tap_map_free(struct tap_map *m)
{
	tap_free(m->buckets);
	tap_free(m->pool);
	m->buckets = NULL;
	m->pool = NULL;
	m->count = 0;
}

int
tap_map_percpu_init(struct tap_map **maps, void **mem, unsigned int n,
		    const struct tap_map_spec *spec)
{
	unsigned int cpu;
	int rc = TAP_OK;

	/* Cache-line aligned, so that no two CPUs' maps share a line;
	 * zeroed, so that maps not reached by a failed init free as empty. */
	*mem = tap_alloc(n * sizeof(**maps) + TAP_CACHELINE);
	if (!*mem) {
		*maps = NULL;
		return TAP_ENOMEM;
	}
	*maps = (struct tap_map *)TAP_ALIGN_UP((uintptr_t)*mem, TAP_CACHELINE);
	for (cpu = 0; rc == TAP_OK && cpu < n; cpu++)
		rc = tap_map_init(&(*maps)[cpu], spec);
	if (rc != TAP_OK)
		tap_map_percpu_free(maps, mem, n);
	return rc;
}

void
tap_map_percpu_free(struct tap_map **maps, void **mem, unsigned int n)
{
	unsigned int cpu;

	for (cpu = 0; *maps && cpu < n; cpu++)
		tap_map_free(&(*maps)[cpu]);
	tap_free(*mem);
	*maps = NULL;
	*mem = NULL;
}

/* ---- hashing and key comparison -------------------------------------- */

static inline uint64_t
mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* A lookup's keys with what hashing learnt about them, so that string
 * lengths are measured once per operation and not once per comparison. */
struct lookup {
	const struct tap_value *keys;
	uint32_t hash;
	uint32_t len[TAP_MAP_MAX_KEYS];	/* string columns, as truncated */
};

static inline const char *
key_str(const struct tap_value *k)
{
	return k->s ? k->s : "";
}

/* Eight bytes at a time over the part of the string a map keeps. */
static inline uint64_t
hash_str(const char *s, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ULL, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		tap_memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (i < len) {
		/* The last 1..7 bytes; a loop beats a variable memcpy. */
		size_t j;

		for (w = 0, j = i; j < len; j++)
			w = (w << 8) | (unsigned char)s[j];
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h;
}

/* Wildcard columns (slices) are neither read nor hashed. */
static inline void
prepare_lookup(const struct tap_map *m, const struct tap_value *keys,
	       uint32_t wildcard, struct lookup *lk)
{
	uint64_t h = 0;
	unsigned int i;

	lk->keys = keys;
	for (i = 0; i < m->spec.nkeys; i++) {
		uint64_t k;

		if (wildcard & (1u << i))
			continue;
		k = (uint64_t)keys[i].l;
		if (m->spec.keys[i] == TAP_T_STRING) {
			const char *str = key_str(&keys[i]);

			lk->len[i] = (uint32_t)tap_strnlen(str,
							   MAXSTRINGLEN - 1);
			k = hash_str(str, lk->len[i]);
		}
		h = mix64(h ^ k ^ i);
	}
	lk->hash = (uint32_t)(h ^ (h >> 32));
}

/* Whether n bytes at a and b are the same, eight at a time: keys are
 * short strings, and the kernel's memcmp() is a byte loop that cost more
 * than hashing the key (issue 18's a[execname()]++). */
static inline bool
bytes_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	for (; n >= 8; a += 8, b += 8, n -= 8) {
		tap_memcpy(&x, a, 8);
		tap_memcpy(&y, b, 8);
		if (x != y)
			return false;
	}
	while (n--)
		if (*a++ != *b++)
			return false;
	return true;
}

/* Column i of entry e against the lookup's key i.  A stored string is
 * the truncated key followed by its NUL. */
static inline bool
key_column_eq(const struct tap_map *m, const struct tap_map_entry *e,
	      unsigned int i, const struct lookup *lk)
{
	const char *stored = field(m, e, m->key_off[i]);

	if (m->spec.keys[i] == TAP_T_STRING)
		return stored[lk->len[i]] == '\0' &&
		       bytes_eq(stored, key_str(&lk->keys[i]), lk->len[i]);
	return *(const int64_t *)stored == lk->keys[i].l;
}

static bool
keys_eq(const struct tap_map *m, const struct tap_map_entry *e,
	const struct lookup *lk)
{
	unsigned int i;

	for (i = 0; i < m->spec.nkeys; i++)
		if (!key_column_eq(m, e, i, lk))
			return false;
	return true;
}

/* Copy at most n - 1 bytes of src and terminate; never overflows.  src
 * may be dst itself (a[k] = a[k]). */
static void
copy_bounded(char *dst, const char *src, size_t n)
{
	size_t len = src ? tap_strnlen(src, n - 1) : 0;

	tap_memmove(dst, src ? src : "", len);
	dst[len] = '\0';
}

static void
store_keys(struct tap_map *m, struct tap_map_entry *e,
	   const struct lookup *lk)
{
	unsigned int i;

	for (i = 0; i < m->spec.nkeys; i++) {
		char *dst = field(m, e, m->key_off[i]);

		if (m->spec.keys[i] == TAP_T_STRING) {
			tap_memcpy(dst, key_str(&lk->keys[i]), lk->len[i]);
			dst[lk->len[i]] = '\0';
		} else {
			*(int64_t *)dst = lk->keys[i].l;
		}
	}
}

static void
clear_value(struct tap_map *m, struct tap_map_entry *e)
{
	void *v = field(m, e, m->value_off);

	switch (m->spec.value) {
	case TAP_T_STRING:
		*(char *)v = '\0';
		return;
	case TAP_T_STAT:
		tap_stat_data_clear(&m->stat_desc, v);
		return;
	case TAP_T_LONG:
	case TAP_T_NONE:
		break;
	}
	*(int64_t *)v = 0;
}

/* ---- finding, inserting, deleting ------------------------------------ */

static struct tap_map_entry *
find_hashed(struct tap_map *m, const struct lookup *lk)
{
	struct tap_map_entry *e = m->buckets[lk->hash & m->bucket_mask];

	for (; e; e = e->hnext)
		if (e->hash == lk->hash && keys_eq(m, e, lk))
			return e;
	return NULL;
}

struct tap_map_entry *
tap_map_find(struct tap_map *m, const struct tap_value *keys)
{
	struct lookup lk;

	prepare_lookup(m, keys, 0, &lk);
	return find_hashed(m, &lk);
}

static void
unhash(struct tap_map *m, struct tap_map_entry *e)
{
	struct tap_map_entry **pp = &m->buckets[e->hash & m->bucket_mask];

	while (*pp && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = e->hnext;
	e->hnext = NULL;
}

static void
unlink_order(struct tap_map *m, struct tap_map_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		m->oldest = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		m->newest = e->prev;
	e->prev = e->next = NULL;
}

/* A free entry, or with wrap the oldest live one; NULL when full. */
static struct tap_map_entry *
take_entry(struct tap_map *m)
{
	struct tap_map_entry *e = m->free;

	if (e) {
		m->free = e->next;
		m->count++;
		return e;
	}
	if (!m->spec.wrap || !m->oldest)
		return NULL;
	e = m->oldest;
	unhash(m, e);
	unlink_order(m, e);
	return e;
}

int
tap_map_find_or_insert(struct tap_map *m, const struct tap_value *keys,
		       struct tap_map_entry **out)
{
	struct tap_map_entry *e, **chain;
	struct lookup lk;

	prepare_lookup(m, keys, 0, &lk);
	e = find_hashed(m, &lk);
	if (e) {
		*out = e;
		return TAP_OK;
	}
	e = take_entry(m);
	if (!e) {
		*out = NULL;
		return TAP_EMAPFULL;
	}
	e->hash = lk.hash;
	e->seq = m->next_seq++;
	store_keys(m, e, &lk);
	clear_value(m, e);
	chain = &m->buckets[lk.hash & m->bucket_mask];
	e->hnext = *chain;
	*chain = e;
	e->next = NULL;
	e->prev = m->newest;
	if (m->newest)
		m->newest->next = e;
	else
		m->oldest = e;
	m->newest = e;
	*out = e;
	return TAP_OK;
}

void
tap_map_delete_entry(struct tap_map *m, struct tap_map_entry *e)
{
	unhash(m, e);
	unlink_order(m, e);
	e->next = m->free;
	m->free = e;
	m->count--;
}

bool
tap_map_delete(struct tap_map *m, const struct tap_value *keys)
{
	struct tap_map_entry *e = tap_map_find(m, keys);

	if (!e)
		return false;
	tap_map_delete_entry(m, e);
	return true;
}

void
tap_map_clear(struct tap_map *m)
{
	if (m->count)
		reset_entries(m);
}

static bool
matches(const struct tap_map *m, const struct tap_map_entry *e,
	const struct lookup *lk, uint32_t wildcard)
{
	unsigned int i;

	for (i = 0; i < m->spec.nkeys; i++)
		if (!(wildcard & (1u << i)) && !key_column_eq(m, e, i, lk))
			return false;
	return true;
}

/* Is e in the slice m[keys] where the columns in wildcard are '*'? */
bool
tap_map_entry_matches(const struct tap_map *m, const struct tap_map_entry *e,
		      const struct tap_value *keys, uint32_t wildcard)
{
	struct lookup lk;

	prepare_lookup(m, keys, wildcard, &lk);
	return matches(m, e, &lk, wildcard);
}

/* delete m[k1, *, k3]: returns how many entries went. */
uint32_t
tap_map_delete_slice(struct tap_map *m, const struct tap_value *keys,
		     uint32_t wildcard)
{
	struct tap_map_entry *e = m->oldest;
	struct lookup lk;
	uint32_t n = 0;

	prepare_lookup(m, keys, wildcard, &lk);
	while (e) {
		struct tap_map_entry *next = e->next;

		if (matches(m, e, &lk, wildcard)) {
			tap_map_delete_entry(m, e);
			n++;
		}
		e = next;
	}
	return n;
}

/* ---- typed access ----------------------------------------------------- */

int64_t
tap_map_key_long(const struct tap_map *m, const struct tap_map_entry *e,
		 unsigned int col)
{
	return *(const int64_t *)field(m, e, m->key_off[col]);
}

const char *
tap_map_key_str(const struct tap_map *m, const struct tap_map_entry *e,
		unsigned int col)
{
	return field(m, e, m->key_off[col]);
}

int64_t *
tap_map_value_long(const struct tap_map *m, struct tap_map_entry *e)
{
	return field(m, e, m->value_off);
}

char *
tap_map_value_str(const struct tap_map *m, struct tap_map_entry *e)
{
	return field(m, e, m->value_off);
}

struct tap_stat_data *
tap_map_value_stat(const struct tap_map *m, struct tap_map_entry *e)
{
	return field(m, e, m->value_off);
}

int64_t
tap_map_get_long(struct tap_map *m, const struct tap_value *keys)
{
	struct tap_map_entry *e = tap_map_find(m, keys);

	return e ? *tap_map_value_long(m, e) : 0;
}

const char *
tap_map_get_str(struct tap_map *m, const struct tap_value *keys)
{
	struct tap_map_entry *e = tap_map_find(m, keys);

	return e ? tap_map_value_str(m, e) : "";
}

bool
tap_map_exists(struct tap_map *m, const struct tap_value *keys)
{
	return tap_map_find(m, keys) != NULL;
}

int
tap_map_set_long(struct tap_map *m, const struct tap_value *keys, int64_t v)
{
	struct tap_map_entry *e;
	int rc = tap_map_find_or_insert(m, keys, &e);

	if (rc == TAP_OK)
		*tap_map_value_long(m, e) = v;
	return rc;
}

int
tap_map_set_str(struct tap_map *m, const struct tap_value *keys,
		const char *s)
{
	struct tap_map_entry *e;
	int rc = tap_map_find_or_insert(m, keys, &e);

	if (rc == TAP_OK)
		copy_bounded(tap_map_value_str(m, e), s, MAXSTRINGLEN);
	return rc;
}

/* a[k] += delta, ++a[k], a[k]++: *result gets the new value (0 and the
 * map unchanged on error). */
int
tap_map_add_long(struct tap_map *m, const struct tap_value *keys,
		 int64_t delta, int64_t *result)
{
	struct tap_map_entry *e;
	int rc = tap_map_find_or_insert(m, keys, &e);
	int64_t *v;

	if (rc != TAP_OK) {
		if (result)
			*result = 0;
		return rc;
	}
	v = tap_map_value_long(m, e);
	*v = (int64_t)((uint64_t)*v + (uint64_t)delta);
	if (result)
		*result = *v;
	return TAP_OK;
}

int
tap_map_add_stat(struct tap_map *m, const struct tap_value *keys, int64_t v)
{
	struct tap_map_entry *e;
	int rc = tap_map_find_or_insert(m, keys, &e);

	if (rc == TAP_OK)
		tap_stat_data_add(&m->stat_desc, tap_map_value_stat(m, e), v);
	return rc;
}

/* ---- sorted iteration ------------------------------------------------- */

struct sort_ctx {
	const struct tap_map *m;
	const struct tap_map_order *o;
};

static int64_t
stat_field(const struct tap_stat_data *sd, enum tap_stat_field f)
{
	switch (f) {
	case TAP_STAT_COUNT:
		return sd->count;
	case TAP_STAT_SUM:
		return sd->sum;
	case TAP_STAT_MIN:
		return sd->min;
	case TAP_STAT_MAX:
		return sd->max;
	case TAP_STAT_AVG:
		return sd->count ? sd->sum / sd->count : 0;
	}
	return 0;
}

static int
cmp_long(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Compare the sort column of two entries, ascending. */
static int
cmp_column(const struct sort_ctx *c, const struct tap_map_entry *a,
	   const struct tap_map_entry *b)
{
	const struct tap_map *m = c->m;
	unsigned int col = c->o->column;
	enum tap_type t;
	uint32_t off;

	if (col == 0) {
		t = m->spec.value;
		off = m->value_off;
	} else {
		t = m->spec.keys[col - 1];
		off = m->key_off[col - 1];
	}
	switch (t) {
	case TAP_T_STRING:
		return tap_strcmp(field(m, a, off), field(m, b, off));
	case TAP_T_STAT:
		return cmp_long(stat_field(field(m, a, off), c->o->field),
				stat_field(field(m, b, off), c->o->field));
	case TAP_T_LONG:
	case TAP_T_NONE:
		break;
	}
	return cmp_long(*(const int64_t *)field(m, a, off),
			*(const int64_t *)field(m, b, off));
}

/* Does a come before b?  Ties go to the older entry, in either
 * direction, as a stable sort of the insertion-ordered list would. */
static bool
before(const struct sort_ctx *c, const struct tap_map_entry *a,
       const struct tap_map_entry *b)
{
	int r = cmp_column(c, a, b);

	if (r)
		return c->o->dir < 0 ? r > 0 : r < 0;
	return a->seq < b->seq;
}

/* Heap whose root is the entry that comes first. */
static void
sift_down(const struct sort_ctx *c, struct tap_map_entry **v, uint32_t n,
	  uint32_t i)
{
	for (;;) {
		uint32_t first = i, l = 2 * i + 1, r = l + 1;
		struct tap_map_entry *tmp;

		if (l < n && before(c, v[l], v[first]))
			first = l;
		if (r < n && before(c, v[r], v[first]))
			first = r;
		if (first == i)
			return;
		tmp = v[i];
		v[i] = v[first];
		v[first] = tmp;
		i = first;
	}
}

/* Put the first k of v[0..n) in order at v[0..k): O(n + k log n). */
static void
partial_sort(const struct sort_ctx *c, struct tap_map_entry **v, uint32_t n,
	     uint32_t k)
{
	uint32_t i, end;

	for (i = n / 2; i > 0; i--)
		sift_down(c, v, n, i - 1);
	/* Pop the first k to the back: v[n-1] is the first, v[n-2] next. */
	for (end = n; end > n - k; end--) {
		struct tap_map_entry *tmp = v[0];

		v[0] = v[end - 1];
		v[end - 1] = tmp;
		sift_down(c, v, end - 1, 0);
	}
	for (i = 0; i < k / 2; i++) {
		struct tap_map_entry *tmp = v[n - k + i];

		v[n - k + i] = v[n - 1 - i];
		v[n - 1 - i] = tmp;
	}
	tap_memmove(v, v + (n - k), k * sizeof(*v));
}

void
tap_map_iter_start(struct tap_map *m, const struct tap_map_order *o,
		   struct tap_map_iter *it, struct tap_map_entry **storage)
{
	struct sort_ctx c = { .m = m, .o = o };
	struct tap_map_entry *e;
	struct lookup lk;
	uint32_t n = 0, k;

	if (o->slice)
		prepare_lookup(m, o->slice, o->wildcard, &lk);
	for (e = m->oldest; e; e = e->next)
		if (!o->slice || matches(m, e, &lk, o->wildcard))
			storage[n++] = e;
	k = n;
	if (o->limit >= 0 && (uint64_t)o->limit < n)
		k = (uint32_t)o->limit;
	if (o->dir != 0 && k > 0)
		partial_sort(&c, storage, n, k);
	it->v = storage;
	it->n = k;
	it->pos = 0;
}
