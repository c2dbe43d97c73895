/*
 * tapset_sysfmt.c -- brings the strace-style decoder (runtime/core/sysfmt.c)
 * and SystemTap's struct spellings (runtime/core/sysstruct.c) into a
 * module for the syscall and errno tapsets, once however many tapset files
 * ask for them; and the user-memory side of the struct decoders.
 */
#ifndef TAP_TAPSET_SYSFMT_C
#define TAP_TAPSET_SYSFMT_C
#include "../core/sysfmt.c"
#include "../core/sysstruct.c"

/*
 * Copies the size bytes of the user struct at uaddr into copy, for one
 * of the tap_sysstruct_*() decoders, and returns true.  When there is
 * nothing to decode it returns false with dst already saying why, as
 * SystemTap's decoders do: "NULL" for a null pointer, the address in hex
 * when it cannot be read (unmapped, or a page not resident: the nofault
 * read does not fault pages in).  Neither is a script error: the call
 * itself fails with EFAULT, and the probe reports what it was given.
 * (Maybe unused: errno.stp brings this file in without the decoders.)
 */
static bool __maybe_unused
tap_sysstruct_copy(char *dst, size_t size, void *copy, long uaddr,
		   size_t len)
{
	if (!uaddr) {
		strscpy(dst, "NULL", size);
		return false;
	}
	if (tap_copy_from_user_nofault(copy, (const void __user *)uaddr,
				       len)) {
		snprintf(dst, size, "0x%lx", (unsigned long)uaddr);
		return false;
	}
	return true;
}
#endif
