/*
 * probes_tracepoint.c -- kernel.trace("name") probes on the kernel's own
 * tracepoints, found by name with for_each_kernel_tracepoint() and attached
 * with tracepoint_probe_register().
 *
 * Takes: tap_module.tracepoints, each with a generated callback of the
 * tracepoint's prototype.  Produces: armed tracepoints; on disarm, waits
 * for running callbacks.  Must not: touch tracepoints in modules (not yet
 * supported: they are not on the kernel's list).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "context.h"
#include "probes.h"
#include "transport.h"

struct tap_tp_lookup {
	const char *name;
	struct tracepoint *found;
};

static void
tap_tp_match(struct tracepoint *tp, void *priv)
{
	struct tap_tp_lookup *l = priv;

	if (!l->found && strcmp(tp->name, l->name) == 0)
		l->found = tp;
}

static struct tracepoint *
tap_tp_find(const char *name)
{
	struct tap_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(tap_tp_match, &l);
	return l.found;
}

static void
tap_tp_complain(const struct tap_tracepoint_probe *t, const char *why, int err)
{
	char text[256];
	int n;

	n = scnprintf(text, sizeof(text), "probe %s: tracepoint %s: %s (%d)",
		      t->probe.point, t->name, why, err);
	tap_ctl_send(TAP_MSG_ERROR, text, n);
}

int
tap_tracepoints_arm(struct tap_tracepoint_probe *t, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		t[i].tp = tap_tp_find(t[i].name);
		if (!t[i].tp) {
			if (t[i].optional)
				continue;
			tap_tp_complain(&t[i], "no such tracepoint", -ENOENT);
			return -ENOENT;
		}
		ret = tracepoint_probe_register(t[i].tp, t[i].callback, &t[i]);
		if (ret) {
			tap_tp_complain(&t[i], "cannot register", ret);
			return ret;
		}
		t[i].armed = true;
	}
	return 0;
}

void
tap_tracepoints_disarm(struct tap_tracepoint_probe *t, size_t n)
{
	size_t i;
	bool any = false;

	for (i = 0; i < n; i++) {
		if (!t[i].armed)
			continue;
		tracepoint_probe_unregister(t[i].tp, t[i].callback, &t[i]);
		t[i].armed = false;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
}

