/*
 * compat_uprobe.h -- the uprobe API differences, for probes_uprobe.c only
 * (compat.h stays free of <linux/uprobes.h> for every other module).
 * 6.12 made uprobe_register() return the struct uprobe (ref_ctr_offset as
 * an argument) and split unregistering into a no-sync step and one
 * synchronisation for the lot; later kernels pass handlers a session
 * cookie.  Picked by TAPCONF_UPROBE_* compile tests, never by version.
 */
#ifndef TAP_LINUX_COMPAT_UPROBE_H
#define TAP_LINUX_COMPAT_UPROBE_H

#include <linux/uprobes.h>
#include <linux/err.h>
#include "tapconf.h"

/* Handler parameter lists: the kernel's, with or without the cookie. */
#ifdef TAPCONF_UPROBE_HANDLER_DATA
#define TAP_UPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data
#define TAP_URETPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs, \
	__u64 *data
#else
#define TAP_UPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, struct pt_regs *regs
#define TAP_URETPROBE_HANDLER_ARGS \
	struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs
#endif

/* Register; 0 or -errno.  *handle is what unregistering needs. */
static inline int
tap_uprobe_register(struct inode *inode, loff_t offset, loff_t ref_ctr,
		    struct uprobe_consumer *uc, void **handle)
{
#ifdef TAPCONF_UPROBE_REGISTER_PTR
	struct uprobe *u = uprobe_register(inode, offset, ref_ctr, uc);

	if (IS_ERR(u))
		return PTR_ERR(u);
	*handle = u;
	return 0;
#else
	*handle = NULL;
	if (ref_ctr)
		return uprobe_register_refctr(inode, offset, ref_ctr, uc);
	return uprobe_register(inode, offset, uc);
#endif
}

/* Unregister without waiting for running handlers... */
static inline void
tap_uprobe_unregister_nosync(struct inode *inode, loff_t offset,
			     struct uprobe_consumer *uc, void *handle)
{
#ifdef TAPCONF_UPROBE_UNREGISTER_NOSYNC
	uprobe_unregister_nosync(handle, uc);
#else
	/* older kernels: synchronous already */
	uprobe_unregister(inode, offset, uc);
#endif
}

/* ...then wait for them, once for all probes. */
static inline void
tap_uprobe_unregister_sync(void)
{
#ifdef TAPCONF_UPROBE_UNREGISTER_NOSYNC
	uprobe_unregister_sync();
#endif
}

#endif /* TAP_LINUX_COMPAT_UPROBE_H */
