#!/bin/sh
# check-bpf-core.sh -- the BPF backend's typed kernel accesses are CO-RE
# relocations (translator/codegen/bpf_emit.c, bpf_core_offset()): each
# member hop of $file->f_path->dentry->d_name->name is
# __builtin_preserve_field_info(... BPF_FIELD_BYTE_OFFSET) on a local
# flavor type (struct file___tvar, preserve_access_index), not the build
# machine's constant offset, and clang compiles the result.  The VM tier
# (bpfvm kfunc-typed) shows the relocation at work where the build
# host's kernel and the guest's differ; this check holds on any host.
#
# Takes: $TAPC (default ./tapc).  Produces: the failures on stderr and
# exit 1, or exit 0; skipped (77) without a built tapc or the running
# kernel's BTF (and the -p4 half without clang or libbpf's headers).
set -u

tapc=${TAPC:-./tapc}
skip() { echo "check-bpf-core: $*; skipped" >&2; exit 77; }
[ -x "$tapc" ] || skip "$tapc is not built"
[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
script='probe kernel.function("security_file_open") {
	printf("%s %d\n", kernel_string($file->f_path->dentry->d_name->name), $file->f_mode)
}'

"$tapc" --runtime=bpf -p3 -e "$script" > "$tmp/c" 2> "$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "-p3 failed"; exit 1; }
has() {		# has FIXED-STRING WHAT
	grep -qF -- "$1" "$tmp/c" || fail "no $2 in the -p3 C: $1"
}
for t in file path dentry qstr; do
	has "struct ${t}___tvar {" "flavor of struct $t"
done
has "} __attribute__((preserve_access_index));" "preserve_access_index"
for m in "file___tvar *)0)->f_path" "path___tvar *)0)->dentry" \
	 "dentry___tvar *)0)->d_name" "qstr___tvar *)0)->name" \
	 "file___tvar *)0)->f_mode"; do
	has "__builtin_preserve_field_info(((struct $m, BPF_FIELD_BYTE_OFFSET)" "relocation"
done
# no member offset left as a constant: every ADD is a relocation
grep -E '__t[0-9]+ \+= [0-9]+;' "$tmp/c" > "$tmp/const" &&
	fail "constant offsets left: $(cat "$tmp/const")"

if command -v clang > /dev/null 2>&1 && [ -r /usr/include/bpf/bpf_helpers.h ]; then
	XDG_CACHE_HOME=$tmp/cache "$tapc" --runtime=bpf -p4 -e "$script" \
		> /dev/null 2> "$tmp/err" ||
		{ cat "$tmp/err" >&2; fail "-p4 (clang) failed"; }
fi
exit $failed
