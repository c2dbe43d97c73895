/*
 * test_map.c - Check tests for associative arrays (runtime/core/map.c) and
 * arrays of statistics (runtime/core/pmap.c): every operation, full maps,
 * wrap eviction, nine keys, truncated string keys and values, slices,
 * sorted and limited iteration, per-CPU statistics merging, and counted
 * arrays' per-CPU deltas (runtime/core/cmap.c).  Where stap's
 * testsuite has a script (foreach_limit, map_wrap, print_stats) it is
 * replayed through the core and the output compared with stap's.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/map.h"
#include "runtime/core/format.h"
#include "runtime/core/error.h"

static const char exp_foreach_limit[] =
	"\n"
	"Arrays:\n"
	"unsorted:\n"
	"key 9, value 18\n"
	"key 1, value 40\n"
	"key 8, value 16\n"
	"key 2, value 4\n"
	"key 7, value 14\n"
	"key 3, value 36\n"
	"key 6, value 12\n"
	"key 5, value 10\n"
	"key 4, value 8\n"
	"key 10, value 20\n"
	"\n"
	"unsorted limit 5:\n"
	"key 9, value 18\n"
	"key 1, value 40\n"
	"key 8, value 16\n"
	"key 2, value 4\n"
	"key 7, value 14\n"
	"loop had 5 iterations\n"
	"\n"
	"sorted (by values) limit 5:\n"
	"key 2, value 4\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"key 6, value 12\n"
	"key 7, value 14\n"
	"loop had 5 iterations\n"
	"\n"
	"sorted (by keys) limit 5:\n"
	"key 1, value 40\n"
	"key 2, value 4\n"
	"key 3, value 36\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"loop had 5 iterations\n"
	"\n"
	"sorted (by values) limit x (3):\n"
	"key 2, value 4\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"loop had 3 iterations\n"
	"\n"
	"sorted (by values) limit x * 2 (6):\n"
	"key 2, value 4\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"key 6, value 12\n"
	"key 7, value 14\n"
	"key 8, value 16\n"
	"loop had 6 iterations\n"
	"\n"
	"sorted (by values) limit ++x:\n"
	"key 2, value 4\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"key 6, value 12\n"
	"loop had 4 iterations\n"
	"x ended up as 4\n"
	"\n"
	"sorted (by values) limit x++:\n"
	"key 2, value 4\n"
	"key 4, value 8\n"
	"key 5, value 10\n"
	"key 6, value 12\n"
	"loop had 4 iterations\n"
	"x ended up as 5\n"
	"\n"
	"sorted (by values) with key specified limit x++:\n"
	"key 6, value 12\n"
	"loop had 1 iterations\n"
	"x ended up as 6\n"
	"\n"
	"Aggregates:\n"
	"count=150 sum=21360\n"
	"min=4 max=600\n"
	"value |-------------------------------------------------- count\n"
	"    1 |                                                    0\n"
	"    2 |                                                    0\n"
	"    4 |@                                                   1\n"
	"    8 |@@@@@@                                              6\n"
	"   16 |@@@@@@@@@@@@@                                      13\n"
	"   32 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@                       28\n"
	"   64 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@            39\n"
	"  128 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@         42\n"
	"  256 |@@@@@@@@@@@@@@@@@                                  17\n"
	"  512 |@@@@                                                4\n"
	" 1024 |                                                    0\n"
	" 2048 |                                                    0\n"
	"\n"
	"bucket 67: 1\n"
	"bucket 68: 6\n"
	"bucket 69: 13\n"
	"bucket 70: 28\n"
	"loop had 71 iterations\n"
	"\n"
	"Done.";
static const char exp_map_wrap1[] =
	"foo[9]=9\n"
	"foo[8]=8\n"
	"foo[7]=7\n"
	"foo[6]=6\n"
	"foo[5]=5";

#define L(v)	TAP_LONG(v)
#define S(v)	TAP_STR(v)
#define K(...)	((const struct tap_value[]){ __VA_ARGS__ })

static char text[1 << 16];
static struct tap_buf out;

static void
say(const char *fmt, const struct tap_value *args, unsigned int n)
{
	struct tap_fmt_piece pieces[16];
	struct tap_fmt f;

	ck_assert_int_eq(tap_fmt_compile(&f, fmt, pieces, 16, NULL), TAP_OK);
	ck_assert_int_eq(tap_fmt_apply(&f, args, n, &out, NULL), TAP_OK);
}

static void
ck_text(const char *want)
{
	size_t gl = out.len, wl = strlen(want);

	while (gl && text[gl - 1] == '\n')
		gl--;
	while (wl && want[wl - 1] == '\n')
		wl--;
	if (gl != wl || memcmp(text, want, gl) != 0)
		ck_abort_msg("output differs\n--- got ---\n%.*s\n"
			     "--- want ---\n%.*s\n", (int)gl, text, (int)wl,
			     want);
}

static void
map_ll(struct tap_map *m, uint32_t max, bool wrap)
{
	struct tap_map_spec spec = {
		.nkeys = 1, .keys = { TAP_T_LONG }, .value = TAP_T_LONG,
		.max_entries = max, .wrap = wrap,
	};

	ck_assert_int_eq(tap_map_init(m, &spec), TAP_OK);
}

static void
map_ss(struct tap_map *m, uint32_t max)
{
	struct tap_map_spec spec = {
		.nkeys = 1, .keys = { TAP_T_STRING }, .value = TAP_T_STRING,
		.max_entries = max,
	};

	ck_assert_int_eq(tap_map_init(m, &spec), TAP_OK);
}

/* Iterate m in order o; storage is allocated like a context would. */
static uint32_t
collect(struct tap_map *m, const struct tap_map_order *o,
	struct tap_map_entry ***v)
{
	struct tap_map_iter it;

	*v = calloc(tap_map_iter_slots(m), sizeof(**v));
	tap_map_iter_start(m, o, &it, *v);
	return it.n;
}

START_TEST(basic_long)
{
	struct tap_map m;
	int64_t r;

	map_ll(&m, 0, false);
	ck_assert_uint_eq(tap_map_max_entries(&m), MAXMAPENTRIES);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(1))), 0);
	ck_assert(!tap_map_exists(&m, K(L(1))));
	ck_assert_uint_eq(tap_map_size(&m), 0);
	ck_assert_int_eq(tap_map_set_long(&m, K(L(1)), 10), TAP_OK);
	ck_assert_int_eq(tap_map_set_long(&m, K(L(-1)), 20), TAP_OK);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(1))), 10);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(-1))), 20);
	ck_assert(tap_map_exists(&m, K(L(1))));
	/* Setting 0 keeps the entry, as in stap >= 1.0. */
	ck_assert_int_eq(tap_map_set_long(&m, K(L(1)), 0), TAP_OK);
	ck_assert(tap_map_exists(&m, K(L(1))));
	ck_assert_uint_eq(tap_map_size(&m), 2);
	ck_assert_int_eq(tap_map_add_long(&m, K(L(7)), 1, &r), TAP_OK);
	ck_assert_int_eq(r, 1);
	ck_assert_int_eq(tap_map_add_long(&m, K(L(7)), 5, NULL), TAP_OK);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(7))), 6);
	ck_assert_int_eq(tap_map_set_long(&m, K(L(8)), INT64_MAX), TAP_OK);
	ck_assert_int_eq(tap_map_add_long(&m, K(L(8)), 1, &r), TAP_OK);
	ck_assert_int_eq(r, INT64_MIN);
	ck_assert(tap_map_delete(&m, K(L(1))));
	ck_assert(!tap_map_delete(&m, K(L(1))));
	ck_assert(!tap_map_exists(&m, K(L(1))));
	ck_assert_uint_eq(tap_map_size(&m), 3);
	tap_map_clear(&m);
	ck_assert_uint_eq(tap_map_size(&m), 0);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(7))), 0);
	tap_map_free(&m);
}
END_TEST

START_TEST(basic_string)
{
	struct tap_map m;

	map_ss(&m, 16);
	ck_assert_str_eq(tap_map_get_str(&m, K(S("nope"))), "");
	ck_assert_int_eq(tap_map_set_str(&m, K(S("bash")), "shell"), TAP_OK);
	ck_assert_int_eq(tap_map_set_str(&m, K(S("")), "empty"), TAP_OK);
	ck_assert_str_eq(tap_map_get_str(&m, K(S("bash"))), "shell");
	ck_assert_str_eq(tap_map_get_str(&m, K(S(""))), "empty");
	/* A NULL string is the empty string. */
	ck_assert_str_eq(tap_map_get_str(&m, K(S(NULL))), "empty");
	ck_assert(!tap_map_exists(&m, K(S("bas"))));
	ck_assert(!tap_map_exists(&m, K(S("bashx"))));
	/* a[k] = a[k]: the source is the destination. */
	ck_assert_int_eq(tap_map_set_str(&m, K(S("bash")),
				 tap_map_get_str(&m, K(S("bash")))), TAP_OK);
	ck_assert_str_eq(tap_map_get_str(&m, K(S("bash"))), "shell");
	ck_assert_int_eq(tap_map_set_str(&m, K(S("bash")), NULL), TAP_OK);
	ck_assert_str_eq(tap_map_get_str(&m, K(S("bash"))), "");
	tap_map_free(&m);
}
END_TEST

/* Keys and values longer than MAXSTRINGLEN - 1 are cut there, and a
 * lookup with the long key finds the entry. */
START_TEST(long_strings)
{
	static char k1[2000], k2[2000], v[3000];
	struct tap_map m;

	memset(k1, 'k', sizeof(k1) - 1);
	memcpy(k2, k1, sizeof(k2));
	k2[MAXSTRINGLEN + 5] = 'Z';	/* differs only past the cut */
	memset(v, 'v', sizeof(v) - 1);
	map_ss(&m, 16);
	ck_assert_int_eq(tap_map_set_str(&m, K(S(k1)), v), TAP_OK);
	ck_assert_uint_eq(strlen(tap_map_get_str(&m, K(S(k1)))),
			  MAXSTRINGLEN - 1);
	ck_assert(tap_map_exists(&m, K(S(k2))));
	ck_assert_int_eq(tap_map_set_str(&m, K(S(k2)), "x"), TAP_OK);
	ck_assert_uint_eq(tap_map_size(&m), 1);
	ck_assert_str_eq(tap_map_get_str(&m, K(S(k1))), "x");
	k2[MAXSTRINGLEN - 2] = 'Y';	/* differs inside the cut */
	ck_assert(!tap_map_exists(&m, K(S(k2))));
	tap_map_free(&m);
}
END_TEST

START_TEST(nine_keys)
{
	struct tap_map_spec spec = {
		.nkeys = 9,
		.keys = { TAP_T_LONG, TAP_T_STRING, TAP_T_LONG, TAP_T_STRING,
			  TAP_T_LONG, TAP_T_STRING, TAP_T_LONG, TAP_T_STRING,
			  TAP_T_LONG },
		.value = TAP_T_LONG, .max_entries = 64,
	};
	struct tap_map m;
	struct tap_value k[9];
	struct tap_map_entry **v;
	struct tap_map_order o = { .dir = -1, .column = 9, .limit = -1 };
	int i, j;

	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_OK);
	for (i = 0; i < 10; i++) {
		for (j = 0; j < 9; j++)
			k[j] = j % 2 ? S(j == 3 && i % 2 ? "odd" : "even") :
				       L(j == 8 ? i : j);
		ck_assert_int_eq(tap_map_set_long(&m, k, i * 100), TAP_OK);
	}
	ck_assert_uint_eq(tap_map_size(&m), 10);
	for (j = 0; j < 9; j++)
		k[j] = j % 2 ? S(j == 3 ? "odd" : "even") : L(j == 8 ? 5 : j);
	ck_assert_int_eq(tap_map_get_long(&m, k), 500);
	k[3] = S("even");
	ck_assert(!tap_map_exists(&m, k));
	/* foreach ([a,b,c,d,e,f,g,h,i-] in m): by the ninth key. */
	ck_assert_uint_eq(collect(&m, &o, &v), 10);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(tap_map_key_long(&m, v[i], 8), 9 - i);
	ck_assert_str_eq(tap_map_key_str(&m, v[0], 3), "odd");
	free(v);
	/* Slice m[*, *, *, "odd", *, *, *, *, *]. */
	o.slice = k;
	o.wildcard = 0x1ff & ~(1u << 3);
	k[3] = S("odd");
	ck_assert_uint_eq(collect(&m, &o, &v), 5);
	free(v);
	ck_assert_uint_eq(tap_map_delete_slice(&m, k, o.wildcard), 5);
	ck_assert_uint_eq(tap_map_size(&m), 5);
	tap_map_free(&m);
}
END_TEST

START_TEST(bad_specs)
{
	struct tap_map m;
	struct tap_map_spec spec = { .nkeys = 0, .value = TAP_T_LONG };

	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_EINVAL);
	spec.nkeys = 10;
	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_EINVAL);
	spec.nkeys = 1;
	spec.keys[0] = TAP_T_STAT;
	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_EINVAL);
	spec.keys[0] = TAP_T_LONG;
	spec.value = TAP_T_STAT;	/* without a stat desc */
	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_EINVAL);
}
END_TEST

START_TEST(full_map)
{
	struct tap_map m;
	int64_t r;
	int i;

	map_ll(&m, 5, false);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(tap_map_set_long(&m, K(L(i)), i), TAP_OK);
	ck_assert_int_eq(tap_map_set_long(&m, K(L(5)), 5), TAP_EMAPFULL);
	ck_assert_int_eq(tap_map_add_long(&m, K(L(5)), 1, &r), TAP_EMAPFULL);
	ck_assert_int_eq(r, 0);
	ck_assert(!tap_map_exists(&m, K(L(5))));
	/* Existing keys still update; reading a missing one inserts none. */
	ck_assert_int_eq(tap_map_set_long(&m, K(L(4)), 44), TAP_OK);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(99))), 0);
	ck_assert_uint_eq(tap_map_size(&m), 5);
	ck_assert(tap_map_delete(&m, K(L(0))));
	ck_assert_int_eq(tap_map_set_long(&m, K(L(5)), 5), TAP_OK);
	ck_assert_int_eq(tap_map_get_long(&m, K(L(5))), 5);
	ck_assert_str_eq(tap_error_message(TAP_EMAPFULL),
			 "Array overflow, check MAXMAPENTRIES");
	tap_map_free(&m);
}
END_TEST

/* map_wrap1.stp: global foo%[5]; foo[i] = i for i in 0..9, printed in
 * descending key order as stap's automatic global dump does. */
START_TEST(wrap_evicts_oldest)
{
	struct tap_map m;
	struct tap_map_entry **v;
	struct tap_map_order o = { .dir = -1, .column = 1, .limit = -1 };
	uint32_t i, n;

	map_ll(&m, 5, true);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(tap_map_set_long(&m, K(L(i)), i), TAP_OK);
	ck_assert_uint_eq(tap_map_size(&m), 5);
	ck_assert(!tap_map_exists(&m, K(L(4))));
	n = collect(&m, &o, &v);
	tap_buf_init(&out, text, sizeof(text));
	for (i = 0; i < n; i++) {
		struct tap_value a[2] = {
			L(tap_map_key_long(&m, v[i], 0)),
			L(*tap_map_value_long(&m, v[i])),
		};

		say("foo[%d]=%d\n", a, 2);
	}
	free(v);
	ck_text(exp_map_wrap1);
	/* Updating an entry does not make it younger: 5 goes first. */
	ck_assert_int_eq(tap_map_set_long(&m, K(L(5)), 55), TAP_OK);
	ck_assert_int_eq(tap_map_set_long(&m, K(L(10)), 10), TAP_OK);
	ck_assert(!tap_map_exists(&m, K(L(5))));
	ck_assert(tap_map_exists(&m, K(L(6))));
	tap_map_free(&m);
}
END_TEST

static void
print_rows(struct tap_map *m, const struct tap_map_order *o, int64_t *count)
{
	struct tap_map_entry *storage[64];
	struct tap_map_iter it;
	struct tap_map_entry *e;

	*count = 0;
	tap_map_iter_start(m, o, &it, storage);
	while ((e = tap_map_iter_next(&it))) {
		struct tap_value a[2] = {
			L(tap_map_key_long(m, e, 0)),
			L(tap_map_get_long(m, K(L(tap_map_key_long(m, e, 0))))),
		};

		say("key %d, value %d\n", a, 2);
		++*count;
	}
}

static void
section(const char *title, struct tap_map *m, const struct tap_map_order *o,
	bool count)
{
	int64_t n;

	say(title, NULL, 0);
	print_rows(m, o, &n);
	if (count)
		say("loop had %d iterations\n", &L(n), 1);
}

/* foreach_limit.stp, replayed through the map and the formatter. */
START_TEST(foreach_limit)
{
	static const int64_t kv[][2] = {
		{ 9, 18 }, { 1, 40 }, { 8, 16 }, { 2, 4 }, { 7, 14 },
		{ 3, 36 }, { 6, 12 }, { 5, 10 }, { 4, 8 }, { 10, 20 },
	};
	struct tap_map m;
	struct tap_map_order o = { .limit = -1 };
	struct tap_stat_desc d;
	struct tap_stat agg;
	const struct tap_stat_data *sd;
	struct tap_map_entry *storage[16], *e;
	struct tap_map_iter it;
	int64_t x = 3, b, cnt, n;
	int i, k;

	map_ll(&m, 16, false);
	for (i = 0; i < 10; i++)
		tap_map_set_long(&m, K(L(kv[i][0])), kv[i][1]);
	tap_buf_init(&out, text, sizeof(text));
	say("\nArrays:\n", NULL, 0);
	section("unsorted:\n", &m, &o, false);
	o.limit = 5;
	section("\nunsorted limit 5:\n", &m, &o, true);
	o.dir = 1;
	section("\nsorted (by values) limit 5:\n", &m, &o, true);
	o.column = 1;
	section("\nsorted (by keys) limit 5:\n", &m, &o, true);
	o.column = 0;
	o.limit = x;
	say("\nsorted (by values) limit x (%d):\n", &L(x), 1);
	section("", &m, &o, true);
	o.limit = x * 2;
	say("\nsorted (by values) limit x * 2 (%d):\n", &L(x * 2), 1);
	section("", &m, &o, true);
	o.limit = ++x;
	section("\nsorted (by values) limit ++x:\n", &m, &o, true);
	say("x ended up as %d\n", &L(x), 1);
	o.limit = x++;
	section("\nsorted (by values) limit x++:\n", &m, &o, true);
	say("x ended up as %d\n", &L(x), 1);
	++x;
	o.slice = K(L(x));
	o.limit = x;
	section("\nsorted (by values) with key specified limit x++:\n", &m,
		&o, true);
	say("x ended up as %d\n", &L(x), 1);

	say("\nAggregates:\n", NULL, 0);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, false,
					    0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&agg, &d), TAP_OK);
	o = (struct tap_map_order){ .limit = -1 };
	tap_map_iter_start(&m, &o, &it, storage);
	while ((e = tap_map_iter_next(&it)))
		for (k = 1; k <= 15; k++)
			tap_stat_add(&agg, *tap_map_value_long(&m, e) * k);
	sd = tap_stat_get(&agg);
	say("count=%d sum=%d\n", K(L(tap_stat_count(sd)),
				   L(tap_stat_sum(sd))), 2);
	say("min=%d max=%d\n", K(L(sd->min), L(sd->max)), 2);
	ck_assert_int_eq(tap_hist_print(&out, &d, sd, TAP_HIST_ELISION),
			 TAP_OK);
	for (b = 0, n = 0; b < 71; b++, n++) {
		ck_assert_int_eq(tap_hist_bucket_count(&d, sd, b, &cnt),
				 TAP_OK);
		if (cnt)
			say("bucket %d: %d\n", K(L(b), L(cnt)), 2);
	}
	say("loop had %d iterations\n", &L(n), 1);
	say("\nDone.\n", NULL, 0);
	ck_text(exp_foreach_limit);
	tap_stat_free(&agg);
	tap_map_free(&m);
}
END_TEST

/* Ties keep insertion order in both directions; strings sort bytewise. */
START_TEST(sort_ties_and_strings)
{
	static const char *const names[] = { "pear", "apple", "fig", "Zed",
					     "apple2", "" };
	struct tap_map_spec spec = {
		.nkeys = 1, .keys = { TAP_T_STRING }, .value = TAP_T_LONG,
		.max_entries = 8,
	};
	struct tap_map m;
	struct tap_map_entry **v;
	struct tap_map_order o = { .dir = 1, .column = 1, .limit = -1 };
	int i;

	ck_assert_int_eq(tap_map_init(&m, &spec), TAP_OK);
	for (i = 0; i < 6; i++)
		tap_map_set_long(&m, K(S(names[i])), i % 2);
	ck_assert_uint_eq(collect(&m, &o, &v), 6);
	ck_assert_str_eq(tap_map_key_str(&m, v[0], 0), "");
	ck_assert_str_eq(tap_map_key_str(&m, v[1], 0), "Zed");
	ck_assert_str_eq(tap_map_key_str(&m, v[2], 0), "apple");
	ck_assert_str_eq(tap_map_key_str(&m, v[3], 0), "apple2");
	ck_assert_str_eq(tap_map_key_str(&m, v[5], 0), "pear");
	free(v);
	/* By value descending: the 1s (apple, Zed, "") then the 0s, each
	 * group oldest first. */
	o.dir = -1;
	o.column = 0;
	ck_assert_uint_eq(collect(&m, &o, &v), 6);
	ck_assert_str_eq(tap_map_key_str(&m, v[0], 0), "apple");
	ck_assert_str_eq(tap_map_key_str(&m, v[1], 0), "Zed");
	ck_assert_str_eq(tap_map_key_str(&m, v[2], 0), "");
	ck_assert_str_eq(tap_map_key_str(&m, v[3], 0), "pear");
	ck_assert_str_eq(tap_map_key_str(&m, v[4], 0), "fig");
	ck_assert_str_eq(tap_map_key_str(&m, v[5], 0), "apple2");
	free(v);
	o.limit = 0;
	ck_assert_uint_eq(collect(&m, &o, &v), 0);
	free(v);
	tap_map_free(&m);
}
END_TEST

/* String-valued maps sort by value with strcmp. */
START_TEST(sort_string_values)
{
	struct tap_map m;
	struct tap_map_entry **v;
	struct tap_map_order o = { .dir = 1, .column = 0, .limit = 2 };

	map_ss(&m, 8);
	tap_map_set_str(&m, K(S("a")), "zz");
	tap_map_set_str(&m, K(S("b")), "aa");
	tap_map_set_str(&m, K(S("c")), "mm");
	ck_assert_uint_eq(collect(&m, &o, &v), 2);
	ck_assert_str_eq(tap_map_key_str(&m, v[0], 0), "b");
	ck_assert_str_eq(tap_map_key_str(&m, v[1], 0), "c");
	free(v);
	tap_map_free(&m);
}
END_TEST

/* A full map of MAXMAPENTRIES: everything is found, sorted iteration
 * with and without limits agrees with a reference order, deletes of half
 * the keys leave the other half intact. */
START_TEST(many_entries)
{
	struct tap_map m;
	struct tap_map_entry **v;
	struct tap_map_order o = { .dir = 1, .column = 0, .limit = -1 };
	uint32_t i, n;

	map_ll(&m, 0, false);
	for (i = 0; i < MAXMAPENTRIES; i++) {
		int64_t key = (int64_t)i * 7919 - 5000000;

		ck_assert_int_eq(tap_map_set_long(&m, K(L(key)),
						  (i * 37) % 1000), TAP_OK);
	}
	ck_assert_int_eq(tap_map_set_long(&m, K(L(1)), 1), TAP_EMAPFULL);
	for (i = 0; i < MAXMAPENTRIES; i++)
		ck_assert_int_eq(tap_map_get_long(&m,
			K(L((int64_t)i * 7919 - 5000000))), (i * 37) % 1000);
	n = collect(&m, &o, &v);
	ck_assert_uint_eq(n, MAXMAPENTRIES);
	for (i = 1; i < n; i++) {
		int64_t a = *tap_map_value_long(&m, v[i - 1]);
		int64_t b = *tap_map_value_long(&m, v[i]);

		ck_assert(a < b || (a == b && v[i - 1]->seq < v[i]->seq));
	}
	free(v);
	o.limit = 10;
	o.dir = -1;
	ck_assert_uint_eq(collect(&m, &o, &v), 10);
	ck_assert_int_eq(*tap_map_value_long(&m, v[0]), 999);
	free(v);
	for (i = 0; i < MAXMAPENTRIES; i += 2)
		ck_assert(tap_map_delete(&m,
			K(L((int64_t)i * 7919 - 5000000))));
	ck_assert_uint_eq(tap_map_size(&m), MAXMAPENTRIES / 2);
	for (i = 0; i < MAXMAPENTRIES; i++)
		ck_assert(tap_map_exists(&m,
			K(L((int64_t)i * 7919 - 5000000))) == (i % 2 == 1));
	tap_map_free(&m);
}
END_TEST

/* Two foreach loops over one map, nested, each with its own storage. */
START_TEST(nested_iteration)
{
	struct tap_map m;
	struct tap_map_entry *s1[8], *s2[8], *a, *b;
	struct tap_map_iter i1, i2;
	struct tap_map_order up = { .dir = 1, .column = 1, .limit = -1 };
	struct tap_map_order down = { .dir = -1, .column = 1, .limit = -1 };
	int pairs = 0;
	int i;

	map_ll(&m, 8, false);
	for (i = 0; i < 4; i++)
		tap_map_set_long(&m, K(L(i)), i);
	tap_map_iter_start(&m, &up, &i1, s1);
	for (i = 0; (a = tap_map_iter_next(&i1)); i++) {
		ck_assert_int_eq(tap_map_key_long(&m, a, 0), i);
		tap_map_iter_start(&m, &down, &i2, s2);
		b = tap_map_iter_next(&i2);
		ck_assert_int_eq(tap_map_key_long(&m, b, 0), 3);
		while (tap_map_iter_next(&i2))
			pairs++;
	}
	ck_assert_int_eq(pairs, 12);
	tap_map_free(&m);
}
END_TEST

/* Random operations against a naive model: an array of live keys in
 * insertion order.  Catches hash-chain, free-list and eviction mistakes
 * that hand-written cases miss. */
struct model {
	int64_t key[64], val[64];
	int n;
};

static int
model_find(const struct model *md, int64_t key)
{
	int i;

	for (i = 0; i < md->n; i++)
		if (md->key[i] == key)
			return i;
	return -1;
}

static void
model_remove(struct model *md, int i)
{
	memmove(&md->key[i], &md->key[i + 1], (md->n - i - 1) * 8);
	memmove(&md->val[i], &md->val[i + 1], (md->n - i - 1) * 8);
	md->n--;
}

/* a[key] = val in the model; returns what the map should return. */
static int
model_set(struct model *md, int64_t key, int64_t val, int max, bool wrap)
{
	int i = model_find(md, key);

	if (i >= 0) {
		md->val[i] = val;
		return TAP_OK;
	}
	if (md->n == max) {
		if (!wrap)
			return TAP_EMAPFULL;
		model_remove(md, 0);
	}
	md->key[md->n] = key;
	md->val[md->n++] = val;
	return TAP_OK;
}

static void
model_check_order(struct tap_map *m, const struct model *md)
{
	struct tap_map_entry *storage[64];
	struct tap_map_order o = { .limit = -1 };
	struct tap_map_iter it;
	int i;

	tap_map_iter_start(m, &o, &it, storage);
	ck_assert_uint_eq(it.n, md->n);
	for (i = 0; i < md->n; i++) {
		ck_assert_int_eq(tap_map_key_long(m, it.v[i], 0), md->key[i]);
		ck_assert_int_eq(*tap_map_value_long(m, it.v[i]), md->val[i]);
	}
}

static void
random_ops(int max, bool wrap)
{
	struct model md = { .n = 0 };
	struct tap_map m;
	uint64_t rng = 12345 + max + wrap;
	int step;

	map_ll(&m, max, wrap);
	for (step = 0; step < 20000; step++) {
		int64_t key, v;
		int op, i;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		op = (rng >> 33) % 100;
		/* Few keys, some of them colliding in the low hash bits. */
		key = (int64_t)((rng >> 40) % 40) * 1024 - 7000;
		i = model_find(&md, key);
		if (op < 40) {
			ck_assert_int_eq(tap_map_set_long(&m, K(L(key)), step),
					 model_set(&md, key, step, max, wrap));
		} else if (op < 60) {
			int want = model_set(&md, key,
					     i >= 0 ? md.val[i] + 3 : 3,
					     max, wrap);

			ck_assert_int_eq(tap_map_add_long(&m, K(L(key)), 3,
							  &v), want);
		} else if (op < 75) {
			ck_assert(tap_map_delete(&m, K(L(key))) == (i >= 0));
			if (i >= 0)
				model_remove(&md, i);
		} else if (op < 99) {
			ck_assert_int_eq(tap_map_get_long(&m, K(L(key))),
					 i >= 0 ? md.val[i] : 0);
			ck_assert(tap_map_exists(&m, K(L(key))) == (i >= 0));
		} else {
			tap_map_clear(&m);
			md.n = 0;
		}
		ck_assert_uint_eq(tap_map_size(&m), md.n);
		if (step % 97 == 0)
			model_check_order(&m, &md);
	}
	model_check_order(&m, &md);
	tap_map_free(&m);
}

START_TEST(random_against_model)
{
	random_ops(16, false);
	random_ops(16, true);
	random_ops(1, true);
	random_ops(64, false);
}
END_TEST

/* Statistics-valued arrays, per CPU. */
static void
stat_spec(struct tap_map_spec *spec, struct tap_stat_desc *d,
	  unsigned int nkeys, uint32_t max, bool wrap)
{
	unsigned int i;

	ck_assert_int_eq(tap_stat_desc_init(d, TAP_HIST_LOG, 0, 0, 0, true,
					    0), TAP_OK);
	memset(spec, 0, sizeof(*spec));
	spec->nkeys = nkeys;
	for (i = 0; i < nkeys; i++)
		spec->keys[i] = TAP_T_LONG;
	spec->value = TAP_T_STAT;
	spec->stat = d;
	spec->max_entries = max;
	spec->wrap = wrap;
}

static void
long_spec(struct tap_map_spec *spec, uint32_t max)
{
	memset(spec, 0, sizeof(*spec));
	spec->nkeys = 2;
	spec->keys[0] = TAP_T_STRING;
	spec->keys[1] = TAP_T_LONG;
	spec->value = TAP_T_LONG;
	spec->max_entries = max;
}

/* The keys of `m` oldest first, "k1/k2=v" each. */
static void
say_entries(struct tap_map *m)
{
	struct tap_map_entry *e;

	tap_buf_init(&out, text, sizeof(text));
	for (e = m->oldest; e; e = e->next)
		say("%s/%d=%d ", K(S(tap_map_key_str(m, e, 0)),
				   L(tap_map_key_long(m, e, 1)),
				   L(*tap_map_value_long(m, e))), 3);
}

/* Counts on three CPUs fold into the array as one CPU's would have: the
 * sums, and keys in the order they first appeared across the CPUs; the
 * array's own entries (stored before) keep their place. */
START_TEST(cmap_fold_order)
{
	struct tap_map_spec spec;
	struct tap_map a;
	struct tap_cmap c;

	tap_set_num_cpus(3);
	long_spec(&spec, 8);
	ck_assert_int_eq(tap_map_init(&a, &spec), TAP_OK);
	ck_assert_int_eq(tap_cmap_init(&c, &a, &spec), TAP_OK);
	ck_assert_ptr_nonnull(c.cpu);
	tap_map_set_long(&a, K(S("old"), L(0)), 100);
	tap_set_cpu_id(2);
	tap_cmap_add(&c, K(S("b"), L(1)), 1);
	tap_set_cpu_id(0);
	tap_cmap_add(&c, K(S("a"), L(1)), 1);
	tap_cmap_add(&c, K(S("old"), L(0)), 5);
	tap_set_cpu_id(1);
	tap_cmap_add(&c, K(S("c"), L(2)), -3);
	tap_cmap_add(&c, K(S("b"), L(1)), 2);
	tap_set_cpu_id(2);
	tap_cmap_add(&c, K(S("a"), L(1)), 10);
	ck_assert_int_eq(tap_map_size(&a), 1);	/* nothing folded yet */
	ck_assert_int_eq(tap_cmap_fold(&c), TAP_OK);
	say_entries(&a);
	ck_text("old/0=105 b/1=3 a/1=11 c/2=-3 ");
	/* the deltas are gone: a second fold adds nothing */
	ck_assert_int_eq(tap_cmap_fold(&c), TAP_OK);
	say_entries(&a);
	ck_text("old/0=105 b/1=3 a/1=11 c/2=-3 ");
	tap_set_cpu_id(0);
	tap_cmap_free(&c);
	tap_map_free(&a);
	tap_set_num_cpus(1);
}
END_TEST

/* More distinct keys across CPUs than the array holds: the fold says
 * the array is full, and keeps what fitted. */
START_TEST(cmap_fold_full)
{
	struct tap_map_spec spec;
	struct tap_map a;
	struct tap_cmap c;

	tap_set_num_cpus(2);
	long_spec(&spec, 2);
	ck_assert_int_eq(tap_map_init(&a, &spec), TAP_OK);
	ck_assert_int_eq(tap_cmap_init(&c, &a, &spec), TAP_OK);
	tap_set_cpu_id(0);
	ck_assert_int_eq(tap_cmap_add(&c, K(S("x"), L(1)), 1), TAP_OK);
	ck_assert_int_eq(tap_cmap_add(&c, K(S("y"), L(1)), 1), TAP_OK);
	ck_assert_int_eq(tap_cmap_add(&c, K(S("z"), L(1)), 1), TAP_EMAPFULL);
	tap_set_cpu_id(1);
	ck_assert_int_eq(tap_cmap_add(&c, K(S("w"), L(1)), 1), TAP_OK);
	ck_assert_int_eq(tap_cmap_fold(&c), TAP_EMAPFULL);
	ck_assert_int_eq(tap_map_size(&a), 2);
	tap_set_cpu_id(0);
	tap_cmap_free(&c);
	tap_map_free(&a);
	tap_set_num_cpus(1);
}
END_TEST

/* Too many CPUs for per-CPU maps within TAP_CMAP_MAX_BYTES: counts go
 * straight into the array, and folding has nothing to do. */
START_TEST(cmap_many_cpus)
{
	struct tap_map_spec spec;
	struct tap_map a;
	struct tap_cmap c;

	tap_set_num_cpus(TAP_NR_CPUS);
	long_spec(&spec, 0);		/* MAXMAPENTRIES */
	ck_assert_int_eq(tap_map_init(&a, &spec), TAP_OK);
	ck_assert_int_eq(tap_cmap_init(&c, &a, &spec), TAP_OK);
	ck_assert_ptr_null(c.cpu);
	tap_set_cpu_id(7);
	tap_cmap_add(&c, K(S("k"), L(1)), 4);
	tap_set_cpu_id(200);
	tap_cmap_add(&c, K(S("k"), L(1)), 5);
	ck_assert_int_eq(tap_map_get_long(&a, K(S("k"), L(1))), 9);
	ck_assert_int_eq(tap_cmap_fold(&c), TAP_OK);
	ck_assert_int_eq(tap_map_get_long(&a, K(S("k"), L(1))), 9);
	tap_set_cpu_id(0);
	tap_cmap_free(&c);
	tap_map_free(&a);
	tap_set_num_cpus(1);
}
END_TEST

/* print_stats.stp for the one-key array b. */
START_TEST(pmap_print_stats)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	struct tap_map_entry *storage[16], *e;
	struct tap_map_iter it;
	struct tap_map_order o = { .limit = -1 };

	tap_set_num_cpus(1);
	stat_spec(&spec, &d, 1, 16, false);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	tap_pmap_add(&p, K(L(1)), 2);
	tap_pmap_add(&p, K(L(1)), 3);
	tap_pmap_add(&p, K(L(2)), 4);
	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_OK);
	tap_buf_init(&out, text, sizeof(text));
	tap_map_iter_start(&p.agg, &o, &it, storage);
	while ((e = tap_map_iter_next(&it))) {
		struct tap_stat_data *sd = tap_map_value_stat(&p.agg, e);
		int64_t avg;

		tap_stat_avg(sd, &avg);
		say("[%d] @count=%d @min=%d @max=%d @sum=%d @avg=%d\n",
		    K(L(tap_map_key_long(&p.agg, e, 0)), L(sd->count),
		      L(sd->min), L(sd->max), L(sd->sum), L(avg)), 6);
	}
	ck_text("[1] @count=2 @min=2 @max=3 @sum=5 @avg=2\n"
		"[2] @count=1 @min=4 @max=4 @sum=4 @avg=4\n");
	tap_pmap_free(&p);
}
END_TEST

/* Adds on four CPUs merge to what one CPU would have seen. */
START_TEST(pmap_cpus)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	const struct tap_stat_data *sd;
	struct tap_map_entry *storage[64];
	struct tap_map_iter it;
	struct tap_map_order o = { .dir = -1, .column = 0,
				   .field = TAP_STAT_COUNT, .limit = -1 };
	int64_t x, b;
	int i;

	tap_set_num_cpus(4);
	stat_spec(&spec, &d, 2, 64, false);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	/* Each CPU's map header starts its own cache line. */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq((uintptr_t)&p.cpu[i] % TAP_CACHELINE, 0);
	for (i = 0; i < 400; i++) {
		tap_set_cpu_id(i % 4);
		ck_assert_int_eq(tap_pmap_add(&p, K(L(i % 3), L(7)), i),
				 TAP_OK);
	}
	tap_set_cpu_id(0);
	ck_assert(tap_pmap_exists(&p, K(L(2), L(7))));
	ck_assert(!tap_pmap_exists(&p, K(L(3), L(7))));
	ck_assert_ptr_null(tap_pmap_get(&p, K(L(3), L(7))));
	sd = tap_pmap_get(&p, K(L(0), L(7)));
	ck_assert_ptr_nonnull(sd);
	/* i = 0, 3, ..., 399: 134 values summing to 3 * (0 + ... + 133) */
	ck_assert_int_eq(tap_stat_count(sd), 134);
	ck_assert_int_eq(tap_stat_sum(sd), 3 * 133 * 134 / 2);
	ck_assert_int_eq(tap_stat_min(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 0);
	ck_assert_int_eq(tap_stat_max(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 399);
	ck_assert_int_eq(tap_stat_avg(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 199);
	/* Exact variance is 9 * 134 * 135 / 12 = 13567.5; integer
	 * arithmetic merged across CPUs lands next to it. */
	ck_assert_int_eq(tap_stat_variance(&d, sd, &x), TAP_OK);
	ck_assert(x >= 13560 && x <= 13575);
	ck_assert_int_eq(tap_hist_bucket_count(&d, sd, 64 + 9, &b), TAP_OK);
	ck_assert_int_eq(b, 134 - 86);	/* 256..399 step 3 */
	/* The same merge into caller scratch, as concurrent readers use. */
	{
		struct tap_stat_data *mine =
			calloc(1, tap_stat_data_size(&d));

		ck_assert_ptr_eq(tap_pmap_get_into(&p, K(L(0), L(7)), mine),
				 mine);
		ck_assert(memcmp(mine, sd, tap_stat_data_size(&d)) == 0);
		ck_assert_ptr_null(tap_pmap_get_into(&p, K(L(9), L(7)),
						     mine));
		free(mine);
	}

	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_OK);
	ck_assert_uint_eq(tap_map_size(&p.agg), 3);
	tap_map_iter_start(&p.agg, &o, &it, storage);
	ck_assert_uint_eq(it.n, 3);
	ck_assert_int_eq(tap_map_key_long(&p.agg, it.v[0], 0), 0);
	ck_assert_int_eq(tap_map_value_stat(&p.agg, it.v[0])->count, 134);
	ck_assert_int_eq(tap_map_value_stat(&p.agg, it.v[1])->count, 133);

	ck_assert(tap_pmap_delete(&p, K(L(0), L(7))));
	ck_assert_ptr_null(tap_pmap_get(&p, K(L(0), L(7))));
	ck_assert_uint_eq(tap_pmap_delete_slice(&p, K(L(0), L(7)), 1), 8);
	ck_assert(!tap_pmap_exists(&p, K(L(1), L(7))));
	tap_pmap_add(&p, K(L(5), L(5)), 1);
	tap_pmap_clear(&p);
	ck_assert(!tap_pmap_exists(&p, K(L(5), L(5))));
	tap_pmap_free(&p);
	tap_set_num_cpus(1);
}
END_TEST

/* Each CPU's map holds 4 keys, but together they have 8: the merged map
 * overflows, as pmap_agg_overflow.stp provokes in stap. */
START_TEST(pmap_agg_overflow)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	int i;

	tap_set_num_cpus(2);
	stat_spec(&spec, &d, 1, 4, false);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	for (i = 0; i < 8; i++) {
		tap_set_cpu_id(i / 4);
		ck_assert_int_eq(tap_pmap_add(&p, K(L(i)), i), TAP_OK);
	}
	tap_set_cpu_id(0);
	ck_assert_int_eq(tap_pmap_add(&p, K(L(100)), 1), TAP_EMAPFULL);
	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_EAGGOVERFLOW);
	ck_assert_uint_eq(tap_map_size(&p.agg), 4);
	ck_assert_ptr_nonnull(tap_pmap_get(&p, K(L(7))));
	tap_pmap_free(&p);
	tap_set_num_cpus(1);
}
END_TEST

/* A wrapping array of statistics still reports overflow when the CPUs
 * together hold more keys than the merged map: it must not evict while
 * merging. */
START_TEST(pmap_wrap_agg_overflow)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	int i;

	tap_set_num_cpus(2);
	stat_spec(&spec, &d, 1, 4, true);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	for (i = 0; i < 12; i++) {
		tap_set_cpu_id(i % 2);
		ck_assert_int_eq(tap_pmap_add(&p, K(L(i)), i), TAP_OK);
	}
	tap_set_cpu_id(0);
	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_EAGGOVERFLOW);
	tap_pmap_free(&p);
	tap_set_num_cpus(1);
}
END_TEST

/* map_wrap2.stp: a wrapping array of statistics keeps the newest. */
START_TEST(pmap_wrap)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	struct tap_map_entry *storage[8];
	struct tap_map_iter it;
	struct tap_map_order o = { .dir = 1, .column = 1, .limit = -1 };
	int i;

	tap_set_num_cpus(1);
	stat_spec(&spec, &d, 1, 5, true);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	for (i = 0; i < 10; i++)
		ck_assert_int_eq(tap_pmap_add(&p, K(L(i)), i), TAP_OK);
	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_OK);
	tap_map_iter_start(&p.agg, &o, &it, storage);
	ck_assert_uint_eq(it.n, 5);
	for (i = 0; i < 5; i++) {
		struct tap_stat_data *sd = tap_map_value_stat(&p.agg, it.v[i]);

		ck_assert_int_eq(tap_map_key_long(&p.agg, it.v[i], 0), i + 5);
		ck_assert_int_eq(sd->count, 1);
		ck_assert_int_eq(sd->sum, i + 5);
	}
	tap_pmap_free(&p);
}
END_TEST

/* Sorting an array of statistics by each field. */
START_TEST(pmap_sort_fields)
{
	struct tap_map_spec spec;
	struct tap_stat_desc d;
	struct tap_pmap p;
	struct tap_map_entry *storage[8];
	struct tap_map_iter it;
	struct tap_map_order o = { .dir = 1, .column = 0, .limit = -1 };
	static const enum tap_stat_field fields[] = {
		TAP_STAT_COUNT, TAP_STAT_SUM, TAP_STAT_MIN, TAP_STAT_MAX,
		TAP_STAT_AVG,
	};
	/* key -> first key in ascending order of each field */
	static const int64_t first[] = { 2, 1, 3, 1, 1 };
	int i;

	tap_set_num_cpus(1);
	stat_spec(&spec, &d, 1, 8, false);
	ck_assert_int_eq(tap_pmap_init(&p, &spec), TAP_OK);
	tap_pmap_add(&p, K(L(1)), -10);
	tap_pmap_add(&p, K(L(1)), 1);
	tap_pmap_add(&p, K(L(1)), 2);
	tap_pmap_add(&p, K(L(2)), 50);
	tap_pmap_add(&p, K(L(3)), -20);
	tap_pmap_add(&p, K(L(3)), 100);
	ck_assert_int_eq(tap_pmap_aggregate(&p), TAP_OK);
	for (i = 0; i < 5; i++) {
		o.field = fields[i];
		tap_map_iter_start(&p.agg, &o, &it, storage);
		ck_assert_int_eq(tap_map_key_long(&p.agg, it.v[0], 0),
				 first[i]);
	}
	tap_pmap_free(&p);
}
END_TEST

static Suite *
map_suite(void)
{
	Suite *s = suite_create("map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, basic_long);
	tcase_add_test(tc, basic_string);
	tcase_add_test(tc, long_strings);
	tcase_add_test(tc, nine_keys);
	tcase_add_test(tc, bad_specs);
	tcase_add_test(tc, full_map);
	tcase_add_test(tc, wrap_evicts_oldest);
	tcase_add_test(tc, foreach_limit);
	tcase_add_test(tc, sort_ties_and_strings);
	tcase_add_test(tc, sort_string_values);
	tcase_add_test(tc, many_entries);
	tcase_add_test(tc, nested_iteration);
	tcase_add_test(tc, random_against_model);
	tcase_add_test(tc, pmap_print_stats);
	tcase_add_test(tc, pmap_cpus);
	tcase_add_test(tc, pmap_agg_overflow);
	tcase_add_test(tc, pmap_wrap);
	tcase_add_test(tc, pmap_wrap_agg_overflow);
	tcase_add_test(tc, pmap_sort_fields);
	tcase_add_test(tc, cmap_fold_order);
	tcase_add_test(tc, cmap_fold_full);
	tcase_add_test(tc, cmap_many_cpus);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(map_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
