## testsuite/unit/sysfmt.mk -- Check tests for runtime/core/sysfmt.c, the
## strace-style decoding the syscall tapsets use, and runtime/core/
## sysstruct.c, SystemTap's spelling of the structs they decode.  The
## sources are compiled in directly: the modules include them through the
## tapsets, and the user-space core library does not need them.

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_sysfmt testsuite/unit/test_sysstruct
TESTS += testsuite/unit/test_sysfmt testsuite/unit/test_sysstruct

testsuite_unit_test_sysfmt_SOURCES = testsuite/unit/test_sysfmt.c \
	runtime/core/sysfmt.c runtime/core/sysfmt.h
testsuite_unit_test_sysfmt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_sysfmt_LDADD = $(CHECK_LIBS)

testsuite_unit_test_sysstruct_SOURCES = testsuite/unit/test_sysstruct.c \
	runtime/core/sysstruct.c runtime/core/sysstruct.h \
	runtime/core/sysfmt.c runtime/core/sysfmt.h
testsuite_unit_test_sysstruct_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_sysstruct_LDADD = runtime/libtapcore.a $(CHECK_LIBS)
endif
