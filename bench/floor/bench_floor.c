/*
 * bench_floor.c -- the floor of the stat() benchmark: an empty handler on
 * the hook tapc's kernel.syscall() and kernel.trace("sys_enter") probes
 * use, the raw_syscalls sys_enter tracepoint.  Whatever tapc adds per
 * event beyond this module is tapc's own cost.
 *
 * Loaded with insmod, removed with rmmod; no taprun, no tapc runtime.
 * Must not: do any work in the handler.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/ptrace.h>

static struct tracepoint *floor_tp;

static void
floor_match(struct tracepoint *tp, void *priv)
{
	if (strcmp(tp->name, "sys_enter") == 0)
		floor_tp = tp;
}

/* The tracepoint's prototype: TP_PROTO(struct pt_regs *regs, long id). */
static void
floor_sys_enter(void *data, struct pt_regs *regs, long id)
{
}

static int __init
floor_init(void)
{
	for_each_kernel_tracepoint(floor_match, NULL);
	if (!floor_tp) {
		pr_err("bench_floor: no sys_enter tracepoint\n");
		return -ENOENT;
	}
	return tracepoint_probe_register(floor_tp, floor_sys_enter, NULL);
}

static void __exit
floor_exit(void)
{
	tracepoint_probe_unregister(floor_tp, floor_sys_enter, NULL);
	tracepoint_synchronize_unregister();
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc benchmark floor: empty sys_enter handler");
