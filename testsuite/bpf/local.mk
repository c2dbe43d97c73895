## testsuite/bpf/local.mk -- the BPF tier (testsuite/bpf/run): scripts
## run natively with `tapc --runtime=bpf` on the build machine's kernel
## (root, BPF, BTF), no VM.  `make check-bpf` runs it alone; `make check`
## runs it as testsuite/bpf/bpf.test, skipped (77) without root, clang,
## libbpf or BTF -- failed instead under CI=true (testsuite/skip-or-fail).
## `make check-lang-bpf` (lang.test in `make check`): testsuite/lang on the
## BPF backend, about 3 minutes on two cores (a program built per case).

TAP_BPF_TIER_FILES = \
	testsuite/bpf/run \
	testsuite/bpf/lang-run \
	testsuite/bpf/lang-skip \
	testsuite/bpf/getppid10.c \
	testsuite/bpf/uprog.c \
	testsuite/bpf/tests/arrays.stp \
	testsuite/bpf/tests/arrays.out \
	testsuite/bpf/tests/count.stp \
	testsuite/bpf/tests/count.out \
	testsuite/bpf/tests/dead-expr.stp \
	testsuite/bpf/tests/dead-expr.out \
	testsuite/bpf/tests/dead-expr.err \
	testsuite/bpf/tests/dead-global.stp \
	testsuite/bpf/tests/dead-global.out \
	testsuite/bpf/tests/dead-global.err \
	testsuite/bpf/tests/dead-store.stp \
	testsuite/bpf/tests/dead-store.out \
	testsuite/bpf/tests/dead-store.err \
	testsuite/bpf/tests/dead-store-call.stp \
	testsuite/bpf/tests/dead-store-call.out \
	testsuite/bpf/tests/dead-store-fault.stp \
	testsuite/bpf/tests/dead-store-fault.out \
	testsuite/bpf/tests/dead-store-fault.err \
	testsuite/bpf/tests/error-fn.stp \
	testsuite/bpf/tests/error-fn.out \
	testsuite/bpf/tests/error-fn.err \
	testsuite/bpf/tests/errors.stp \
	testsuite/bpf/tests/errors.out \
	testsuite/bpf/tests/errors.err \
	testsuite/bpf/tests/drops.stp \
	testsuite/bpf/tests/drops.out \
	testsuite/bpf/tests/drops.err \
	testsuite/bpf/tests/exit.stp \
	testsuite/bpf/tests/exit.out \
	testsuite/bpf/tests/hist.stp \
	testsuite/bpf/tests/hist.out \
	testsuite/bpf/tests/target-pid.stp \
	testsuite/bpf/tests/target-pid.out \
	testsuite/bpf/tests/variance.stp \
	testsuite/bpf/tests/variance.out \
	testsuite/bpf/tests/maxerrors.stp \
	testsuite/bpf/tests/maxerrors.out \
	testsuite/bpf/tests/maxerrors.err \
	testsuite/bpf/tests/mapfull.stp \
	testsuite/bpf/tests/mapfull.out \
	testsuite/bpf/tests/mapfull.err \
	testsuite/bpf/tests/module-options.stp \
	testsuite/bpf/tests/module-options.out \
	testsuite/bpf/tests/module-options.err \
	testsuite/bpf/tests/mustshow.stp \
	testsuite/bpf/tests/mustshow.out \
	testsuite/bpf/tests/printf.stp \
	testsuite/bpf/tests/printf.out \
	testsuite/bpf/tests/verifier.stp \
	testsuite/bpf/tests/verifier.out \
	testsuite/bpf/tests/verifier.errgrep \
	testsuite/bpf/tests/typed.stp \
	testsuite/bpf/tests/typed.out \
	testsuite/bpf/tests/functions.stp \
	testsuite/bpf/tests/functions.out \
	testsuite/bpf/tests/refused-recursion.stp \
	testsuite/bpf/tests/refused-recursion.out \
	testsuite/bpf/tests/refused-recursion.errgrep \
	testsuite/bpf/tests/foreach.stp \
	testsuite/bpf/tests/foreach.out \
	testsuite/bpf/tests/sprintf.stp \
	testsuite/bpf/tests/sprintf.out \
	testsuite/bpf/tests/refused-sprintf.stp \
	testsuite/bpf/tests/refused-sprintf.out \
	testsuite/bpf/tests/refused-sprintf.errgrep \
	testsuite/bpf/tests/hist-linear.stp \
	testsuite/bpf/tests/hist-linear.out \
	testsuite/bpf/tests/try.stp \
	testsuite/bpf/tests/try.out \
	testsuite/bpf/tests/fault.stp \
	testsuite/bpf/tests/fault.out \
	testsuite/bpf/tests/fault.errgrep \
	testsuite/bpf/tests/strings.stp \
	testsuite/bpf/tests/strings.out \
	testsuite/bpf/tests/timer.stp \
	testsuite/bpf/tests/timer.out \
	testsuite/bpf/tests/refused.stp \
	testsuite/bpf/tests/refused.out \
	testsuite/bpf/tests/refused.errgrep \
	testsuite/bpf/tests/refused-probe.stp \
	testsuite/bpf/tests/refused-probe.out \
	testsuite/bpf/tests/refused-probe.errgrep \
	testsuite/bpf/tests/profile.stp \
	testsuite/bpf/tests/profile.out \
	testsuite/bpf/tests/profile-exit.stp \
	testsuite/bpf/tests/profile-exit.out \
	testsuite/bpf/tests/hz.stp \
	testsuite/bpf/tests/hz.out \
	testsuite/bpf/tests/uprobe.stp \
	testsuite/bpf/tests/uprobe.out \
	testsuite/bpf/tests/uprobe-exit.stp \
	testsuite/bpf/tests/uprobe-exit.out \
	testsuite/bpf/tests/count-btf.stp \
	testsuite/bpf/tests/count-btf.out \
	testsuite/bpf/tests/count-btf.errgrep \
	testsuite/bpf/tests/count-raw.stp \
	testsuite/bpf/tests/count-raw.out \
	testsuite/bpf/tests/count-raw.errgrep \
	testsuite/bpf/tests/tp-fallback.stp \
	testsuite/bpf/tests/tp-fallback.out \
	testsuite/bpf/tests/tp-fallback.errgrep

EXTRA_DIST += $(TAP_BPF_TIER_FILES) testsuite/bpf/bpf.test testsuite/bpf/lang.test
TESTS += testsuite/bpf/bpf.test testsuite/bpf/lang.test

check-bpf: tapc$(EXEEXT)
	$(srcdir)/testsuite/bpf/run

# The language suite with --runtime=bpf: every case the backend accepts
# prints what --target=user prints; the refused ones are listed with the
# reason in testsuite/bpf/lang-skip.
check-lang-bpf: tapc$(EXEEXT)
	$(srcdir)/testsuite/bpf/lang-run

.PHONY: check-bpf check-lang-bpf
