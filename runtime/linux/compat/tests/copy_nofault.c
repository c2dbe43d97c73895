/* TAPCONF_COPY_NOFAULT: copy_from_kernel_nofault() and copy_from_user_nofault() (before: probe_*_read). */
#include <linux/uaccess.h>
static long __used tapconf_test(void *d, const void *s, const void __user *u)
{
	return copy_from_kernel_nofault(d, s, 1) +
	       copy_from_user_nofault(d, u, 1);
}
