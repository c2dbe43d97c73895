/*
 * ia32_syscall.h -- a system call made the 32-bit (ia32) way from a
 * 64-bit test program: the kernel takes a 64-bit process's int $0x80 as
 * an ia32 call (ia32 numbers, arguments in ebx, ecx, edx, 32 bits each),
 * which is what the syscall.* tests of 32-bit calls need without a
 * 32-bit C library.  int $0x80 clears r8-r11 in a 64-bit process, and
 * keeps the others.
 * Included by testsuite/vm/workload.c and testsuite/kernel/kworkload.c.
 */
#ifndef TAP_TEST_IA32_SYSCALL_H
#define TAP_TEST_IA32_SYSCALL_H

#define IA32_LSEEK	19
#define IA32_GETPPID	64
#define IA32_CLONE	120
#define IA32__LLSEEK	140
#define IA32_PREAD64	180
#define IA32_MMAP2	192
#define IA32_FTRUNCATE64 194
#define IA32_FSTAT64	197

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

/* Up to six arguments (the sixth in ebp); the result as the kernel
 * leaves it in rax.  ebp may be the frame pointer, so it is swapped in
 * and out around the int $0x80 through r12, which the kernel keeps.  A
 * pointer argument must be a 32-bit address (a non-PIE static's data,
 * or mmap MAP_32BIT). */
static inline long
ia32_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r12 __asm__("r12") = f;
	long ret;

	__asm__ volatile("xchg %%r12, %%rbp\n\t"
			 "int $0x80\n\t"
			 "xchg %%r12, %%rbp"
			 : "=a"(ret), "+r"(r12)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "r8", "r9", "r10", "r11", "memory");
	return ret;
}

#endif
