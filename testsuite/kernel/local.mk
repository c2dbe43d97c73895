## testsuite/kernel/local.mk -- the kernel tier (testsuite/kernel/run):
## the tapsets and examples built as modules and run in ONE VM boot, plus
## a short second boot with 288 possible CPUs (manycpus.vmtest), and a
## third with module.sig_enforce=1 (sigenforce.vmtest: taprun's messages
## for an unsigned module and one signed by a key the kernel lacks).
## `make check-kernel` runs it alone; `make check` runs it as
## testsuite/kernel/kernel.test, skipped (77) without qemu or kernel
## headers.  About 190 s of boot for 88 tests plus the module builds
## (all in one kbuild run: testsuite/vm/kbuild-batch).

TAP_KERNEL_FILES = \
	testsuite/kernel/run \
	testsuite/kernel/check \
	testsuite/kernel/kernel.vmtest \
	testsuite/kernel/manycpus.vmtest \
	testsuite/kernel/sigenforce.vmtest \
	testsuite/kernel/kworkload.c \
	testsuite/kernel/procfs-work.sh \
	testsuite/kernel/bandaid-work.sh \
	testsuite/kernel/cpuonline-work.sh \
	testsuite/kernel/dpath-work.sh \
	testsuite/kernel/nfsd-work.sh \
	testsuite/kernel/kmod-pack \
	testsuite/kernel/prom-lint \
	testsuite/kernel/flight-summary \
	testsuite/kernel/example-args \
	examples/cswitch.stp \
	examples/errsnoop.stp \
	examples/execsnoop.stp \
	examples/iotop.stp \
	examples/opensnoop.stp \
	examples/shortlived.stp \
	examples/systime.stp \
	examples/topsys.stp \
	examples/biolatency.stp \
	examples/profile.stp \
	examples/funccount.stp \
	examples/syscount.stp \
	examples/killsnoop.stp \
	examples/vfsstat.stp \
	examples/runqlat.stp \
	examples/offcputime.stp \
	examples/funclatency.stp \
	examples/biosnoop.stp \
	examples/tcpconnect.stp \
	examples/tcpaccept.stp \
	examples/tcpretrans.stp \
	examples/cachestat.stp \
	examples/stackcount.stp

# the whole tests/ directory: a new test cannot be left out of a tarball
EXTRA_DIST += $(TAP_KERNEL_FILES) testsuite/kernel/tests testsuite/kernel/kernel.test
TESTS += testsuite/kernel/kernel.test

check-kernel: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/kernel/run

.PHONY: check-kernel
