## testsuite/vm/local.mk -- the VM tier (testsuite/vm/run-tier): kernel
## modules run by the static taprun in QEMU.  `make check-vm` runs it alone;
## `make check` runs it as testsuite/vm/vm.test, which prints a SKIP line
## and is counted as skipped when qemu or a kernel with headers is missing.

TAP_VM_FILES = \
	testsuite/vm/README.md \
	testsuite/vm/find-kernel \
	testsuite/vm/mkinitramfs \
	testsuite/vm/boot \
	testsuite/vm/run-batch \
	testsuite/vm/split-data \
	testsuite/vm/kbuild-batch \
	testsuite/vm/run-tier \
	testsuite/vm/vmrun \
	testsuite/vm/build-module \
	testsuite/vm/workload.c \
	testsuite/vm/ia32_syscall.h \
	testsuite/vm/modules/hello/Kbuild \
	testsuite/vm/modules/hello/tap_hello.c \
	testsuite/vm/tests/hello.vmtest \
	testsuite/vm/tests/check-noisy \
	testsuite/vm/tests/hello-bulk.out \
	testsuite/vm/tests/hello-c.out \
	testsuite/vm/tests/hello-exit.out \
	testsuite/vm/tests/hello-exit-in-begin.out \
	testsuite/vm/tests/hello-bad-kprobe.out \
	testsuite/vm/tests/hello-idle-rc0.out \
	testsuite/vm/tests/hello-idle.out \
	testsuite/vm/tests/hello-in-use.out \
	testsuite/vm/tests/hello-none.out \
	testsuite/vm/tests/hello-not-root.out \
	testsuite/vm/tests/hello-outfile.out \
	testsuite/vm/tests/hello-protocol-mismatch.out \
	testsuite/vm/tests/hello-script-error.out \
	testsuite/vm/tests/hello-sigkill.out \
	testsuite/vm/tests/hello-globals.out \
	testsuite/vm/tests/hello-epipe.out \
	testsuite/vm/tests/hello-stress-stop.out \
	testsuite/vm/tests/hello-term-hup.out \
	testsuite/vm/selftest/run \
	testsuite/vm/selftest/harness.vmtest \
	testsuite/vm/selftest/expected \
	testsuite/vm/selftest/clean.out \
	testsuite/vm/selftest/clean-err.out \
	testsuite/vm/selftest/zero.out

EXTRA_DIST += $(TAP_VM_FILES) testsuite/vm/vm.test testsuite/vm/tapc-vm.test

# The tools `tapc --vm` runs, installed in $(pkglibexecdir)/vm.
vmtoolsdir = $(pkglibexecdir)/vm
vmtools_SCRIPTS = \
	testsuite/vm/find-kernel \
	testsuite/vm/mkinitramfs \
	testsuite/vm/boot \
	testsuite/vm/run-batch \
	testsuite/vm/split-data \
	testsuite/vm/vmrun
TESTS += testsuite/vm/vm.test testsuite/vm/tapc-vm.test

TAP_VM_BUILD = $(abs_top_builddir)/testsuite/vm/build
TAP_VM_RESULTS = $(abs_top_builddir)/testsuite/vm/results

check-vm: loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/vm/run-tier -t loader/taprun-static$(EXEEXT) \
		-b $(TAP_VM_BUILD) -o $(TAP_VM_RESULTS)

# run-batch's own test: one boot of tests that must fail and must pass.
check-vm-harness:
	$(srcdir)/testsuite/vm/selftest/run -o $(abs_top_builddir)/testsuite/vm/selftest-results

.PHONY: check-vm check-vm-harness
