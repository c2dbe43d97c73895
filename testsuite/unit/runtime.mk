## testsuite/unit/runtime.mk -- Check unit tests for the runtime.
##
## One program per runtime/core module, each linked against the user-space
## build of the core (runtime/libtapcore.a).

if HAVE_CHECK
RUNTIME_UNIT_TESTS = \
	testsuite/unit/test_map \
	testsuite/unit/test_stat \
	testsuite/unit/test_hist \
	testsuite/unit/test_format \
	testsuite/unit/test_string \
	testsuite/unit/test_arith \
	testsuite/unit/test_json \
	testsuite/unit/test_merge \
	testsuite/unit/test_fp

check_PROGRAMS += $(RUNTIME_UNIT_TESTS)
TESTS += $(RUNTIME_UNIT_TESTS)

RUNTIME_UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
RUNTIME_UNIT_LDADD = runtime/libtapcore.a $(CHECK_LIBS)

testsuite_unit_test_map_SOURCES = testsuite/unit/test_map.c
testsuite_unit_test_map_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_map_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_fp_SOURCES = testsuite/unit/test_fp.c
testsuite_unit_test_fp_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_fp_LDADD = $(RUNTIME_UNIT_LDADD) -lm

testsuite_unit_test_stat_SOURCES = testsuite/unit/test_stat.c
testsuite_unit_test_stat_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_stat_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_hist_SOURCES = testsuite/unit/test_hist.c
testsuite_unit_test_hist_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_hist_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_format_SOURCES = testsuite/unit/test_format.c
testsuite_unit_test_format_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_format_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_string_SOURCES = testsuite/unit/test_string.c
testsuite_unit_test_string_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_string_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_arith_SOURCES = testsuite/unit/test_arith.c
testsuite_unit_test_arith_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_arith_LDADD = $(RUNTIME_UNIT_LDADD)

testsuite_unit_test_json_SOURCES = testsuite/unit/test_json.c
testsuite_unit_test_json_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_json_LDADD = $(RUNTIME_UNIT_LDADD)
testsuite_unit_test_merge_SOURCES = testsuite/unit/test_merge.c
testsuite_unit_test_merge_CFLAGS = $(RUNTIME_UNIT_CFLAGS)
testsuite_unit_test_merge_LDADD = $(RUNTIME_UNIT_LDADD)
endif
