/* TAPCONF_NO_LLSEEK: no_llseek() exists (removed in later kernels, where nonseekable_open() alone suffices). */
#include <linux/fs.h>
static const struct file_operations __used tapconf_fops = {
	.llseek = no_llseek,
};
