#!/bin/sh
# check-bpf-object-cache.sh -- --runtime=bpf's pass 4 compiles a script's
# BPF C once (translator/build/build_bpf.c): a second -p4 of the same
# script takes the object from the cache, runs no clang, and prints the
# same program; two empty caches give byte-identical objects (the
# scratch directory does not reach the object's debug information), so
# the user program around it has one cache key too.  Before, every run
# compiled both halves again (~0.7 s from script to first event).
#
# Takes: $TAPC (default ./tapc).  Produces: the failures on stderr and
# exit 1, or exit 0; skipped (77) without a built tapc, clang, libbpf's
# headers or the running kernel's BTF.
set -u

tapc=${TAPC:-./tapc}
skip() { echo "check-bpf-object-cache: $*; skipped" >&2; exit 77; }
[ -x "$tapc" ] || skip "$tapc is not built"
command -v clang > /dev/null 2>&1 || skip "no clang"
[ -r /usr/include/bpf/bpf_helpers.h ] || skip "no libbpf headers"
[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
mkdir -m 700 "$tmp/c1" "$tmp/c2" "$tmp/scratch"
script='global n; probe kernel.trace("sys_enter") { n++ } probe end { printf("%d\n", n) }'

# p4 CACHEDIR: tapc --runtime=bpf -v -p4; the printed path in $out, the
# verbose report in $tmp/err.
p4() {
	out=$(TMPDIR=$tmp/scratch TAPC_CACHE_DIR=$1 \
		"$tapc" --runtime=bpf -v -p4 -e "$script" 2>"$tmp/err") ||
		{ fail "tapc --runtime=bpf -p4: exit $?"; cat "$tmp/err" >&2; }
}

p4 "$tmp/c1"
grep -q "'clang' -target bpf" "$tmp/err" || fail "the first -p4 ran no clang"
obj1=$(ls "$tmp"/c1/bpf/*/tap_bpf.bpf.o 2>/dev/null)
[ -n "$obj1" ] || fail "no BPF object in the cache after the first -p4"
first=$out
p4 "$tmp/c1"
grep -q "'clang'" "$tmp/err" && fail "the second -p4 ran clang again"
grep -q "using cached .*tap_bpf.bpf.o" "$tmp/err" || fail "the second -p4 did not say it used the cached object"
[ "$out" = "$first" ] || fail "a second -p4 printed '$out', not the cached '$first'"

p4 "$tmp/c2"
obj2=$(ls "$tmp"/c2/bpf/*/tap_bpf.bpf.o 2>/dev/null)
cmp -s "$obj1" "$obj2" || fail "two compiles of one script gave different objects"
grep -q tapcbpf "$obj1" && fail "the object names its scratch directory"
[ "${out#$tmp/c2/}" = "${first#$tmp/c1/}" ] || fail "the two caches keyed the program differently: $first, $out"
[ -z "$(ls "$tmp/scratch")" ] || fail "-p4 left $(ls "$tmp/scratch") in TMPDIR"
exit $failed
