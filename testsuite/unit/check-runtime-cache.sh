#!/bin/sh
# check-runtime-cache.sh -- pass 4 compiles the runtime once and links it
# into every module (translator/build/kbuild.c): a second script with the
# same -D limits takes the runtime object from the cache, a script with
# other limits gets one of its own, and the modules built either way are
# complete (one runtime function, tap_transport_init, in each .ko); with
# --disable-cache a module is built and no cache made.
#
# Takes: $TAPC (default ./tapc) and $srcdir.  Produces: the failures on
# stderr and exit 1, or exit 0; skipped (77), or failed under CI=true,
# without a kernel with headers (testsuite/skip-or-fail).
set -u

CHECK=check-runtime-cache WHAT="runtime cache check"
. "${srcdir:-.}/testsuite/unit/p4-check-lib.sh"

build first 'global n; probe kernel.trace("sys_enter") { n++ }'
said first 'runtime object to build'
build second 'probe timer.s(1) { printf("%d\n", pid()) }'
said second 'runtime object from the cache'
build limits 'probe timer.s(1) { printf("%d\n", pid()) }' -DMAXSTRINGLEN=300
said limits 'runtime object to build'
n=$(ls "$tmp/cache/tapc/runtime" 2>/dev/null | wc -l)
[ "$n" = 2 ] || fail "$n runtime objects in the cache, not 2 (one per set of -D limits)"

# --disable-cache: the module is built (the runtime compiled, not taken
# from the cache above) and nothing is read from or written to a cache
if XDG_CACHE_HOME=$tmp/nocache "$tapc" -v -p4 -r "$krel" --disable-cache \
	-e 'probe timer.s(1) { printf("%d\n", pid()) }' >"$tmp/nocache.ko" 2>"$tmp/nocache.err"; then
	ko=$(cat "$tmp/nocache.ko")
	nm "$ko" 2>/dev/null | grep -q ' tap_transport_init$' ||
		fail "nocache: $ko has no runtime (tap_transport_init)"
	rm -rf "$(dirname "$ko")"
	said nocache 'runtime object to build'
	[ ! -e "$tmp/nocache" ] || fail "--disable-cache made $(find "$tmp/nocache" | head -3)"
else
	fail "nocache: tapc -p4 --disable-cache failed:"
	tail -5 "$tmp/nocache.err" >&2
fi

[ $failed = 0 ] && echo "check-runtime-cache: 4 modules (one uncached), 2 runtime objects: ok"
exit $failed
