/* TAPCONF_FILLDIR_BOOL: a dir_context actor returns bool (int in older kernels). */
#include <linux/fs.h>
static bool tapconf_actor(struct dir_context *ctx, const char *name, int len,
			  loff_t off, u64 ino, unsigned int type)
{
	return true;
}
static struct dir_context __used tapconf_ctx = { .actor = tapconf_actor };
