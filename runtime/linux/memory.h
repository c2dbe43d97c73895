/*
 * memory.h -- reading kernel and user memory from a handler without risk:
 * a bad address is a script error ("kernel read fault at 0x..."), never an
 * oops.  For $target variables, @cast, kernel_string(), user_string() & co.
 * Must not: sleep (the *_nofault primitives do not fault pages in; a user
 * page that is not resident reads as a fault).
 */
#ifndef TAP_LINUX_MEMORY_H
#define TAP_LINUX_MEMORY_H

#include <linux/types.h>
#include <linux/compiler.h>

struct tap_context;

bool tap_kread(struct tap_context *c, void *dst, const void *src, size_t size);
bool tap_uread(struct tap_context *c, void *dst, const void __user *src,
	       size_t size);
long tap_kstring(struct tap_context *c, char *dst, const char *src,
		 size_t size);
long tap_ustring(struct tap_context *c, char *dst, const char __user *src,
		 size_t size);

#endif /* TAP_LINUX_MEMORY_H */
