## testsuite/unit/options.mk -- tests of tapc's command line: the Check suite
## for translator/driver/options.c, and a check that the man page documents every
## option that `tapc --help` lists.

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_options
TESTS += testsuite/unit/test_options

# Linked from the sources of the code under test; what options.c calls
# beyond them (--disable-cache's cache_disable, --remote's URL check)
# comes from tapc's libraries.
testsuite_unit_test_options_SOURCES = testsuite/unit/test_options.c \
	translator/driver/options.c translator/common/arena.c translator/common/diag.c \
	translator/common/diag_registry.c \
	translator/driver/preflight.c translator/driver/host_caps.c \
	translator/driver/remote.c translator/driver/paths.c \
	translator/debuginfo/cache_dir.c \
	translator/driver/preflight.h translator/driver/host_caps.h \
	translator/driver/remote.h translator/driver/paths.h \
	translator/debuginfo/cache_dir.h \
	translator/driver/options.h translator/driver/session.h translator/common/arena.h \
	translator/common/diag.h translator/common/diag_registry.h \
	translator/common/diag_ids.def
testsuite_unit_test_options_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_options_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)
endif

TESTS += testsuite/unit/check-options-doc.sh
EXTRA_DIST += testsuite/unit/check-options-doc.sh

# tapc --info and the refusal of a run whose module cannot load here.
TESTS += testsuite/unit/check-host-caps.sh
EXTRA_DIST += testsuite/unit/check-host-caps.sh

# -p4's NAME.ko (stripped) and --sign-module (needs kernel headers).
TESTS += testsuite/unit/check-deploy-module.sh
EXTRA_DIST += testsuite/unit/check-deploy-module.sh

# -v's "Pass N:" lines, as stap words them; library warnings only at -vv.
TESTS += testsuite/unit/check-verbose-passes.sh
EXTRA_DIST += testsuite/unit/check-verbose-passes.sh

# tapc -F -o FILE: what tapc hands taprun, and what it refuses.
TESTS += testsuite/unit/check-tapc-flight-file.sh
EXTRA_DIST += testsuite/unit/check-tapc-flight-file.sh
