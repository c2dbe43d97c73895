## testsuite/bpfvm/local.mk -- the BPF VM tier (testsuite/bpfvm/run): BPF
## programs built on the host with `tapc --runtime=bpf -p4`, run in ONE
## boot of Debian's kernel in QEMU, where kprobes exist (the build host
## may have none): kernel.function as fentry/fexit and as kprobes,
## kprobe.function, .return,
## BTF-typed arguments, exit() from a kprobe, kernel.trace in its tp_btf
## and classic forms, timer.profile.  `make check-bpf-vm` runs it alone;
## `make check` runs it as testsuite/bpfvm/bpfvm.test, skipped (77)
## without qemu, a kernel image or what BPF builds need (root, clang,
## libbpf, BTF) -- failed instead under CI=true (testsuite/skip-or-fail).
## About 20 s of boot and 10 s of builds.

# the whole tests/ directory: a new test cannot be left out of a tarball
EXTRA_DIST += testsuite/bpfvm/run testsuite/bpfvm/bpfvm.vmtest \
	testsuite/bpfvm/tests testsuite/bpfvm/bpfvm.test
TESTS += testsuite/bpfvm/bpfvm.test

check-bpf-vm: tapc$(EXEEXT)
	$(srcdir)/testsuite/bpfvm/run

.PHONY: check-bpf-vm
