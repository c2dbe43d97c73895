## translator/providers/local.mk -- the probe families, one file (or a
## few) per family, each claiming its probe points, expanding them into
## derived probes and offering their context variables; registry.c lists
## them.  Entry header: provider.h (struct provider, the registry, the
## per-family data pass 3 reads).  Must not include build/.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/providers/begin_end.c \
	translator/providers/dwarf.c \
	translator/providers/dwarf_access.c \
	translator/providers/dwarf_access.h \
	translator/providers/hwbkpt.c \
	translator/providers/perf.c \
	translator/providers/kfunc.c \
	translator/providers/kfunc.h \
	translator/providers/kprobe.c \
	translator/providers/kprobe.h \
	translator/providers/lsm.c \
	translator/providers/netfilter.c \
	translator/providers/pdata.h \
	translator/providers/process.c \
	translator/providers/process.h \
	translator/providers/process_dwarf.c \
	translator/providers/process_dwarf.h \
	translator/providers/process_emit.c \
	translator/providers/process_bpf.c \
	translator/providers/procfs.c \
	translator/providers/provider.h \
	translator/providers/registry.c \
	translator/providers/syscall.c \
	translator/providers/syscall_table.c \
	translator/providers/syscall_table.h \
	translator/providers/timer.c \
	translator/providers/tracepoint.c \
	translator/providers/unsupported.c
