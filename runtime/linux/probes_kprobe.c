/*
 * probes_kprobe.c -- kprobe.function("sym")[.return] probes: kprobes and
 * kretprobes placed by symbol name (the kernel resolves it, so no
 * kallsyms_lookup_name is needed).
 *
 * Takes: tap_module.kprobes.  Produces: armed probes whose handlers see the
 * registers in c->regs; the count of hits the kernel missed.
 * Must not: leave a probe registered on any error path.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include "compat/compat.h"
#include "context.h"
#include "probes.h"
#include "transport.h"

static void
tap_kprobe_run(struct tap_kprobe_probe *k, struct pt_regs *regs)
{
	struct tap_context *c;

	c = tap_context_enter(&k->probe, TAP_SESSION_RUNNING);
	if (!c)
		return;
	c->regs = regs;
	k->probe.handler(c);
	tap_context_exit(c);
}

static int
tap_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	tap_kprobe_run(container_of(kp, struct tap_kprobe_probe, u.kp), regs);
	return 0;
}

static int
tap_kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = tap_get_kretprobe(ri);
	struct tap_kprobe_probe *k;
	struct tap_context *c;

	if (!rp)
		return 0;
	k = container_of(rp, struct tap_kprobe_probe, u.krp);
	c = tap_context_enter(&k->probe, TAP_SESSION_RUNNING);
	if (!c)
		return 0;
	c->regs = regs;
	c->probe_data = k->data_size ? (void *)ri->data : NULL;
	k->probe.handler(c);
	tap_context_exit(c);
	return 0;
}

/* Entry half of a .return probe: nonzero tells the kernel not to arm the
 * return, so a skipped entry never leaves the return without its data. */
static int
tap_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = tap_get_kretprobe(ri);
	struct tap_kprobe_probe *k;
	struct tap_context *c;

	if (!rp)
		return 1;
	k = container_of(rp, struct tap_kprobe_probe, u.krp);
	c = tap_context_enter(&k->probe, TAP_SESSION_RUNNING);
	if (!c)
		return 1;
	c->regs = regs;
	c->probe_data = k->data_size ? (void *)ri->data : NULL;
	k->entry_handler(c);
	tap_context_exit(c);
	return 0;
}

static int
tap_kprobe_register_one(struct tap_kprobe_probe *k)
{
	if (k->is_return) {
		memset(&k->u.krp, 0, sizeof(k->u.krp));
		k->u.krp.kp.symbol_name = k->symbol;
		k->u.krp.kp.offset = k->offset;
		k->u.krp.handler = tap_kretprobe_ret;
		k->u.krp.maxactive = k->maxactive;
		if (k->entry_handler)
			k->u.krp.entry_handler = tap_kretprobe_entry;
		k->u.krp.data_size = k->data_size;
		return register_kretprobe(&k->u.krp);
	}
	memset(&k->u.kp, 0, sizeof(k->u.kp));
	k->u.kp.symbol_name = k->symbol;
	k->u.kp.offset = k->offset;
	k->u.kp.pre_handler = tap_kprobe_pre;
	return register_kprobe(&k->u.kp);
}

int
tap_kprobes_arm(struct tap_kprobe_probe *k, size_t n)
{
	char text[256];
	size_t i;
	int ret, len;

	for (i = 0; i < n; i++) {
		ret = tap_kprobe_register_one(&k[i]);
		if (ret == 0) {
			k[i].armed = true;
			continue;
		}
		if (k[i].optional)
			continue;
		/* "mod:func" not found: the module is not loaded (probes
		 * do not wait for it) */
		len = scnprintf(text, sizeof(text),
				"probe %s: cannot place %s on %s+%lu (%d)%s",
				k[i].probe.point,
				k[i].is_return ? "kretprobe" : "kprobe",
				k[i].symbol, k[i].offset, ret,
				ret == -ENOENT && strchr(k[i].symbol, ':') ?
				": is the module loaded?" : "");
		tap_ctl_send(TAP_MSG_ERROR, text, len);
		return ret;
	}
	return 0;
}

void
tap_kprobes_disarm(struct tap_kprobe_probe *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!k[i].armed)
			continue;
		if (k[i].is_return)
			unregister_kretprobe(&k[i].u.krp);
		else
			unregister_kprobe(&k[i].u.kp);
		k[i].armed = false;
	}
}

u64
tap_kprobes_missed(struct tap_kprobe_probe *k, size_t n)
{
	u64 missed = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (k[i].is_return)
			missed += k[i].u.krp.nmissed + k[i].u.krp.kp.nmissed;
		else
			missed += k[i].u.kp.nmissed;
	}
	return missed;
}
