/*
 * ia32_syscall.h -- a system call made the 32-bit (ia32) way from a
 * 64-bit test program: the kernel takes a 64-bit process's int $0x80 as
 * an ia32 call (ia32 numbers, arguments in ebx, ecx, edx, 32 bits each),
 * which is what the syscall.* tests of 32-bit calls need without a
 * 32-bit C library.  int $0x80 clears r8-r11 in a 64-bit process.
 * Included by testsuite/vm/workload.c and testsuite/kernel/kworkload.c.
 */
#ifndef TAP_TEST_IA32_SYSCALL_H
#define TAP_TEST_IA32_SYSCALL_H

#define IA32_LSEEK	19
#define IA32_GETPPID	64

/* At most three arguments; the result as the 32-bit call returns it. */
static long
ia32_syscall(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "r8", "r9", "r10", "r11", "memory");
	return (int)ret;
}

#endif
