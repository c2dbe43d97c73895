## runtime/linux.mk -- installs runtime/linux/, the kernel platform that
## each generated module compiles in (it is never built here: modules are
## built with kbuild against the target kernel).  Included by the top
## Makefile.am.  compat/tapconf.sh is installed as data; run it with sh.

nobase_dist_pkgdata_DATA += \
	runtime/linux/README.md \
	runtime/linux/tap_protocol.h \
	runtime/linux/runtime.h \
	runtime/linux/runtime.c \
	runtime/linux/context.h \
	runtime/linux/preempt_enable.h \
	runtime/linux/context.c \
	runtime/linux/output.h \
	runtime/linux/output.c \
	runtime/linux/memory.h \
	runtime/linux/memory.c \
	runtime/linux/target_mem.h \
	runtime/linux/locks.h \
	runtime/linux/counter.h \
	runtime/linux/locks.c \
	runtime/linux/ksyms.h \
	runtime/linux/ksyms.c \
	runtime/linux/owner.h \
	runtime/linux/owner.c \
	runtime/linux/relay_sync.h \
	runtime/linux/relay_sync.c \
	runtime/linux/transport.h \
	runtime/linux/transport.c \
	runtime/linux/probes.h \
	runtime/linux/probes_timer.c \
	runtime/linux/probes_tracepoint.c \
	runtime/linux/probes_kprobe.c \
	runtime/linux/probes_netfilter.c \
	runtime/linux/probes_hwbkpt.c \
	runtime/linux/probes_perf.c \
	runtime/linux/mmlock.h \
	runtime/linux/mmlock.c \
	runtime/linux/dpath.h \
	runtime/linux/dpath.c \
	runtime/linux/umaps.c \
	runtime/linux/probes_uprobe.h \
	runtime/linux/probes_uprobe.c \
	runtime/linux/uprobe_entry.c \
	runtime/linux/probes_uproc.c \
	runtime/linux/uret.h \
	runtime/linux/uret.c \
	runtime/linux/ustack.h \
	runtime/linux/ustack.c \
	runtime/linux/regex.h \
	runtime/linux/regex.c \
	runtime/linux/stack_text.h \
	runtime/linux/tapset_backtrace.h \
	runtime/linux/tapset_kread.h \
	runtime/linux/tapset_memory.h \
	runtime/linux/tapset_sysfmt.c \
	runtime/linux/tapset_task.h \
	runtime/linux/compat/compat_uprobe.h \
	runtime/linux/compat/tests/uprobe_register_ptr.c \
	runtime/linux/compat/tests/uprobe_unregister_nosync.c \
	runtime/linux/compat/tests/uprobe_handler_data.c \
	runtime/linux/compat/tests/uprobe_return_instances.c \
	runtime/linux/procfs.h \
	runtime/linux/procfs.c \
	runtime/linux/timing.h \
	runtime/linux/timing.c \
	runtime/linux/module.c \
	runtime/linux/compat/compat.h \
	runtime/linux/compat/tapconf.sh \
	runtime/linux/compat/tests/copy_nofault.c \
	runtime/linux/compat/tests/filldir_bool.c \
	runtime/linux/compat/tests/get_kretprobe.c \
	runtime/linux/compat/tests/hrtimer_mode_hard.c \
	runtime/linux/compat/tests/hrtimer_setup.c \
	runtime/linux/compat/tests/no_llseek.c \
	runtime/linux/compat/tests/pde_data.c \
	runtime/linux/compat/tests/relay_const_callbacks.c \
	runtime/linux/compat/tests/timer_delete_sync.c
