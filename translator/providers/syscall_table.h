/*
 * syscall_table.h -- the x86_64 system calls: number, name, and the names
 * and C types of their arguments; and the 32-bit (ia32) calls whose
 * syscall.* probes are an x86_64 call's, each with how its registers make
 * that call's arguments.  The table (syscall_table.c) is generated from a
 * kernel's headers by scripts/gen-syscall-table and committed, so a build
 * needs no kernel headers to know the syscalls.
 */
#ifndef TAPC_PROVIDERS_SYSCALL_TABLE_H
#define TAPC_PROVIDERS_SYSCALL_TABLE_H

#include <stddef.h>

#define SYSCALL_MAX_ARGS 6

struct syscall_info {
	const char *name;		/* "openat", without sys_ */
	int nr;				/* x86_64 number */
	int nargs;
	const char *arg_names[SYSCALL_MAX_ARGS];	/* "dfd", "filename" */
	const char *arg_types[SYSCALL_MAX_ARGS];	/* "const char __user *" */
};

/*
 * An ia32 call seen by the probes of x86_64 call `nr`: one that runs the
 * same kernel function (ia32 lseek, 19, for lseek, 8), or one whose entry
 * point does the same with its arguments split, reordered or scaled
 * (sys_ia32_pread64: pos in two registers).  `recipe` is NULL when ebx,
 * ecx, edx, esi, edi, ebp are the x86_64 call's arguments in order (32
 * bits each, zero-extended); else one word per x86_64 argument, in
 * order, naming the ia32 registers by 0..5 (ebx..ebp):
 *
 *	"K"	register K
 *	"L:H"	the 64-bit value L | H << 32 (pread64's pos: "3:4")
 *	"K*S"	register K times S (mmap2's offset in pages: "5*4096")
 *	"-"	none: 0
 *
 * and the arguments past the last word are 0.
 */
struct syscall_ia32 {
	int ia32_nr;			/* the 32-bit call's number */
	int nr;				/* the x86_64 call whose probes see it */
	const char *entry;		/* its kernel entry, "sys_ia32_pread64" */
	const char *recipe;		/* NULL, or "0 1 2 3:4" */
};

size_t syscall_table_count(void);
const struct syscall_info *syscall_table_at(size_t i);
const struct syscall_info *syscall_table_find(const char *name);
const struct syscall_info *syscall_table_by_nr(int nr);
size_t syscall_table_ia32_count(void);
const struct syscall_ia32 *syscall_table_ia32_at(size_t i);

#endif
