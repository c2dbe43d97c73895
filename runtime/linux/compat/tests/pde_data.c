/* TAPCONF_PDE_DATA: pde_data() exists (it replaced PDE_DATA() in later kernels). */
#include <linux/proc_fs.h>
void *tapconf_pde_data(const struct inode *inode);
void *tapconf_pde_data(const struct inode *inode)
{
	return pde_data(inode);
}
