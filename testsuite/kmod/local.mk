## testsuite/kmod/local.mk -- the DWARF tier (testsuite/kmod/run): a test
## module built with -g, probed through module("...").function/.statement
## and $var in ONE VM boot.  `make check-kmod` runs it alone; `make check`
## runs it as testsuite/kmod/kmod.test, skipped (77) without qemu or
## kernel headers.  `make check-kernel-dwarf` probes the kernel itself
## with its DWARF (skipped without linux-image-KREL-dbg).

TAP_KMOD_FILES = \
	testsuite/kmod/run \
	testsuite/kmod/kmod.vmtest \
	testsuite/kmod/tapkmod.c \
	testsuite/kmod/Kbuild \
	testsuite/kmod/trigger \
	testsuite/kmod/modload-run \
	testsuite/kmod/modload-rounds \
	testsuite/kmod/tests/modload-rounds.stp \
	testsuite/kmod/tests/modload-rounds.out \
	testsuite/kmod/wild-run \
	testsuite/kmod/tests/wild-dummy.stp \
	testsuite/kmod/tests/wild-dummy.out \
	testsuite/kmod/tests/modload-deferred.stp \
	testsuite/kmod/tests/modload-deferred.out \
	testsuite/kmod/check-statics-not-loaded \
	testsuite/kmod/tests/autocast.stp \
	testsuite/kmod/tests/autocast.out \
	testsuite/kmod/tests/values.stp \
	testsuite/kmod/tests/values.out \
	testsuite/kmod/tests/pretty.stp \
	testsuite/kmod/tests/pretty.out \
	testsuite/kmod/tests/statics.stp \
	testsuite/kmod/tests/statics.out \
	testsuite/kmod/tests/statics30.stp \
	testsuite/kmod/tests/statics30.out \
	testsuite/kmod/tests/locexpr.stp \
	testsuite/kmod/tests/locexpr.out \
	testsuite/kmod/tests/write.stp \
	testsuite/kmod/tests/write.out \
	testsuite/kmod/kernel-dwarf.vmtest \
	testsuite/kmod/kernel/vfs.stp \
	testsuite/kmod/kernel/vfs.out \
	testsuite/kmod/kernel/wildcard.stp \
	testsuite/kmod/kernel/statics.stp \
	testsuite/kmod/kernel/statics.out \
	testsuite/kmod/kernel/percpu.stp \
	testsuite/kmod/kernel/percpu.out \
	testsuite/kmod/kernel/wildcard.out

EXTRA_DIST += $(TAP_KMOD_FILES) testsuite/kmod/kmod.test
TESTS += testsuite/kmod/kmod.test

check-kmod: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/kmod/run

# Not in `make check`: it needs linux-image-KREL-dbg (~860 MB).
check-kernel-dwarf: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/kmod/run -K

.PHONY: check-kmod check-kernel-dwarf
