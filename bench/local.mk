## bench/local.mk -- build rules for bench/ (included by the top Makefile.am).
##
## Benchmarks print timings and never assert on them.  Each one adds itself
## to BENCH_PROGRAMS; `make bench` builds and runs them all in order.

BENCH_PROGRAMS =

BENCH_PROGRAMS += bench/bench_map
bench_bench_map_SOURCES = bench/bench_map.c
bench_bench_map_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_map_LDADD = runtime/libtapcore.a

EXTRA_PROGRAMS = $(BENCH_PROGRAMS)
CLEANFILES += $(BENCH_PROGRAMS)

.PHONY: bench
bench: $(BENCH_PROGRAMS)
	@for b in $(BENCH_PROGRAMS); do \
		echo "== $$b"; \
		./$$b || exit 1; \
	done
