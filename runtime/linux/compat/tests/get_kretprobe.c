/* TAPCONF_GET_KRETPROBE: get_kretprobe(ri) instead of ri->rp. */
#include <linux/kprobes.h>
static struct kretprobe * __used tapconf_test(struct kretprobe_instance *ri)
{
	return get_kretprobe(ri);
}
