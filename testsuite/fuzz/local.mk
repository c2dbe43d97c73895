## testsuite/fuzz/local.mk -- `make fuzz`: builds the libFuzzer target
## fuzz_parse (pass 1 under clang's address, undefined-behaviour and fuzzer
## instrumentation) from translator/'s sources and runs it for FUZZ_SECONDS,
## seeded with our parse cases and the SystemTap corpus. New inputs go to
## testsuite/fuzz/corpus/, crashing ones to testsuite/fuzz/crashes/.
## Not part of make check: fuzzing is open-ended.

FUZZ_SECONDS = 120
FUZZ_FLAGS = -max_len=8192 -timeout=10 -rss_limit_mb=2048
FUZZ_CFLAGS = -g -O1 -std=gnu11 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CORPUS = $(top_srcdir)/../shared/corpus

EXTRA_DIST += testsuite/fuzz/fuzz_parse.c testsuite/fuzz/stp.dict
CLEANFILES += testsuite/fuzz/fuzz_parse
## Not hooked into clean-local (one fragment owns that); run it by hand.
clean-fuzz:
	-rm -rf testsuite/fuzz/obj testsuite/fuzz/corpus

## Pass 1's sources as the library lists them, with the generated lexer and
## parser taken from the build tree (translator/libtapc.a makes them).
FUZZ_PASS1_SRCS = $(patsubst %.l,%.c,$(patsubst %.y,%.c, \
	$(filter %.c %.l %.y,$(translator_libtapc_a_SOURCES)))) \
	$(filter %.c,$(runtime_libtapcore_a_SOURCES))

testsuite/fuzz/fuzz_parse: $(srcdir)/testsuite/fuzz/fuzz_parse.c \
		translator/libtapc.a $(filter %.a,$(DEBUGINFO_LIBS))
	@if test -z "$(CLANG)"; then \
	  echo "make fuzz: clang not found (Debian packages: clang, libclang-rt-dev)"; \
	  exit 1; fi
	$(AM_V_at)$(MKDIR_P) testsuite/fuzz/obj
	$(AM_V_GEN)set -e; objs=; for src in $(FUZZ_PASS1_SRCS); do \
	  if test -f "$$src"; then path=$$src; else path=$(srcdir)/$$src; fi; \
	  obj=testsuite/fuzz/obj/`echo $$src | tr / _ | sed 's/\.c$$/.o/'`; \
	  $(CLANG) $(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) $(LIBDW_CFLAGS) \
	    $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c "$$path" -o "$$obj"; \
	  objs="$$objs $$obj"; \
	done; \
	rm -f testsuite/fuzz/obj/libtapc-fuzz.a; \
	ar rc testsuite/fuzz/obj/libtapc-fuzz.a $$objs; \
	$(CLANG) $(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) $(FUZZ_CFLAGS) \
	  -fsanitize=fuzzer -o $@ $(srcdir)/testsuite/fuzz/fuzz_parse.c \
	  testsuite/fuzz/obj/libtapc-fuzz.a $(DEBUGINFO_LIBS)

## Seeds: our cases and the corpus's parse scripts (read in place).
## BUILT_SOURCES (the parser's header) first: only all and check make them.
fuzz:
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) $(BUILT_SOURCES)
	$(AM_V_at)$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_parse
	$(AM_V_at)$(MKDIR_P) testsuite/fuzz/corpus testsuite/fuzz/crashes
	seeds="$(srcdir)/testsuite/parse/ok $(srcdir)/testsuite/parse/ko"; \
	for d in parseok parseko semok semko; do \
	  test -d "$(FUZZ_CORPUS)/systemtap/$$d" && \
	    seeds="$$seeds $(FUZZ_CORPUS)/systemtap/$$d"; \
	done; \
	ASAN_OPTIONS=detect_leaks=1 testsuite/fuzz/fuzz_parse $(FUZZ_FLAGS) \
	  -max_total_time=$(FUZZ_SECONDS) \
	  -dict=$(srcdir)/testsuite/fuzz/stp.dict \
	  -artifact_prefix=testsuite/fuzz/crashes/ \
	  testsuite/fuzz/corpus $$seeds

.PHONY: fuzz clean-fuzz
