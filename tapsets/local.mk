## tapsets/local.mk -- the tapset library, installed under
## $(pkgdatadir)/tapsets. Every file is listed: automake has no wildcards.

nobase_dist_pkgdata_DATA += \
	tapsets/macros.stpm \
	tapsets/ansi.stp \
	tapsets/assert.stp \
	tapsets/argv.stp \
	tapsets/builtins.stp \
	tapsets/byteorder.stp \
	tapsets/context.stp \
	tapsets/ctime.stp \
	tapsets/devnum.stp \
	tapsets/indent.stp \
	tapsets/logging.stp \
	tapsets/json.stpm \
	tapsets/null.stp \
	tapsets/prometheus.stp \
	tapsets/prometheus.stpm \
	tapsets/oneshot.stp \
	tapsets/queue_stats.stp \
	tapsets/random.stp \
	tapsets/stopwatch.stp \
	tapsets/strings.stp \
	tapsets/switch_file.stp \
	tapsets/system.stp \
	tapsets/timezone.stp \
	tapsets/this.stp \
	tapsets/linux/backtrace.stp \
	tapsets/linux/context.stp \
	tapsets/linux/conversions.stp \
	tapsets/linux/dentry.stp \
	tapsets/linux/errno.stp \
	tapsets/linux/inet_sock.stp \
	tapsets/linux/ioblock.stp \
	tapsets/linux/irq.stp \
	tapsets/linux/json.stp \
	tapsets/linux/kprocess.stp \
	tapsets/linux/kwrite.stp \
	tapsets/linux/memory.stp \
	tapsets/linux/netdev.stp \
	tapsets/linux/registers.stp \
	tapsets/linux/scheduler.stp \
	tapsets/linux/sigaction.stp \
	tapsets/linux/signal.stp \
	tapsets/linux/syscalls.stp \
	tapsets/linux/syscalls_argstr.stp \
	tapsets/linux/syscalls_gen.stp \
	tapsets/linux/target_set.stp \
	tapsets/linux/task.stp \
	tapsets/linux/task_resources.stp \
	tapsets/linux/tcp.stp \
	tapsets/linux/time.stp \
	tapsets/linux/ucontext.stp \
	tapsets/linux/timer.stp \
	tapsets/linux/vfs.stp
