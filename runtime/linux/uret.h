/*
 * uret.h -- the current task's pending uretprobe return instances, read
 * without trusting them (uret.c).
 *
 * A function with a .return probe returns to the uretprobe trampoline;
 * the kernel keeps what it replaced in current->utask->return_instances,
 * newest first: the stack slot of the return address and the address
 * that was there.  The stack walk (ustack.c) and the @entry half of a
 * .return probe (probes_uprobe.c) look there.
 *
 * Must not: dereference an instance with a plain load.  On 6.1,
 * handle_trampoline() runs the handlers of a chain (instances sharing a
 * slot: a tail call from one probed function to another) one after the
 * other and kfree()s each after its handler, but moves the list's head
 * past the chain only when all have run: from the second handler on,
 * the head is freed memory.  So every field is read no-fault, and what
 * cannot be a live list ends the walk.
 */
#ifndef TAP_LINUX_URET_H
#define TAP_LINUX_URET_H

#include <linux/types.h>

/* What one return instance says, as read. */
struct tap_uret {
	unsigned long func;	/* the probed function's address */
	unsigned long slot;	/* user address of the replaced return address */
	unsigned long orig;	/* the return address the program had there */
};

/* The newest pending instance; false when there is none or it cannot be
 * read as one. */
bool tap_uret_newest(struct tap_uret *out);

/* The return address the program stored at user address slot, if a
 * pending instance replaced it; else ret. */
unsigned long tap_uret_original(unsigned long slot, unsigned long ret);

#endif /* TAP_LINUX_URET_H */
