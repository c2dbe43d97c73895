/*
 * ulib.c -- a small shared library for the uprobe tier's @var tests
 * (tests/ulib.stp): a global and a file-static that ulib_bump() changes,
 * read by @var("NAME", "LIBRARY") from probes on the program that links
 * it (ulib-main.c) and by @var("NAME") from a probe on the library
 * itself.  Built with -g -shared -fPIC by testsuite/uprobe/run.
 */
int ulib_counter = 100;
static int ulib_static = 7;

int
ulib_bump(int n)
{
	ulib_counter += n;
	ulib_static *= 2;
	return ulib_counter + ulib_static;
}
