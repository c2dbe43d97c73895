#!/bin/sh
# check-remote-cli.sh -- `tapc --remote` without a guest (remote.c): URL
# checks, the options it refuses, a host that does not answer, and, with
# a stand-in `ssh` first on PATH that answers the host probe with canned
# text, a host that refuses modules and a host whose kernel has no
# headers here.  Each must be reported with its reason and a failing exit
# status, and never start a build.  --remote-merge: refused without
# --remote; the script shapes it refuses, each with file:line:col and a
# caret, before any module is built; and its end-probe program
# (--merge-part=local, what tapc runs here) over two hosts' merge lines
# prints what one machine that saw both hosts' values prints
# (--target=user).  testsuite/remote/remote.test runs the real thing on
# two QEMU guests.
# Takes: $TAPC (default ./tapc).  Exit 77 when tapc is not built.
tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-remote-cli: $tapc is not built; skipped"; exit 77; }
tapc=$(cd "$(dirname "$tapc")" && pwd)/$(basename "$tapc")
dir=$(mktemp -d "${TMPDIR:-/tmp}/check-remote-cli.XXXXXX")
trap 'rm -rf "$dir"' EXIT
passes=0 failures=0
script='probe begin { printf("hello\n") exit() }'

expect() {	# expect NAME PATTERN tapc-args...: exit 1, PATTERN on stderr
	name=$1 pattern=$2
	shift 2
	"$tapc" "$@" > "$dir/out" 2> "$dir/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q -- "$pattern" "$dir/err" &&
	   ! grep -q '^Pass 4' "$dir/err"; then
		echo "PASS: $name"; passes=$((passes + 1))
	else
		echo "FAIL: $name (rc=$rc)"; cat "$dir/err"; failures=$((failures + 1))
	fi
}

expect "URL scheme" "invalid --remote 'http://h': only ssh:// URLs" --remote http://h -e "$script"
expect "URL port" "the port must be a number" --remote root@h:99999 -e "$script"
expect "URL empty host" "expected \[ssh://\]\[USER@\]HOST\[:PORT\]" --remote root@ -e "$script"
expect "-r refused" "-r (each host's own kernel is built for) cannot be used with --remote" --remote h -r 6.1 -e "$script"
expect "--vm refused" "--vm cannot be used with --remote" --remote h --vm -e "$script"
expect "--remote-merge alone" "--remote-merge needs --remote HOST" --remote-merge -e "$script"

# A port nobody listens on (ssh's own "Connection refused").
if command -v ssh > /dev/null 2>&1; then
	port=$((40000 + $$ % 20000))
	while ss -Htln "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done
	expect "host down" "remote 0 (root@127.0.0.1:$port): cannot reach it over ssh: .*refused" \
		--remote "root@127.0.0.1:$port" -e "$script"
fi

# The stand-in ssh: the probe (it begins with "uname -r") gets
# $FAKE_PROBE; nothing else is expected to reach it.
mkdir "$dir/bin"
cat > "$dir/bin/ssh" <<'SH'
#!/bin/sh
for last; do :; done
case $last in
"uname -r;"*) printf '%b\n' "$FAKE_PROBE" ;;
*) echo "unexpected ssh command: $last" >&2; exit 99 ;;
esac
SH
chmod +x "$dir/bin/ssh"
PATH=$dir/bin:$PATH FAKE_PROBE='6.1.0-0-fake\nrefused: module.sig_enforce is on: the kernel loads only signed modules' \
	expect "host refuses modules" \
	"remote 0 (a): it will not load the module: module.sig_enforce is on" --remote a -e "$script"
PATH=$dir/bin:$PATH FAKE_PROBE='0.0.0-check-remote-cli' \
	expect "no headers here" \
	"remote 1 (b): it runs kernel 0.0.0-check-remote-cli, whose headers are not installed here (install linux-headers-0.0.0-check-remote-cli)" \
	--remote a --remote b -e "$script"
# both hosts of that kernel are reported
grep -q "remote 0 (a): it runs kernel 0.0.0-check-remote-cli" "$dir/err" ||
	{ echo "FAIL: the first host of the kernel without headers is not reported"; failures=$((failures + 1)); }

# --remote-merge needs a kernel with headers here to elaborate for.
krel=
for b in /lib/modules/*/build; do
	[ -d "$b" ] && { krel=${b#/lib/modules/}; krel=${krel%/build}; break; }
done
if [ -z "$krel" ]; then
	echo "SKIP: --remote-merge checks: no kernel headers installed"
else
	cat > "$dir/bad.stp" <<'STP'
global name, lat
probe timer.ms(10) {
	name = execname()
	lat <<< 3
}
probe end {
	printf("%s %d\n", name, @variance(lat))
	printf("%d\n", ppid())
}
STP
	PATH=$dir/bin:$PATH FAKE_PROBE=$krel \
		expect "--remote-merge refuses a string global" \
		"bad.stp:7:20: error: --remote-merge cannot merge global 'name': it holds strings" \
		--remote a --remote-merge "$dir/bad.stp"
	for want in "bad.stp:3:7: note: 'name' is written here, by a probe that runs on the hosts" \
		"bad.stp:7:26: error: --remote-merge cannot merge @variance of 'lat'" \
		"bad.stp:8:17: error: ppid() is kernel C, which cannot run where --remote-merge runs the end probes" \
		"remote 0 (a): not run: the end probes could not be built"; do
		grep -qF "$want" "$dir/err" ||
			{ echo "FAIL: missing: $want"; failures=$((failures + 1)); }
	done
	# the caret under column 20 of line 7
	if grep -A2 "bad.stp:7:20" "$dir/err" | tail -1 | grep -qx ' 	                  ^'; then
		echo "PASS: caret under the column"; passes=$((passes + 1))
	else
		echo "FAIL: caret"; cat "$dir/err"; failures=$((failures + 1))
	fi

	# The end program over two hosts' lines = one machine with all the
	# values: host A saw 1 1 4 (and n += 2, a["x y"] <<< 5), host B 2 3
	# 100 (n += 3, a["x y"] <<< 7, a["%"] <<< 1).
	merge_stp='global s, n, a
probe timer.ms(10) { s <<< 1; n++; a["k"] <<< 1 }
probe end {
	printf("%d %d %d %d %d n=%d\n", @count(s), @sum(s), @min(s), @max(s), @avg(s), n)
	print(@hist_log(s))
	foreach (k+ in a) printf("[%s] %d %d\n", k, @count(a[k]), @sum(a[k]))
}'
	user_stp='global s, n, a
probe begin {
	s <<< 1; s <<< 1; s <<< 4; s <<< 2; s <<< 3; s <<< 100; n = 5
	a["x y"] <<< 5; a["x y"] <<< 7; a["%"] <<< 1
	exit()
}
probe end {
	printf("%d %d %d %d %d n=%d\n", @count(s), @sum(s), @min(s), @max(s), @avg(s), n)
	print(@hist_log(s))
	foreach (k+ in a) printf("[%s] %d %d\n", k, @count(a[k]), @sum(a[k]))
}'
	printf '\036M s 0 T 3 6 1 4 65:2 67:1\n\036M n 0 L 2\n\036M a 1 sx%%20y T 1 5 5 5\n' > "$dir/lines"
	printf '\036M s 0 T 3 105 2 100 66:2 71:1\n\036M n 0 L 3\n' >> "$dir/lines"
	printf '\036M a 1 sx%%20y T 1 7 7 7\n\036M a 1 s%%25 T 1 1 1 1\n' >> "$dir/lines"
	prog=$("$tapc" -p4 -r "$krel" --merge-part=local -e "$merge_stp" 2> "$dir/err")
	"$prog" -M "$dir/lines" > "$dir/merged" 2>> "$dir/err"
	rc=$?
	"$tapc" --target=user -e "$user_stp" > "$dir/alone" 2>> "$dir/err"
	if [ $rc -eq 0 ] && [ -s "$dir/merged" ] && cmp -s "$dir/merged" "$dir/alone"; then
		echo "PASS: --remote-merge end program = one machine with both hosts' values"
		passes=$((passes + 1))
	else
		echo "FAIL: --remote-merge end program (rc=$rc)"; cat "$dir/err"
		diff "$dir/alone" "$dir/merged"; failures=$((failures + 1))
	fi
	# a damaged line: refused with its place, nothing printed
	printf '\036M s 0 T 3 6 1 4 300:1\n' > "$dir/badlines"
	if ! "$prog" -M "$dir/badlines" > "$dir/merged" 2> "$dir/err" &&
	   grep -q "badlines:1: cannot merge: a histogram bucket" "$dir/err" &&
	   [ ! -s "$dir/merged" ]; then
		echo "PASS: a damaged merge line is refused"; passes=$((passes + 1))
	else
		echo "FAIL: damaged merge line"; cat "$dir/err"; failures=$((failures + 1))
	fi
	case $prog in "${TMPDIR:-/tmp}"/tapc*/*) rm -rf "$(dirname "$prog")" ;; esac
fi

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
