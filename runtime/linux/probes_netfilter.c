/*
 * probes_netfilter.c -- netfilter.hook("H").pf("P") probes: a netfilter
 * hook per probe, registered with nf_register_net_hook() in the initial
 * network namespace (as SystemTap does: packets of other namespaces, a
 * container's, do not reach the probe).
 *
 * Takes: tap_module.netfilters, each with its protocol family, hook number
 * and priority (probes.h).  Produces: armed hooks whose function enters
 * the probe's context, hands the handler the packet and the hook state in
 * c->probe_data (TAP_NF_* slots) and returns the verdict slot: NF_ACCEPT
 * unless a guru-mode handler set $verdict.  A packet that arrives while
 * the context cannot be entered (the session is not running, or the CPU
 * is already in a handler) is accepted untouched.
 * Must not: sleep (hooks run in softirq context), or return a verdict
 * other than the netfilter ones.
 */
#include <linux/netfilter.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>
#include "context.h"
#include "probes.h"
#include "transport.h"

static unsigned int
tap_nf_hookfn(void *priv, struct sk_buff *skb,
	      const struct nf_hook_state *state)
{
	struct tap_netfilter_probe *f = priv;
	int64_t slots[TAP_NF_SLOTS];
	struct tap_context *c;
	unsigned int verdict;

	c = tap_context_enter(&f->probe, TAP_SESSION_RUNNING);
	if (!c)
		return NF_ACCEPT;
	slots[TAP_NF_HOOKNUM] = state->hook;
	slots[TAP_NF_SKB] = (int64_t)(unsigned long)skb;
	slots[TAP_NF_IN] = (int64_t)(unsigned long)state->in;
	slots[TAP_NF_OUT] = (int64_t)(unsigned long)state->out;
	slots[TAP_NF_STATE] = (int64_t)(unsigned long)state;
	slots[TAP_NF_VERDICT] = NF_ACCEPT;
	slots[TAP_NF_PF] = state->pf;
	c->probe_data = slots;
	f->probe.handler(c);
	tap_context_exit(c);
	/* only the verdicts a hook may give; anything else would make the
	 * stack misread the packet's fate */
	verdict = (unsigned int)slots[TAP_NF_VERDICT];
	switch (verdict & NF_VERDICT_MASK) {
	case NF_DROP: case NF_ACCEPT: case NF_STOLEN: case NF_QUEUE:
	case NF_REPEAT: case NF_STOP:
		return verdict;
	}
	return NF_ACCEPT;
}

static void
tap_nf_complain(const struct tap_netfilter_probe *f, int err)
{
	char text[256];
	int n;

	n = scnprintf(text, sizeof(text),
		      "probe %s: cannot register netfilter hook %d of protocol family %d (%d)",
		      f->probe.point, f->hooknum, f->pf, err);
	tap_ctl_send(TAP_MSG_ERROR, text, n);
}

int
tap_netfilters_arm(struct tap_netfilter_probe *f, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		f[i].ops.hook = tap_nf_hookfn;
		f[i].ops.priv = &f[i];
		f[i].ops.pf = f[i].pf;
		f[i].ops.hooknum = f[i].hooknum;
		f[i].ops.priority = f[i].priority;
		ret = nf_register_net_hook(&init_net, &f[i].ops);
		if (ret) {
			tap_nf_complain(&f[i], ret);
			return ret;
		}
		f[i].armed = true;
	}
	return 0;
}

/* nf_unregister_net_hook() waits for the hook's running calls (it
 * synchronizes RCU) before it returns. */
void
tap_netfilters_disarm(struct tap_netfilter_probe *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!f[i].armed)
			continue;
		nf_unregister_net_hook(&init_net, &f[i].ops);
		f[i].armed = false;
	}
}
