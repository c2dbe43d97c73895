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
