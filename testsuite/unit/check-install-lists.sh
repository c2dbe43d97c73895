#!/bin/sh
# check-install-lists.sh -- every runtime and library source file is
# installed (and so in the tarball): an installed tapc compiles modules
# and user programs from $(pkgdatadir)/runtime and reads the library from
# $(pkgdatadir)/tapsets, so a file the Makefile fragments do not list is
# missing there and every script that needs it fails to build -- while
# the tests, which use the source tree, pass.
#
# Takes: $srcdir (automake's test driver; default .), run in the build
# directory, where `make list-pkgdata` prints the installed list.
# (The READMEs are for readers of the source, in the tarball only.)
# Produces: each unlisted file on stderr and exit 1, or a count and exit 0.
set -eu

top=${srcdir:-.}
listed=$(mktemp)
trap 'rm -f "$listed"' EXIT
${MAKE:-make} -s list-pkgdata | sed 's|^\./||' | sort -u > "$listed"
missing=0 files=0
for f in $(cd "$top" && find runtime tapsets -type f \
		\( -name '*.c' -o -name '*.h' -o -name '*.stp' -o -name '*.stpm' \
		   -o -name '*.sh' \) | sort); do
	files=$((files + 1))
	if ! grep -qxF "$f" "$listed"; then
		echo "check-install-lists: $f is not installed: list it in the Makefile fragment of its directory (runtime/*.mk, tapsets/local.mk)" >&2
		missing=$((missing + 1))
	fi
done
if [ "$missing" -ne 0 ]; then
	echo "check-install-lists: $missing of $files files not installed" >&2
	exit 1
fi
echo "check-install-lists: all $files runtime and library files are installed"
