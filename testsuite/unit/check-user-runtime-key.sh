#!/bin/sh
# check-user-runtime-key.sh -- the user target's runtime object is cached
# under a key that covers every file of runtime/user, runtime/core and
# runtime/bpf (translator/build/build_user.c, hash_tree): a second build
# takes it from the cache, and an edit to any of those files -- here
# core/abi.h, which a hand-kept list of names once missed, so programs
# built against the old struct tap_module_desc crashed -- or a new file
# makes a new one.
#
# Takes: $TAPC (default ./tapc) and $srcdir.  Produces: the failures on
# stderr and exit 1, or exit 0; skipped (77) without a built tapc.
set -u

tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-user-runtime-key: $tapc is not built; skipped" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
cp -r "${srcdir:-.}/runtime" "$tmp/rt"

# build LABEL WANT: -p4 of a script of its own (so that the program is
# not a cache hit) against $tmp/rt; WANT is "cache" or "build"
build() {
	TAPC_RUNTIME_DIR=$tmp/rt XDG_CACHE_HOME=$tmp/cache \
		"$tapc" -v --target=user -p4 -e "probe begin { printf(\"$1\\n\"); exit() }" \
		> /dev/null 2> "$tmp/$1.err" ||
		{ fail "$1: tapc exited $?"; cat "$tmp/$1.err" >&2; return; }
	if grep -q 'runtime object from the cache' "$tmp/$1.err"; then got=cache; else got=build; fi
	[ "$got" = "$2" ] || fail "$1: the runtime object came from a $got, not a $2"
}

build first build
build again cache
printf '/* edited */\n' >> "$tmp/rt/core/abi.h"
build abi-edited build
build abi-again cache
printf '/* new */\n' > "$tmp/rt/user/new.h"
build file-added build
exit $failed
