# p4-check-lib.sh -- what the unit checks of pass 4 on the kernel target
# share (check-runtime-cache.sh, check-kbuild-replay.sh): sourced after
# the check sets CHECK (its name, for messages) and WHAT (the
# skip-or-fail description).
#
# Takes: $TAPC (default ./tapc) and $srcdir.  Sets: tapc (absolute), top,
# krel, tmp (removed at exit), failed; defines fail, build and said.
# Exits 77 (skip), or 1 under CI=true, without a kernel with headers.
tapc=${TAPC:-./tapc}
case $tapc in /*) ;; *) tapc=$(pwd)/$tapc ;; esac
top=${srcdir:-.}
[ -x "$tapc" ] || { echo "$CHECK: $tapc is not built; skipped" >&2; exit 77; }
"$top/testsuite/skip-or-fail" "$WHAT" kernel || exit
krel=$("$top/testsuite/vm/find-kernel") || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# build NAME SCRIPT [OPTION...]: -p4 with -v into a cache of our own;
# the module's path in $tmp/NAME.ko, tapc's stderr in $tmp/NAME.err;
# the module must hold the runtime (tap_transport_init).  Returns 1 when
# tapc failed.
build() {
	name=$1 script=$2
	shift 2
	if ! XDG_CACHE_HOME=$tmp/cache "$tapc" -v -p4 -r "$krel" "$@" \
		-e "$script" >"$tmp/$name.ko" 2>"$tmp/$name.err"; then
		fail "$name: tapc -p4 failed:"
		tail -5 "$tmp/$name.err" >&2
		return 1
	fi
	ko=$(cat "$tmp/$name.ko")
	nm "$ko" 2>/dev/null | grep -q ' tap_transport_init$' ||
		fail "$name: $ko has no runtime (tap_transport_init)"
}
said() {	# said NAME TEXT: tapc -v said TEXT building NAME
	grep -q "$2" "$tmp/$1.err" || fail "$1: tapc -v did not say '$2'"
}
