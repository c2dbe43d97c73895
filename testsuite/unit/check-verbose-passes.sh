#!/bin/sh
# check-verbose-passes.sh -- -v prints one line per pass as stap 4.8 words
# it (translator/driver/pass_report.c), and the tapset library's own
# warnings only from -vv on.
#
# Takes: $TAPC (default ./tapc), $srcdir.  The library-warning half needs
# a kernel with headers (testsuite/vm/find-kernel) and is skipped without.
# Produces: exit 0, 1 with what differed, 77 when tapc is not built.
set -u

top=$(cd "${srcdir:-.}" && pwd)
tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-verbose-passes: $tapc is not built; skipped" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapc-verbose.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "check-verbose-passes: $*" >&2; failed=1; }
expect_line() {	# FILE REGEX WHAT
	grep -Eq "$2" "$1" || { fail "$3: no line matching '$2' in:"; cat "$1" >&2; }
}
mem='using [0-9]+virt/[0-9]+res/[0-9]+shr/[0-9]+data kb,'
ms='in [0-9]+usr/[0-9]+sys/[0-9]+real ms\.$'

# Passes 1-5 of the user target: every line, in order
"$tapc" -v --target=user -e 'global g; function f() { return 1 } probe begin { g = f(); println(g); exit() }' \
	> "$tmp/out" 2> "$tmp/err" || { fail "the user-target run failed:"; cat "$tmp/err" >&2; }
expect_line "$tmp/err" "^Pass 1: parsed user script and [0-9]+ library scripts $mem $ms" "pass 1"
expect_line "$tmp/err" "^Pass 2: analyzed script: 1 probe, 1 function, [0-9]+ embeds?, 1 global $mem $ms" "pass 2"
expect_line "$tmp/err" "^Pass 4: compiled C into \".*\" $ms" "pass 4"
expect_line "$tmp/err" '^Pass 5: starting run\.$' "pass 5 start"
expect_line "$tmp/err" "^Pass 5: run completed $ms" "pass 5 end"
# (build_user.c's own "Pass 4: cc ..." line comes before the pass's)
[ "$(grep -o '^Pass [0-9]' "$tmp/err" | tr -d '\n')" = "Pass 1Pass 2Pass 4Pass 4Pass 5Pass 5" ] ||
	fail "the pass lines are not in order: $(grep -o '^Pass [0-9]' "$tmp/err" | tr '\n' ' ')"
# Without -v: none of them
"$tapc" --target=user -e 'probe begin { exit() }' > /dev/null 2> "$tmp/err"
grep -q '^Pass ' "$tmp/err" && fail "pass lines without -v"

# The library's warnings: not at -v, at -vv
krel=$("$top/testsuite/vm/find-kernel" 2>/dev/null) || { exit $failed; }
"$tapc" -v -p2 -r "$krel" "$top/examples/opensnoop.stp" > /dev/null 2> "$tmp/v" ||
	fail "opensnoop -v -p2 failed"
"$tapc" -vv -p2 -r "$krel" "$top/examples/opensnoop.stp" > /dev/null 2> "$tmp/vv" ||
	fail "opensnoop -vv -p2 failed"
expect_line "$tmp/v" "^Pass 2: analyzed script: [0-9]+ probes" "-v pass 2"
grep -q 'tapsets/.*warning:' "$tmp/v" && fail "-v shows the library's warnings"
expect_line "$tmp/vv" 'tapsets/.*: warning: ' "-vv library warnings"
exit $failed
