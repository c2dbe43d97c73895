/*
 * uret.c -- the current task's pending uretprobe return instances, read
 * no-fault (see uret.h for why).
 *
 * Takes: current->utask->return_instances.  Produces: the instance
 * covering a stack slot, or the newest one.  Must not: load a field of an
 * instance directly, or follow more than TAP_URET_MAX of them.
 *
 * An instance whose slot or saved address is not a user address, or
 * that cannot be read, ends the walk (the list is not ordered by slot
 * in general: a signal handler on sigaltstack pushes instances far from
 * the others).  On 6.1, in the second handler of a chain, the head is
 * freed: reused or poisoned, it usually fails that check, and then the
 * slots further up are not translated (a frame shows the trampoline),
 * but nothing wild is followed; freed and not yet reused, it reads as it
 * was, and its next still leads to the live rest of the list.
 *
 * Part of runtime.c's translation unit.
 */
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include "compat/compat.h"
#include "uret.h"

#define TAP_URET_MAX 64		/* as deep as the kernel lets a chain go */

#if defined(TAPCONF_UPROBE_RETURN_INSTANCES) && defined(CONFIG_UPROBES)

#define TAP_URET_FIELD(ri, field, dst) \
	(!tap_copy_from_kernel_nofault(&(dst), &(ri)->field, sizeof(dst)))

/* Read *ri into out and its successor into next; false when unreadable
 * or not in user space. */
static bool
tap_uret_read(const struct return_instance *ri, struct tap_uret *out,
	      const struct return_instance **next)
{
	if (!TAP_URET_FIELD(ri, func, out->func) ||
	    !TAP_URET_FIELD(ri, stack, out->slot) ||
	    !TAP_URET_FIELD(ri, orig_ret_vaddr, out->orig) ||
	    !TAP_URET_FIELD(ri, next, *next))
		return false;
	return out->slot < TASK_SIZE_MAX && out->orig < TASK_SIZE_MAX;
}

/* The head of the list: current->utask is this task's own and stays
 * until it exits, so it is read as is. */
static const struct return_instance *
tap_uret_head(void)
{
	return current->utask ? READ_ONCE(current->utask->return_instances)
			      : NULL;
}

bool
tap_uret_newest(struct tap_uret *out)
{
	const struct return_instance *ri = tap_uret_head(), *next;

	return ri && tap_uret_read(ri, out, &next);
}

unsigned long
tap_uret_original(unsigned long slot, unsigned long ret)
{
	const struct return_instance *ri = tap_uret_head();
	struct tap_uret u;
	int n;

	for (n = 0; ri && n < TAP_URET_MAX; n++) {
		if (!tap_uret_read(ri, &u, &ri))
			break;
		if (u.slot == slot)
			return u.orig;
	}
	return ret;
}

#else /* no return instances to read */

bool
tap_uret_newest(struct tap_uret *out)
{
	return false;
}

unsigned long
tap_uret_original(unsigned long slot, unsigned long ret)
{
	return ret;
}

#endif
