/*
 * test_stat.c - Check tests for statistics aggregates (runtime/core/stat.c):
 * @count @sum @min @max @avg @variance with SystemTap's integer semantics
 * (expected values computed by replaying stap's per-CPU Welford update and
 * total-variance merge by hand), empty aggregates, wrap-around, and the
 * per-CPU slot layout that keeps `<<<` off shared cache lines.
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "runtime/core/stat.h"
#include "runtime/core/error.h"

struct expect {
	int64_t count, sum, avg, variance;
};

/* Add vals[i] on CPU cpus[i] (or CPU 0), then check the merged result. */
static void
check_stats(const int64_t *vals, const unsigned int *cpus, size_t n,
	    unsigned int ncpus, int shift, struct expect want)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	const struct tap_stat_data *sd;
	int64_t x;
	size_t i;

	tap_set_num_cpus(ncpus);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0, true,
					    shift), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	for (i = 0; i < n; i++) {
		tap_set_cpu_id(cpus ? cpus[i] : 0);
		tap_stat_add(&st, vals[i]);
	}
	tap_set_cpu_id(0);
	sd = tap_stat_get(&st);
	ck_assert_int_eq(tap_stat_count(sd), want.count);
	ck_assert_int_eq(tap_stat_sum(sd), want.sum);
	ck_assert_int_eq(tap_stat_avg(sd, &x), TAP_OK);
	ck_assert_int_eq(x, want.avg);
	ck_assert_int_eq(tap_stat_variance(&d, sd, &x), TAP_OK);
	ck_assert_int_eq(x, want.variance);
	tap_stat_free(&st);
	tap_set_num_cpus(1);
}

START_TEST(one_cpu)
{
	static const int64_t a[] = { 1, 2, 3, 4 };
	static const int64_t b[] = { 5, -3, 8, 100, -50, 7 };
	static const int64_t c[] = { -7, 0 };

	/* Integer Welford: 1..4 gives 5 where the exact answer is 1.67. */
	check_stats(a, NULL, 4, 1, 0, (struct expect){ 4, 10, 2, 5 });
	check_stats(b, NULL, 6, 1, 0, (struct expect){ 6, 67, 11, 2390 });
	/* @avg truncates toward zero. */
	check_stats(c, NULL, 2, 1, 0, (struct expect){ 2, -7, -3, 30 });
}
END_TEST

START_TEST(merged_cpus)
{
	static const int64_t b[] = { 5, -3, 8, 100, -50, 7 };
	static const unsigned int split[] = { 0, 0, 0, 1, 1, 1 };
	static const int64_t a[] = { 1, 2, 3, 4 };
	static const unsigned int each[] = { 0, 1, 2, 3 };
	static const int64_t g[] = { 10, 20, 30, 1000 };
	static const unsigned int gaps[] = { 0, 0, 0, 2 };

	check_stats(b, split, 6, 2, 0, (struct expect){ 6, 67, 11, 2383 });
	check_stats(b, split, 6, 2, 4, (struct expect){ 6, 67, 11, 2379 });
	check_stats(a, each, 4, 4, 0, (struct expect){ 4, 10, 2, 2 });
	/* An idle CPU in the middle contributes nothing. */
	check_stats(g, gaps, 4, 3, 0,
		    (struct expect){ 4, 1060, 265, 240166 });
}
END_TEST

START_TEST(single_value)
{
	static const int64_t v[] = { 42 };

	check_stats(v, NULL, 1, 1, 0, (struct expect){ 1, 42, 42, 0 });
}
END_TEST

START_TEST(min_max)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	const struct tap_stat_data *sd;
	int64_t x;

	tap_set_num_cpus(3);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0,
					    false, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	tap_set_cpu_id(2);
	tap_stat_add(&st, 5);
	tap_stat_add(&st, INT64_MIN);
	tap_set_cpu_id(1);
	tap_stat_add(&st, INT64_MAX);
	tap_set_cpu_id(0);
	sd = tap_stat_get(&st);
	ck_assert_int_eq(tap_stat_min(sd, &x), TAP_OK);
	ck_assert_int_eq(x, INT64_MIN);
	ck_assert_int_eq(tap_stat_max(sd, &x), TAP_OK);
	ck_assert_int_eq(x, INT64_MAX);
	/* The sum wraps, as a 64-bit long does in stap. */
	ck_assert_int_eq(tap_stat_sum(sd), 4);
	/* Without variance tracking, @variance reads 0. */
	ck_assert_int_eq(tap_stat_variance(&d, sd, &x), TAP_OK);
	ck_assert_int_eq(x, 0);
	tap_stat_free(&st);
	tap_set_num_cpus(1);
}
END_TEST

/* absentstats.stp: @count and @sum of nothing are 0, the rest errors. */
START_TEST(empty)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	const struct tap_stat_data *sd;
	int64_t x = 99;

	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, true,
					    0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	sd = tap_stat_get(&st);
	ck_assert_int_eq(tap_stat_count(sd), 0);
	ck_assert_int_eq(tap_stat_sum(sd), 0);
	ck_assert_int_eq(tap_stat_min(sd, &x), TAP_EEMPTY);
	ck_assert_int_eq(x, 0);
	ck_assert_int_eq(tap_stat_max(sd, &x), TAP_EEMPTY);
	ck_assert_int_eq(tap_stat_avg(sd, &x), TAP_EEMPTY);
	ck_assert_int_eq(tap_stat_variance(&d, sd, &x), TAP_EEMPTY);
	ck_assert_str_eq(tap_error_message(TAP_EEMPTY), "empty aggregate");
	/* A missing array element reads the same as an empty one. */
	ck_assert_int_eq(tap_stat_count(NULL), 0);
	ck_assert_int_eq(tap_stat_sum(NULL), 0);
	ck_assert_int_eq(tap_stat_avg(NULL, &x), TAP_EEMPTY);
	tap_stat_add(&st, 3);
	ck_assert_int_eq(tap_stat_count(tap_stat_get(&st)), 1);
	tap_stat_clear(&st);
	sd = tap_stat_get(&st);
	ck_assert_int_eq(tap_stat_count(sd), 0);
	ck_assert_int_eq(tap_stat_min(sd, &x), TAP_EEMPTY);
	tap_stat_free(&st);
}
END_TEST

/* Each CPU's slot starts on its own cache line, and an add on one CPU
 * leaves the others' slots untouched. */
START_TEST(per_cpu_slots)
{
	struct tap_stat_desc d;
	struct tap_stat st;
	unsigned int cpu;

	tap_set_num_cpus(4);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LINEAR, 0, 100, 10,
					    true, 0), TAP_OK);
	ck_assert_int_eq(tap_stat_init(&st, &d), TAP_OK);
	ck_assert_uint_eq(st.ncpus, 4);
	ck_assert_uint_eq(st.slot_size % TAP_CACHELINE, 0);
	ck_assert_uint_ge(st.slot_size, tap_stat_data_size(&d));
	ck_assert_uint_eq((uintptr_t)st.slots % TAP_CACHELINE, 0);
	tap_set_cpu_id(2);
	tap_stat_add(&st, 55);
	for (cpu = 0; cpu < 4; cpu++) {
		const struct tap_stat_data *sd = (const void *)
			(st.slots + cpu * st.slot_size);

		ck_assert_int_eq(sd->count, cpu == 2 ? 1 : 0);
		ck_assert_int_eq(sd->hist[6], cpu == 2 ? 1 : 0);
	}
	tap_set_cpu_id(0);
	tap_stat_free(&st);
	tap_set_num_cpus(1);
}
END_TEST

/* The user-space CPU slot setters keep ids in range. */
START_TEST(cpu_ids)
{
	tap_set_num_cpus(0);
	ck_assert_uint_eq(tap_num_cpus(), 1);
	tap_set_num_cpus(TAP_NR_CPUS + 5);
	ck_assert_uint_eq(tap_num_cpus(), TAP_NR_CPUS);
	tap_set_num_cpus(4);
	tap_set_cpu_id(6);
	ck_assert_uint_eq(tap_cpu_id(), 2);
	tap_set_num_cpus(2);
	ck_assert_uint_eq(tap_cpu_id(), 0);
	tap_set_num_cpus(1);
}
END_TEST

START_TEST(desc_checks)
{
	struct tap_stat_desc d;

	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0, true,
					    -1), TAP_EINVAL);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0, true,
					    63), TAP_EINVAL);
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_NONE, 0, 0, 0, true,
					    62), TAP_OK);
	ck_assert_int_eq(d.buckets, 0);
	ck_assert_uint_eq(tap_stat_data_size(&d), sizeof(struct tap_stat_data));
	ck_assert_int_eq(tap_stat_desc_init(&d, TAP_HIST_LOG, 0, 0, 0, false,
					    0), TAP_OK);
	ck_assert_int_eq(d.buckets, TAP_HIST_LOG_BUCKETS);
}
END_TEST

static Suite *
stat_suite(void)
{
	Suite *s = suite_create("stat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_cpu);
	tcase_add_test(tc, merged_cpus);
	tcase_add_test(tc, single_value);
	tcase_add_test(tc, min_max);
	tcase_add_test(tc, empty);
	tcase_add_test(tc, per_cpu_slots);
	tcase_add_test(tc, cpu_ids);
	tcase_add_test(tc, desc_checks);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(stat_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
