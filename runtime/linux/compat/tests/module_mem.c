/* TAPCONF_MODULE_MEM: struct module keeps its sizes in mem[MOD_*] (6.4 and later), not core_layout. */
#include <linux/module.h>
unsigned int tapconf_module_mem(struct module *m);
unsigned int tapconf_module_mem(struct module *m)
{
	return m->mem[MOD_TEXT].size;
}
