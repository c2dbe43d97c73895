## testsuite/unit/loader.mk -- taprun's checks that run before a module is
## loaded: who may load it, by the --privilege level tapc recorded in it
## (loader/privilege.c).  Runs on the host: nothing is loaded.

TESTS += testsuite/unit/check-taprun-privilege.sh
EXTRA_DIST += testsuite/unit/check-taprun-privilege.sh

# taprun's command line: --help, -V, options after the module, -S.
TESTS += testsuite/unit/check-taprun-cli.sh
EXTRA_DIST += testsuite/unit/check-taprun-cli.sh
