/*
 * syscall_table.h -- the x86_64 system calls: number, name, and the names
 * and C types of their arguments, and the number of the 32-bit (ia32)
 * call that runs the same kernel function with the same arguments. The table (syscall_table.c) is generated
 * from a kernel's headers by scripts/gen-syscall-table and committed, so a
 * build needs no kernel headers to know the syscalls.
 */
#ifndef TAPC_PROVIDERS_SYSCALL_TABLE_H
#define TAPC_PROVIDERS_SYSCALL_TABLE_H

#include <stddef.h>

#define SYSCALL_MAX_ARGS 6

struct syscall_info {
	const char *name;		/* "openat", without sys_ */
	int nr;				/* x86_64 number */
	int ia32_nr;			/* the ia32 call's number, or -1 */
	int nargs;
	const char *arg_names[SYSCALL_MAX_ARGS];	/* "dfd", "filename" */
	const char *arg_types[SYSCALL_MAX_ARGS];	/* "const char __user *" */
};

size_t syscall_table_count(void);
const struct syscall_info *syscall_table_at(size_t i);
const struct syscall_info *syscall_table_find(const char *name);
const struct syscall_info *syscall_table_by_nr(int nr);

#endif
