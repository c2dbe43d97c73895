## tapsets/local.mk -- the tapset library, installed under
## $(pkgdatadir)/tapsets. Every file is listed: automake has no wildcards.

nobase_dist_pkgdata_DATA += \
	tapsets/macros.stpm \
	tapsets/linux/context.stp \
	tapsets/linux/conversions.stp \
	tapsets/linux/errno.stp \
	tapsets/linux/syscalls.stp \
	tapsets/linux/syscalls_argstr.stp \
	tapsets/linux/syscalls_gen.stp \
	tapsets/linux/task.stp \
	tapsets/linux/time.stp
