/*
 * test_merge.c - Check tests for the lines of `tapc --remote-merge`
 * (runtime/core/merge.c): what two "hosts" write, read back into one set
 * of globals, must equal what one machine that saw every value would
 * hold -- counts and sums added, min/max combined, @avg from the merged
 * sum and count, log and linear histograms added bucket by bucket,
 * arrays merged by key (strings with spaces, '%' and newlines too),
 * integers added -- and a damaged line is refused with a reason.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "runtime/core/merge.h"
#include "runtime/core/error.h"

static char storage[2][16384];

/* Write st (a host's scalar aggregate) as its merge line into out. */
static void
dump_stat(struct tap_buf *out, const char *name, struct tap_stat *st)
{
	ck_assert_int_eq(tap_merge_put(out, name, NULL, NULL, 0, TAP_T_STAT, 0,
				       &st->desc, tap_stat_get(st)), TAP_OK);
}

/* Feed every line of text into the table; all must load. */
static void
load_all(const struct tap_merge_global *g, size_t n, char *text)
{
	char *line = text, *nl;
	const char *why;

	while (*line) {
		nl = strchr(line, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = '\0';
		ck_assert_msg(tap_merge_load_line(g, n, line, &why) == TAP_OK,
			      "line refused: %s", why ? why : "?");
		line = nl + 1;
	}
}

static void
check_same_stat(const struct tap_stat_desc *d, const struct tap_stat_data *a,
		const struct tap_stat_data *b)
{
	int64_t x, y;
	int i;

	ck_assert_int_eq(tap_stat_count(a), tap_stat_count(b));
	ck_assert_int_eq(tap_stat_sum(a), tap_stat_sum(b));
	ck_assert_int_eq(tap_stat_min(a, &x), TAP_OK);
	ck_assert_int_eq(tap_stat_min(b, &y), TAP_OK);
	ck_assert_int_eq(x, y);
	ck_assert_int_eq(tap_stat_max(a, &x), TAP_OK);
	ck_assert_int_eq(tap_stat_max(b, &y), TAP_OK);
	ck_assert_int_eq(x, y);
	ck_assert_int_eq(tap_stat_avg(a, &x), TAP_OK);
	ck_assert_int_eq(tap_stat_avg(b, &y), TAP_OK);
	ck_assert_int_eq(x, y);
	for (i = 0; i < d->buckets; i++)
		ck_assert_int_eq(a->hist[i], b->hist[i]);
}

/* Two hosts of two CPUs each; the merge equals one machine with all. */
static void
check_scalar_merge(enum tap_hist_type h)
{
	struct tap_stat_desc d;
	struct tap_stat host[2], here, all;
	struct tap_merge_global g = { .name = "s", .stat = &here };
	struct tap_buf b;
	int64_t v;
	int i;

	tap_set_num_cpus(2);
	ck_assert_int_eq(tap_stat_desc_init(&d, h, -50, 500, 25, false, 0),
			 TAP_OK);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(tap_stat_init(&host[i], &d), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&here, &d), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&all, &d), TAP_OK);
	for (i = 0, v = -70; i < 400; i++, v = v * 7 % 1003 + i) {
		tap_set_cpu_id((unsigned int)i % 2);
		tap_stat_add(&host[i % 3 == 0], v);	/* uneven hosts */
		tap_stat_add(&all, v);
	}
	tap_set_cpu_id(0);
	/* the local global holds something already: reset clears it */
	tap_stat_add(&here, 123456);
	tap_merge_reset(&g, 1);
	tap_buf_init(&b, storage[0], sizeof(storage[0]));
	dump_stat(&b, "s", &host[0]);
	dump_stat(&b, "s", &host[1]);
	ck_assert(strncmp(storage[0], "\036M s 0 T ", 8) == 0);
	load_all(&g, 1, storage[0]);
	check_same_stat(&d, tap_stat_get(&here), tap_stat_get(&all));
	for (i = 0; i < 2; i++)
		tap_stat_free(&host[i]);
	tap_stat_free(&here);
	tap_stat_free(&all);
}

START_TEST(scalar_log_hist)
{
	check_scalar_merge(TAP_HIST_LOG);
}
END_TEST

START_TEST(scalar_linear_hist)
{
	check_scalar_merge(TAP_HIST_LINEAR);
}
END_TEST

START_TEST(scalar_plain)
{
	check_scalar_merge(TAP_HIST_NONE);
}
END_TEST

/* An empty aggregate from one host leaves the other's min and max. */
START_TEST(empty_host)
{
	struct tap_stat_desc d;
	struct tap_stat a, e, here;
	struct tap_merge_global g = { .name = "s", .stat = &here };
	const struct tap_stat_data *sd;
	struct tap_buf b;
	int64_t x;

	tap_set_num_cpus(1);
	tap_set_cpu_id(0);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&a, &d), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&e, &d), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&here, &d), TAP_OK);
	tap_stat_add(&a, 5);
	tap_stat_add(&a, 9);
	tap_buf_init(&b, storage[0], sizeof(storage[0]));
	dump_stat(&b, "s", &e);
	dump_stat(&b, "s", &a);
	dump_stat(&b, "s", &e);
	load_all(&g, 1, storage[0]);
	sd = tap_stat_get(&here);
	ck_assert_int_eq(tap_stat_count(sd), 2);
	ck_assert_int_eq(tap_stat_min(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 5);
	ck_assert_int_eq(tap_stat_max(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 9);
	ck_assert_int_eq(tap_stat_avg(sd, &x), TAP_OK);
	ck_assert_int_eq(x, 7);
	tap_stat_free(&a);
	tap_stat_free(&e);
	tap_stat_free(&here);
}
END_TEST

/* An array of aggregates keyed by (string, long), merged per key; the
 * strings need escaping. */
START_TEST(stat_array_by_key)
{
	static const char *const names[] = { "a b", "100%", "new\nline", "" };
	struct tap_stat_desc d;
	struct tap_map_spec spec = { .nkeys = 2,
		.keys = { TAP_T_STRING, TAP_T_LONG }, .value = TAP_T_STAT,
		.max_entries = 64, .stat = &d };
	struct tap_pmap host[2], here;
	struct tap_map all;
	struct tap_merge_global g = { .name = "lat", .nkeys = 2,
		.keys = { TAP_T_STRING, TAP_T_LONG }, .pmap = &here };
	enum tap_type kt[2] = { TAP_T_STRING, TAP_T_LONG };
	struct tap_map_entry *it[64], *e;
	struct tap_map_order o = { .dir = 0, .limit = -1 };
	struct tap_map_iter iter;
	struct tap_buf b;
	int i, h;

	tap_set_num_cpus(2);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, false, 0), TAP_OK);
	for (h = 0; h < 2; h++)
		ck_assert_int_eq(tap_pmap_init(&host[h], &spec), TAP_OK);
	ck_assert_int_eq(tap_pmap_init(&here, &spec), TAP_OK);
	ck_assert_int_eq(tap_map_init(&all, &spec), TAP_OK);
	for (i = 0; i < 300; i++) {
		struct tap_value k[2] = { TAP_STR(names[i % 4]), TAP_LONG(i % 3 - 1) };

		h = i % 5 == 0;
		tap_set_cpu_id((unsigned int)i % 2);
		ck_assert_int_eq(tap_pmap_add(&host[h], k, i * 37 % 4000), TAP_OK);
		ck_assert_int_eq(tap_map_add_stat(&all, k, i * 37 % 4000), TAP_OK);
	}
	tap_set_cpu_id(0);
	tap_buf_init(&b, storage[1], sizeof(storage[1]));
	for (h = 0; h < 2; h++) {
		struct tap_map *m = &host[h].agg;

		ck_assert_int_eq(tap_pmap_aggregate(&host[h]), TAP_OK);
		tap_map_iter_start(m, &o, &iter, it);
		while ((e = tap_map_iter_next(&iter)) != NULL) {
			struct tap_value k[2] = {
				TAP_STR(tap_map_key_str(m, e, 0)),
				TAP_LONG(tap_map_key_long(m, e, 1)) };

			ck_assert_int_eq(tap_merge_put(&b, "lat", k, kt, 2, TAP_T_STAT,
						       0, &d, tap_map_value_stat(m, e)), TAP_OK);
		}
	}
	/* one line per entry, nothing unescaped */
	ck_assert_ptr_nonnull(strstr(storage[1], " sa%20b "));
	ck_assert_ptr_nonnull(strstr(storage[1], " s100%25 "));
	ck_assert_ptr_nonnull(strstr(storage[1], " snew%0Aline "));
	load_all(&g, 1, storage[1]);
	ck_assert_int_eq(tap_pmap_aggregate(&here), TAP_OK);
	ck_assert_int_eq(tap_map_size(&here.agg), tap_map_size(&all));
	tap_map_iter_start(&all, &o, &iter, it);
	while ((e = tap_map_iter_next(&iter)) != NULL) {
		struct tap_value k[2] = { TAP_STR(tap_map_key_str(&all, e, 0)),
					  TAP_LONG(tap_map_key_long(&all, e, 1)) };
		struct tap_map_entry *m = tap_map_find(&here.agg, k);

		ck_assert_ptr_nonnull(m);
		check_same_stat(&d, tap_map_value_stat(&here.agg, m),
				tap_map_value_stat(&all, e));
	}
	for (h = 0; h < 2; h++)
		tap_pmap_free(&host[h]);
	tap_pmap_free(&here);
	tap_map_free(&all);
}
END_TEST

/* Integers add: a scalar, and an array per key. */
START_TEST(longs_add)
{
	struct tap_map_spec spec = { .nkeys = 1, .keys = { TAP_T_STRING },
		.value = TAP_T_LONG, .max_entries = 8 };
	struct tap_map here;
	int64_t n = 99;
	struct tap_merge_global g[2] = {
		{ .name = "n", .scalar = &n },
		{ .name = "a", .nkeys = 1, .keys = { TAP_T_STRING }, .map = &here },
	};
	enum tap_type kt[1] = { TAP_T_STRING };
	struct tap_value k1[1] = { TAP_STR("x") }, k2[1] = { TAP_STR("y z") };
	struct tap_buf b;

	tap_set_num_cpus(1);
	ck_assert_int_eq(tap_map_init(&here, &spec), TAP_OK);
	tap_merge_reset(g, 2);
	ck_assert_int_eq(n, 0);
	tap_buf_init(&b, storage[0], sizeof(storage[0]));
	tap_merge_put(&b, "n", NULL, NULL, 0, TAP_T_LONG, 40, NULL, NULL);
	tap_merge_put(&b, "a", k1, kt, 1, TAP_T_LONG, 3, NULL, NULL);
	tap_merge_put(&b, "n", NULL, NULL, 0, TAP_T_LONG, -2, NULL, NULL);
	tap_merge_put(&b, "a", k1, kt, 1, TAP_T_LONG, 4, NULL, NULL);
	tap_merge_put(&b, "a", k2, kt, 1, TAP_T_LONG, 5, NULL, NULL);
	ck_assert_str_eq(storage[0], "\036M n 0 L 40\n\036M a 1 sx L 3\n"
			 "\036M n 0 L -2\n\036M a 1 sx L 4\n\036M a 1 sy%20z L 5\n");
	load_all(g, 2, storage[0]);
	ck_assert_int_eq(n, 38);
	ck_assert_int_eq(tap_map_get_long(&here, k1), 7);
	ck_assert_int_eq(tap_map_get_long(&here, k2), 5);
	ck_assert_int_eq(tap_map_size(&here), 2);
	tap_map_free(&here);
}
END_TEST

/* A damaged or foreign line is refused with a reason, never half read
 * into something else. */
START_TEST(bad_lines)
{
	struct tap_stat_desc d;
	struct tap_stat here;
	int64_t n = 0;
	struct tap_merge_global g[2] = {
		{ .name = "n", .scalar = &n },
		{ .name = "s", .stat = &here },
	};
	static const char *const bad[] = {
		"\036M nope 0 L 1", "\036M n 1 i3 L 1", "\036M n 0 L x",
		"\036M n 0 Q 1", "\036M s 0 T 1 2 3", "\036M s 0 T 1 1 1 1 200:1",
		"\036M s 0 T 1 1 1 1 5", "\036M n 0 L 99999999999999999999", "",
		"\036M s 0 L 4", "\036M n 0 T 1 1 1 1",
	};
	char line[128];
	const char *why;
	size_t i;

	tap_set_num_cpus(1);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&here, &d), TAP_OK);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strcpy(line, bad[i]);
		ck_assert_msg(tap_merge_load_line(g, 2, line, &why) < 0,
			      "accepted: %s", bad[i]);
		ck_assert_ptr_nonnull(why);
	}
	ck_assert_int_eq(n, 0);
	strcpy(line, "\036M n 0 L -9223372036854775808");
	ck_assert_int_eq(tap_merge_load_line(g, 2, line, &why), TAP_OK);
	ck_assert(n == INT64_MIN);
	tap_stat_free(&here);
}
END_TEST

static Suite *
merge_suite(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, scalar_log_hist);
	tcase_add_test(tc, scalar_linear_hist);
	tcase_add_test(tc, scalar_plain);
	tcase_add_test(tc, empty_host);
	tcase_add_test(tc, stat_array_by_key);
	tcase_add_test(tc, longs_add);
	tcase_add_test(tc, bad_lines);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(merge_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
