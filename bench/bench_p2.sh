#!/bin/sh
# bench/bench_p2.sh -- wall time of `tapc -p2` (parse and elaborate) on a few
# scripts: a trivial begin probe, a generated 200-line script,
# process(...).function("*") over libc and over tapc (DWARF), the
# kernel.trace("*") wildcard, kprobe.function("vfs_*") and
# kernel.function("vfs_*") (BTF, and DWARF when the debug vmlinux is
# installed). Prints the best
# of N runs of each in milliseconds; never asserts on a time. The kernel
# cases use the newest /lib/modules/*/build release (-r KREL) and are
# skipped, with a message, when none is installed.
#
# Then the scaling cases: 1k and 10k probes, 2k and 20k functions, with
# peak memory (GNU time).
#
# Usage: bench_p2.sh [N]    Environment: TAPC (default ./tapc), TAPC_KREL.

TAPC=${TAPC:-./tapc}
runs=${1:-5}
if [ ! -x "$TAPC" ]; then
	echo "bench_p2: no tapc at $TAPC (set TAPC)" >&2
	exit 1
fi
if [ -z "${TAPC_KREL+set}" ]; then
	TAPC_KREL=$("$(dirname "$0")/../testsuite/vm/find-kernel" 2>/dev/null) ||
		TAPC_KREL=
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }

# best NAME TAPC-ARGS...: run tapc -p2 $runs times, print the fastest.
best() {
	name=$1
	shift
	min=
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now_ns)
		if ! "$TAPC" -p2 "$@" >/dev/null 2>"$tmp/err"; then
			printf '%-28s failed: %s\n' "$name" "$(head -1 "$tmp/err")"
			return
		fi
		t=$(( $(now_ns) - t0 ))
		[ -z "$min" ] || [ "$t" -lt "$min" ] && min=$t
		i=$((i + 1))
	done
	printf '%-28s %8d.%03d ms  (best of %d)\n' "$name" \
		$((min / 1000000)) $((min / 1000 % 1000)) "$runs"
}

# peak NAME SCRIPT: one -p2 run's wall time and peak memory (GNU time's
# %M), for the scaling cases, where memory matters as much as time.
peak() {
	if ! /usr/bin/time -f '%e %M' -o "$tmp/time" "$TAPC" -p2 "$2" \
		>/dev/null 2>"$tmp/err"; then
		printf '%-28s failed: %s\n' "$1" "$(head -1 "$tmp/err")"
		return
	fi
	read -r secs kb <"$tmp/time"
	printf '%-28s %8s s, %6d MB peak\n' "$1" "$secs" $((kb / 1024))
}

# Scaling (issue 18: pass 2 linear in the script): N probes on one
# tracepoint, and N functions all called from one probe.
gen_probes() {
	echo "global n"
	i=0
	while [ $i -lt "$1" ]; do
		echo "probe kernel.trace(\"sys_enter\") { if (\$id == $i) n++ }"
		i=$((i + 1))
	done
}
gen_functions() {
	i=0
	while [ $i -lt "$1" ]; do
		echo "function f$i(x) { return x + $i }"
		i=$((i + 1))
	done
	echo "global t"
	echo "probe begin {"
	i=0
	while [ $i -lt "$1" ]; do
		echo "	t += f$i(1)"
		i=$((i + 1))
	done
	echo "}"
}

# A 200-line script: globals, functions calling each other, many probes.
gen_script() {
	echo "global count, names, lat"
	i=0
	while [ $i -lt 30 ]; do
		echo "function f$i(x, s) {"
		echo "	count[s, x] += x * $i"
		echo "	if (x > $i) return sprintf(\"%s-%d\", s, x + $i)"
		echo "	return s . \"$i\""
		echo "}"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 12 ]; do
		echo "probe timer.ms($((i + 10))) {"
		echo "	names[$i] = f$i($i, \"p$i\")"
		echo "	lat <<< $i"
		printf '\tforeach ([s, x] in count) printf("%%s %%d\\n", s, x)\n'
		echo "}"
		i=$((i + 1))
	done
	printf 'probe end { printf("%%d %%d\\n", @count(lat), @sum(lat)) }\n'
}
gen_script >"$tmp/s200.stp"

echo "tapc -p2 wall time ($(wc -l <"$tmp/s200.stp") lines in the generated script)"
best "trivial begin" -e 'probe begin { print("hi") }'
best "200-line script" "$tmp/s200.stp"
# process(...).function("*"): a library by its symbol table alone, and
# tapc itself (built with -g: every function's site after the prologue
# and its variables from DWARF).
libc=/lib/x86_64-linux-gnu/libc.so.6
[ -r "$libc" ] && best "process(libc).function(*)" -e "probe process(\"$libc\").function(\"*\") { print(1) }"
best "process(tapc).function(*)" -e "probe process(\"$(command -v "$TAPC")\").function(\"*\") { print(1) }"
if [ -n "$TAPC_KREL" ]; then
	best "kernel.trace(\"*\")" -r "$TAPC_KREL" -e 'probe kernel.trace("*") { print(1) }'
	best "kprobe.function(\"vfs_*\")" -r "$TAPC_KREL" -e 'probe kprobe.function("vfs_*") { print(1) }'
	# kernel.function with its parameters: from BTF, and from the debug
	# vmlinux (linux-image-KREL-dbg) when it is installed.
	TAPC_KERNEL_DEBUGINFO=btf best "kernel.function vfs_* BTF" -r "$TAPC_KREL" -e 'probe kernel.function("vfs_*") { print(1) }'
	if [ -r "/usr/lib/debug/boot/vmlinux-$TAPC_KREL" ] ||
	   [ -r "/usr/lib/debug/lib/modules/$TAPC_KREL/vmlinux" ]; then
		# cold: no function index cached on disk (an unwritable cache dir)
		XDG_CACHE_HOME=/proc/tapc-no-cache best "  ... DWARF, cold" -r "$TAPC_KREL" -e 'probe kernel.function("vfs_*") { print(1) }'
		best "  ... DWARF, index cached" -r "$TAPC_KREL" -e 'probe kernel.function("vfs_*") { print(1) }'
		best "  ... DWARF, \$\$parms" -r "$TAPC_KREL" -e 'probe kernel.function("vfs_*") { print($$parms) }'
	else
		echo "kernel.function DWARF case skipped: no linux-image-$TAPC_KREL-dbg"
	fi
else
	echo "kernel cases skipped: no kernel in /lib/modules/*/build (set TAPC_KREL)"
fi

if [ -x /usr/bin/time ]; then
	echo "scaling: tapc -p2 time and peak memory"
	for n in 1000 10000; do
		gen_probes $n >"$tmp/probes$n.stp"
		peak "$n probes" "$tmp/probes$n.stp"
	done
	for n in 2000 20000; do
		gen_functions $n >"$tmp/functions$n.stp"
		peak "$n functions, all called" "$tmp/functions$n.stp"
	done
else
	echo "scaling cases skipped: no /usr/bin/time (Debian's time package)"
fi
