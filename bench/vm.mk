## bench/vm.mk -- `make bench-vm`: the stat() tracer benchmark, all of it in
## one VM boot (bench/vm-bench; see bench/README.md).  Prints a table, never
## asserts.  BENCH_VM_FLAGS passes options, e.g. BENCH_VM_FLAGS="-n 50000 -r 5".

EXTRA_DIST += bench/vm-bench bench/stat_bench.c bench/README.md \
	bench/floor/Kbuild bench/floor/bench_floor.c

bench-vm: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/bench/vm-bench -b $(abs_top_builddir) $(BENCH_VM_FLAGS)

.PHONY: bench-vm
