## testsuite/unit/uprobe.mk -- Check unit tests for what user-space
## probes read from ELF files (translator/debuginfo/elf_syms.c, sdt.c), and
## the unwind rules user backtraces read (translator/debuginfo/cfi.c).

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_usym
TESTS += testsuite/unit/test_usym

testsuite_unit_test_usym_SOURCES = testsuite/unit/test_usym.c
testsuite_unit_test_usym_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_usym_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)

check_PROGRAMS += testsuite/unit/test_cfi
TESTS += testsuite/unit/test_cfi
testsuite_unit_test_cfi_SOURCES = testsuite/unit/test_cfi.c
testsuite_unit_test_cfi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_cfi_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)
endif
