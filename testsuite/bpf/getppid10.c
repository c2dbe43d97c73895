/*
 * getppid10.c -- the BPF tier's workload: exactly ten getppid() system
 * calls (through syscall(2), so that no libc caches the answer), each
 * one counted by the tier's scripts filtered on this program's name.
 */
#include <sys/syscall.h>
#include <unistd.h>

int
main(void)
{
	for (int i = 0; i < 10; i++)
		syscall(SYS_getppid);
	return 0;
}
