## testsuite/uprobe/local.mk -- the uprobe tier (testsuite/uprobe/run):
## user-space probes on testsuite/uprobe/uprog.c and the malloc example in
## ONE VM boot.  `make check-uprobe` runs it alone; `make check` runs it as
## testsuite/uprobe/uprobe.test, skipped (77) without qemu, kernel headers
## or <sys/sdt.h>.

TAP_UPROBE_FILES = \
	testsuite/uprobe/run \
	testsuite/uprobe/check-nap \
	testsuite/uprobe/uprog.c \
	testsuite/uprobe/uprobe.vmtest.in \
	testsuite/uprobe/tests/calls.stp \
	testsuite/uprobe/tests/calls.out \
	testsuite/uprobe/tests/cast-header.stp \
	testsuite/uprobe/tests/cast-header.out \
	testsuite/uprobe/tests/threads.stp \
	testsuite/uprobe/tests/threads.out \
	testsuite/uprobe/tests/malloc.out \
	testsuite/uprobe/tests/xpid.stp \
	testsuite/uprobe/tests/xpid.out \
	testsuite/uprobe/tests/entry.stp \
	testsuite/uprobe/tests/entry.out \
	testsuite/uprobe/tests/entry-full.stp \
	testsuite/uprobe/tests/entry-full.out \
	testsuite/uprobe/tests/entry-nodwarf.stp \
	testsuite/uprobe/tests/entry-nodwarf.out \
	testsuite/uprobe/tests/begin.stp \
	testsuite/uprobe/tests/begin.out \
	testsuite/uprobe/tests/begin-threads.stp \
	testsuite/uprobe/tests/begin-threads.out \
	testsuite/uprobe/tests/pid.stp \
	testsuite/uprobe/tests/pid.out \
	testsuite/uprobe/tests/syscall.stp \
	testsuite/uprobe/tests/syscall.out \
	testsuite/uprobe/tests/forks.stp \
	testsuite/uprobe/tests/forks.out \
	testsuite/uprobe/tests/arm-race.stp \
	testsuite/uprobe/tests/arm-race.out \
	testsuite/uprobe/unwind.c \
	testsuite/uprobe/tests/unwind.stp \
	testsuite/uprobe/tests/tailcall.stp \
	testsuite/uprobe/tests/tailcall.out \
	testsuite/uprobe/tests/unwind.out \
	testsuite/uprobe/tests/unwind-nap.out \
	testsuite/uprobe/tests/unwind-signal.out \
	testsuite/uprobe/tests/unwind-qsort.out \
	testsuite/uprobe/tests/unwind-print.stp \
	testsuite/uprobe/tests/unwind-print.out \
	testsuite/uprobe/uwrite.c \
	testsuite/uprobe/uguru.c \
	testsuite/uprobe/tests/guru.stp \
	testsuite/uprobe/tests/guru.out \
	testsuite/uprobe/tests/uwrite.stp \
	testsuite/uprobe/tests/uwrite.out \
	testsuite/uprobe/ulib.c \
	testsuite/uprobe/ulib-main.c \
	testsuite/uprobe/tests/ulib.stp \
	testsuite/uprobe/tests/ulib.out \
	testsuite/uprobe/tests/plt.stp \
	testsuite/uprobe/tests/plt.out \
	testsuite/uprobe/tests/bare-libc.stp \
	testsuite/uprobe/tests/bare-libc.out \
	examples/malloc.stp

EXTRA_DIST += $(TAP_UPROBE_FILES) testsuite/uprobe/uprobe.test
TESTS += testsuite/uprobe/uprobe.test

check-uprobe: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/testsuite/uprobe/run

.PHONY: check-uprobe
