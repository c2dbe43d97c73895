## testsuite/unit/sysfmt.mk -- Check tests for runtime/core/sysfmt.c, the
## strace-style decoding the syscall tapsets use.  The source is compiled
## in directly: the modules include it through the tapsets, and the
## user-space core library does not need it.

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_sysfmt
TESTS += testsuite/unit/test_sysfmt

testsuite_unit_test_sysfmt_SOURCES = testsuite/unit/test_sysfmt.c \
	runtime/core/sysfmt.c runtime/core/sysfmt.h
testsuite_unit_test_sysfmt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_sysfmt_LDADD = $(CHECK_LIBS)
endif
