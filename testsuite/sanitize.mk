## testsuite/sanitize.mk -- `make check-sanitize`: the unit and language
## tiers again under AddressSanitizer and UndefinedBehaviorSanitizer, with
## every finding fatal. A copy of the distributed sources (sanitize/src,
## so that it works whether this tree was configured in place or not) is
## configured with the sanitizer flags and builds only what those tiers
## need (the static loader cannot be built with ASan); the programs the language suite
## generates are built with the flags too (CC, which pass 4 of the user
## target honours). .ci/run runs it after the README's test command.

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
	  $(MAKE) $(AM_MAKEFLAGS) tapc $(SANITIZE_UNIT) testsuite/lang/check-lang
	cd sanitize/src && export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  CC="$(CC) $(SANITIZE_FLAGS)" \
	  TAPC_CACHE_DIR="$(abs_top_builddir)/sanitize/cache"; \
	failed=0; \
	for t in $(SANITIZE_UNIT); do \
	  if ./$$t > $$t.sanitize.log 2>&1; then echo "PASS: $$t (sanitized)"; \
	  else echo "FAIL: $$t (sanitized)"; cat $$t.sanitize.log; failed=1; fi; \
	done; \
	if testsuite/lang/check-lang > testsuite/lang/sanitize.log 2>&1; then \
	  echo "PASS: testsuite/lang (sanitized)"; \
	else echo "FAIL: testsuite/lang (sanitized)"; \
	  tail -40 testsuite/lang/sanitize.log; failed=1; fi; \
	tail -1 testsuite/lang/sanitize.log; \
	exit $$failed

clean-local: clean-sanitize
clean-sanitize:
	-rm -rf sanitize

.PHONY: check-sanitize clean-sanitize
