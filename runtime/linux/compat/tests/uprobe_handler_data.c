/* TAPCONF_UPROBE_HANDLER_DATA: uprobe_consumer handlers take a trailing __u64 *data (session uprobes). */
#include <linux/uprobes.h>
static int tapconf_h(struct uprobe_consumer *self, struct pt_regs *regs, __u64 *data)
{
	return 0;
}
static int tapconf_r(struct uprobe_consumer *self, unsigned long func, struct pt_regs *regs, __u64 *data)
{
	return 0;
}
struct uprobe_consumer tapconf_uc __used = { .handler = tapconf_h, .ret_handler = tapconf_r };
