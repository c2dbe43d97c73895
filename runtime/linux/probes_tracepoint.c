/*
 * probes_tracepoint.c -- kernel.trace("name") probes on the kernel's own
 * tracepoints, found by name with for_each_kernel_tracepoint(), and on a
 * module's (ext4's, kvm's), found in the module's tracepoint list; both
 * attached with tracepoint_probe_register().
 *
 * A module's tracepoint follows its module, as kprobes on a module's code
 * do (probes_kprobe.c): a tracepoint module notifier (which the kernel
 * also calls, at registration, for every module already loaded) attaches
 * it when the module comes and detaches it when the module goes -- before
 * the kernel checks that nothing is left attached to a going module's
 * tracepoints.  A module that is not loaded leaves its probes waiting.
 *
 * Takes: tap_module.tracepoints, each with a generated callback of the
 * tracepoint's prototype.  Produces: armed tracepoints; on disarm, waits
 * for running callbacks.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
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

/* Serializes module (un)registration between arm/disarm and the
 * notifier; the table with module tracepoints (tap_module's). */
static DEFINE_MUTEX(tap_tp_module_mutex);
static struct tap_tracepoint_probe *tap_tp_module_table;
static size_t tap_tp_module_count;
static bool tap_tp_notifier_on;

/* The tracepoint `name` among module `mod`'s own; NULL if it has none. */
static struct tracepoint *
tap_tp_find_in_module(struct module *mod, const char *name)
{
#ifdef CONFIG_TRACEPOINTS
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp =
			tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (strcmp(tp->name, name) == 0)
			return tp;
	}
#endif
	return NULL;
}

/* MODULE_STATE_COMING: attach the module's waiting probes; GOING: detach
 * them (they wait for the next load).  Process context. */
static int
tap_tp_module_event(struct notifier_block *nb, unsigned long state,
		    void *data)
{
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	size_t i;
	int ret;

	if (state != MODULE_STATE_COMING && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&tap_tp_module_mutex);
	for (i = 0; i < tap_tp_module_count; i++) {
		struct tap_tracepoint_probe *t = &tap_tp_module_table[i];

		if (!t->module || strcmp(t->module, mod->name) != 0)
			continue;
		if (state == MODULE_STATE_GOING) {
			if (t->armed) {
				tracepoint_probe_unregister(t->tp, t->callback,
							    t);
				t->armed = false;
			}
			continue;
		}
		if (t->armed)
			continue;
		t->tp = tap_tp_find_in_module(mod, t->name);
		if (!t->tp) {
			if (!t->optional)
				tap_tp_complain(t, "not in its module", -ENOENT);
			continue;
		}
		ret = tracepoint_probe_register(t->tp, t->callback, t);
		if (ret == 0)
			t->armed = true;
		else	/* the script goes on: other probes may still fire */
			tap_tp_complain(t, "cannot register as its module loaded",
					ret);
	}
	mutex_unlock(&tap_tp_module_mutex);
	if (state == MODULE_STATE_GOING)
		tracepoint_synchronize_unregister();
	return NOTIFY_DONE;
}

static struct notifier_block tap_tp_module_nb = {
	.notifier_call = tap_tp_module_event,
};

/* The module tracepoints of t[0..n): registering the notifier attaches
 * those of the modules already loaded. */
static int
tap_tp_modules_arm(struct tap_tracepoint_probe *t, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		if (t[i].module)
			break;
	if (i == n || tap_tp_notifier_on)
		return 0;
	mutex_lock(&tap_tp_module_mutex);
	tap_tp_module_table = t;
	tap_tp_module_count = n;
	mutex_unlock(&tap_tp_module_mutex);
	ret = register_tracepoint_module_notifier(&tap_tp_module_nb);
	if (ret)
		return ret;
	tap_tp_notifier_on = true;
	return 0;
}

int
tap_tracepoints_arm(struct tap_tracepoint_probe *t, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (t[i].module)
			continue;	/* tap_tp_modules_arm */
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
	return tap_tp_modules_arm(t, n);
}

void
tap_tracepoints_disarm(struct tap_tracepoint_probe *t, size_t n)
{
	size_t i;
	bool any = false;

	mutex_lock(&tap_tp_module_mutex);
	/* a module that comes from here on finds nothing to attach; one
	 * that goes waits for the mutex, then finds its probes detached */
	if (t == tap_tp_module_table)
		tap_tp_module_count = 0;
	for (i = 0; i < n; i++) {
		if (!t[i].armed)
			continue;
		tracepoint_probe_unregister(t[i].tp, t[i].callback, &t[i]);
		t[i].armed = false;
		any = true;
	}
	mutex_unlock(&tap_tp_module_mutex);
	if (tap_tp_notifier_on && t == tap_tp_module_table) {
		unregister_tracepoint_module_notifier(&tap_tp_module_nb);
		tap_tp_notifier_on = false;
		tap_tp_module_table = NULL;
	}
	if (any)
		tracepoint_synchronize_unregister();
}

