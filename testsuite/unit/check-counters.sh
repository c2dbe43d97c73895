#!/bin/sh
# check-counters.sh -- which globals pass 3 keeps in per-CPU counters
# (translator/codegen/codegen_counters.c): a global that probes only count
# must be one, and count without its lock; one that a running probe stores
# into, deletes or uses as a foreach variable must not.  The same for
# arrays that probes only count (per-CPU deltas, runtime/core/cmap.c).
# The language suite (testsuite/lang/global_counter.stp, array_counter.stp)
# checks that they read right; this checks that the cheap path is really
# taken, which no output shows.
#
# Takes: $TAPC (default ./tapc in the build directory).
# Produces: what went wrong on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-counters: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/counters.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# expect SCRIPT "COUNTERS" "ORDINARY": the globals that must and must not
# be per-CPU counters in SCRIPT's C (kernel target, pass 3).
expect() {
	"$tapc" -p3 -e "$1" > "$tmp/c" 2> "$tmp/err" || {
		echo "check-counters: -p3 failed for: $1" >&2
		cat "$tmp/err" >&2
		fail=1
		return
	}
	for g in $2; do
		grep -q "^TAP_COUNTER_DEFINE(g_${g}__cpu);" "$tmp/c" || {
			echo "check-counters: '$g' is not a counter in: $1" >&2
			fail=1
		}
		if handler_locks "$tmp/c" "$g"; then
			echo "check-counters: a handler locks counter '$g' in: $1" >&2
			fail=1
		fi
	done
	for g in $3; do
		if grep -q "TAP_COUNTER_DEFINE(g_${g}__cpu)" "$tmp/c"; then
			echo "check-counters: '$g' became a counter in: $1" >&2
			fail=1
		fi
	done
}

# handler_locks SCRIPT-C GLOBAL: whether a handler's lock table names it
# (autoprint's, in the end phase, may lock).
handler_locks() {
	awk '/^static const struct tap_lock_use __tap_locks_/ { t = 1 }
		t && /^};/ { t = 0 } t' "$1" | grep -q "{ &g_${2}_lock, "
}

# expect_stat SCRIPT STAT yes|no: whether probes feed STAT without a lock.
expect_stat() {
	"$tapc" -p3 -e "$1" > "$tmp/c" 2> "$tmp/err" || {
		echo "check-counters: -p3 failed for: $1" >&2
		cat "$tmp/err" >&2
		fail=1
		return
	}
	if handler_locks "$tmp/c" "$2"; then locked=yes; else locked=no; fi
	if [ "$3" = yes ] && [ $locked = yes ]; then
		echo "check-counters: '$2' is fed under its lock in: $1" >&2
		fail=1
	elif [ "$3" = no ] && [ $locked = no ]; then
		echo "check-counters: '$2' lost its lock in: $1" >&2
		fail=1
	fi
}

# expect_array SCRIPT ARRAY yes|no: whether probes count into ARRAY's
# per-CPU deltas without its lock, folded at the start of every
# begin/end/error handler.
expect_array() {
	"$tapc" -p3 -e "$1" > "$tmp/c" 2> "$tmp/err" || {
		echo "check-counters: -p3 failed for: $1" >&2
		cat "$tmp/err" >&2
		fail=1
		return
	}
	if grep -q "^static struct tap_cmap g_${2}__cpu;" "$tmp/c"; then
		deltas=yes
	else
		deltas=no
	fi
	if [ "$deltas" != "$3" ]; then
		echo "check-counters: '$2' per-CPU deltas: $deltas, want $3, in: $1" >&2
		fail=1
	fi
	if [ "$3" = yes ] && handler_locks "$tmp/c" "$2"; then
		echo "check-counters: a handler locks counted array '$2' in: $1" >&2
		fail=1
	fi
	if [ "$3" = yes ] && ! grep -q "tap_cmap_fold(&g_${2}__cpu)" "$tmp/c"; then
		echo "check-counters: counted array '$2' is never folded in: $1" >&2
		fail=1
	fi
}

tp='kernel.trace("sys_enter")'
expect "global n; probe $tp { n++ }" n ""
expect "global n, m; probe $tp { if (\$id == 1) n += \$id; m-- } probe end { printf(\"%d\", n) }" "n m" ""
expect "global n; probe $tp { n++ } probe timer.s(1) { printf(\"%d\", n) } probe begin { n = 5 } probe end { n = 0 }" n ""
expect "global n; function f() { n++ } probe $tp { f() }" n ""
expect "global n; probe $tp { n++ } probe timer.s(1) { n = 0 }" "" n
expect "global n; probe $tp { n++ } probe timer.s(1) { delete n }" "" n
expect "global n; probe $tp { x = n++; println(x) }" "" n
expect "global n; function f() { n = 1 } probe $tp { n++ } probe end { f() }" "" n
expect "global n, a; probe $tp { n++ } probe end { a[1] = 1; foreach (n in a) println(n) }" "" n
expect "global s; probe $tp { s .= \"x\" }" "" s
expect_stat "global s; probe $tp { s <<< \$id } probe end { println(@count(s)) print(@hist_log(s)) }" s yes
expect_stat "global s; probe $tp { s <<< 1 } probe begin { delete s }" s yes
expect_stat "global s; probe $tp { s <<< 1 } probe timer.s(1) { println(@count(s)) }" s no
expect_stat "global s; function f() { return @sum(s) } probe $tp { s <<< 1 } probe end { println(f()) }" s no
expect_stat "global s; probe $tp { s <<< 1 } probe timer.s(1) { delete s }" s no
expect_array "global a; probe $tp { a[execname()]++ } probe end { foreach (k in a) println(k) }" a yes
expect_array "global a; probe $tp { a[\$id, pid()] += 2; a[1, 1] -= 1 }" a yes
expect_array "global a; probe begin { a[\"x\"] = 1 } probe $tp { a[\"x\"]++ } probe error { delete a }" a yes
expect_array "global a; probe $tp { a[\$id]++ } probe timer.s(1) { println(a[1]) }" a no
expect_array "global a; probe $tp { a[\$id]++; if (1 in a) next }" a no
expect_array "global a; probe $tp { x = a[\$id]++ }" a no
expect_array "global a; function f(k) { a[k]++ } probe $tp { f(\$id) }" a no
expect_array "global a%[4]; probe $tp { a[\$id]++ }" a no
expect_array "global a; probe $tp { a[\$id] .= \"x\" }" a no
expect_array "global a; probe $tp { a[\$id] <<< 1 }" a no
exit $fail
