#!/bin/sh
# check-remote-cli.sh -- `tapc --remote` without a guest (remote.c): URL
# checks, the options it refuses, a host that does not answer, and, with
# a stand-in `ssh` first on PATH that answers the host probe with canned
# text, a host that refuses modules and a host whose kernel has no
# headers here.  Each must be reported with its reason and a failing exit
# status, and never start a build.  testsuite/remote/remote.test runs
# the real thing on two QEMU guests.
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

echo "$passes passed, $failures failed"
[ $failures -eq 0 ]
