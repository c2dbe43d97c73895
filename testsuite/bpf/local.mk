## testsuite/bpf/local.mk -- the BPF tier (testsuite/bpf/run): scripts
## run natively with `tapc --runtime=bpf` on the build machine's kernel
## (root, BPF, BTF), no VM.  `make check-bpf` runs it alone; `make check`
## runs it as testsuite/bpf/bpf.test, skipped (77) without root, clang,
## libbpf or BTF -- failed instead under CI=true (testsuite/skip-or-fail).
## `make check-lang-bpf` (lang.test in `make check`): testsuite/lang on the
## BPF backend, about 3 minutes on two cores (a program built per case).

# The tier's tests, each tests/NAME.stp with its NAME.out and, when the
# test checks stderr, NAME.err (exact) or NAME.errgrep (lines it must
# hold); testsuite/bpf/run finds them by globbing tests/*.stp, this list
# puts them in the distribution.  A new test is one name here.
TAP_BPF_TESTS = \
	arrays \
	bpf-loop \
	bpf-loop-limit \
	bpf-loop-nested \
	classic \
	classic-attach \
	classic-load \
	classic-nofallback \
	classic-refused \
	count \
	count-btf \
	count-raw \
	dead-expr \
	dead-global \
	dead-store \
	dead-store-call \
	dead-store-fault \
	drops \
	error-fn \
	errors \
	exit \
	fault \
	foreach \
	functions \
	hist \
	hist-linear \
	hz \
	kfunc-refused \
	ktime \
	mapfull \
	maxaction-define \
	maxaction-e2big \
	maxerrors \
	module-options \
	mustshow \
	printf \
	profile \
	profile-exit \
	refused \
	refused-matched \
	refused-probe \
	refused-recursion \
	refused-sprintf \
	refused-sysstruct \
	release-other \
	sprintf \
	strings \
	sysstruct-unread \
	target-pid \
	timer \
	tp-fallback \
	try \
	typed \
	uprobe \
	uprobe-exit \
	variance \
	variance-hist \
	verifier

TAP_BPF_TEST_STEMS = $(addprefix testsuite/bpf/tests/,$(TAP_BPF_TESTS))
# The stderr files a test has, found in the source tree (paths relative
# to it, as EXTRA_DIST wants them).
TAP_BPF_TEST_STDERR = $(patsubst $(srcdir)/%,%,$(wildcard \
	$(addprefix $(srcdir)/,$(addsuffix .err,$(TAP_BPF_TEST_STEMS)) \
	$(addsuffix .errgrep,$(TAP_BPF_TEST_STEMS)))))

TAP_BPF_TIER_FILES = \
	testsuite/bpf/run \
	testsuite/bpf/lang-run \
	testsuite/bpf/lang-skip \
	testsuite/bpf/getppid10.c \
	testsuite/bpf/uprog.c \
	$(addsuffix .stp,$(TAP_BPF_TEST_STEMS)) \
	$(addsuffix .out,$(TAP_BPF_TEST_STEMS)) \
	$(TAP_BPF_TEST_STDERR)

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
