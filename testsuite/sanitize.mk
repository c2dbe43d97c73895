## testsuite/sanitize.mk -- `make check-sanitize`: the unit and language
## tiers again under AddressSanitizer and UndefinedBehaviorSanitizer, with
## every finding fatal. A second build tree (sanitize/) is configured with
## the sanitizer flags; the programs the language suite generates are built
## with them too (CC, which pass 4 of the user target honours). .ci/run
## runs it after the README's test command.

SANITIZE_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SANITIZE_TESTS = $(filter testsuite/unit/test_%,$(TESTS)) \
	testsuite/lang/check-lang

check-sanitize:
	$(AM_V_at)$(MKDIR_P) sanitize
	cd sanitize && \
	  $(abs_top_srcdir)/configure --quiet CFLAGS="-g -O1 $(SANITIZE_FLAGS)" \
	    LDFLAGS="$(SANITIZE_FLAGS)" && \
	  $(MAKE) $(AM_MAKEFLAGS) && \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 \
	  CC="$(CC) $(SANITIZE_FLAGS)" TAPC_CACHE_DIR="$(abs_top_builddir)/sanitize/cache" \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS="$(SANITIZE_TESTS)"

clean-local: clean-sanitize
clean-sanitize:
	-rm -rf sanitize

.PHONY: check-sanitize clean-sanitize
