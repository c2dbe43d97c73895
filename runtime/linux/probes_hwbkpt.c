/*
 * probes_hwbkpt.c -- kernel.data probes: hardware watchpoints on a kernel
 * address, on every CPU, with register_wide_hw_breakpoint().
 *
 * Takes: tap_module.hwbkpts, each with its symbol (a tap_ksym name taprun
 * resolved) or address, length and access type.  Produces: armed
 * watchpoints whose handler runs the probe with c->regs the registers at
 * the access (so print_backtrace() shows the code that touched the data).
 * The handler runs in the debug exception, NMI-like: the context refuses
 * to nest as for any probe, and output goes through the same lock-free
 * per-CPU paths.  An address the CPU cannot watch (misaligned, or too
 * many watchpoints: x86 has four) fails the arming with a message.
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include "context.h"
#include "ksyms.h"
#include "probes.h"
#include "transport.h"

static void
tap_hwbkpt_handler(struct perf_event *bp, struct perf_sample_data *data,
		   struct pt_regs *regs)
{
	struct tap_hwbkpt_probe *h = bp->overflow_handler_context;
	struct tap_context *c;

	c = tap_context_enter(&h->probe, TAP_SESSION_RUNNING);
	if (!c)
		return;
	c->regs = regs;
	c->regs_kind = TAP_REGS_INTERRUPTED;
	h->probe.handler(c);
	c->regs_kind = TAP_REGS_CALL;
	tap_context_exit(c);
}

static void
tap_hwbkpt_complain(const struct tap_hwbkpt_probe *h, unsigned long addr,
		    const char *why, int err)
{
	char text[256];
	int n;

	n = scnprintf(text, sizeof(text), "probe %s: watchpoint at 0x%lx: %s (%d)",
		      h->probe.point, addr, why, err);
	tap_ctl_send(TAP_MSG_ERROR, text, n);
}

static int
tap_hwbkpt_arm_one(struct tap_hwbkpt_probe *h)
{
	struct perf_event_attr attr;
	unsigned long addr = h->symbol ? tap_ksym(h->symbol) : h->addr;
	struct perf_event * __percpu *bp;

	if (!addr) {
		tap_hwbkpt_complain(h, addr, "no such symbol", -ENOENT);
		return -ENOENT;
	}
	hw_breakpoint_init(&attr);
	attr.bp_addr = addr;
	attr.bp_len = h->len == 1 ? HW_BREAKPOINT_LEN_1 :
		      h->len == 2 ? HW_BREAKPOINT_LEN_2 :
		      h->len == 4 ? HW_BREAKPOINT_LEN_4 : HW_BREAKPOINT_LEN_8;
	attr.bp_type = h->rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
	bp = register_wide_hw_breakpoint(&attr, tap_hwbkpt_handler, h);
	if (IS_ERR((void __force *)bp)) {
		tap_hwbkpt_complain(h, addr, "cannot place it",
				    (int)PTR_ERR((void __force *)bp));
		return (int)PTR_ERR((void __force *)bp);
	}
	h->bp = bp;
	return 0;
}

int
tap_hwbkpts_arm(struct tap_hwbkpt_probe *h, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tap_hwbkpt_arm_one(&h[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* unregister_wide_hw_breakpoint() waits for running handlers. */
void
tap_hwbkpts_disarm(struct tap_hwbkpt_probe *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!h[i].bp)
			continue;
		unregister_wide_hw_breakpoint(h[i].bp);
		h[i].bp = NULL;
	}
}
