#!/bin/sh
# check-diag-ids.sh -- every diagnostic id is in the one table, explained,
# and every id in the table is used.
#
# The table is translator/common/diag_ids.def. An id is "used" when it is
# written as a string ("E_NO_MATCH") in the translator's sources or the
# tapsets -- quoted, because C names such as process.c's W_EVENT are not
# ids. Tests name ids too: in brackets in the .err files under testsuite/,
# on the '# expect:' lines of test scripts, and as strings in the unit
# tests (but test_diag.c, which names unknown ids on purpose).
#
# Fails when: an id used or expected anywhere is not in the table; an id's
# `tapc --explain` does not print its meaning, cause and fix; a DIAG_ID
# entry is used nowhere (delete it, or mark it DIAG_RESERVED); a
# DIAG_RESERVED entry is used (drop the mark).
#
# Takes: $TAPC (default ./tapc in the build directory) and $srcdir (set by
# automake's test driver). Produces: the problems on stderr and exit 1, or
# a count and exit 0; exit 77 (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
top=${srcdir:-.}
table=$top/translator/common/diag_ids.def

if [ ! -x "$tapc" ]; then
	echo "check-diag-ids: $tapc is not built; skipped" >&2
	exit 77
fi
if [ ! -r "$table" ]; then
	echo "check-diag-ids: cannot read $table" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
id='[EW]_[A-Z0-9_]*[A-Z0-9]'

# The table: DIAG_ID(X, ...) and DIAG_RESERVED(X, ...) at a line's start.
sed -n "s/^DIAG_ID(\($id\),.*/\1/p" "$table" | sort -u >"$tmp/active"
sed -n "s/^DIAG_RESERVED(\($id\),.*/\1/p" "$table" | sort -u >"$tmp/reserved"
sort -u "$tmp/active" "$tmp/reserved" >"$tmp/table"
if [ ! -s "$tmp/active" ]; then
	echo "check-diag-ids: found no DIAG_ID entries in $table" >&2
	exit 1
fi

# Ids the translator and the tapsets report (file: id, for the messages).
find "$top/translator" -type f \( -name '*.[chly]' \) -print |
	sort | while read -r f; do
		grep -oE "\"$id\"" "$f" | tr -d '"' | sed "s|^|${f#"$top"/}: |"
	done >"$tmp/used-where"
if [ -d "$top/tapsets" ]; then
	find "$top/tapsets" -type f \( -name '*.stp' -o -name '*.stpm' \) \
		-print | sort | while read -r f; do
		grep -oE "\"$id\"" "$f" | tr -d '"' |
			sed "s|^|${f#"$top"/}: |"
	done >>"$tmp/used-where"
fi
cut -d' ' -f2 "$tmp/used-where" | sort -u >"$tmp/used"

# Ids the tests expect.
find "$top/testsuite" -type f -name '*.err' -print | sort |
	while read -r f; do
		grep -aoE "\[$id\]" "$f" | tr -d '[]' |
			sed "s|^|${f#"$top"/}: |"
	done >"$tmp/expected-where"
find "$top/testsuite" -type f -name '*.stp' -print | sort |
	while read -r f; do
		grep -aE '^# *expect:' "$f" | grep -oE "\b$id\b" |
			sed "s|^|${f#"$top"/}: |"
	done >>"$tmp/expected-where"
find "$top/testsuite/unit" -type f -name 'test_*.c' ! -name test_diag.c \
	-print | sort | while read -r f; do
		grep -oE "\"$id\"" "$f" | tr -d '"' | sed "s|^|${f#"$top"/}: |"
	done >>"$tmp/expected-where"

problems=0
say() {
	echo "check-diag-ids: $*" >&2
	problems=$((problems + 1))
}

# 1. Every id used or expected is in the table.
cat "$tmp/used-where" "$tmp/expected-where" | while read -r where x; do
	grep -qx "$x" "$tmp/table" ||
		echo "$x is in ${where%:} but not in translator/common/diag_ids.def"
done >"$tmp/unknown"
while read -r line; do
	say "$line"
done <"$tmp/unknown"

# 2. Every id in the table is explained by tapc --explain.
while read -r x; do
	out=$("$tapc" --explain "$x" 2>&1) || { say "tapc --explain $x fails"; continue; }
	for part in "$x (" "Meaning: " "Typical cause: " "Fix: "; do
		case $out in
		*"$part"*) ;;
		*) say "tapc --explain $x does not print '$part'" ;;
		esac
	done
done <"$tmp/table"

# 3. Every active entry is used; no reserved one is.
comm -23 "$tmp/active" "$tmp/used" >"$tmp/unused"
while read -r x; do
	say "$x is in diag_ids.def but no source reports it (delete it, or mark it DIAG_RESERVED)"
done <"$tmp/unused"
comm -12 "$tmp/reserved" "$tmp/used" >"$tmp/misreserved"
while read -r x; do
	say "$x is marked DIAG_RESERVED but a source reports it (make it DIAG_ID)"
done <"$tmp/misreserved"

echo "check-diag-ids: $(wc -l <"$tmp/table") ids in the table," \
	"$(wc -l <"$tmp/used") used by the sources," \
	"$(cut -d' ' -f2 "$tmp/expected-where" | sort -u | wc -l) named by tests;" \
	"$problems problems"
[ "$problems" -eq 0 ]
