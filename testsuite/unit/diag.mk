## testsuite/unit/diag.mk -- tests of the translator's diagnostics: the
## Check suite for translator/common/diag.c and diag_registry.c (the id
## table, --explain, holding, hints), and a check that every id the sources
## and tests name is in translator/common/diag_ids.def and every entry there
## is used.

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_diag
TESTS += testsuite/unit/test_diag

testsuite_unit_test_diag_SOURCES = testsuite/unit/test_diag.c
testsuite_unit_test_diag_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_diag_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)
endif

TESTS += testsuite/unit/check-diag-ids.sh
EXTRA_DIST += testsuite/unit/check-diag-ids.sh
