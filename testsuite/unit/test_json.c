/*
 * test_json.c - Check tests for --json's values (runtime/core/json.c):
 * string escaping (quotes, control bytes, UTF-8 kept, bytes that are not
 * UTF-8 turned into \u00XX), statistics, array entries, histograms, and
 * a buffer too small for a document (cut, reported).
 */
#include <check.h>
#include <string.h>

#include "runtime/core/json.h"

static char store[4096];
static struct tap_buf out;

static void
setup(void)
{
	tap_buf_init(&out, store, sizeof(store));
}

static const char *
json_of_str(const char *s)
{
	setup();
	ck_assert_int_eq(tap_json_str(&out, s), TAP_OK);
	return store;
}

START_TEST(strings)
{
	ck_assert_str_eq(json_of_str(""), "\"\"");
	ck_assert_str_eq(json_of_str("plain text"), "\"plain text\"");
	ck_assert_str_eq(json_of_str("say \"hi\" \\"), "\"say \\\"hi\\\" \\\\\"");
	ck_assert_str_eq(json_of_str("a\nb\tc\rd"), "\"a\\nb\\tc\\rd\"");
	ck_assert_str_eq(json_of_str("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
	/* UTF-8 as it is: é, €, U+1F600 */
	ck_assert_str_eq(json_of_str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
			 "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* not UTF-8: a lone byte, a cut sequence, an overlong '/', a
	 * surrogate: each byte on its own */
	ck_assert_str_eq(json_of_str("\xff"), "\"\\u00ff\"");
	ck_assert_str_eq(json_of_str("\xc3"), "\"\\u00c3\"");
	ck_assert_str_eq(json_of_str("\xc0\xaf"), "\"\\u00c0\\u00af\"");
	ck_assert_str_eq(json_of_str("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\"");
}
END_TEST

START_TEST(stats_and_entries)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	struct tap_value keys[2] = { TAP_STR("k\"1"), TAP_LONG(-7) };
	enum tap_type kt[2] = { TAP_T_STRING, TAP_T_LONG };
	struct tap_value v = TAP_LONG(42);

	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0,
					    false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	setup();
	tap_json_stat(&out, tap_stat_get(&st));
	ck_assert_str_eq(store, "{\"count\":0}");
	tap_stat_add(&st, 3);
	tap_stat_add(&st, -5);
	setup();
	tap_json_stat(&out, tap_stat_get(&st));
	ck_assert_str_eq(store, "{\"count\":2,\"min\":-5,\"max\":3,\"sum\":-2,\"avg\":-1}");
	setup();
	tap_json_entry(&out, true, keys, kt, 2, &v, TAP_T_LONG, NULL);
	tap_json_entry(&out, false, keys, kt, 1, &v, TAP_T_STAT,
		       tap_stat_get(&st));
	ck_assert_str_eq(store, "{\"key\":[\"k\\\"1\",-7],\"value\":42}"
			 ",{\"key\":[\"k\\\"1\"],\"value\":{\"count\":2,\"min\":-5,"
			 "\"max\":3,\"sum\":-2,\"avg\":-1}}");
	setup();
	v = TAP_STR("x");
	tap_json_named_value(&out, "g", &v, TAP_T_STRING, NULL);
	ck_assert_str_eq(store, "{\"name\":\"g\",\"value\":\"x\"}\n");
	tap_stat_free(&st);
}
END_TEST

START_TEST(histograms)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	static const int64_t vals[] = { -1, 0, 5, 12, 12, 99 };
	size_t i;

	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LINEAR, 0, 20, 10,
					    false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	setup();
	ck_assert_int_eq(tap_json_hist(&out, "h", &d, tap_stat_get(&st)),
			 TAP_EEMPTY);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		tap_stat_add(&st, vals[i]);
	setup();
	ck_assert_int_eq(tap_json_hist(&out, "h", &d, tap_stat_get(&st)),
			 TAP_OK);
	ck_assert_str_eq(store, "{\"name\":\"h\",\"hist\":\"linear\",\"stats\":"
			 "{\"count\":6,\"min\":-1,\"max\":99,\"sum\":127,\"avg\":21},"
			 "\"start\":0,\"stop\":20,\"interval\":10,\"underflow\":1,"
			 "\"overflow\":1,\"buckets\":[{\"value\":0,\"count\":2},"
			 "{\"value\":10,\"count\":2}]}\n");
	tap_stat_free(&st);

	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0,
					    false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		tap_stat_add(&st, vals[i]);
	setup();
	ck_assert_int_eq(tap_json_hist(&out, "l", &d, tap_stat_get(&st)),
			 TAP_OK);
	ck_assert_str_eq(store, "{\"name\":\"l\",\"hist\":\"log\",\"stats\":"
			 "{\"count\":6,\"min\":-1,\"max\":99,\"sum\":127,\"avg\":21},"
			 "\"buckets\":[{\"value\":-1,\"count\":1},{\"value\":0,\"count\":1},"
			 "{\"value\":4,\"count\":1},{\"value\":8,\"count\":2},"
			 "{\"value\":64,\"count\":1}]}\n");
	tap_stat_free(&st);
}
END_TEST

START_TEST(cut_short)
{
	char small[8];
	struct tap_buf b;

	tap_buf_init(&b, small, sizeof(small));
	ck_assert_int_ne(tap_json_str(&b, "longer than eight"), TAP_OK);
	ck_assert(b.truncated);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
}
END_TEST

static Suite *
json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, strings);
	tcase_add_test(tc, stats_and_entries);
	tcase_add_test(tc, histograms);
	tcase_add_test(tc, cut_short);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(json_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
