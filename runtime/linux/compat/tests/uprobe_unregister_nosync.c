/* TAPCONF_UPROBE_UNREGISTER_NOSYNC: uprobe_unregister_nosync(uprobe, uc) + uprobe_unregister_sync() (before: uprobe_unregister(inode, offset, uc), synchronous). */
#include <linux/uprobes.h>
static void __used tapconf_test(struct uprobe *u, struct uprobe_consumer *uc)
{
	uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
}
