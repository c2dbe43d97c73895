#!/bin/sh
# check-tapc-flight-file.sh -- tapc's half of the file flight recorder,
# `tapc -F -o FILE` (stap -F -o): tapc hands -F -o FILE and -S, -T, -x to
# taprun, passes on what the launching taprun prints (the background
# process's pid, alone on stdout) and returns with its status; -c and -b
# are refused before anything is built.  taprun's own half (going to the
# background, FILE, kill PID) needs a kernel that loads modules: the
# kernel tier's `flight` test (testsuite/kernel/kernel.vmtest).
#
# Takes: $TAPC (default ./tapc), $srcdir; a kernel with headers
# (testsuite/vm/find-kernel), else the build half is skipped.  taprun is
# a stand-in (TAPC_TAPRUN) that records its arguments.  Builds into a
# cache of its own.  Produces: exit 0, 1 with what differed, 77 when
# tapc is not built.
set -u

top=$(cd "${srcdir:-.}" && pwd)
tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-tapc-flight-file: $tapc is not built; skipped" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapc-fflight.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "check-tapc-flight-file: $*" >&2; failed=1; }
export XDG_CACHE_HOME="$tmp/cache"
script='probe timer.s(1) { println("tick") }'

# refused before any build: the message, status 1
"$tapc" -F -o "$tmp/f" -c true -e "$script" > "$tmp/out" 2>&1 &&
	fail "-F -o -c was not refused"
grep -q '^tapc: error: -F -o cannot be used with -c (taprun goes on in the background' "$tmp/out" ||
	{ fail "-F -o -c: not the refusal:"; cat "$tmp/out" >&2; }
"$tapc" -F -o "$tmp/f" -b -e "$script" > "$tmp/out" 2>&1 &&
	fail "-F -o -b was not refused"
grep -q '^tapc: error: -F -o cannot be used with -b$' "$tmp/out" ||
	{ fail "-F -o -b: not the refusal:"; cat "$tmp/out" >&2; }

krel=$("$top/testsuite/vm/find-kernel" 2>/dev/null) ||
	{ echo "check-tapc-flight-file: no kernel with headers; the build half skipped" >&2; exit $failed; }

# The stand-in: the launching taprun's part, as taprun(8) says it: the
# pid alone on stdout, a sentence on stderr, status 0.
cat > "$tmp/taprun" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$tmp/args"
echo 4711
echo "taprun: module M runs on in the background, in process 4711, writing its output to F; \"kill 4711\" stops it" >&2
EOF
chmod +x "$tmp/taprun"
if ! TAPC_TAPRUN=$tmp/taprun "$tapc" -r "$krel" -F -o "$tmp/f.out" -S 1,2 -T 30 -x 1 \
	-e "$script" > "$tmp/out" 2> "$tmp/err"; then
	fail "tapc -F -o failed:"; cat "$tmp/err" >&2
fi
[ "$(cat "$tmp/out")" = 4711 ] || { fail "stdout is not the pid alone:"; cat "$tmp/out" >&2; }
grep -q '^taprun: module M runs on in the background' "$tmp/err" ||
	{ fail "taprun's sentence did not reach stderr:"; cat "$tmp/err" >&2; }
# taprun's arguments, one a line, the module last
printf '%s\n' -F -o "$tmp/f.out" -S 1,2 -x 1 -T 30 > "$tmp/want"
head -n 9 "$tmp/args" | diff "$tmp/want" - > "$tmp/diff" ||
	{ fail "taprun's arguments differ:"; cat "$tmp/diff" >&2; }
sed -n '10p' "$tmp/args" | grep -q '\.ko$' || { fail "taprun's last argument is not the module:"; cat "$tmp/args" >&2; }
[ "$(wc -l < "$tmp/args")" = 10 ] || { fail "taprun got more arguments:"; cat "$tmp/args" >&2; }
exit $failed
