## testsuite/faults/local.mk -- the fault campaign (issue #13,
## testsuite/faults/run): ~30 scenarios -- storms stopped every way, output
## limits, script faults, a probe storm, processes exiting under probes --
## in ONE VM boot with slub_debug, judged by testsuite/faults/check.
## `make check-faults` runs it alone (KREL=... picks another kernel);
## `make check` runs it as testsuite/faults/faults.test on the default
## kernel, skipped (77) without qemu or kernel headers.  About 4 min of
## boot under TCG (a 20 s probe storm included) plus ~2 min of module
## builds the first time.

TAP_FAULTS_FILES = \
	testsuite/faults/README.md \
	testsuite/faults/run \
	testsuite/faults/check \
	testsuite/faults/faults.vmtest \
	testsuite/faults/fworkload.c \
	testsuite/faults/tf-report \
	testsuite/faults/tf-left \
	testsuite/faults/tfstatics/Kbuild \
	testsuite/faults/tfstatics/tfstatics.c \
	testsuite/faults/scenarios/bigprint.stp \
	testsuite/faults/scenarios/dpath.stp \
	testsuite/faults/scenarios/enddump.stp \
	testsuite/faults/scenarios/errors.stp \
	testsuite/faults/scenarios/flood.stp \
	testsuite/faults/scenarios/full.stp \
	testsuite/faults/scenarios/hist.stp \
	testsuite/faults/scenarios/probestorm.stp \
	testsuite/faults/scenarios/procexit.stp \
	testsuite/faults/scenarios/procfs.stp \
	testsuite/faults/scenarios/statics30.stp \
	testsuite/faults/scenarios/storm.stp \
	testsuite/faults/scenarios/stormcpus.stp \
	testsuite/faults/scenarios/tiny.stp

EXTRA_DIST += $(TAP_FAULTS_FILES) testsuite/faults/faults.test
TESTS += testsuite/faults/faults.test

check-faults: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/faults/run

.PHONY: check-faults
