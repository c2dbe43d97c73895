/* test_tracepoints.c -- Check tests for the tracepoint table
 * (translator/debuginfo/tracepoints.c).
 *
 * Spec matching is tested on hand-made entries.  The rest uses the first
 * installed kernel (/boot/vmlinuz-* with its headers), whose tracepoints
 * the kernel.trace() provider will elaborate against: sched_switch with its
 * TP_PROTO names and types, subsystems from the headers (including events
 * whose names are pasted together by wrapper macros), glob expansion.
 * Without an installed kernel those tests are skipped with a message.
 */
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/tracepoints.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TAPC_BUILDDIR
#define TAPC_BUILDDIR "."
#endif
#define TEST_CACHE TAPC_BUILDDIR "/testsuite/unit/btf-cache"

START_TEST(spec_matching)
{
	struct tracepoint tp = { .system = "sched", .name = "sched_switch" };
	struct tracepoint bare = { .system = "", .name = "iomap_iter" };

	ck_assert(tracepoints_spec_matches("sched_switch", &tp));
	ck_assert(tracepoints_spec_matches("sched:sched_switch", &tp));
	ck_assert(tracepoints_spec_matches("sched:*", &tp));
	ck_assert(tracepoints_spec_matches("sched_*", &tp));
	ck_assert(tracepoints_spec_matches("*", &tp));
	ck_assert(tracepoints_spec_matches("*:*", &tp));
	ck_assert(tracepoints_spec_matches("s?hed:sched_[rs]witch", &tp));
	ck_assert(!tracepoints_spec_matches("irq:sched_switch", &tp));
	ck_assert(!tracepoints_spec_matches("sched_wakeup", &tp));
	ck_assert(!tracepoints_spec_matches("sched", &tp));
	/* An unknown system still matches a bare name or a '*' system. */
	ck_assert(tracepoints_spec_matches("iomap_iter", &bare));
	ck_assert(tracepoints_spec_matches("*:iomap_*", &bare));
	ck_assert(!tracepoints_spec_matches("iomap:iomap_iter", &bare));
}
END_TEST

static struct kernel_target *kt;
static struct tracepoints *tps;
static char *installed_release;

static void
kernel_setup(void)
{
	struct kernel_paths paths = { .cache_dir = TEST_CACHE };
	char err[BTF_ERRLEN];

	kt = kernel_target_open(installed_release, &paths, err, sizeof(err));
	ck_assert_msg(kt != NULL, "%s", err);
	tps = kernel_tracepoints(kt, err, sizeof(err));
	ck_assert_msg(tps != NULL, "%s", err);
}

static void
kernel_teardown(void)
{
	kernel_target_free(kt);	/* frees tps too */
	kt = NULL;
	tps = NULL;
}

START_TEST(sched_switch_args)
{
	const struct tracepoint *tp = tracepoints_find(tps, "sched_switch");
	const struct tp_arg *a;

	ck_assert_ptr_nonnull(tp);
	ck_assert_str_eq(tp->system, "sched");
	ck_assert_ptr_eq(tracepoints_find(tps, "sched:sched_switch"), tp);
	ck_assert_ptr_null(tracepoints_find(tps, "irq:sched_switch"));
	ck_assert_uint_ne(tp->func_id, BTF_NONE);	/* names were found */
	ck_assert_int_eq(tp->nargs, 4);
	a = tp->args;
	ck_assert_str_eq(a[0].name, "preempt");
	ck_assert_str_eq(a[0].type_text, "bool");
	ck_assert(a[0].is_bool);
	ck_assert_int_eq(a[0].size, 1);
	ck_assert_str_eq(a[1].name, "prev");
	ck_assert_str_eq(a[1].type_text, "struct task_struct *");
	ck_assert(a[1].is_pointer);
	ck_assert(!a[1].is_string);
	ck_assert(!a[1].is_aggregate);
	ck_assert_int_eq(a[1].size, 8);
	ck_assert_str_eq(a[2].name, "next");
	ck_assert_str_eq(a[2].type_text, "struct task_struct *");
	ck_assert_str_eq(a[3].name, "prev_state");
	ck_assert_str_eq(a[3].type_text, "unsigned int");
	ck_assert(!a[3].is_signed);
	ck_assert_int_eq(a[3].size, 4);
}
END_TEST

START_TEST(typed_args_of_other_events)
{
	const struct tracepoint *tp = tracepoints_find(tps, "sched_process_exec");

	ck_assert_ptr_nonnull(tp);
	ck_assert_int_eq(tp->nargs, 3);
	ck_assert_str_eq(tp->args[1].name, "old_pid");
	ck_assert_str_eq(tp->args[1].type_text, "pid_t");
	ck_assert(tp->args[1].is_signed);
	/* A DEFINE_EVENT of a class: names from __traceiter_<event>. */
	tp = tracepoints_find(tps, "sched:sched_wakeup");
	ck_assert_ptr_nonnull(tp);
	ck_assert_int_eq(tp->nargs, 1);
	ck_assert_str_eq(tp->args[0].name, "p");
	/* A string argument. */
	tp = tracepoints_find(tps, "sys_enter");
	ck_assert_ptr_nonnull(tp);
	ck_assert_str_eq(tp->system, "raw_syscalls");
	ck_assert_str_eq(tp->args[1].name, "id");
	ck_assert_str_eq(tp->args[1].type_text, "long int");
	tp = tracepoints_find(tps, "console");
	ck_assert_ptr_nonnull(tp);
	ck_assert_str_eq(tp->system, "printk");
	ck_assert(tp->args[0].is_string);
}
END_TEST

static bool
count_sched(const struct tracepoint *tp, void *ctx)
{
	ck_assert_str_eq(tp->system, "sched");
	++*(size_t *)ctx;
	return true;
}

static bool
stop_after_one(const struct tracepoint *tp, void *ctx)
{
	++*(size_t *)ctx;
	return false;
}

START_TEST(glob_expansion)
{
	size_t n = 0, i;
	const struct tracepoint *prev = NULL;

	ck_assert_uint_gt(tracepoints_foreach(tps, "sched:*", count_sched, &n), 10);
	ck_assert_uint_eq(tracepoints_foreach(tps, "sched:*", NULL, NULL), n);
	ck_assert_uint_eq(tracepoints_foreach(tps, "*", NULL, NULL),
			  tracepoints_count(tps));
	ck_assert_uint_eq(tracepoints_foreach(tps, "no_such_event_*", NULL, NULL), 0);
	n = 0;
	ck_assert_uint_eq(tracepoints_foreach(tps, "*", stop_after_one, &n), 1);
	ck_assert_uint_eq(n, 1);
	/* Sorted by system, then name. */
	for (i = 0; i < tracepoints_count(tps); i++) {
		const struct tracepoint *tp = tracepoints_at(tps, i);
		int c = prev ? strcmp(prev->system, tp->system) : -1;

		ck_assert(c < 0 || (c == 0 && strcmp(prev->name, tp->name) < 0));
		prev = tp;
	}
	ck_assert_ptr_null(tracepoints_at(tps, tracepoints_count(tps)));
}
END_TEST

START_TEST(systems_from_headers)
{
	size_t tracefs, headers, unknown;
	const struct tracepoint *tp;

	tracepoints_system_stats(tps, &tracefs, &headers, &unknown);
	printf("test_tracepoints: %s: %zu tracepoints, systems from tracefs %zu, headers %zu, unknown %zu\n",
	       kernel_release(kt), tracepoints_count(tps), tracefs, headers, unknown);
	/* Most events are declared in the shipped headers. */
	ck_assert_uint_gt(headers + tracefs, tracepoints_count(tps) * 8 / 10);
	/* Defined by a DECLARE_TRACE (no trace event). */
	tp = tracepoints_find(tps, "pelt_cfs_tp");
	if (tp)
		ck_assert_str_eq(tp->system, "sched");
	/* x86: DEFINE_IRQ_VECTOR_EVENT(local_timer) pastes name##_entry. */
	tp = tracepoints_find(tps, "local_timer_entry");
	if (tp)
		ck_assert_str_eq(tp->system, "irq_vectors");
}
END_TEST

START_TEST(raw_btf_without_sources)
{
	char err[BTF_ERRLEN];
	struct btf *btf = btf_load_raw("/sys/kernel/btf/vmlinux", err, sizeof(err));
	struct tracepoints *t;
	const struct tracepoint *tp;

	ck_assert_msg(btf != NULL, "%s", err);
	t = tracepoints_load(btf, NULL, err, sizeof(err));
	ck_assert_msg(t != NULL, "%s", err);
	tp = tracepoints_find(t, "sched_switch");
	ck_assert_ptr_nonnull(tp);
	ck_assert_str_eq(tp->system, "");
	ck_assert_str_eq(tp->args[1].name, "prev");
	tracepoints_free(t);
	btf_free(btf);
}
END_TEST

static Suite *
tracepoints_suite(void)
{
	Suite *s = suite_create("tracepoints");
	TCase *tc = tcase_create("spec");
	char **releases = kernel_installed_releases(NULL, NULL);

	tcase_add_test(tc, spec_matching);
	suite_add_tcase(s, tc);
	if (releases && releases[0]) {
		installed_release = strdup(releases[0]);
		tc = tcase_create("installed");
		tcase_add_unchecked_fixture(tc, kernel_setup, kernel_teardown);
		tcase_add_test(tc, sched_switch_args);
		tcase_add_test(tc, typed_args_of_other_events);
		tcase_add_test(tc, glob_expansion);
		tcase_add_test(tc, systems_from_headers);
		tcase_set_timeout(tc, 60);
		suite_add_tcase(s, tc);
	} else {
		printf("test_tracepoints: no /boot/vmlinuz-*: skipping the installed-kernel tests\n");
	}
	kernel_free_releases(releases);
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0) {
		tc = tcase_create("running");
		tcase_add_test(tc, raw_btf_without_sources);
		suite_add_tcase(s, tc);
	}
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(tracepoints_suite());
	int failed;

	mkdir(TEST_CACHE, 0755);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(installed_release);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
