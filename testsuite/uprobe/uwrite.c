/*
 * uwrite.c -- the program the uprobe tier's guru-mode write test changes
 * from its uprobe handlers (tests/uwrite.stp, `tapc -g`).  Built -g -O2
 * (testsuite/uprobe/run), so parameters arrive in registers; each function
 * is noinline and main prints what it returned or left behind, so a write
 * by the script shows in the output.  Run without probes it prints
 *   scale(6, 7) = 42
 *   deposit: balance=100 level=1 id=7 flags=5
 *   answer() = 41
 *   limit = 10
 *   stash(20) = 41
 *   audit(bad pointer) = -1
 */
#include <stdint.h>
#include <stdio.h>

struct account {
	long balance;
	unsigned int flags : 3;
	unsigned int level : 5;
	int id;
};

long limit = 10;	/* a global: written through its symbol */

/* x and k in registers: the script sets k */
__attribute__((noinline)) int
scale(int x, int k)
{
	return x * k;
}

/* members through the pointer: the script adds to balance, sets the
 * bitfield level and increments id */
__attribute__((noinline)) void
deposit(struct account *a, long amount)
{
	__asm__ volatile("" ::: "memory");	/* a is read after the probe */
	a->balance += amount;
}

/* the script replaces the return value */
__attribute__((noinline)) int
answer(void)
{
	return 41;
}

/* reads limit, which the script changes at the entry */
__attribute__((noinline)) long
get_limit(void)
{
	return limit;
}

/* a local on the stack (volatile keeps it in memory): the script sets it
 * at the line adding 1, three lines below the function's name
 * (.statement("stash@uwrite.c+3")) */
__attribute__((noinline)) int
stash(int n)
{
	volatile int kept = n * 2;
	kept += 1;
	return kept;
}

/* given a pointer into the first page, which is never mapped: only
 * looked at, never followed; a write through it is the script's error */
__attribute__((noinline)) int
audit(struct account *a)
{
	return (uintptr_t)a < 4096 ? -1 : a->id;
}

int
main(void)
{
	struct account acct = { .balance = 0, .flags = 5, .level = 1, .id = 7 };
	/* through a volatile: the compiler may not fold the calls */
	struct account *volatile bad = (struct account *)16;
	int volatile six = 6, seven = 7;

	printf("scale(6, 7) = %d\n", scale(six, seven));
	deposit(&acct, 100);
	printf("deposit: balance=%ld level=%u id=%d flags=%u\n", acct.balance,
	       acct.level, acct.id, acct.flags);
	printf("answer() = %d\n", answer());
	printf("limit = %ld\n", get_limit());
	printf("stash(20) = %d\n", stash(20));
	printf("audit(bad pointer) = %d\n", audit(bad));
	return 0;
}
