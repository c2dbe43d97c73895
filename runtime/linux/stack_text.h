/*
 * stack_text.h -- a saved stack as the text SystemTap's stack functions
 * return: the hex list of backtrace()/ubacktrace() ("0x.. 0x..") and
 * how many frames callers(n)/ucallers(n) keep.  Shared by the kernel
 * and the user stack tapsets (backtrace.stp, ucontext.stp), which
 * differ only in how the frames are saved.  Included at file scope;
 * never sleeps or allocates.
 */
#ifndef TAP_STACK_TEXT_H
#define TAP_STACK_TEXT_H

#include <linux/kernel.h>

/* frames[0..n) into out as "0x.. 0x..", cut where out is full */
static __maybe_unused void
tap_stack_hex(char *out, size_t size, const unsigned long *frames,
	      unsigned int n)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n && len < size; i++)
		len += scnprintf(out + len, size - len, "%s0x%lx",
				 i ? " " : "", frames[i]);
}

/*
 * How many of the `have` saved frames (at most `max` are ever saved)
 * callers(level) returns: level + 1, all for -1, none below -1.  -1
 * when the stack ended before the level: an error in SystemTap.  A
 * stack cut at `max` frames is not an error: it gives what it has.
 */
static __maybe_unused int
tap_stack_callers_kept(long long level, unsigned int have, unsigned int max)
{
	if (level < -1)
		return 0;
	if (level == -1 || level + 1 == have)
		return have;
	if (level + 1 < have)
		return level + 1;
	return have < max ? -1 : have;
}

#endif /* TAP_STACK_TEXT_H */
