## testsuite/unit/regex.mk -- Check tests for the kernel target's regular
## expressions (runtime/linux/regex.c), compiled in user space and
## compared with glibc's regexec; the core library gives it what it takes
## from runtime/core (platform, struct tap_match).

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_regex
TESTS += testsuite/unit/test_regex

testsuite_unit_test_regex_SOURCES = testsuite/unit/test_regex.c \
	runtime/linux/regex.c runtime/linux/regex.h
testsuite_unit_test_regex_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_regex_LDADD = runtime/libtapcore.a $(CHECK_LIBS)
endif
