#!/bin/sh
# check-split-data.sh -- testsuite/vm/split-data, the VM harness's reader
# of the guest's data log: sections come out byte for byte (with and
# without a final newline, empty, with carriage returns dropped), and a
# section that lost bytes between the guest and this host is named in the
# test's channel file -- the check that turns a damaged data channel into
# a harness error instead of a test's puzzling output.
#
# Takes: $srcdir (automake's test driver; default .).
# Produces: "ok" lines and exit 0, or what differed and exit 1.
set -eu

split=${srcdir:-.}/testsuite/vm/split-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
bad() { echo "FAIL: $*"; failed=1; }

# A log as mkinitramfs's /init writes it: "two\nlines\n" (10 bytes), a
# stderr without a final newline (7), an empty klog, a leftover with a
# carriage return the host drops (4 counted), then a second test whose
# stdout lost its middle (40 sent), and a boot-time section without a size.
printf '%s\n' '@@TAP-BOOTED 6.1 cpus=2' '@@TAP-BOOTLOG' 'boot line' '' \
	'@@TAP-BEGIN good' '@@TAP-STDOUT 10' 'two' 'lines' '' \
	'@@TAP-STDERR 7' 'no-nl!!' '@@TAP-KLOG 0' '' > "$tmp/data.log"
printf '@@TAP-LEFTOVER 4\r\nmod\r\n\n@@TAP-END good rc=0\n' >> "$tmp/data.log"
printf '%s\n' '@@TAP-BEGIN cut' '@@TAP-STDOUT 40' 'first line' 'last line' '' \
	'@@TAP-STDERR 0' '' '@@TAP-KLOG 0' '' '@@TAP-LEFTOVER 0' '' \
	'@@TAP-END cut rc=3' '@@TAP-KLOG-TAIL 5' 'tail' '' '@@TAP-DONE' >> "$tmp/data.log"

"$split" "$tmp/data.log" "$tmp/res"
r=$tmp/res
printf 'two\nlines\n' | cmp -s - "$r/good/stdout" || bad "good/stdout: $(od -c "$r/good/stdout" | head -3)"
printf 'no-nl!!' | cmp -s - "$r/good/stderr" || bad "good/stderr: $(od -c "$r/good/stderr" | head -3)"
[ -f "$r/good/klog" ] && [ ! -s "$r/good/klog" ] || bad "good/klog is not an empty file"
printf 'mod\n' | cmp -s - "$r/good/leftover" || bad "good/leftover: $(od -c "$r/good/leftover" | head -3)"
[ "$(cat "$r/good/rc")" = 0 ] || bad "good/rc: $(cat "$r/good/rc")"
[ ! -e "$r/good/channel" ] || bad "good: intact sections reported as damaged: $(cat "$r/good/channel")"
[ $failed -eq 1 ] || echo "ok: intact sections come out byte for byte, none reported"

grep -qx 'stdout: the guest sent 40 bytes, this host got 21' "$r/cut/channel" 2>/dev/null ||
	bad "cut: no channel line for the short stdout: $(cat "$r/cut/channel" 2>/dev/null)"
[ "$(cat "$r/cut/channel" 2>/dev/null | wc -l)" -eq 1 ] || bad "cut: intact sections reported too: $(cat "$r/cut/channel")"
[ "$(cat "$r/cut/rc")" = 3 ] || bad "cut/rc: $(cat "$r/cut/rc")"
[ $failed -eq 1 ] || echo "ok: the section that lost bytes is named with both sizes"

printf 'boot line\n' | cmp -s - "$r/bootlog" || bad "bootlog: $(od -c "$r/bootlog" | head -3)"
printf 'tail\n' | cmp -s - "$r/klog-tail" || bad "klog-tail: $(od -c "$r/klog-tail" | head -3)"
[ ! -e "$r/channel" ] || bad "boot-level sections reported as damaged: $(cat "$r/channel")"
[ $failed -eq 1 ] || echo "ok: a marker without a size is read unchecked; the klog tail's size is checked"

exit $failed
