## translator/debuginfo/local.mk -- where kernel and program facts come
## from: the target kernel's files and facts (kernel.h), BTF (btf.h,
## parsed by libbpf), compressed files (zfile.h: xz, zstd, gzip),
## DWARF (dwarf.h), ELF symbols, PLT and library paths (elf_syms.h),
## call frame information (cfi.h), SDT notes (sdt.h), tracepoints
## (tracepoints.h), kallsyms and the module index, types from C headers
## (header_types.h); each header is an entry point of its own.  Built as
## one library, libtapdebuginfo.a, that the translator links, plus the
## developer CLIs btfdump and dwdump and the BTF loading benchmark.  Must
## not include anything of the translator outside debuginfo/ and
## common/: it knows files and formats, not scripts or passes.
## Included from translator/local.mk.

noinst_LIBRARIES += translator/debuginfo/libtapdebuginfo.a
translator_debuginfo_libtapdebuginfo_a_SOURCES = \
	translator/debuginfo/btf.h \
	translator/debuginfo/btf_internal.h \
	translator/debuginfo/btf_load.c \
	translator/debuginfo/btf_index.c \
	translator/debuginfo/btf_vmlinuz.c \
	translator/debuginfo/btf_types.c \
	translator/debuginfo/btf_render.c \
	translator/debuginfo/zfile.h \
	translator/debuginfo/zfile.c \
	translator/debuginfo/cache_dir.h \
	translator/debuginfo/cache_dir.c \
	translator/debuginfo/errbuf.h \
	translator/debuginfo/errbuf.c \
	translator/debuginfo/tracepoints.h \
	translator/debuginfo/tracepoints.c \
	translator/debuginfo/kallsyms.h \
	translator/debuginfo/kallsyms.c \
	translator/debuginfo/kernel.h \
	translator/debuginfo/kernel.c \
	translator/debuginfo/dwarf.h \
	translator/debuginfo/dwarf_internal.h \
	translator/debuginfo/dwarf_open.c \
	translator/debuginfo/dwarf_sites.c \
	translator/debuginfo/dwarf_statics.c \
	translator/debuginfo/dwarf_vars.c \
	translator/debuginfo/dwarf_types.c \
	translator/debuginfo/dwarf_cache.c \
	translator/debuginfo/dwarf_sitecache.c \
	translator/debuginfo/header_types.h \
	translator/debuginfo/header_types.c \
	translator/debuginfo/kmod_index.h \
	translator/debuginfo/kmod_index.c \
	translator/debuginfo/elf_syms.h \
	translator/debuginfo/elf_syms.c \
	translator/debuginfo/elf_plt.c \
	translator/debuginfo/elf_libpath.c \
	translator/debuginfo/cfi.h \
	translator/debuginfo/cfi.c \
	translator/debuginfo/sdt.h \
	translator/debuginfo/sdt.c
translator_debuginfo_libtapdebuginfo_a_CPPFLAGS = $(AM_CPPFLAGS) \
	$(LIBDW_CFLAGS) $(LIBELF_CFLAGS) $(LIBBPF_CFLAGS) $(LIBZSTD_CFLAGS) \
	$(ZLIB_CFLAGS)

## What a program linking the library adds to its LDADD.
DEBUGINFO_LIBS = translator/debuginfo/libtapdebuginfo.a \
	$(LIBBPF_LIBS) $(LIBDW_LIBS) $(LIBELF_LIBS) $(LZMA_LIBS) \
	$(LIBZSTD_LIBS) $(ZLIB_LIBS)

noinst_PROGRAMS += translator/debuginfo/btfdump translator/debuginfo/dwdump
translator_debuginfo_dwdump_SOURCES = translator/debuginfo/dwdump.c
translator_debuginfo_dwdump_LDADD = $(DEBUGINFO_LIBS)
translator_debuginfo_btfdump_SOURCES = translator/debuginfo/btfdump.c
translator_debuginfo_btfdump_LDADD = $(DEBUGINFO_LIBS)

## bench/local.mk (not ours) resets BENCH_PROGRAMS, so the benchmark is an
## ordinary noinst program here; `make bench` runs it once it is listed there.
noinst_PROGRAMS += bench/bench_btf
bench_bench_btf_SOURCES = bench/bench_btf.c
bench_bench_btf_CFLAGS = $(AM_CFLAGS) -O2
bench_bench_btf_LDADD = $(DEBUGINFO_LIBS)
