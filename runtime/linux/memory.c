/*
 * memory.c -- fault-tolerant reads of kernel and user memory (memory.h).
 *
 * Takes: addresses a script computed.  Produces: the bytes, or false / a
 * negative length after recording a script error in the context.
 * Must not: dereference the source directly.
 */
#include <linux/uaccess.h>
#include <linux/string.h>
#include <linux/mm.h>
#include "compat/compat.h"
#include "context.h"
#include "memory.h"

bool
tap_kread(struct tap_context *c, void *dst, const void *src, size_t size)
{
	if (likely(tap_copy_from_kernel_nofault(dst, src, size) == 0))
		return true;
	tap_error(c, "kernel read fault at 0x%lx (%zu bytes)",
		  (unsigned long)src, size);
	return false;
}

bool
tap_uread(struct tap_context *c, void *dst, const void __user *src,
	  size_t size)
{
	if (likely(tap_copy_from_user_nofault(dst, src, size) == 0))
		return true;
	tap_error(c, "user read fault at 0x%lx (%zu bytes)",
		  (unsigned long)src, size);
	return false;
}

/*
 * Copy a NUL-terminated string, cut to size - 1 bytes.  The strncpy_*_nofault
 * helpers are not exported to modules, so read page by page: a chunk never
 * crosses into a page the string does not reach.  Length, or -EFAULT.
 */
static long
tap_string_nofault(char *dst, const char *src, size_t size, bool user)
{
	size_t done = 0, chunk;
	char *nul;
	int ret;

	if (!size)
		return 0;
	while (done < size - 1) {
		chunk = min_t(size_t, size - 1 - done,
			      PAGE_SIZE - offset_in_page(src + done));
		ret = user ? tap_copy_from_user_nofault(dst + done,
					(const char __user *)src + done, chunk)
			   : tap_copy_from_kernel_nofault(dst + done,
					src + done, chunk);
		if (ret)
			return -EFAULT;
		nul = memchr(dst + done, '\0', chunk);
		if (nul)
			return nul - dst;
		done += chunk;
	}
	dst[done] = '\0';
	return done;
}

long
tap_kstring(struct tap_context *c, char *dst, const char *src, size_t size)
{
	long n = tap_string_nofault(dst, src, size, false);

	if (n < 0)
		tap_error(c, "kernel string copy fault at 0x%lx",
			  (unsigned long)src);
	return n;
}

long
tap_ustring(struct tap_context *c, char *dst, const char __user *src,
	    size_t size)
{
	long n = tap_string_nofault(dst, (const char __force *)src, size, true);

	if (n < 0)
		tap_error(c, "user string copy fault at 0x%lx",
			  (unsigned long)src);
	return n;
}
