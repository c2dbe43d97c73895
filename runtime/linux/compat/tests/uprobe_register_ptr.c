/* TAPCONF_UPROBE_REGISTER_PTR: uprobe_register(inode, offset, ref_ctr_offset, uc) returns struct uprobe * (before: int, and uprobe_register_refctr for the semaphore). */
#include <linux/uprobes.h>
static struct uprobe * __used tapconf_test(struct inode *i, struct uprobe_consumer *uc)
{
	return uprobe_register(i, 0, 0, uc);
}
