/*
 * test_sysstruct.c - Check tests for runtime/core/sysstruct.c: the user
 * structs of rt_sigaction, sysinfo, adjtimex/clock_adjtime and
 * sched_setattr/sched_getattr as SystemTap's syscall aliases spell them
 * (the expected strings follow the formats of SystemTap 4.8's
 * aux_syscalls.stp, but where sysstruct.c says it differs); and the two
 * flag sets of sysfmt.c they use.
 */
#include <check.h>
#include <string.h>

#include "runtime/core/sysfmt.h"
#include "runtime/core/sysstruct.h"

static char buf[512];

static const char *
decode(enum tap_sysfmt_set set, long v)
{
	tap_sysfmt_decode(buf, sizeof(buf), set, v);
	return buf;
}

START_TEST(flag_sets)
{
	ck_assert_str_eq(decode(TAP_SYSFMT_SA_FLAGS, 0), "0x0");
	ck_assert_str_eq(decode(TAP_SYSFMT_SA_FLAGS, 0x14000000),
			 "SA_RESTART|SA_RESTORER");
	ck_assert_str_eq(decode(TAP_SYSFMT_SA_FLAGS, 0x1c000004),
			 "SA_ONSTACK|SA_RESTART|SA_SIGINFO|SA_RESTORER");
	ck_assert_str_eq(decode(TAP_SYSFMT_SA_FLAGS, 0x80000401L),
			 "SA_NOCLDSTOP|SA_RESETHAND|0x400");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0), "0x0");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0x4003),
			 "ADJ_OFFSET|ADJ_FREQUENCY|ADJ_TICK");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0x8001),
			 "ADJ_OFFSET_SINGLESHOT");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0xa001),
			 "ADJ_OFFSET_SS_READ");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0x2011),
			 "ADJ_OFFSET|ADJ_STATUS|ADJ_NANO");
	ck_assert_str_eq(decode(TAP_SYSFMT_ADJ_MODES, 0x10040),
			 "0x10040");
}
END_TEST

START_TEST(sigsets)
{
	tap_sysstruct_sigset(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "[EMPTY]");
	tap_sysstruct_sigset(buf, sizeof(buf), (1 << 1) | (1 << 14));
	ck_assert_str_eq(buf, "[SIGINT|SIGTERM]");
	/* the real-time signals and SIGSTKFLT are there, by number */
	tap_sysstruct_sigset(buf, sizeof(buf),
			     (1ULL << 9) | (1ULL << 15) | (1ULL << 33) |
			     (1ULL << 63));
	ck_assert_str_eq(buf, "[SIGUSR1|SIGSTKFLT|34|64]");
	/* all of them still fit a string */
	tap_sysstruct_sigset(buf, sizeof(buf), ~0ULL);
	ck_assert_int_eq(buf[strlen(buf) - 1], ']');
	ck_assert_ptr_nonnull(strstr(buf, "|SIGSYS|32|33|"));
}
END_TEST

START_TEST(sigactions)
{
	struct tap_sys_sigaction act = { 0 };

	tap_sysstruct_sigaction(buf, sizeof(buf), &act);
	ck_assert_str_eq(buf, "SIG_DFL");
	act.handler = 1;
	act.flags = 0x10000000;
	tap_sysstruct_sigaction(buf, sizeof(buf), &act);
	ck_assert_str_eq(buf, "SIG_IGN");
	act.handler = 0x401a2e;
	act.flags = 0x14000000;
	act.restorer = 0x401f70;
	act.mask = 1 << 11;
	tap_sysstruct_sigaction(buf, sizeof(buf), &act);
	ck_assert_str_eq(buf,
		"0x401a2e, SA_RESTART|SA_RESTORER, 0x401f70, [SIGUSR2]");
	act.flags = 0;
	act.restorer = 0;
	act.mask = 0;
	tap_sysstruct_sigaction(buf, sizeof(buf), &act);
	ck_assert_str_eq(buf, "0x401a2e, 0x0, 0x0, [EMPTY]");
}
END_TEST

START_TEST(sysinfos)
{
	struct tap_sys_sysinfo si = {
		.uptime = 12, .loads = { 65536, 2, 3 }, .totalram = 1000,
		.freeram = 900, .sharedram = 8, .bufferram = 4,
		.totalswap = 0, .freeswap = 0, .procs = 70,
	};

	tap_sysstruct_sysinfo(buf, sizeof(buf), &si);
	ck_assert_str_eq(buf,
		"{uptime=12, loads=[65536, 2, 3], totalram=1000, freeram=900, sharedram=8, bufferram=4, totalswap=0, freeswap=0, procs=70}");
}
END_TEST

START_TEST(timexes)
{
	struct tap_sys_timex tx = {
		.modes = 0, .offset = 0, .freq = -1200, .maxerror = 16000000,
		.esterror = 16000000, .status = 0x40, .constant = 2,
		.precision = 1, .tolerance = 32768000, .tick = 10000,
		.time_sec = 99, .time_usec = 5,
	};

	tap_sysstruct_timex(buf, sizeof(buf), &tx);
	ck_assert_str_eq(buf,
		"{0x0, constant=2, esterror=16000000, freq=-1200, maxerror=16000000, offset=0, precision=1, status=64, tick=10000, tolerance=32768000}");
	tx.modes = 0x4003;
	tap_sysstruct_timex(buf, sizeof(buf), &tx);
	ck_assert_int_eq(strncmp(buf, "{ADJ_OFFSET|ADJ_FREQUENCY|ADJ_TICK, constant=2,", 47), 0);
}
END_TEST

START_TEST(sched_attrs)
{
	struct tap_sys_sched_attr sa = {
		.size = 48, .sched_policy = 0, .sched_flags = 0,
		.sched_nice = -5, .sched_priority = 0,
	};

	tap_sysstruct_sched_attr(buf, sizeof(buf), &sa);
	ck_assert_str_eq(buf,
		"{size=48, sched_policy=0, sched_flags=0, sched_nice=-5, sched_priority=0, sched_runtime=0, sched_deadline=0, sched_period=0}");
	sa.sched_policy = 6;
	sa.sched_nice = 0;
	sa.sched_runtime = 10000000;
	sa.sched_deadline = 30000000;
	sa.sched_period = 30000000;
	tap_sysstruct_sched_attr(buf, sizeof(buf), &sa);
	ck_assert_str_eq(buf,
		"{size=48, sched_policy=6, sched_flags=0, sched_nice=0, sched_priority=0, sched_runtime=10000000, sched_deadline=30000000, sched_period=30000000}");
}
END_TEST

/* A short destination is cut, NUL-terminated, at any length. */
START_TEST(truncation)
{
	struct tap_sys_sigaction act = {
		.handler = 0x401a2e, .flags = 0x14000000, .mask = 6,
	};
	char small[24];
	size_t n;

	for (n = 1; n <= sizeof(small); n++) {
		memset(small, 'x', sizeof(small));
		tap_sysstruct_sigaction(small, n, &act);
		ck_assert_uint_eq(strlen(small), n - 1);
	}
	tap_sysstruct_sigaction(small, sizeof(small), &act);
	ck_assert_str_eq(small, "0x401a2e, SA_RESTART|SA");
}
END_TEST

static Suite *
sysstruct_suite(void)
{
	Suite *s = suite_create("sysstruct");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, flag_sets);
	tcase_add_test(tc, sigsets);
	tcase_add_test(tc, sigactions);
	tcase_add_test(tc, sysinfos);
	tcase_add_test(tc, timexes);
	tcase_add_test(tc, sched_attrs);
	tcase_add_test(tc, truncation);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sysstruct_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
