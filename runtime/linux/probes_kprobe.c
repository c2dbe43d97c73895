/*
 * probes_kprobe.c -- kprobe.function("sym")[.return] probes: kprobes and
 * kretprobes placed by symbol name (the kernel resolves it, so no
 * kallsyms_lookup_name is needed).
 *
 * A probe on a module's code ("tapkmod:tk_ints") whose module is not
 * loaded waits for it, as in SystemTap: a module notifier registers the
 * module's probes at MODULE_STATE_COMING (the kernel resolves "mod:sym"
 * in a coming module's symbol table, and kprobes accept its text then)
 * and unregisters them at MODULE_STATE_GOING, so they follow the module
 * across unloads and reloads.  The notifier also places the module's
 * statics (ksyms.c).  The kernel disarms kprobes on a going module
 * itself; a handler that runs meanwhile runs in the module's own code,
 * which cannot be freed under it.
 *
 * Takes: tap_module.kprobes.  Produces: armed probes whose handlers see the
 * registers in c->regs; the count of hits the kernel missed.
 * Must not: leave a probe registered on any error path; hold
 * tap_kprobe_mutex across unregister_module_notifier (the notifier takes
 * it: deadlock).
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "compat/compat.h"
#include "ksyms.h"
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

/* Serializes (un)registration between arm/disarm and the notifier. */
static DEFINE_MUTEX(tap_kprobe_mutex);
static struct tap_kprobe_probe *tap_kprobe_table;
static size_t tap_kprobe_count;
static bool tap_kprobe_notifier_on;

/* Whether k is on module `mod`'s code ("mod:sym"). */
static bool
tap_kprobe_in_module(const struct tap_kprobe_probe *k, const char *mod)
{
	const char *colon = strchr(k->symbol, ':');

	return colon && strlen(mod) == (size_t)(colon - k->symbol) &&
	       strncmp(k->symbol, mod, colon - k->symbol) == 0;
}

static void
tap_kprobe_unregister_one(struct tap_kprobe_probe *k)
{
	if (k->is_return)
		unregister_kretprobe(&k->u.krp);
	else
		unregister_kprobe(&k->u.kp);
	k->armed = false;
}

static void
tap_kprobe_report(struct tap_kprobe_probe *k, int ret, const char *why)
{
	char text[256];
	int len;

	len = scnprintf(text, sizeof(text),
			"probe %s: cannot place %s on %s+%lu (%d)%s",
			k->probe.point, k->is_return ? "kretprobe" : "kprobe",
			k->symbol, k->offset, ret, why);
	tap_ctl_send(TAP_MSG_ERROR, text, len);
}

/* MODULE_STATE_COMING: arm the module's waiting probes; GOING: disarm
 * them (they wait for the next load). Process context. */
static int
tap_kprobe_module_event(struct notifier_block *nb, unsigned long state,
			void *data)
{
	struct module *mod = data;
	size_t i;
	int ret;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	if (state == MODULE_STATE_COMING)
		tap_ksyms_module_event(mod, true);
	mutex_lock(&tap_kprobe_mutex);
	for (i = 0; i < tap_kprobe_count; i++) {
		struct tap_kprobe_probe *k = &tap_kprobe_table[i];

		if (!tap_kprobe_in_module(k, mod->name))
			continue;
		if (state == MODULE_STATE_GOING) {
			if (k->armed)
				tap_kprobe_unregister_one(k);
			continue;
		}
		if (k->armed)
			continue;
		ret = tap_kprobe_register_one(k);
		if (ret == 0)
			k->armed = true;
		else if (!k->optional)	/* the script goes on: other
					 * probes may still fire */
			tap_kprobe_report(k, ret, " as its module loaded");
	}
	mutex_unlock(&tap_kprobe_mutex);
	if (state == MODULE_STATE_GOING)
		tap_ksyms_module_event(mod, false);
	return NOTIFY_DONE;
}

static struct notifier_block tap_kprobe_module_nb = {
	.notifier_call = tap_kprobe_module_event,
};

/*
 * The notifier goes in before the first registration, so a module that
 * loads meanwhile is not missed (its COMING waits for the mutex, and
 * finds the probes the loop could not place).  A probe on a module's
 * code that cannot be placed with -ENOENT is taken to wait for its
 * module: tapc found the symbol in the module's own file.
 */
int
tap_kprobes_arm(struct tap_kprobe_probe *k, size_t n)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (strchr(k[i].symbol, ':'))
			break;
	tap_kprobe_table = k;
	tap_kprobe_count = n;
	/* a module's statics alone also need the notifier */
	if ((i < n || tap_ksyms_have_module_syms()) && !tap_kprobe_notifier_on) {
		ret = register_module_notifier(&tap_kprobe_module_nb);
		if (ret)
			return ret;
		tap_kprobe_notifier_on = true;
	}
	mutex_lock(&tap_kprobe_mutex);
	for (i = 0; i < n; i++) {
		if (k[i].armed)
			continue;
		ret = tap_kprobe_register_one(&k[i]);
		if (ret == 0) {
			k[i].armed = true;
			continue;
		}
		ret = ret == -ENOENT && strchr(k[i].symbol, ':') ? 0 : ret;
		if (!ret || k[i].optional) {
			ret = 0;
			continue;
		}
		tap_kprobe_report(&k[i], ret, "");
		break;
	}
	mutex_unlock(&tap_kprobe_mutex);
	return ret;
}

/*
 * Unregister every armed probe of one kind with one call: the kernel then
 * waits for one grace period for all of them, where one call per probe
 * waits once per probe (thousands of probes took longer than taprun's
 * stop allows).  Falls back to one at a time if the array cannot be had.
 */
static void
tap_kprobes_unregister_batch(struct tap_kprobe_probe *k, size_t n,
			     bool returns)
{
	void **batch;
	size_t i, m = 0;

	batch = kvmalloc_array(n, sizeof(*batch), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		if (!k[i].armed || k[i].is_return != returns)
			continue;
		if (!batch) {
			tap_kprobe_unregister_one(&k[i]);
			continue;
		}
		batch[m++] = returns ? (void *)&k[i].u.krp : (void *)&k[i].u.kp;
		k[i].armed = false;
	}
	if (batch && m) {
		if (returns)
			unregister_kretprobes((struct kretprobe **)batch, m);
		else
			unregister_kprobes((struct kprobe **)batch, m);
	}
	kvfree(batch);
}

void
tap_kprobes_disarm(struct tap_kprobe_probe *k, size_t n)
{
	if (tap_kprobe_notifier_on) {
		unregister_module_notifier(&tap_kprobe_module_nb);
		tap_kprobe_notifier_on = false;
	}
	mutex_lock(&tap_kprobe_mutex);
	tap_kprobes_unregister_batch(k, n, false);
	tap_kprobes_unregister_batch(k, n, true);
	tap_kprobe_count = 0;
	mutex_unlock(&tap_kprobe_mutex);
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
