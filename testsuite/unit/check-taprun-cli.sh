#!/bin/sh
# check-taprun-cli.sh -- taprun's command line, which needs no kernel:
# --help and -V exit 0 and say what they should; options after the module
# are read as options (staprun's order), not as VAR=VALUE settings; -S's
# values and its need of -o, and what -F, -F -o, -A and -d refuse, are
# checked before anything is loaded.
#
# Takes: $TAPRUN (default ./taprun).  Runs on the host: nothing is loaded
# (a command-line error exits 2 before taprun looks at the module).
# Produces: exit 0, 1 with what differed, 77 when taprun is not built.
set -u

taprun=${TAPRUN:-./taprun}
[ -x "$taprun" ] || { echo "check-taprun-cli: $taprun is not built; skipped" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapc-taprun-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "check-taprun-cli: $*" >&2; failed=1; }

# run WANT-RC ARGS...: taprun's status must be WANT-RC; output in $tmp/out
run() {
	want=$1
	shift
	"$taprun" "$@" > "$tmp/out" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || { fail "taprun $* exited $rc, not $want:"; cat "$tmp/out" >&2; }
}
has() { grep -Eq -- "$1" "$tmp/out" || { fail "$2: no line matching '$1' in:"; cat "$tmp/out" >&2; }; }

run 0 --help
for opt in -c -x -o -b -s -S -T -G -F -A -d -v -h -V; do
	has "^  $opt[ ,]" "--help lists $opt"
done
has 'options may also follow MODULE\.ko' "--help says options may follow"
run 0 -h
has '^usage: taprun ' "-h"
run 0 -V
has '^taprun \(tapc\) [0-9][^ ]*, ctl protocol [0-9]+$' "-V"
run 0 --version
has '^taprun \(tapc\) ' "--version"

# after the module: still options (a bad -S value after it is an error
# of -S's, not a VAR=VALUE complaint)
run 2 x.ko -S 0 -o f
has '^taprun: -S 0: expected SIZE\[,N\]' "-S 0 after the module"
run 2 x.ko -c true -x 1
has '^taprun: -c and -x exclude each other$' "-c and -x after the module"
run 2 -S 1,2 x.ko
has '^taprun: -S needs -o FILE' "-S without -o"
run 2 -o f -b -S 1 x.ko
has '^taprun: -S needs -o FILE \(and no -b\)' "-S with -b"
run 2 -o f -S 1,x x.ko
has '^taprun: -S 1,x: expected' "-S 1,x"
# -F, -A, -d: what a detached session cannot honour, refused by name
run 2 -F -c true x.ko
has '^taprun: -F cannot be used with -c and -x' "-F -c"
# -F -o FILE (the file flight recorder) goes on in the background: a -c
# command would lose its terminal, and -b has no one FILE
run 2 -F -o f -c true x.ko
has '^taprun: -F -o cannot be used with -c \(taprun goes to the background' "-F -o -c"
run 2 -F -o f -b x.ko
has '^taprun: -F -o cannot be used with -b$' "-F -o -b"
run 2 -F -S 1,2 x.ko
has '^taprun: -S needs -o FILE' "-F -S without -o"
# ... and takes -S, -T and -x: past the command line (no module x.ko)
"$taprun" -F -o "$tmp/f" -S 1,2 -T 5 -x 1 "$tmp/x.ko" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "taprun -F -o f -S 1,2 -T 5 -x 1 x.ko exited $rc, not 1 (refused as a command line?)"
grep -q 'cannot be used' "$tmp/out" && { fail "-F -o with -S -T -x refused:"; cat "$tmp/out" >&2; }
[ -e "$tmp/f" ] && fail "-F -o made its file before the module was loaded"
run 2 -A -G a=1 x
has '^taprun: -A cannot be used with -G, -s and VAR=VALUE' "-A -G"
run 2 -d -T 5 x
has '^taprun: -d cannot be used with -T' "-d -T"
run 2 -d -o f x
has '^taprun: -d cannot be used with -o$' "-d -o"
run 2 --no-such-option x.ko
run 2
has '^usage: taprun ' "no module"
exit $failed
