#!/bin/sh
# check-options-doc.sh -- every option that `tapc --help` lists must be
# described in the man page doc/tapc.1.
#
# Takes: $TAPC (default ./tapc in the build directory) and $srcdir (set by
# automake's test driver) to find doc/tapc.1.
# Produces: the missing options on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
man=${srcdir:-.}/doc/tapc.1

if [ ! -x "$tapc" ]; then
	echo "check-options-doc: $tapc is not built; skipped" >&2
	exit 77
fi
if [ ! -r "$man" ]; then
	echo "check-options-doc: cannot read $man" >&2
	exit 1
fi

# Options are the dash-words in the first column of the option lines (two
# spaces, then a dash), with any "=VALUE" or "[=VALUE]" cut off.
options=$("$tapc" --help | awk '
	/^  -/ {
		n = split(substr($0, 1, 24), w, /[ ,]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^-/) { sub(/[[=].*/, "", w[i]); print w[i] }
	}' | sort -u)

if [ -z "$options" ]; then
	echo "check-options-doc: found no options in '$tapc --help'" >&2
	exit 1
fi

# The man page as plain text: roff's \- is a dash, font changes go.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$man")

missing=0
checked=0
for opt in $options; do
	checked=$((checked + 1))
	if ! printf '%s\n' "$text" |
		grep -Eq -- "(^|[^-[:alnum:]])$opt([^-[:alnum:]]|\$)"; then
		echo "check-options-doc: '$opt' is in 'tapc --help' but not in doc/tapc.1" >&2
		missing=$((missing + 1))
	fi
done
echo "check-options-doc: $checked options, $missing missing from doc/tapc.1"
[ "$missing" -eq 0 ]
