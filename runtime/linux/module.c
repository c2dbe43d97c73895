/*
 * module.c -- the module skeleton generated code hooks into: init and exit,
 * the session life cycle, and the housekeeping timer.
 *
 * Takes: tap_module, the registration table the generated code defines
 * (probes.h); START, ARM, EXIT and "loader gone" from the transport; exit()
 * requests from handlers.  Produces: begin probes run on START; on ARM
 * every other probe armed and STARTED sent; on exit: probes disarmed, the
 * loader asked to drain, end probes run, COUNTS and STOPPED sent.
 * Must not: run the stop sequence from handler context -- handlers only flip
 * the state and raise a flag that the housekeeping timer turns into work.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include "compat/compat.h"
#include "context.h"
#include "dpath.h"
#include "timing.h"
#include "output.h"
#include "owner.h"
#include "probes.h"
#include "probes_uprobe.h"
#include "procfs.h"
#include "transport.h"
#include "ksyms.h"

#define TAP_HOUSEKEEPING_JIFFIES	(HZ / 50 ? HZ / 50 : 1)
#define TAP_DRAIN_TIMEOUT		(10 * HZ)

static DEFINE_MUTEX(tap_session_mutex);
static bool tap_started;		/* START arrived (under the mutex) */
static int tap_stopped_status;		/* STOPPED's, kept for ATTACH */
static atomic_t tap_exit_requested = ATOMIC_INIT(0);
static atomic_t tap_shutting_down = ATOMIC_INIT(0);
static struct timer_list tap_housekeeping;
static struct work_struct tap_stop_work;

void
tap_request_exit(void)
{
	atomic_cmpxchg(&tap_session_state, TAP_SESSION_RUNNING,
		       TAP_SESSION_STOPPING);
	atomic_cmpxchg(&tap_session_state, TAP_SESSION_STARTING,
		       TAP_SESSION_STOPPING);
	atomic_set(&tap_exit_requested, 1);
}

void
tap_session_error(void)
{
	int s;

	/* From any live state to ERROR; never back from STOPPED. */
	do {
		s = atomic_read(&tap_session_state);
		if (s == TAP_SESSION_ERROR || s == TAP_SESSION_STOPPED)
			break;
	} while (atomic_cmpxchg(&tap_session_state, s, TAP_SESSION_ERROR) != s);
	atomic_set(&tap_exit_requested, 1);
}

/* -G name=value, from START: set a scalar global through the table.
 * "?name=value" (taprun --remote-id/--remote-uri) sets it if the script
 * has that global and is no error if not. */
static int
tap_apply_param(const char *assignment)
{
	bool optional = assignment[0] == '?';
	const char *eq;
	const struct tap_global_param *g;
	char text[160];
	size_t i, len;
	int n;

	if (optional)
		assignment++;
	eq = strchr(assignment, '=');

	len = eq ? (size_t)(eq - assignment) : strlen(assignment);
	for (i = 0; eq && i < tap_module.n_params; i++) {
		g = &tap_module.params[i];
		if (strlen(g->name) != len || strncmp(g->name, assignment, len))
			continue;
		if (g->type == TAP_T_STRING) {
			strscpy(g->s, eq + 1, MAXSTRINGLEN);
			return 0;
		}
		if (kstrtoll(eq + 1, 0, g->l) == 0)
			return 0;
		n = scnprintf(text, sizeof(text), "-G %.*s: '%s' is not a number",
			      (int)len, assignment, eq + 1);
		tap_ctl_send(TAP_MSG_ERROR, text, n);
		return -EINVAL;
	}
	if (optional)
		return 0;
	n = scnprintf(text, sizeof(text), "-G %.*s: no such global in the script",
		      (int)len, assignment);
	tap_ctl_send(TAP_MSG_ERROR, text, n);
	return -EINVAL;
}

/* The NUL-separated "name=value" strings after struct tap_msg_start. */
static int
tap_apply_params(const char *blob, size_t len)
{
	size_t off = 0, n;
	int ret;

	while (off < len) {
		n = strnlen(blob + off, len - off);
		if (off + n >= len)
			return -EINVAL;	/* not NUL-terminated */
		if (n) {
			ret = tap_apply_param(blob + off);
			if (ret)
				return ret;
		}
		off += n + 1;
	}
	return 0;
}

/* Run one begin, end or error probe from process context. */
static void
tap_run_special(const struct tap_probe *p, int state)
{
	struct tap_context *c;

	c = tap_context_enter(p, state);
	if (c) {
		p->handler(c);
		tap_context_exit(c);
	}
}

static void
tap_disarm_all(void)
{
	tap_uprobes_disarm();
	tap_kprobes_disarm(tap_module.kprobes, tap_module.n_kprobes);
	tap_netfilters_disarm(tap_module.netfilters, tap_module.n_netfilters);
	tap_hwbkpts_disarm(tap_module.hwbkpts, tap_module.n_hwbkpts);
	tap_perfs_disarm(tap_module.perfs, tap_module.n_perfs);
	tap_tracepoints_disarm(tap_module.tracepoints,
			       tap_module.n_tracepoints);
	tap_timers_disarm(tap_module.timers, tap_module.n_timers);
	tap_profiles_disarm(tap_module.profiles, tap_module.n_profiles);
}

static int
tap_arm_all(void)
{
	int ret;

	ret = tap_timers_arm(tap_module.timers, tap_module.n_timers);
	if (!ret)
		ret = tap_profiles_arm(tap_module.profiles,
				       tap_module.n_profiles);
	if (!ret)
		ret = tap_tracepoints_arm(tap_module.tracepoints,
					  tap_module.n_tracepoints);
	if (!ret)
		ret = tap_kprobes_arm(tap_module.kprobes, tap_module.n_kprobes);
	if (!ret)
		ret = tap_netfilters_arm(tap_module.netfilters,
					 tap_module.n_netfilters);
	if (!ret)
		ret = tap_hwbkpts_arm(tap_module.hwbkpts, tap_module.n_hwbkpts);
	if (!ret)
		ret = tap_perfs_arm(tap_module.perfs, tap_module.n_perfs);
	if (ret)
		tap_disarm_all();
	return ret;
}

static void
tap_send_status(u32 type, int status)
{
	struct tap_msg_status st = { .status = status };

	tap_ctl_send(type, &st, sizeof(st));
}

/* START: set -G globals, run the begin probes, in the loader's write(2). */
int
tap_session_begin(int target_pid, const char *params, size_t params_len)
{
	size_t i;
	int ret;

	mutex_lock(&tap_session_mutex);
	if (tap_started) {
		mutex_unlock(&tap_session_mutex);
		return -EBUSY;
	}
	ret = tap_apply_params(params, params_len);
	if (ret) {
		mutex_unlock(&tap_session_mutex);
		return ret;
	}
	tap_started = true;
	tap_target_pid = target_pid;
	for (i = 0; i < tap_module.n_begin; i++)
		tap_run_special(tap_module.begin[i], TAP_SESSION_STARTING);
	/* The loader reads this before it sends ARM: begin output first. */
	tap_transport_flush();
	mutex_unlock(&tap_session_mutex);
	return 0;
}

/* ARM: arm every other probe and start running them. */
int
tap_session_arm(void)
{
	int ret = 0;

	/*
	 * Not STARTING: a begin probe called exit().  Do not take the mutex
	 * then: the stop work may hold it while it waits for this very loader
	 * to drain, and the loader is in this write(2).
	 */
	if (atomic_read(&tap_session_state) != TAP_SESSION_STARTING) {
		tap_send_status(TAP_MSG_STARTED, 0);
		return 0;
	}
	mutex_lock(&tap_session_mutex);
	if (!tap_started) {
		mutex_unlock(&tap_session_mutex);
		return -EPROTO;
	}
	/* Nothing else moves the state off STARTING once begin is done:
	 * no probe is armed yet, and exit requests come from this loader. */
	if (atomic_read(&tap_session_state) == TAP_SESSION_STARTING) {
		ret = tap_arm_all();
		/* User-space probes last, once the session runs: a probed
		 * process can run into a uprobe's breakpoint the moment it is
		 * placed, and that hit must fire, not be dropped as one
		 * before RUNNING (SystemTap's task finder, too, lets running
		 * tasks into their uprobes only after the session started). */
		if (!ret) {
			atomic_cmpxchg(&tap_session_state,
				       TAP_SESSION_STARTING,
				       TAP_SESSION_RUNNING);
			ret = tap_uprobes_arm();
			if (ret)
				tap_disarm_all();
		}
		if (ret) {
			atomic64_inc(&tap_error_count);
			tap_request_exit();
		}
	}
	tap_send_status(TAP_MSG_STARTED, ret);
	mutex_unlock(&tap_session_mutex);
	return 0;
}

/*
 * A hit the kernel's kprobes missed (a kprobe hit inside a kprobe handler,
 * kretprobe instances all in use) is a handler not run: it counts as
 * skipped, as in SystemTap, and is also given on its own.
 */
static void
tap_send_counts(void)
{
	u64 missed = tap_kprobes_missed(tap_module.kprobes,
					tap_module.n_kprobes);
	struct tap_msg_counts n = {
		.skipped = atomic64_read(&tap_skipped_count) + missed,
		.lost = tap_transport_lost(),
		.errors = atomic64_read(&tap_error_count),
		.warnings = tap_transport_dropped_msgs(),
		.missed = missed,
		.overwritten = tap_transport_overwritten(),
	};

	tap_ctl_send(TAP_MSG_COUNTS, &n, sizeof(n));
}

/* The one way a session ends; process context; idempotent. */
static void
tap_session_stop(void)
{
	size_t i;

	mutex_lock(&tap_session_mutex);
	if (atomic_read(&tap_session_state) == TAP_SESSION_STOPPED)
		goto out;
	atomic_cmpxchg(&tap_session_state, TAP_SESSION_STARTING,
		       TAP_SESSION_STOPPING);
	atomic_cmpxchg(&tap_session_state, TAP_SESSION_RUNNING,
		       TAP_SESSION_STOPPING);
	tap_disarm_all();
	/* Handlers run with preemption off: this waits for the last. */
	synchronize_rcu();
	if (tap_started) {
		tap_ctl_drain(TAP_DRAIN_TIMEOUT);
		/* End probes run unless errors turned the session to
		 * ERROR, then error probes (as runtime/user does). */
		for (i = 0; i < tap_module.n_end; i++)
			tap_run_special(tap_module.end[i],
					TAP_SESSION_STOPPING);
		for (i = 0; i < tap_module.n_error; i++)
			tap_run_special(tap_module.error[i],
					TAP_SESSION_ERROR);
		tap_timing_report();	/* -t; after them, as stap */
	}
	tap_transport_flush();
	tap_send_counts();
	/* Status 1 when errors (past MAXERRORS), MAXSKIPPED or overload
	 * stopped the script, as runtime/user: errors MAXERRORS tolerated
	 * are reported but leave the status 0. */
	tap_stopped_status = atomic_read(&tap_session_state) ==
			     TAP_SESSION_ERROR;
	tap_send_status(TAP_MSG_STOPPED, tap_stopped_status);
	atomic_set(&tap_session_state, TAP_SESSION_STOPPED);
out:
	mutex_unlock(&tap_session_mutex);
}

bool
tap_session_running(void)
{
	return atomic_read(&tap_session_state) == TAP_SESSION_RUNNING;
}

/*
 * taprun -A took over a detached session: the counts so far (-A -o FILE
 * reports the records overwritten).  One that stopped meanwhile (an
 * exit() or an error while detached) sent its STOPPED to nobody: send it
 * again, so that the loader reads the ring and ends the session.
 */
void
tap_session_attached(void)
{
	mutex_lock(&tap_session_mutex);
	tap_send_counts();
	if (atomic_read(&tap_session_state) == TAP_SESSION_STOPPED)
		tap_send_status(TAP_MSG_STOPPED, tap_stopped_status);
	mutex_unlock(&tap_session_mutex);
}

void
tap_session_counts(void)
{
	tap_send_counts();
}

static void
tap_stop_work_fn(struct work_struct *work)
{
	tap_session_stop();
}

void
tap_session_loader_gone(void)
{
	/* Nobody reads output any more; still run end probes so that the
	 * script's own cleanup happens, then leave the module removable. */
	tap_request_exit();
	tap_session_stop();
}

static void
tap_housekeeping_fn(struct timer_list *t)
{
	tap_ctl_poke();
	if (atomic_read(&tap_exit_requested) &&
	    atomic_read(&tap_session_state) != TAP_SESSION_STOPPED &&
	    !atomic_read(&tap_shutting_down))
		schedule_work(&tap_stop_work);
	if (!atomic_read(&tap_shutting_down))
		mod_timer(&tap_housekeeping,
			  jiffies + TAP_HOUSEKEEPING_JIFFIES);
}

static int __init
tap_module_init(void)
{
	int ret;

	ret = tap_owner_init();	/* a stapusr module without its owner */
	if (ret)
		return ret;
	ret = tap_ksyms_init();
	if (ret) {
		pr_err("%s: malformed __tap_ksyms parameter\n", THIS_MODULE->name);
		return ret;
	}
	tap_mm_lock_init();
	tap_signal_init();
	tap_dpath_init();
	ret = tap_contexts_alloc(tap_module.locals_size);
	if (ret)
		return ret;
	ret = tap_timing_init();	/* -t only */
	if (ret)
		goto err_contexts;
	if (tap_module.init) {
		ret = tap_module.init();
		if (ret)
			goto err_contexts;
	}
	ret = tap_transport_init(THIS_MODULE->name);
	if (ret)
		goto err_globals;
	/* procfs handlers run only once the session does (RUNNING) */
	ret = tap_procfs_init(tap_module.procfs, tap_module.n_procfs,
			      tap_module.procfs_dirs, tap_module.n_procfs_dirs);
	if (ret)
		goto err_transport;
	INIT_WORK(&tap_stop_work, tap_stop_work_fn);
	timer_setup(&tap_housekeeping, tap_housekeeping_fn, 0);
	mod_timer(&tap_housekeeping, jiffies + TAP_HOUSEKEEPING_JIFFIES);
	return 0;
err_transport:
	tap_transport_exit();
err_globals:
	if (tap_module.exit)
		tap_module.exit();
err_contexts:
	tap_timing_exit();
	tap_contexts_free();
	return ret;
}

static void __exit
tap_module_exit(void)
{
	atomic_set(&tap_shutting_down, 1);
	tap_timer_delete_sync(&tap_housekeeping);
	cancel_work_sync(&tap_stop_work);
	tap_session_stop();
	tap_procfs_exit(tap_module.procfs, tap_module.n_procfs);
	tap_mm_lock_exit();	/* probes are gone; their deferred unlocks */
	tap_signal_exit();	/* and signals */
	tap_transport_exit();
	if (tap_module.exit)
		tap_module.exit();
	tap_timing_exit();
	tap_contexts_free();
}

module_init(tap_module_init);
module_exit(tap_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("tapc probe module");
