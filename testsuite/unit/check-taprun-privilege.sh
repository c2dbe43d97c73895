#!/bin/sh
# check-taprun-privilege.sh -- the --privilege level travels from tapc to
# taprun: tapc records it in the module (MODULE_INFO tap_privilege), and
# taprun refuses a user who is neither root nor in a group that allows
# that level (loader/privilege.c); and a stapusr module, only, is built
# with the owner filter on (TAP_OWNER_ONLY, runtime/linux/owner.h).
#
# The modules are stand-ins: an empty object with a .modinfo section
# holding what tapc writes, enough for taprun's checks, which run before
# anything is loaded.  A user with no group is simulated with setpriv
# (uid and gid 65534, no supplementary groups); membership in stapusr or
# stapsys is checked too when /etc/group has those groups.
#
# Takes: $TAPC and $TAPRUN (default ./tapc and ./taprun). Produces: the
# failures on stderr and exit 1, or exit 0; exit 77 (skipped) when not
# run as root or without setpriv, cc or objcopy.
set -u

tapc=${TAPC:-./tapc}
taprun=${TAPRUN:-./taprun}
for tool in setpriv cc objcopy; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "check-taprun-privilege: no $tool; skipped" >&2
		exit 77
	fi
done
if [ "$(id -u)" != 0 ] || [ ! -x "$taprun" ] || [ ! -x "$tapc" ]; then
	echo "check-taprun-privilege: needs root and a built tapc and taprun; skipped" >&2
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# tapc writes the level it was given, and stapdev without --privilege.
for level in stapusr stapsys stapdev; do
	"$tapc" -p3 --privilege=$level -e 'probe begin { exit() }' \
		>"$tmp/out.c" 2>&1 ||
		fail "tapc -p3 --privilege=$level failed"
	grep -q "^MODULE_INFO(tap_privilege, \"$level\");" "$tmp/out.c" ||
		fail "tapc --privilege=$level: no MODULE_INFO(tap_privilege, \"$level\")"
done
"$tapc" -p3 -e 'probe begin { exit() }' >"$tmp/out.c" 2>&1
grep -q '^MODULE_INFO(tap_privilege, "stapdev");' "$tmp/out.c" ||
	fail "tapc without --privilege: the module is not stapdev"

# Only a stapusr module limits its process probes to the owner's
# processes (runtime/linux/owner.h), and no -D turns that off: the
# #undef comes after the -D macros.
for level in stapusr stapsys stapdev; do
	"$tapc" -p3 --privilege=$level -D TAP_OWNER_ONLY=0 \
		-e 'probe begin { exit() }' >"$tmp/out.c" 2>&1
	if [ $level = stapusr ]; then
		tail_def=$(grep -n 'TAP_OWNER_ONLY' "$tmp/out.c" | tail -n 2 | cut -d: -f2- | tr '\n' '|')
		[ "$tail_def" = "#undef TAP_OWNER_ONLY|#define TAP_OWNER_ONLY 1|" ] ||
			fail "tapc --privilege=stapusr -D TAP_OWNER_ONLY=0: the owner filter is not forced on (got '$tail_def')"
	elif grep -q '^#define TAP_OWNER_ONLY 1' "$tmp/out.c"; then
		fail "tapc --privilege=$level: TAP_OWNER_ONLY defined"
	fi
done

# fake_LEVEL.ko, and fake_none.ko without the string (an older module).
echo 'int tap_fake;' >"$tmp/e.c"
cc -c "$tmp/e.c" -o "$tmp/e.o" || exit 99
for level in stapusr stapsys stapdev none; do
	if [ $level = none ]; then
		printf 'name=tk_fake\0' >"$tmp/modinfo"
	else
		printf 'tap_privilege=%s\0name=tk_fake\0' $level >"$tmp/modinfo"
	fi
	objcopy --add-section .modinfo="$tmp/modinfo" \
		--set-section-flags .modinfo=alloc,readonly \
		"$tmp/e.o" "$tmp/fake_$level.ko" || exit 99
	chmod 644 "$tmp/fake_$level.ko"
done

# run_as GROUPS LEVEL: taprun on fake_LEVEL.ko as uid 65534 with the
# supplementary GROUPS ('' for none); its stderr in $tmp/err.
run_as() {
	if [ -n "$1" ]; then
		set -- "--groups=$1" "$2"
	else
		set -- --clear-groups "$2"
	fi
	setpriv --reuid=65534 --regid=65534 "$1" \
		"$taprun" "$tmp/fake_$2.ko" >/dev/null 2>"$tmp/err"
}
refused() { grep -q "may not load it" "$tmp/err"; }

for level in stapusr stapsys stapdev none; do
	want=$level
	[ $level = none ] && want=stapdev
	if run_as '' $level || ! refused; then
		fail "a user in no group was not refused a $level module for its privilege: $(cat "$tmp/err")"
	fi
	grep -q "built for --privilege=$want" "$tmp/err" ||
		fail "$level module: the refusal does not name $want: $(cat "$tmp/err")"
	"$taprun" "$tmp/fake_$level.ko" >/dev/null 2>"$tmp/err"
	refused && fail "root was refused a $level module: $(cat "$tmp/err")"
done

# Group membership, when the host has the groups: a group allows its
# level and those below it, not those above.
gid_of() { sed -n "s/^$1:[^:]*:\([0-9]*\):.*/\1/p" /etc/group; }
usr=$(gid_of stapusr)
sys=$(gid_of stapsys)
if [ -n "$usr" ] && [ -n "$sys" ]; then
	run_as "$usr" stapusr; refused &&
		fail "group stapusr was refused a stapusr module"
	run_as "$usr" stapsys; refused ||
		fail "group stapusr loaded a stapsys module"
	run_as "$sys" stapusr; refused &&
		fail "group stapsys was refused a stapusr module"
	run_as "$sys" stapsys; refused &&
		fail "group stapsys was refused a stapsys module"
	run_as "$sys" stapdev; refused ||
		fail "group stapsys loaded a stapdev module"
else
	echo "check-taprun-privilege: no stapusr/stapsys groups in /etc/group; membership not checked" >&2
fi
exit $failed
