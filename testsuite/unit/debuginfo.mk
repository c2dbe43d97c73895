## testsuite/unit/debuginfo.mk -- Check unit tests for translator/debuginfo.
##
## They read the real kernel files installed on the machine (/boot,
## /lib/modules, /sys/kernel/btf) and exit 77 (skipped) with a message when
## none are there.  Extracted BTF is cached under the build tree so that only
## the first test pays for decompressing a vmlinuz.

if HAVE_CHECK
DEBUGINFO_UNIT_TESTS = \
	testsuite/unit/test_btf \
	testsuite/unit/test_tracepoints \
	testsuite/unit/test_kernel \
	testsuite/unit/test_dwarf \
	testsuite/unit/test_kmod_index \
	testsuite/unit/test_header_types \
	testsuite/unit/test_cache \
	testsuite/unit/test_zfile

check_PROGRAMS += $(DEBUGINFO_UNIT_TESTS)
TESTS += $(DEBUGINFO_UNIT_TESTS)

DEBUGINFO_UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
DEBUGINFO_UNIT_LDADD = $(DEBUGINFO_LIBS) $(CHECK_LIBS)

testsuite_unit_test_cache_SOURCES = testsuite/unit/test_cache.c \
	translator/common/hash.c
testsuite_unit_test_cache_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_cache_LDADD = $(DEBUGINFO_UNIT_LDADD) $(NETTLE_LIBS)

testsuite_unit_test_btf_SOURCES = testsuite/unit/test_btf.c
testsuite_unit_test_btf_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_btf_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_tracepoints_SOURCES = testsuite/unit/test_tracepoints.c
testsuite_unit_test_tracepoints_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_tracepoints_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_kernel_SOURCES = testsuite/unit/test_kernel.c
testsuite_unit_test_kernel_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_kernel_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_dwarf_SOURCES = testsuite/unit/test_dwarf.c
testsuite_unit_test_dwarf_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_dwarf_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_kmod_index_SOURCES = testsuite/unit/test_kmod_index.c
testsuite_unit_test_kmod_index_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_kmod_index_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_header_types_SOURCES = testsuite/unit/test_header_types.c
testsuite_unit_test_header_types_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_header_types_LDADD = $(DEBUGINFO_UNIT_LDADD)

testsuite_unit_test_zfile_SOURCES = testsuite/unit/test_zfile.c
testsuite_unit_test_zfile_CFLAGS = $(DEBUGINFO_UNIT_CFLAGS)
testsuite_unit_test_zfile_LDADD = $(DEBUGINFO_UNIT_LDADD)

CLEANFILES += testsuite/unit/btf-cache/*
endif
