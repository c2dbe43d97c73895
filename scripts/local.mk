## scripts/local.mk -- the developer scripts: the generators of the files
## committed as generated (the syscall table, its tapset, the tapset
## reference), and check-generated, which regenerates them into a
## temporary directory and fails when a committed one differs.  `make
## check-generated` runs it alone; `make check` runs it as a test.

EXTRA_DIST += scripts/gen-syscall-table scripts/gen-syscall-tapset \
	scripts/gen-tapset-doc scripts/check-generated
TESTS += scripts/check-generated

check-generated:
	$(SHELL) $(srcdir)/scripts/check-generated

.PHONY: check-generated
