## bench/vm.mk -- `make bench-vm`: the stat() tracer benchmark, all of it in
## one VM boot (bench/vm-bench; see bench/README.md).  Prints a table, never
## asserts.  BENCH_VM_FLAGS passes options (make bench-vm BENCH_VM_FLAGS=...).
## By default MAXSKIPPED is raised, so that the scripts that skip probes at 2
## threads are measured to the end; the table still lists the skip counts.

BENCH_VM_FLAGS = -D MAXSKIPPED=1000000

EXTRA_DIST += bench/vm-bench bench/stat_bench.c bench/now_ns.c bench/README.md \
	bench/floor/Kbuild bench/floor/bench_floor.c

bench-vm: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/bench/vm-bench -b $(abs_top_builddir) $(BENCH_VM_FLAGS)

## `make bench-vm-icount`: the same in the deterministic mode (vm-bench -I:
## the guest clock counts instructions, 1 vCPU), with each handler's cost
## beyond the floor's, and SystemTap's column when stap is installed (-S).
bench-vm-icount: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/bench/vm-bench -I $$(command -v stap > /dev/null && echo -S) \
		-b $(abs_top_builddir) $(BENCH_VM_FLAGS)

## `make bench-vm-load`: load to first probe hit (vm-bench -L), 10 runs in
## one boot (2 vCPUs, wall clock), beside SystemTap's when stap is there.
bench-vm-load: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/bench/vm-bench -L $$(command -v stap > /dev/null && echo -S) \
		-b $(abs_top_builddir)

.PHONY: bench-vm bench-vm-icount bench-vm-load

## `make bench-ubt`: what ubacktrace()/print_ubacktrace() cost per event by
## call frame information and by frame pointers (bench/vm-ubt), one boot.
EXTRA_DIST += bench/vm-ubt

bench-ubt: tapc$(EXEEXT) loader/taprun-static$(EXEEXT)
	$(srcdir)/bench/vm-ubt -b $(abs_top_builddir)

.PHONY: bench-ubt
