/*
 * ulib-main.c -- the program of the uprobe tier's library @var test
 * (tests/ulib.stp): calls ulib_bump() of libulib.so (ulib.c) three times,
 * then ulib_done(), where a probe on the program reads the library's
 * variables.
 */
#include <stdio.h>

int ulib_bump(int n);

/* noinline: the probe point where the library's variables are final */
__attribute__((noinline)) int
ulib_done(int sum)
{
	return printf("sum=%d\n", sum) < 0;
}

int
main(void)
{
	int sum = 0;

	for (int i = 1; i <= 3; i++)
		sum += ulib_bump(i);
	return ulib_done(sum);
}
