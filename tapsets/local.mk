## tapsets/local.mk -- the tapset library, installed under
## $(pkgdatadir)/tapsets. Every file is listed: automake has no wildcards.

nobase_dist_pkgdata_DATA += \
	tapsets/macros.stpm \
	tapsets/builtins.stp \
	tapsets/context.stp \
	tapsets/logging.stp \
	tapsets/null.stp \
	tapsets/oneshot.stp \
	tapsets/random.stp \
	tapsets/linux/backtrace.stp \
	tapsets/linux/context.stp \
	tapsets/linux/conversions.stp \
	tapsets/linux/dentry.stp \
	tapsets/linux/errno.stp \
	tapsets/linux/inet.stp \
	tapsets/linux/ioblock.stp \
	tapsets/linux/ioblock_trace.stp \
	tapsets/linux/irq.stp \
	tapsets/linux/kprocess.stp \
	tapsets/linux/kwrite.stp \
	tapsets/linux/memory.stp \
	tapsets/linux/netdev.stp \
	tapsets/linux/netfilter.stp \
	tapsets/linux/nfsd.stp \
	tapsets/linux/registers.stp \
	tapsets/linux/scheduler.stp \
	tapsets/linux/signal.stp \
	tapsets/linux/syscalls.stp \
	tapsets/linux/syscalls_argstr.stp \
	tapsets/linux/syscalls_gen.stp \
	tapsets/linux/task.stp \
	tapsets/linux/tcp.stp \
	tapsets/linux/time.stp \
	tapsets/linux/ucontext.stp \
	tapsets/linux/vm.stp \
	tapsets/linux/timer.stp \
	tapsets/linux/udp.stp \
	tapsets/linux/vfs.stp
