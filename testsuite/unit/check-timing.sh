#!/bin/sh
# check-timing.sh -- `tapc -t` (issue 16).  At pass 3: with -t every
# probe handler reads the cycle counter at entry and records at its end,
# and the descriptor names each probe for the report; without -t there is
# no trace of it in the generated C, so that plain runs pay nothing.  On
# the user target, run here: the report's lines (runtime/core/timing.c),
# exact hits and errors.  -t with --runtime=bpf is refused by name.  The
# VM test (testsuite/kernel, test timing) checks the kernel's report.
#
# Takes: $TAPC (default ./tapc in the build directory).
# Produces: what went wrong on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-timing: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/timing.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "check-timing: $*" >&2; fail=1; }

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
	grep -q '^	uint64_t __tap_t0 = tap_timing_start();$' "$tmp/h$i" ||
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

# the user target's report: timer hits exactly 5 (exit() in the 5th;
# one thread, nothing skipped), the never-run probe has no line, the end
# probe's error is counted against it
user='global n
probe begin { println("begin") }
probe timer.ms(5) { n++; if (n == 5) exit() }
probe timer.s(1000) { println("never") }
probe end { printf("n=%d\n", n); x = 1 / (n - 5) }'
"$tapc" -t --target=user -e "$user" > "$tmp/out" 2> "$tmp/err" && bad "-t --target=user: exit status 0 after an ERROR"
cyc='cycles: [0-9]+min/[0-9]+avg/[0-9]+max, variance: -?[0-9]+'
for want in '^begin$' '^n=5$' '^----- probe hit report: $' \
	"^begin, \(<input>:2:1\), hits: 1, $cyc, from: begin, index: 0\$" \
	"^timer\.ms\(5\), \(<input>:3:1\), hits: 5, $cyc, from: timer\.ms\(5\), index: 1\$" \
	"^end, \(<input>:5:1\), hits: 1, $cyc, from: end, index: 3\$" \
	'^----- probe error report:$' \
	'^end, \(<input>:5:1\), errors: 1, skipped: 0, index: 3$'; do
	grep -Eq -- "$want" "$tmp/out" || bad "--target=user: no line matching $want in: $(cat "$tmp/out")"
done
[ "$(grep -c ', index: ' "$tmp/out")" = 4 ] || bad "--target=user: not 3 hit lines and 1 error line"
sed -n 's/.*cycles: \([0-9]*\)min\/\([0-9]*\)avg\/\([0-9]*\)max.*/\1 \2 \3/p' "$tmp/out" |
	awk '$1 > $2 || $2 > $3 { bad = 1 } END { exit bad }' || bad "--target=user: min/avg/max out of order"
grep -q '^ERROR: division by 0' "$tmp/err" || bad "--target=user: no ERROR line: $(cat "$tmp/err")"

# refused by name where there is no report
if "$tapc" -p3 -t --runtime=bpf -e "$script" > /dev/null 2> "$tmp/err"; then
	bad "-t --runtime=bpf accepted"
fi
grep -q -- '-t (the per-probe timing report is the module.s) is for the kernel-module backend, not --runtime=bpf' "$tmp/err" ||
	bad "-t --runtime=bpf: $(cat "$tmp/err")"
exit $fail
