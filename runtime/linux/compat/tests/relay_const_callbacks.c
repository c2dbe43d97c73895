/* TAPCONF_RELAY_CONST_CALLBACKS: relay_open() takes const struct rchan_callbacks *. */
#include <linux/relay.h>
static const struct rchan_callbacks tapconf_cb;
static struct rchan * __used tapconf_test(void)
{
	return relay_open("x", NULL, 4096, 2, &tapconf_cb, NULL);
}
