#!/bin/sh
# check-timing-codegen.sh -- `tapc -t` (issue 16) at pass 3: with -t every
# probe handler reads the cycle counter at entry and records at its end,
# and the module descriptor names each probe for the report
# (runtime/linux/timing.c); without -t there is no trace of it in the
# generated C, so that plain runs pay nothing.  -t with the targets that
# have no report is refused by name.  The VM test (testsuite/kernel,
# test timing) checks the report itself.
#
# Takes: $TAPC (default ./tapc in the build directory).
# Produces: what went wrong on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-timing-codegen: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timing.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "check-timing-codegen: $*" >&2; fail=1; }

script='global n
probe begin { n = 1 }
probe timer.ms(10) { n++ }
probe syscall.getppid { if (n > 3) exit() }
probe end { println(n) }'

"$tapc" -p3 -t -e "$script" > "$tmp/t.c" 2> "$tmp/err" || { cat "$tmp/err" >&2; bad "-p3 -t failed"; }
"$tapc" -p3 -e "$script" > "$tmp/plain.c" 2> "$tmp/err" || { cat "$tmp/err" >&2; bad "-p3 failed"; }

# four handlers, each timed from entry to its end with its own index
for i in 0 1 2 3; do
	sed -n "/^probe_$i(struct tap_context \*c)\$/,/^}/p" "$tmp/t.c" > "$tmp/h$i"
	grep -q '^	cycles_t __tap_t0 = tap_timing_start();$' "$tmp/h$i" ||
		bad "probe_$i does not start the clock with -t"
	tail -n 2 "$tmp/h$i" | grep -q "^	tap_timing_record($i, __tap_t0, c->error);\$" ||
		bad "probe_$i does not record as its last statement with -t"
done
[ "$(grep -c '\.handler = probe_[0-9], \.timing_index = [0-9] }' "$tmp/t.c")" -ge 4 ] ||
	bad "the probe records do not carry their timing index (for skips)"
grep -q '^	\.timing = __tap_timing, \.n_timing = 4,$' "$tmp/t.c" ||
	bad "the descriptor does not point at the 4 probes' names"
	grep -q '{ "timer.ms(10)", "[^"]*:3:1", " from: timer.ms(10)" },' "$tmp/t.c" ||
	bad "no report name for timer.ms(10)"

# without -t: nothing
if grep -q 'tap_timing\|__tap_t0\|timing_index' "$tmp/plain.c"; then
	bad "timing code generated without -t:"
	grep -n 'tap_timing\|__tap_t0\|timing_index' "$tmp/plain.c" >&2
fi

# refused by name where there is no report
if "$tapc" -p3 -t --target=user -e "$script" > /dev/null 2> "$tmp/err"; then
	bad "-t --target=user accepted"
fi
grep -q "option '-t with --target=user' is not supported yet" "$tmp/err" ||
	bad "-t --target=user: $(cat "$tmp/err")"
if "$tapc" -p3 -t --runtime=bpf -e "$script" > /dev/null 2> "$tmp/err"; then
	bad "-t --runtime=bpf accepted"
fi
grep -q -- '-t (the per-probe timing report is the module.s) is for the kernel-module backend, not --runtime=bpf' "$tmp/err" ||
	bad "-t --runtime=bpf: $(cat "$tmp/err")"
exit $fail
