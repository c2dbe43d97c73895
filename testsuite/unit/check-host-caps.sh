#!/bin/sh
# check-host-caps.sh -- `tapc --info` and the check before a run that would
# load a module here (translator/driver/host_caps.c, preflight.c).
#
# Takes: $TAPC (default ./tapc).  Fixture roots (TAPC_HOST_ROOT, which
# host_caps.c puts before every /proc and /sys path) stand for machines
# that cannot load modules, that have them switched off, and that load
# only signed ones; and this machine as it is, when it cannot load modules
# (no /proc/modules): a run that asks for the module back end must then
# fail at once, before building, with the reason and the ways that work
# here; a run that names no back end gets the BPF one where BPF works.
# Produces: exit 0, 1 with what differed, 77 when tapc is not built.
set -u

tapc=${TAPC:-./tapc}
[ -x "$tapc" ] || { echo "check-host-caps: $tapc is not built; skipped" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tapc-hostcaps.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "check-host-caps: $*" >&2; failed=1; }

# expect_line FILE REGEX WHAT
expect_line() {
	grep -Eq "$2" "$1" || { fail "$3: no line matching '$2' in:"; cat "$1" >&2; }
}

# A machine: root dir with /proc/self (so /proc is "mounted").
machine() {
	mkdir -p "$tmp/$1/proc/self" "$tmp/$1/proc/sys/kernel" \
		"$tmp/$1/sys/module/module/parameters" "$tmp/$1/sys/kernel/security"
	echo 6.1.0-test > "$tmp/$1/proc/sys/kernel/osrelease"
}

# 1. no CONFIG_MODULES
machine nomod
TAPC_HOST_ROOT=$tmp/nomod "$tapc" --info > "$tmp/out" 2>&1 || fail "--info failed"
expect_line "$tmp/out" '^Kernel: 6\.1\.0-test$' "--info kernel line"
expect_line "$tmp/out" '^  modules +no +this kernel has no module support' "--info no modules"
expect_line "$tmp/out" '^  --vm: |^  -p4 -m NAME' "--info ways"
if TAPC_HOST_ROOT=$tmp/nomod "$tapc" --runtime=kernel -e 'probe begin { exit() }' > "$tmp/out" 2>&1; then
	fail "a run on a machine without modules succeeded"
fi
expect_line "$tmp/out" '^tapc: error: this machine cannot load the module this run would build: this kernel has no module support' "refusal"
expect_line "$tmp/out" '^  -p4 -m NAME' "refusal names -p4 -m"
# -p4, --vm and -p2 are not refused: they do not load here
TAPC_HOST_ROOT=$tmp/nomod "$tapc" -p2 -e 'probe begin { exit() }' > "$tmp/out" 2>&1 ||
	{ fail "-p2 refused on a machine without modules:"; cat "$tmp/out" >&2; }

# 2. modules switched off
machine disabled
: > "$tmp/disabled/proc/modules"
echo 1 > "$tmp/disabled/proc/sys/kernel/modules_disabled"
TAPC_HOST_ROOT=$tmp/disabled "$tapc" -s 4 -e 'probe begin { exit() }' > "$tmp/out" 2>&1 &&
	fail "a run with modules_disabled=1 succeeded"
expect_line "$tmp/out" 'kernel\.modules_disabled = 1' "modules_disabled refusal"

# 3. signed modules only: loads (with a key it trusts), lockdown named;
# a run without --sign-module is refused
machine signed
: > "$tmp/signed/proc/modules"
echo 0 > "$tmp/signed/proc/sys/kernel/modules_disabled"
echo Y > "$tmp/signed/sys/module/module/parameters/sig_enforce"
echo 'none [integrity] confidentiality' > "$tmp/signed/sys/kernel/security/lockdown"
TAPC_HOST_ROOT=$tmp/signed "$tapc" --info > "$tmp/out" 2>&1 || fail "--info failed"
expect_line "$tmp/out" '^  modules +yes +yes, signed modules only' "signed-only modules"
expect_line "$tmp/out" '^  modules\.unsigned +no +module\.sig_enforce is on' "sig_enforce"
expect_line "$tmp/out" "^  modules\\.lockdown +no +lockdown is 'integrity'" "lockdown"
expect_line "$tmp/out" '^Runs here: kernel modules' "runs here"

TAPC_HOST_ROOT=$tmp/signed "$tapc" -e 'probe begin { exit() }' > "$tmp/out" 2>&1 &&
	fail "an unsigned run on a signed-only machine succeeded"
expect_line "$tmp/out" "^tapc: error: module\.sig_enforce is on: .*; build it with --sign-module" "signed-only refusal"

# 4. this machine, as it is
"$tapc" --info > "$tmp/out.info" 2>&1 || fail "--info failed here"
expect_line "$tmp/out.info" '^  bpf ' "--info BPF line"
if [ ! -e /proc/modules ]; then
	"$tapc" --runtime=kernel -e 'probe begin { exit() }' > "$tmp/out" 2>&1 &&
		fail "a run here succeeded without /proc/modules"
	expect_line "$tmp/out" 'cannot load the module this run would build: this kernel has no module support' "refusal here"
	# no back end named, BPF usable here: the BPF one, said under -v
	if grep -Eq '^  bpf +yes' "$tmp/out.info" 2>/dev/null; then
		"$tapc" -v -e 'probe begin { println("ran") exit() }' > "$tmp/out" 2>&1 ||
			fail "a run here without --runtime did not take the BPF back end"
		expect_line "$tmp/out" '^tapc: using the BPF back end \(--runtime=bpf\): this kernel has no module support' "automatic BPF here"
		expect_line "$tmp/out" '^ran$' "automatic BPF ran the script"
	fi
fi
exit $failed
