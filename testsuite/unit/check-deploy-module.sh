#!/bin/sh
# check-deploy-module.sh -- what `tapc -p4` leaves for another machine
# (translator/driver/deploy_module.c, sign_key.c): NAME.ko in the current
# directory, without debug sections and smaller than the cache's full
# copy, which stays; without -m nothing here, as stap; --sign-module=DIR makes a key
# pair once (private key 0600), signs with it (modinfo's signer), prints
# the mokutil step, and signs again with the same key.
#
# Takes: $TAPC (default ./tapc), $srcdir; a kernel with headers
# (testsuite/vm/find-kernel), else skipped.  Builds into a cache of its
# own.  Produces: exit 0, 1 with what differed, 77 when skipped.
set -u

top=$(cd "${srcdir:-.}" && pwd)
tapc=${TAPC:-./tapc}
case $tapc in /*) ;; *) tapc=$(pwd)/$tapc ;; esac
[ -x "$tapc" ] || { echo "check-deploy-module: $tapc is not built; skipped" >&2; exit 77; }
krel=$("$top/testsuite/vm/find-kernel" 2>/dev/null) ||
	{ echo "check-deploy-module: no kernel with headers; skipped" >&2; exit 77; }
for tool in strip readelf modinfo openssl; do
	command -v $tool > /dev/null ||
		{ echo "check-deploy-module: no $tool; skipped" >&2; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapc-deploy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "check-deploy-module: $*" >&2; failed=1; }
export XDG_CACHE_HOME="$tmp/cache"
script='probe begin { println("deployed") exit() }'

# 1. -p4 -m NAME: NAME.ko here, stripped; the cache's copy is full
mkdir "$tmp/here" && cd "$tmp/here" || exit 1
if ! cached=$("$tapc" -p4 -r "$krel" -m tdeploy -e "$script" 2> "$tmp/err"); then
	fail "tapc -p4 -m tdeploy failed:"; cat "$tmp/err" >&2; exit 1
fi
[ -f tdeploy.ko ] || fail "-p4 -m tdeploy left no tdeploy.ko in the current directory"
[ -f "$cached" ] || fail "-p4 printed '$cached', which is not a file"
case $cached in "$tmp/cache/"*) ;; *) fail "-p4 printed '$cached', not a path in the cache" ;; esac
readelf -S "$cached" | grep -q '\.debug_info' || fail "the cache's copy has no .debug_info"
readelf -S tdeploy.ko | grep -q '\.debug_' && fail "tdeploy.ko still has debug sections"
readelf -S tdeploy.ko | grep -q '\.symtab' || fail "tdeploy.ko lost its symbol table"
full=$(wc -c < "$cached") small=$(wc -c < tdeploy.ko)
[ "$small" -lt "$full" ] || fail "tdeploy.ko ($small bytes) is not smaller than the cache's ($full)"
[ "$(modinfo -F name tdeploy.ko)" = tdeploy ] || fail "modinfo name of tdeploy.ko is not tdeploy"
[ -z "$(modinfo -F signer tdeploy.ko)" ] || fail "tdeploy.ko is signed without --sign-module"

# 2. -p4 without -m: only the cache's path, as stap; nothing here
"$tapc" -p4 -r "$krel" -e "$script" > "$tmp/path" 2> "$tmp/err" || fail "tapc -p4 failed"
[ -f "$(cat "$tmp/path")" ] || fail "-p4 without -m printed no module path"
set -- tap_*.ko
[ -f "$1" ] && fail "-p4 without -m left $1 here"

# 3. --sign-module=DIR: a key pair made once, the module signed with it
keys=$tmp/keys
"$tapc" -p4 -r "$krel" -m tsigned --sign-module="$keys" -e "$script" \
	> /dev/null 2> "$tmp/err" || { fail "--sign-module failed:"; cat "$tmp/err" >&2; }
[ "$(stat -c %a "$keys/signing_key.pem" 2>/dev/null)" = 600 ] ||
	fail "$keys/signing_key.pem is missing or not mode 0600"
[ "$(modinfo -F signer tsigned.ko)" = "tapc module signing key" ] ||
	fail "modinfo does not show tsigned.ko signed by tapc's key: '$(modinfo -F signer tsigned.ko)'"
grep -q "mokutil --import $keys/signing_key.x509" "$tmp/err" ||
	fail "--sign-module did not print the mokutil step"
grep -q "made a module-signing key" "$tmp/err" || fail "no word of the key being made"
key1=$(modinfo -F sig_key tsigned.ko)
rm tsigned.ko
"$tapc" -p4 -r "$krel" -m tsigned --sign-module="$keys" -e "$script" \
	> /dev/null 2> "$tmp/err" || fail "--sign-module failed the second time"
grep -q "made a module-signing key" "$tmp/err" && fail "the key was made again"
[ "$(modinfo -F sig_key tsigned.ko)" = "$key1" ] || fail "the second signature has another key"
exit $failed
