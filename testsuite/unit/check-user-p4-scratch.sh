#!/bin/sh
# check-user-p4-scratch.sh -- the user target's pass 4 leaves no scratch
# directory in TMPDIR (translator/build/build_user.c): the program it
# prints at -p4 is the module cache's copy, which a second -p4 of the
# same script prints again (a cache hit); with --disable-cache the
# scratch directory is the result and stays, and -k keeps it.
#
# Takes: $TAPC (default ./tapc).  Produces: the failures on stderr and
# exit 1, or exit 0; skipped (77) without a built tapc.
set -u

tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-user-p4-scratch: $tapc is not built; skipped" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
mkdir "$tmp/scratch" "$tmp/cache"
script='probe begin { printf("p4 scratch\n"); exit() }'

# p4 [OPTION...]: tapc --target=user -p4 into our own TMPDIR and cache;
# the printed path in $out.
p4() {
	out=$(TMPDIR=$tmp/scratch XDG_CACHE_HOME=$tmp/cache \
		"$tapc" --target=user -p4 "$@" -e "$script" 2>"$tmp/err") ||
		{ fail "tapc --target=user -p4 $*: exit $?"; cat "$tmp/err" >&2; }
}

p4
case $out in "$tmp/cache/"*) ;; *) fail "-p4 printed '$out', not a path in the cache" ;; esac
[ -x "$out" ] || fail "-p4's program $out is not there"
[ -z "$(ls "$tmp/scratch")" ] || fail "-p4 left $(ls "$tmp/scratch") in TMPDIR"
first=$out
p4
[ "$out" = "$first" ] || fail "a second -p4 printed '$out', not the cached '$first'"
[ "$("$out")" = "p4 scratch" ] || fail "the cached program does not run"

p4 --disable-cache
case $out in "$tmp/scratch/"*) ;; *) fail "--disable-cache -p4 printed '$out', not a path in TMPDIR" ;; esac
[ -x "$out" ] || fail "--disable-cache: the program $out is not there"
rm -rf "${tmp:?}/scratch/"*

p4 -k
[ -n "$(ls "$tmp/scratch")" ] || fail "-k kept nothing in TMPDIR"
exit $failed
