#!/bin/sh
# check-library-dir.sh -- a tapset library directory that cannot be read
# stops tapc at once with the directory, the reason and where the name
# came from; before, tapc parsed "0 library scripts" and went on, so a
# script failed later on an unknown probe point, or ran without its
# library as if nothing were wrong.
#
# Takes: $TAPC (default ./tapc in the build directory).  Produces: a
# line per failed case and exit 1, or a count and exit 0; exit 77
# (skipped) when tapc is not built.
set -u

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-library-dir: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/a-file"
failures=0 cases=0

# expect ENV... -- WANT: tapc -p1 exits 1 and says WANT
expect() {
	want=$1
	shift
	cases=$((cases + 1))
	env "$@" "$tapc" -p1 -e 'probe begin { print("x") }' > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 1 ] || ! grep -qxF "$want" "$tmp/err"; then
		echo "FAIL: $* (exit $rc): wanted: $want" >&2
		sed 's/^/  got: /' "$tmp/err" >&2
		failures=$((failures + 1))
	fi
}

expect "tapc: error: cannot read the tapset library directory $tmp/none: No such file or directory (TAPC_TAPSET_DIR names it)" \
	TAPC_TAPSET_DIR="$tmp/none"
expect "tapc: error: cannot read the tapset library directory $tmp/none: No such file or directory (SYSTEMTAP_TAPSET names it)" \
	-u TAPC_TAPSET_DIR SYSTEMTAP_TAPSET="$tmp/none"
expect "tapc: error: cannot read the tapset library directory $tmp/a-file: Not a directory (TAPC_TAPSET_DIR names it)" \
	TAPC_TAPSET_DIR="$tmp/a-file"

# and an empty directory is a library with nothing in it, not an error
cases=$((cases + 1))
mkdir "$tmp/empty"
if ! TAPC_TAPSET_DIR="$tmp/empty" "$tapc" -p1 -e 'probe begin { print("x") }' > /dev/null 2> "$tmp/err"; then
	echo "FAIL: an empty library directory was refused:" >&2
	cat "$tmp/err" >&2
	failures=$((failures + 1))
fi

if [ $failures -ne 0 ]; then
	echo "check-library-dir: $failures of $cases cases failed" >&2
	exit 1
fi
echo "check-library-dir: $cases cases passed"
