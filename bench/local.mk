## bench/local.mk -- build rules for bench/ (included by the top Makefile.am).
##
## Benchmarks print timings and never assert on them.  `make bench` builds
## and runs every program in BENCH_RUN, in order.  A benchmark built here
## adds itself to BENCH_PROGS (built only for `make bench`); one that
## another fragment builds (included before this file, so it cannot append
## to variables defined here) is listed in BENCH_RUN only.

BENCH_PROGS = bench/bench_map
bench_bench_map_SOURCES = bench/bench_map.c
bench_bench_map_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_map_LDADD = runtime/libtapcore.a

BENCH_RUN = $(BENCH_PROGS) bench/bench_btf

EXTRA_PROGRAMS = $(BENCH_PROGS)
CLEANFILES += $(BENCH_PROGS)

.PHONY: bench
bench: $(BENCH_RUN)
	@for b in $(BENCH_RUN); do \
		echo "== $$b"; \
		./$$b || exit 1; \
	done
# tapc --runtime=bpf beside bpftrace, natively (root): ns per stat() of
# counting sys_enter events over the untraced loop.  Prints a table.
# Then script to first event beside bpftrace (bench/bpf-first-event).
bench-bpf: tapc$(EXEEXT)
	$(srcdir)/bench/bpf-vs-bpftrace
	$(srcdir)/bench/bpf-first-event

.PHONY: bench-bpf
EXTRA_DIST += bench/bpf-vs-bpftrace bench/bpf-first-event

include bench/vm.mk
