## testsuite/unit/local.mk -- Check unit tests. Each area keeps its own
## fragment so that translator and runtime tests can grow independently.
include testsuite/unit/translator.mk
include testsuite/unit/runtime.mk
include testsuite/unit/debuginfo.mk
include testsuite/unit/options.mk
include testsuite/unit/diag.mk
include testsuite/unit/sysfmt.mk
include testsuite/unit/regex.mk
include testsuite/unit/uprobe.mk
include testsuite/unit/loader.mk

TESTS += testsuite/unit/check-comment-escape.sh
EXTRA_DIST += testsuite/unit/check-comment-escape.sh

# the ia32 system calls' argument recipes and guru write-back, compiled
# from pass 3's C and run on made-up registers
TESTS += testsuite/unit/check-syscall-ia32.sh
EXTRA_DIST += testsuite/unit/check-syscall-ia32.sh

# which globals pass 3 keeps in per-CPU counters, lock-free
TESTS += testsuite/unit/check-counters.sh
EXTRA_DIST += testsuite/unit/check-counters.sh

# -t's timing code in the generated C, and none without -t
TESTS += testsuite/unit/check-timing.sh
EXTRA_DIST += testsuite/unit/check-timing.sh

# The helper every VM tier and the corpus tier ask whether a missing
# dependency skips (77) or, under CI=true, fails the tier.
TESTS += testsuite/unit/check-skip-or-fail.sh
EXTRA_DIST += testsuite/unit/check-skip-or-fail.sh testsuite/skip-or-fail

# tapc --remote's checks and refusals, with a stand-in ssh
# (testsuite/remote/ runs it on two guests)
TESTS += testsuite/unit/check-remote-cli.sh
EXTRA_DIST += testsuite/unit/check-remote-cli.sh

# pass 4 builds the runtime once per set of -D limits and kernel
# (translator/build/kbuild.c): checked with real kbuilds, ~10 CPU-s.
TESTS += testsuite/unit/check-runtime-cache.sh
EXTRA_DIST += testsuite/unit/check-runtime-cache.sh
TESTS += testsuite/unit/check-kbuild-replay.sh
EXTRA_DIST += testsuite/unit/check-kbuild-replay.sh testsuite/unit/p4-check-lib.sh

# the user target's -p4 result is the cache's copy, no scratch left in
# TMPDIR (translator/build/build_user.c)
TESTS += testsuite/unit/check-user-p4-scratch.sh
TESTS += testsuite/unit/check-user-runtime-key.sh
EXTRA_DIST += testsuite/unit/check-user-runtime-key.sh
EXTRA_DIST += testsuite/unit/check-user-p4-scratch.sh
# --runtime=bpf's object: compiled once, the same bytes every time
# (translator/build/build_bpf.c)
TESTS += testsuite/unit/check-bpf-object-cache.sh
EXTRA_DIST += testsuite/unit/check-bpf-object-cache.sh

# --runtime=bpf's typed accesses: CO-RE relocated member offsets
# (translator/codegen/bpf_emit.c)
TESTS += testsuite/unit/check-bpf-core.sh
EXTRA_DIST += testsuite/unit/check-bpf-core.sh

# every file of runtime/ and tapsets/ is installed: an installed tapc
# builds from $(pkgdatadir), not from the source tree
TESTS += testsuite/unit/check-install-lists.sh
TESTS += testsuite/unit/check-split-data.sh
EXTRA_DIST += testsuite/unit/check-install-lists.sh
EXTRA_DIST += testsuite/unit/check-split-data.sh

# a tapset library directory that cannot be read stops tapc at once
TESTS += testsuite/unit/check-library-dir.sh
EXTRA_DIST += testsuite/unit/check-library-dir.sh
