#!/bin/sh
# check-syscall-ia32.sh -- the code pass 3 writes for the 32-bit (ia32)
# calls whose entry points take their arguments otherwise than the x86_64
# call whose probes see them (translator/providers/syscall.c, the recipes
# of scripts/gen-syscall-table): compiled on the host with stand-ins for
# the kernel's, and run on made-up registers.  Each ia32 number must map
# to its x86_64 call, the arguments must come out as the x86_64 call
# takes them (by the kernel's arch/x86/kernel/sys_ia32.c, written out
# again below), and guru mode's write-back must put a changed argument
# into the registers it came from, or refuse with a warning what they
# cannot hold.  The int $0x80 calls themselves run in the VM tiers (the
# host may have no ia32 emulation).
#
# Takes: $TAPC (default ./tapc in the build directory); cc.
# Produces: what went wrong on stderr and exit 1, or exit 0; exit 77
# (skipped) when tapc is not built.
set -eu

tapc=${TAPC:-./tapc}
if [ ! -x "$tapc" ]; then
	echo "check-syscall-ia32: $tapc is not built; skipped" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscall-ia32.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# guru mode (-g) for the write-back; `$arg1 = $arg1` writes nothing
"$tapc" -g -p3 -e 'probe syscall.pread64, syscall.pwrite64, syscall.truncate,
	syscall.ftruncate, syscall.readahead, syscall.fadvise64,
	syscall.sync_file_range, syscall.fallocate, syscall.clone, syscall.mmap,
	syscall.lseek, syscall.newfstatat { $arg1 = $arg1 }' > "$tmp/gen.c"

# the helpers, and the enter callback's ia32 cases as a table
sed -n '/^__tap_syscall_ia32_\(args\|refuse\|writeback\)(/,/^}/{
	s/^__tap_syscall_ia32_/static void &/
	p
}' "$tmp/gen.c" > "$tmp/helpers.c"
sed -n '/^__tap_sys_enter_cb(/,/^}/{
	s/^[[:space:]]*case \([0-9]*\): __nr = \([0-9]*\); __how = \([0-9]*\);.*/	{ \1, \2, \3 },/p
	s/^[[:space:]]*case \([0-9]*\): __nr = \([0-9]*\); break;.*/	{ \1, \2, 0 },/p
}' "$tmp/gen.c" > "$tmp/map.c"

cat > "$tmp/t.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;
struct pt_regs { unsigned long bx, cx, dx, si, di, bp; };
#define TAP_SYSCALL_NR_SLOT 6
#define TAP_SYSCALL_SLOTS 8
#define TAP_MSG_WARNING 8
#define U32_MAX 0xffffffffU
#define scnprintf snprintf
#define current 0
static int warnings, ia32_nr;
static int syscall_get_nr(int task, struct pt_regs *regs)
{ (void)task; (void)regs; return ia32_nr; }
static void tap_ctl_send_atomic(int type, const char *msg, int n)
{ (void)type; (void)n; warnings++; printf("  warning: %s\n", msg); }
static void __tap_syscall_ia32_args(struct pt_regs *regs, int64_t *a, int how);
static void __tap_syscall_ia32_writeback(struct pt_regs *, const int64_t *,
					 const int64_t *, int);
#include "helpers.c"

static const struct { int ia32, nr, how; } map[] = {
#include "map.c"
};

/* ia32 number, x86_64 number, registers ebx..ebp, the x86_64 arguments */
static const struct {
	int ia32, nr;
	unsigned long r[6];
	int64_t a[6];
} cases[] = {
	/* sys_ia32_pread64/pwrite64(fd, buf, count, poslo, poshi) */
	{ 180, 17, { 3, 0x1000, 5, 9, 1 }, { 3, 0x1000, 5, 0x100000009 } },
	{ 181, 18, { 3, 0x1000, 5, 0xfffffff0, 2 }, { 3, 0x1000, 5, 0x2fffffff0 } },
	/* sys_ia32_truncate64(filename, lo, hi), ftruncate64(fd, lo, hi) */
	{ 193, 76, { 0x2000, 0x1234, 3 }, { 0x2000, 0x300001234 } },
	{ 194, 77, { 4, 0x1234, 0 }, { 4, 0x1234 } },
	/* sys_ia32_readahead(fd, off_lo, off_hi, count) */
	{ 225, 187, { 4, 7, 1, 100 }, { 4, 0x100000007, 100 } },
	/* sys_ia32_fadvise64(fd, offset_lo, offset_hi, len, advice) */
	{ 250, 221, { 4, 8, 2, 4096, 1 }, { 4, 0x200000008, 4096, 1 } },
	/* sys_ia32_fadvise64_64(fd, offset_lo, offset_hi, len_lo, len_hi, advice) */
	{ 272, 221, { 4, 8, 2, 16, 3, 2 }, { 4, 0x200000008, 0x300000010, 2 } },
	/* sys_ia32_sync_file_range(fd, off_low, off_hi, n_low, n_hi, flags) */
	{ 314, 277, { 4, 8, 2, 16, 3, 7 }, { 4, 0x200000008, 0x300000010, 7 } },
	/* sys_ia32_fallocate(fd, mode, offset_lo, offset_hi, len_lo, len_hi) */
	{ 324, 285, { 4, 1, 8, 2, 16, 3 }, { 4, 1, 0x200000008, 0x300000010 } },
	/* compat_sys_ia32_clone(flags, newsp, parent_tid, tls, child_tid):
	 * x86_64's clone(flags, newsp, parent_tid, child_tid, tls) */
	{ 120, 56, { 0x11, 0, 0x3000, 0x7000, 0x8000 },
	  { 0x11, 0, 0x3000, 0x8000, 0x7000 } },
	/* sys_mmap_pgoff(addr, len, prot, flags, fd, pgoff): pages of 4096 */
	{ 192, 9, { 0, 8192, 1, 2, 3, 0xfffff }, { 0, 8192, 1, 2, 3, 0xfffff000 } },
	/* sys_llseek(fd, offset_high, offset_low, result, whence): lseek(fd,
	 * offset, whence), the result pointer as $arg4 */
	{ 140, 8, { 3, 1, 11, 0x5000, 0 }, { 3, 0x10000000b, 0, 0x5000 } },
	/* compat_sys_ia32_fstatat64: newfstatat's arguments in order */
	{ 300, 262, { 5, 0x2000, 0x3000, 0x100 }, { 5, 0x2000, 0x3000, 0x100 } },
};

static int
how_of(int ia32, int nr)
{
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].ia32 == ia32)
			return map[i].nr == nr ? map[i].how : -1;
	return -1;
}

static void
read_args(struct pt_regs *regs, int64_t *a, int how)
{
	a[0] = (u32)regs->bx; a[1] = (u32)regs->cx; a[2] = (u32)regs->dx;
	a[3] = (u32)regs->si; a[4] = (u32)regs->di; a[5] = (u32)regs->bp;
	if (how)
		__tap_syscall_ia32_args(regs, a, how);
}

int
main(void)
{
	int fail = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct pt_regs regs = { cases[c].r[0], cases[c].r[1], cases[c].r[2],
					cases[c].r[3], cases[c].r[4], cases[c].r[5] };
		int64_t a[TAP_SYSCALL_SLOTS] = { 0 }, was[TAP_SYSCALL_SLOTS];
		int how = how_of(cases[c].ia32, cases[c].nr);

		ia32_nr = cases[c].ia32;
		if (how < 0) {
			printf("ia32 %d: not mapped to x86_64 %d\n", cases[c].ia32,
			       cases[c].nr);
			fail = 1;
			continue;
		}
		read_args(&regs, a, how);
		for (int i = 0; i < 6; i++)
			if ((i < 4 || cases[c].a[i]) && a[i] != cases[c].a[i]) {
				printf("ia32 %d: $arg%d is %#llx, not %#llx\n",
				       cases[c].ia32, i + 1, (long long)a[i],
				       (long long)cases[c].a[i]);
				fail = 1;
			}
		if (!how)
			continue;
		/* each argument a register holds, changed and written back,
		 * reads back as written; the others are left, with a warning */
		for (int i = 0; i < 6; i++) {
			int64_t b[TAP_SYSCALL_SLOTS];
			int64_t v = i == 5 && cases[c].nr == 9 ? 0x3000 :
				    a[i] + 0x100000001;
			int before = warnings;

			memcpy(was, a, sizeof(was));
			memcpy(b, a, sizeof(b));
			b[i] = v;
			b[TAP_SYSCALL_NR_SLOT] = cases[c].nr;
			struct pt_regs r2 = regs;
			__tap_syscall_ia32_writeback(&r2, b, was, how);
			if (warnings > before)
				continue;
			read_args(&r2, b, how);
			int64_t want = v;
			/* a plain register keeps the low 32 bits */
			if (b[i] == (int64_t)(u32)v && v != (int64_t)(u32)v)
				want = (u32)v;
			if (b[i] != want) {
				printf("ia32 %d: $arg%d written %#llx reads back %#llx\n",
				       cases[c].ia32, i + 1, (long long)v,
				       (long long)b[i]);
				fail = 1;
			}
			for (int j = 0; j < 6; j++)
				if (j != i && b[j] != a[j]) {
					printf("ia32 %d: writing $arg%d changed $arg%d\n",
					       cases[c].ia32, i + 1, j + 1);
					fail = 1;
				}
		}
	}
	/* mmap2's offset that is not whole pages: refused, ebp kept */
	{
		struct pt_regs regs = { 0, 4096, 1, 2, 3, 1 };
		int64_t a[TAP_SYSCALL_SLOTS] = { 0 }, was[TAP_SYSCALL_SLOTS];
		int how = how_of(192, 9), before = warnings;

		ia32_nr = 192;
		read_args(&regs, a, how);
		memcpy(was, a, sizeof(was));
		a[5] = 4097;
		a[TAP_SYSCALL_NR_SLOT] = 9;
		__tap_syscall_ia32_writeback(&regs, a, was, how);
		if (warnings != before + 1 || regs.bp != 1) {
			printf("mmap2: an offset of 4097 was not refused\n");
			fail = 1;
		}
	}
	return fail;
}
EOF
if ! ${CC:-cc} -std=gnu11 -Wall -Wextra -Wno-unused-function -o "$tmp/t" \
	-I"$tmp" "$tmp/t.c" 2> "$tmp/cc.err"; then
	echo "check-syscall-ia32: the generated helpers do not compile:" >&2
	cat "$tmp/cc.err" >&2
	exit 1
fi
if ! "$tmp/t" > "$tmp/out"; then
	echo "check-syscall-ia32: FAIL:" >&2
	grep -v '^  warning: ' "$tmp/out" >&2
	exit 1
fi
# a 64-bit-only script has no ia32 recipe code at all
"$tapc" -p3 -e 'probe syscall.getppid { println($arg1) }' > "$tmp/plain.c"
if grep -q '__how\|__tap_syscall_ia32_args' "$tmp/plain.c"; then
	echo "check-syscall-ia32: getppid's callback has ia32 recipe code" >&2
	exit 1
fi
echo "ok: $(grep -c '^	{' "$tmp/map.c") ia32 cases mapped, $(grep -c 'warning' "$tmp/out") write-backs refused"
