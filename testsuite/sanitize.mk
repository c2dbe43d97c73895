## testsuite/sanitize.mk -- `make check-sanitize`: the unit, parse, sema
## and language tiers again under AddressSanitizer and
## UndefinedBehaviorSanitizer, with every finding fatal.  The parse and
## sema tiers bring the SystemTap corpus (../shared/corpus beside this
## source tree, or $TAPC_CORPUS): the copy below has no corpus beside it. A copy of the distributed sources (sanitize/src,
## so that it works whether this tree was configured in place or not) is
## configured with the sanitizer flags and builds only what those tiers
## need (the static loader cannot be built with ASan); the programs the language suite
## generates are built with the flags too (CC, which pass 4 of the user
## target honours). The three tiers run side by side: under the
## sanitizers the corpus makes parse and sema take minutes each.  .ci/run
## runs it after the README's test command.

SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SANITIZE_UNIT = $(filter testsuite/unit/test_%,$(check_PROGRAMS))

check-sanitize:
	rm -rf sanitize && $(MKDIR_P) sanitize
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir=sanitize/src
	cd sanitize/src && \
	  ./configure --quiet CFLAGS="-g -O1 $(SANITIZE_FLAGS)" \
	    LDFLAGS="$(SANITIZE_FLAGS)" && \
	  $(MAKE) $(AM_MAKEFLAGS) $(BUILT_SOURCES) && \
	  $(MAKE) $(AM_MAKEFLAGS) tapc $(SANITIZE_UNIT) testsuite/lang/check-lang \
	    testsuite/parse/check-parse testsuite/sema/check-sema
	cd sanitize/src && export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  CC="$(CC) $(SANITIZE_FLAGS)" \
	  TAPC_CACHE_DIR="$(abs_top_builddir)/sanitize/cache" \
	  TAPC_CORPUS="$${TAPC_CORPUS:-$(abs_top_srcdir)/../shared/corpus}"; \
	failed=0; \
	for t in $(SANITIZE_UNIT); do \
	  if ./$$t > $$t.sanitize.log 2>&1; then echo "PASS: $$t (sanitized)"; \
	  else echo "FAIL: $$t (sanitized)"; cat $$t.sanitize.log; failed=1; fi; \
	done; \
	for t in parse sema lang; do \
	  { testsuite/$$t/check-$$t > testsuite/$$t/sanitize.log 2>&1; \
	    echo $$? > testsuite/$$t/sanitize.rc; } & \
	done; \
	wait; \
	for t in parse sema lang; do \
	  if [ "$$(cat testsuite/$$t/sanitize.rc)" = 0 ]; then \
	    echo "PASS: testsuite/$$t (sanitized)"; \
	  else echo "FAIL: testsuite/$$t (sanitized)"; \
	    grep -E '^(FAIL|SKIP)' testsuite/$$t/sanitize.log | head -40; failed=1; fi; \
	  tail -1 testsuite/$$t/sanitize.log; \
	done; \
	exit $$failed

clean-local: clean-sanitize
clean-sanitize:
	-rm -rf sanitize

.PHONY: check-sanitize clean-sanitize
