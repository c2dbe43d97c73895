#!/bin/sh
# check-comment-escape.sh -- text from the script that pass 3 puts into C
# comments (probe points, script and program paths) cannot end them early:
# a "*/" in it used to break the build (cg_comment in cg_writer.c).
#
# Takes: $TAPC (default ./tapc in the build directory); cc for the user
# target's build.
# Produces: what went wrong on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-comment-escape: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/comment-escape.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# The user target compiles the C with cc: a script in a directory "d*"
# is named in the file's first comment and in each probe's.
mkdir "$tmp/d*"
printf 'probe begin { println("built") exit() }\n' > "$tmp/d*/s.stp"
out=$("$tapc" --target=user "$tmp/d*/s.stp" 2> "$tmp/err") || true
if [ "$out" != built ]; then
	echo "check-comment-escape: a script in d*/ did not build and run:" >&2
	head -n 5 "$tmp/err" >&2
	fail=1
fi

# The kernel target's C (-p3: no kernel build needed): a probe point with
# "*/" in its string, in a comment, must come out split.
printf 'probe procfs("a*/b").read { $value = "x" }\n' > "$tmp/p.stp"
"$tapc" -p3 "$tmp/p.stp" > "$tmp/p.c" 2> "$tmp/err" || {
	echo "check-comment-escape: tapc -p3 failed:" >&2
	head -n 5 "$tmp/err" >&2
	exit 1
}
if grep -n '/\*.*a\*/b' "$tmp/p.c" >&2; then
	echo "check-comment-escape: the lines above end a comment early" >&2
	fail=1
fi
grep -qF '/* probe procfs("a* /b").read at' "$tmp/p.c" || {
	echo "check-comment-escape: no comment for the procfs probe" >&2
	fail=1
}

# A program in a directory "x*": its path is in the probe's comment and in
# those of its unwind tables (print_ubacktrace), when cc can build one.
mkdir "$tmp/x*"
printf 'int main(void) { return 0; }\n' > "$tmp/m.c"
if ${CC:-cc} -g -o "$tmp/x*/y" "$tmp/m.c" 2> /dev/null; then
	printf 'probe process("%s").function("main") { print_ubacktrace() }\n' \
		"$tmp/x*/y" > "$tmp/u.stp"
	"$tapc" -p3 "$tmp/u.stp" > "$tmp/u.c" 2> "$tmp/err" || {
		echo "check-comment-escape: tapc -p3 failed:" >&2
		head -n 5 "$tmp/err" >&2
		exit 1
	}
	if grep -n '/\*.*x\*/y' "$tmp/u.c" >&2; then
		echo "check-comment-escape: the lines above end a comment early" >&2
		fail=1
	fi
	n=$(grep -c '/\*.*x\* /y' "$tmp/u.c" || true)
	[ "$n" -ge 3 ] || {
		echo "check-comment-escape: $n comments name the program, want 3" >&2
		fail=1
	}
fi
exit $fail
