## testsuite/remote/local.mk -- the tier of `tapc --remote` and
## `--remote-merge` (issue 17): two
## QEMU guests of two kernel releases, each with dropbear behind a QEMU
## port forward on 127.0.0.1, one boot each for every check
## (testsuite/remote/remote.test).  `make check-remote` runs it alone;
## `make check` runs it as a test, skipped (77) when qemu, two kernels with
## headers or dropbear are missing, failed under CI=true.

TAP_REMOTE_FILES = \
	testsuite/remote/remote.test \
	testsuite/remote/guest-setup \
	testsuite/remote/fake-uname

EXTRA_DIST += $(TAP_REMOTE_FILES)
TESTS += testsuite/remote/remote.test

check-remote: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	srcdir=$(srcdir) $(srcdir)/testsuite/remote/remote.test

.PHONY: check-remote
