/* TAPCONF_UPROBE_RETURN_INSTANCES: current->utask->return_instances lists the return addresses uretprobes replaced (ri->stack, ri->orig_ret_vaddr). */
#include <linux/sched.h>
#include <linux/uprobes.h>
static unsigned long __used tapconf_test(void)
{
	struct return_instance *ri = current->utask ?
		current->utask->return_instances : NULL;

	return ri ? ri->stack + ri->orig_ret_vaddr : 0;
}
