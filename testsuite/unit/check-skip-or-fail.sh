#!/bin/sh
# check-skip-or-fail.sh -- testsuite/skip-or-fail, the helper every VM tier
# and the corpus tier ask before running: a missing dependency must skip
# (77) outside CI and fail (1) with CI=true; what is there must pass (0).
# The dependencies are made missing or present through the helper's own
# variables (QEMU, KREL, TAPC_CORPUS), so the test does not depend on what
# this machine has installed.
top=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
helper="$top/testsuite/skip-or-fail"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/skiptest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/corpus/systemtap"
failed=0

# expect RC PATTERN -- ENV... : run the helper under env ENV..., check its
# exit status and that its output matches the grep -E PATTERN.
expect() {
	want=$1 pattern=$2
	shift 3
	out=$(env -u CI "$@" "$helper" "test tier" $NEEDS 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $* ($NEEDS): exit $rc, expected $want: $out"; failed=1
	elif ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
		echo "FAIL: $* ($NEEDS): output '$out' does not match '$pattern'"; failed=1
	fi
}

NEEDS=qemu
expect 77 '^SKIP: test tier: /no/such/qemu not found' -- QEMU=/no/such/qemu
expect 1 '^FAIL: test tier: /no/such/qemu not found .*CI=true' -- QEMU=/no/such/qemu CI=true
expect 77 '^SKIP: ' -- QEMU=/no/such/qemu CI=false
expect 0 '^$' -- QEMU=sh CI=true

NEEDS=kernel
expect 77 '^SKIP: test tier: no /boot/vmlinuz-KREL .*KREL=0.0-none' -- KREL=0.0-none
expect 1 '^FAIL: test tier: no /boot/vmlinuz-KREL' -- KREL=0.0-none CI=true

NEEDS=corpus
expect 77 "^SKIP: test tier: no SystemTap corpus at $tmp/none" -- TAPC_CORPUS="$tmp/none"
expect 1 "^FAIL: test tier: no SystemTap corpus at $tmp/none" -- TAPC_CORPUS="$tmp/none" CI=true
expect 0 '^$' -- TAPC_CORPUS="$tmp/corpus" CI=true

# Several needs: every missing one is named, and one missing is enough.
NEEDS="corpus qemu"
expect 1 '^FAIL: test tier: no SystemTap corpus' -- TAPC_CORPUS="$tmp/none" QEMU=/no/such/qemu CI=true
expect 1 '^FAIL: test tier: /no/such/qemu' -- TAPC_CORPUS="$tmp/none" QEMU=/no/such/qemu CI=true
expect 77 '^SKIP: test tier: /no/such/qemu' -- TAPC_CORPUS="$tmp/corpus" QEMU=/no/such/qemu

NEEDS=bogus
expect 2 'unknown NEED' --

[ "$failed" -eq 0 ] && echo "skip-or-fail: all cases pass"
exit "$failed"
