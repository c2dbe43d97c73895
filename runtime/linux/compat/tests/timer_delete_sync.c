/* TAPCONF_TIMER_DELETE_SYNC: timer_delete_sync() (del_timer_sync is going away). */
#include <linux/timer.h>
static void __used tapconf_test(struct timer_list *t)
{
	timer_delete_sync(t);
}
