/*
 * tapset_backtrace.h -- the kernel stack for tapsets/linux/backtrace.stp:
 * saved with the kernel's unwinder (stack_trace_save, safe in any context
 * a probe runs in), minus the frames of this module.  Included once at
 * file scope by the tapset.  Never sleeps or allocates: frames go in the
 * caller's small array.
 */
#ifndef TAP_TAPSET_BACKTRACE_H
#define TAP_TAPSET_BACKTRACE_H

#include <linux/stacktrace.h>
#include <linux/module.h>
#include "stack_text.h"

#define TAP_BT_FRAMES	20

/*
 * Fill frames[TAP_BT_FRAMES] with the stack below the probe; the count.
 * In a kprobe the probed instruction is known (c->regs): the stack starts
 * at the frame that holds it (the return address of an ftrace call is a
 * few bytes past it), skipping the kprobe and ftrace machinery.
 */
static __maybe_unused unsigned int
tap_bt_save(struct tap_context *c, unsigned long *frames)
{
	unsigned long all[TAP_BT_FRAMES + 12];
	unsigned int n = stack_trace_save(all, ARRAY_SIZE(all), 0);
	unsigned int i, start = 0, kept = 0;

	/* Our handler and the probe glue sit on top of the stack: start
	 * below the last frame of this module. */
	for (i = 0; i < n; i++)
		if (within_module(all[i], THIS_MODULE))
			start = i + 1;
	if (start >= n)
		start = 0;
	if (c->regs && !user_mode(c->regs))
		for (i = start; i < n; i++)
			if (all[i] - instruction_pointer(c->regs) <= 16) {
				start = i;
				break;
			}
	i = start;
	while (i < n && kept < TAP_BT_FRAMES)
		frames[kept++] = all[i++];
	return kept;
}

/* The next address of a stack as backtrace() gives it ("0x.. 0x.."):
 * false at its end or at anything that is not hex. */
static __maybe_unused bool
tap_bt_next_addr(const char **p, unsigned long *addr)
{
	char *end;

	*p = skip_spaces(*p);
	*addr = simple_strtoul(*p, &end, 16);
	if (end == *p)
		return false;
	*p = end;
	return true;
}

static __maybe_unused void
tap_bt_print_frame(struct tap_context *c, unsigned long addr)
{
	tap_printf(c, " 0x%lx : %pS\n", addr, (void *)addr);
}

#endif /* TAP_TAPSET_BACKTRACE_H */
