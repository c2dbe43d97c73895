#!/bin/sh
# check-kbuild-replay.sh -- pass 4 builds a module by the commands kbuild
# ran for the previous one (translator/build/kbuild_replay.c): the first
# build on a runtime object keeps kbuild's commands, the next script is
# built by them without make, and its module is byte for byte the one
# kbuild makes of the same script (debug sections and build id aside:
# they name the temporary directory); a -m name works; a step that fails
# sends the build back to kbuild, which still makes the module.  On every
# kernel, 6.12 too (its headers ship a vmlinux, and tapc turns module BTF
# off so kbuild runs no pahole step that no .cmd file holds).
#
# Takes: $TAPC (default ./tapc) and $srcdir.  Produces: the failures on
# stderr and exit 1, or exit 0; skipped (77), or failed under CI=true,
# without a kernel with headers (testsuite/skip-or-fail).
set -u

CHECK=check-kbuild-replay WHAT="kbuild replay check"
. "${srcdir:-.}/testsuite/unit/p4-check-lib.sh"
# the module without what names the build directory
bare() { objcopy -g --remove-section=.note.gnu.build-id "$1" "$2"; }

build first 'global n; probe kernel.trace("sys_enter") { n++ }' || exit 1
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
