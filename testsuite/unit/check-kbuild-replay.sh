#!/bin/sh
# check-kbuild-replay.sh -- pass 4 builds a module by the commands kbuild
# ran for the previous one (translator/build/kbuild_replay.c): the first
# build on a runtime object keeps kbuild's commands, the next script is
# built by them without make, and its module is byte for byte the one
# kbuild makes of the same script (debug sections and build id aside:
# they name the temporary directory); a -m name works; a step that fails
# sends the build back to kbuild, which still makes the module.  On a
# kernel whose headers ship a vmlinux (6.12: kbuild runs pahole for the
# module's BTF, a step no .cmd file holds) nothing is kept, and the
# module is kbuild's.
#
# Takes: $TAPC (default ./tapc) and $srcdir.  Produces: the failures on
# stderr and exit 1, or exit 0; skipped (77), or failed under CI=true,
# without a kernel with headers (testsuite/skip-or-fail).
set -u

tapc=${TAPC:-./tapc}
case $tapc in /*) ;; *) tapc=$(pwd)/$tapc ;; esac
top=${srcdir:-.}
[ -x "$tapc" ] || { echo "check-kbuild-replay: $tapc is not built; skipped" >&2; exit 77; }
"$top/testsuite/skip-or-fail" "kbuild replay check" kernel || exit
krel=$("$top/testsuite/vm/find-kernel") || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# build NAME SCRIPT [OPTION...]: -p4 with -v into a cache of our own;
# the module's path in $tmp/NAME.ko, tapc's stderr in $tmp/NAME.err.
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
# the module without what names the build directory
bare() { objcopy -g --remove-section=.note.gnu.build-id "$1" "$2"; }

build first 'global n; probe kernel.trace("sys_enter") { n++ }' || exit 1
if [ -e "/lib/modules/$krel/build/vmlinux" ]; then
	grep -q "kbuild's commands kept" "$tmp/first.err" &&
		fail "first: commands kept although kbuild ran pahole for BTF"
	[ $failed = 0 ] && echo "check-kbuild-replay: $krel's headers have a vmlinux: not replayed: ok"
	exit $failed
fi
said first "kbuild's commands kept"
script='global n; probe kernel.trace("sys_enter") { if ($id == 39) n += 3 } probe end { printf("%d\n", n) }'
build replayed "$script" || exit 1
said replayed "built by kbuild's commands"
ko=$(cat "$tmp/replayed.ko")
cp "$ko" "$tmp/replayed-copy.ko"
rm -rf "$(dirname "$ko")"	# the same script again, by kbuild this time
TAPC_KBUILD_REPLAY=0 build kbuilt "$script" || exit 1
grep -q "built by kbuild's commands" "$tmp/kbuilt.err" &&
	fail "kbuilt: replayed with TAPC_KBUILD_REPLAY=0"
bare "$tmp/replayed-copy.ko" "$tmp/a.ko" && bare "$(cat "$tmp/kbuilt.ko")" "$tmp/b.ko" &&
	cmp -s "$tmp/a.ko" "$tmp/b.ko" ||
	fail "the replayed module differs from kbuild's (beyond debug sections and build id)"

# -m leaves NAME.ko in the current directory: ours, not the build tree
here=$(pwd)
cd "$tmp" || exit 1
build named 'probe timer.s(1) { printf("%d\n", pid()) }' -m replay_named || exit 1
cd "$here" || exit 1
said named "built by kbuild's commands"
case $(cat "$tmp/named.ko") in
*/replay_named.ko) ;;
*) fail "named: module is $(cat "$tmp/named.ko")" ;;
esac
readelf -p .modinfo "$(cat "$tmp/named.ko")" 2>/dev/null | grep -q ' name=replay_named$' ||
	fail "named: its .modinfo has no name=replay_named"

# a step that fails: kbuild instead
steps=$(ls "$tmp"/cache/tapc/runtime/*/kbuild-steps)
sed -i 's/^\(@NAME@\.mod\.o\t[^\t]*\t\)/\1false \&\& /' "$steps"
build fallback 'probe timer.s(2) { printf("%d\n", tid()) }' || exit 1
said fallback "replaying kbuild's commands failed"

[ $failed = 0 ] && echo "check-kbuild-replay: kept, replayed (same module as kbuild's), -m name, fallback: ok"
exit $failed
