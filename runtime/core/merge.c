/*
 * merge.c - the lines of `tapc --remote-merge` (merge.h): written by the
 * module on each host, read by the end-probe program here.
 *
 * Both halves are portable core C: the writer runs in the kernel, the
 * reader in user space and in the unit tests (test_merge.c), so numbers
 * are parsed here rather than with strtoll.  Must not: allocate.
 */
#include "merge.h"

/* ---- writing ---- */

static void
put_str(struct tap_buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch <= ' ' || ch > '~' || ch == '%') {
			tap_buf_putc(b, '%');
			tap_buf_putc(b, hex[ch >> 4]);
			tap_buf_putc(b, hex[ch & 15]);
		} else {
			tap_buf_putc(b, (char)ch);
		}
	}
}

static void
put_num(struct tap_buf *b, int64_t v)
{
	tap_buf_putc(b, ' ');
	tap_buf_put_s64(b, v);
}

int
tap_merge_put(struct tap_buf *b, const char *name,
	      const struct tap_value *keys, const enum tap_type *kt,
	      unsigned int nk, enum tap_type vt, int64_t lv,
	      const struct tap_stat_desc *d, const struct tap_stat_data *sd)
{
	unsigned int i;

	tap_buf_puts(b, TAP_MERGE_MARK);
	tap_buf_puts(b, name);
	put_num(b, nk);
	for (i = 0; i < nk; i++) {
		tap_buf_putc(b, ' ');
		if (kt[i] == TAP_T_STRING) {
			tap_buf_putc(b, 's');
			put_str(b, keys[i].s ? keys[i].s : "");
		} else {
			tap_buf_putc(b, 'i');
			tap_buf_put_s64(b, keys[i].l);
		}
	}
	if (vt != TAP_T_STAT) {
		tap_buf_puts(b, " L");
		put_num(b, lv);
	} else {
		tap_buf_puts(b, " T");
		put_num(b, sd ? sd->count : 0);
		put_num(b, sd && sd->count ? sd->sum : 0);
		put_num(b, sd && sd->count ? sd->min : 0);
		put_num(b, sd && sd->count ? sd->max : 0);
		for (i = 0; sd && sd->count && i < (unsigned int)d->buckets; i++) {
			if (!sd->hist[i])
				continue;
			put_num(b, i);
			tap_buf_putc(b, ':');
			tap_buf_put_s64(b, sd->hist[i]);
		}
	}
	tap_buf_putc(b, '\n');
	return tap_buf_status(b);
}

/* ---- merging ---- */

void
tap_merge_stat_data(const struct tap_stat_desc *d, struct tap_stat_data *agg,
		    const struct tap_stat_data *part)
{
	/* the same sums a machine's CPUs are merged with */
	__tap_stat_merge_sums(d, agg, part);
}

void
tap_merge_reset(const struct tap_merge_global *g, size_t n)
{
	size_t i;
	unsigned int cpu;

	for (i = 0; i < n; i++) {
		if (g[i].scalar)
			*g[i].scalar = 0;
		if (g[i].stat)
			tap_stat_clear(g[i].stat);
		if (g[i].map)
			tap_map_clear(g[i].map);
		for (cpu = 0; g[i].pmap && cpu < g[i].pmap->ncpus; cpu++)
			tap_map_clear(&g[i].pmap->cpu[cpu]);
	}
}

/* ---- reading ---- */

/* The next space-separated word of *p, NUL-ended in place; NULL at the
 * end of the line. */
static char *
next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\n')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

static bool
parse_s64(const char *w, int64_t *out)
{
	uint64_t v = 0;
	bool neg = false;

	if (!w || !*w)
		return false;
	if (*w == '-') {
		neg = true;
		w++;
	}
	if (!*w)
		return false;
	for (; *w; w++) {
		if (*w < '0' || *w > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*w - '0');
	}
	if (v > (uint64_t)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* %XX back into bytes, in place (the result is never longer). */
static bool
unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		int hi, lo;

		if (*s != '%') {
			*out++ = *s;
			continue;
		}
		hi = hex_digit(s[1]);
		lo = hi < 0 ? -1 : hex_digit(s[2]);
		if (lo < 0)
			return false;
		*out++ = (char)(hi << 4 | lo);
		s += 2;
	}
	*out = '\0';
	return true;
}

static const struct tap_merge_global *
find_global(const struct tap_merge_global *g, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tap_strcmp(g[i].name, name) == 0)
			return &g[i];
	return NULL;
}

/* "T COUNT SUM MIN MAX [B:N]..." into sd (cleared first). */
static int
parse_stat(char **p, const struct tap_stat_desc *d, struct tap_stat_data *sd,
	   const char **why)
{
	int64_t v[4];
	char *w;
	int i;

	tap_stat_data_clear(d, sd);
	for (i = 0; i < 4; i++)
		if (!parse_s64(next_word(p), &v[i]) || (i == 0 && v[0] < 0)) {
			*why = "a statistic without count, sum, min and max";
			return TAP_EINVAL;
		}
	sd->count = v[0];
	sd->sum = v[1];
	sd->min = v[2];
	sd->max = v[3];
	while ((w = next_word(p)) != NULL) {
		char *colon = w;
		int64_t bucket, count;

		while (*colon && *colon != ':')
			colon++;
		if (!*colon) {
			*why = "a histogram bucket that is not BUCKET:COUNT";
			return TAP_EINVAL;
		}
		*colon = '\0';
		if (!parse_s64(w, &bucket) || !parse_s64(colon + 1, &count) ||
		    bucket < 0 || bucket >= d->buckets || count < 0) {
			*why = "a histogram bucket this script's histogram does not have";
			return TAP_EINVAL;
		}
		sd->hist[bucket] = count;
	}
	return 0;
}

/* The keys of the line into k[] (strings point into the line). */
static int
parse_keys(char **p, const struct tap_merge_global *g, struct tap_value *k,
	   const char **why)
{
	int64_t nk;
	unsigned int i;

	if (!parse_s64(next_word(p), &nk) || nk != (int64_t)g->nkeys) {
		*why = "a number of keys other than the global's";
		return TAP_EINVAL;
	}
	for (i = 0; i < g->nkeys; i++) {
		char *w = next_word(p);
		bool str = g->keys[i] == TAP_T_STRING;

		if (!w || *w != (str ? 's' : 'i')) {
			*why = "a key of another type than the global's";
			return TAP_EINVAL;
		}
		if (str) {
			if (!unescape(w + 1)) {
				*why = "a string key with a bad %XX escape";
				return TAP_EINVAL;
			}
			k[i] = TAP_STR(w + 1);
		} else if (!parse_s64(w + 1, &k[i].l)) {
			*why = "an integer key that is not a number";
			return TAP_EINVAL;
		} else {
			k[i].s = NULL;
		}
	}
	return 0;
}

static int
load_stat(const struct tap_merge_global *g, const struct tap_value *k,
	  char **p, const char **why)
{
	const struct tap_stat_desc *d;
	struct tap_stat_data *dst, *part;
	struct tap_map_entry *e;
	int rc;

	if (g->stat) {
		d = &g->stat->desc;
		dst = (struct tap_stat_data *)g->stat->slots;	/* CPU 0's */
		part = (struct tap_stat_data *)
			(g->stat->slots + g->stat->ncpus * g->stat->slot_size);
	} else if (g->pmap) {
		d = &g->pmap->cpu[0].stat_desc;
		rc = tap_map_find_or_insert(&g->pmap->cpu[0], k, &e);
		if (rc) {
			*why = "more keys than the array holds";
			return rc;
		}
		dst = tap_map_value_stat(&g->pmap->cpu[0], e);
		part = g->pmap->one;
	} else {
		*why = "statistics for a global that holds none";
		return TAP_EINVAL;
	}
	/* the merged slot (scalar) or scratch (array) holds the part */
	rc = parse_stat(p, d, part, why);
	if (rc)
		return rc;
	tap_merge_stat_data(d, dst, part);
	return 0;
}

static int
load_long(const struct tap_merge_global *g, const struct tap_value *k,
	  char **p, const char **why)
{
	int64_t v;
	int rc;

	if (!parse_s64(next_word(p), &v)) {
		*why = "an integer value that is not a number";
		return TAP_EINVAL;
	}
	if (g->scalar) {
		*g->scalar = tap_add(*g->scalar, v);
		return 0;
	}
	if (!g->map) {
		*why = "an integer for a global that holds statistics";
		return TAP_EINVAL;
	}
	rc = tap_map_add_long(g->map, k, v, NULL);
	if (rc)
		*why = "more keys than the array holds";
	return rc;
}

int
tap_merge_load_line(const struct tap_merge_global *g, size_t n, char *line,
		    const char **why)
{
	struct tap_value k[TAP_MAP_MAX_KEYS];
	const struct tap_merge_global *gl;
	char *p = line, *name, *kind;
	int rc;

	*why = NULL;
	if (*p == '\036' && p[1] == 'M')
		p += 2;
	name = next_word(&p);
	if (!name) {
		*why = "an empty line";
		return TAP_EINVAL;
	}
	gl = find_global(g, n, name);
	if (!gl) {
		*why = "a global this script does not merge";
		return TAP_ENOENT;
	}
	rc = parse_keys(&p, gl, k, why);
	if (rc)
		return rc;
	kind = next_word(&p);
	if (kind && kind[0] == 'T' && !kind[1])
		return load_stat(gl, k, &p, why);
	if (kind && kind[0] == 'L' && !kind[1])
		return load_long(gl, k, &p, why);
	*why = "a value that is neither L (integer) nor T (statistics)";
	return TAP_EINVAL;
}
