/*
 * tap_hello.c -- a hand-written module in the shape the translator will
 * generate, to prove runtime/linux, taprun and the VM harness end to end
 * without the translator.
 *
 * Probes: begin; kernel.trace("sys_enter") counting getppid calls of the
 * target process; kprobe and kretprobe on the getppid syscall; a 100 ms
 * timer that prints ticks and calls exit() after `exit_ticks` ticks (0:
 * never); timer.profile counting hits; an optional noisy tracepoint probe (`noisy=1`) printing one
 * checkable line per syscall of programs named "workload", from every
 * CPU; end prints the counts.
 * Module parameters (taprun -G): exit_ticks, noisy, fail_in_timer,
 * exit_in_begin, profile (arm timer.profile), kprobe_sym (the function
 * both kprobes go on).  Script globals set by -G through START and the
 * params table, as generated code does: g_long, g_str.  An error probe
 * runs when an error stopped the script.
 */
#include "runtime.h"
#include <linux/sched.h>
#include <asm/unistd.h>

static int exit_ticks;
module_param(exit_ticks, int, 0);
static int noisy;
module_param(noisy, int, 0);
static int fail_in_timer;
module_param(fail_in_timer, int, 0);
static int exit_in_begin;
module_param(exit_in_begin, int, 0);
static int profile;
module_param(profile, int, 0);
static char *kprobe_sym = "__x64_sys_getppid";
module_param(kprobe_sym, charp, 0);

/* Resolved by taprun from /proc/kallsyms; checked against the kprobe. */
TAP_NEED_KSYM(__x64_sys_getppid);

static struct tap_kprobe_probe kprobe_probes[2];	/* defined below */

static int64_t g_long;
static char g_str[MAXSTRINGLEN];

static atomic64_t kp_getppid, krp_getppid, ticks, noisy_lines, profile_hits;

/* A "global" under a lock, the way generated code keeps script globals. */
static struct tap_lock tp_lock = TAP_LOCK_INIT(tp_lock);
static const struct tap_lock_use tp_locks[] = { { &tp_lock, TAP_LOCK_EXCL } };
static u64 tp_getppid;

static bool
is_target(void)
{
	return tap_target_pid && current->tgid == tap_target_pid;
}

static void
begin_handler(struct tap_context *c)
{
	tap_printf(c, "begin target=%s\n", tap_target_pid ? "set" : "none");
	if (g_long || g_str[0])
		tap_printf(c, "g_long=%lld g_str=%s\n", (long long)g_long, g_str);
	if (exit_in_begin) {
		tap_warn(c, "exit in begin");
		tap_request_exit();
	}
}

static void
end_handler(struct tap_context *c)
{
	char comm[TASK_COMM_LEN];
	long bad;

	/* Safe reads: a good one, then a fault that must not oops. */
	if (tap_kstring(c, comm, current->comm, sizeof(comm)) > 0)
		tap_puts(c, "kstring ok\n");
	if (!tap_kread(c, &bad, (void *)16, sizeof(bad)))
		tap_printf(c, "kread fault: %s\n", c->errbuf);
	c->error = false;	/* this one was on purpose */
	tap_printf(c, "tracepoint getppid=%llu\n", tp_getppid);
	tap_printf(c, "kprobe getppid=%lld\n",
		   (long long)atomic64_read(&kp_getppid));
	tap_printf(c, "kretprobe getppid=%lld\n",
		   (long long)atomic64_read(&krp_getppid));
	if (exit_ticks)
		tap_printf(c, "ticks=%lld\n", (long long)atomic64_read(&ticks));
	if (profile)
		tap_printf(c, "profile=%s\n",
			   atomic64_read(&profile_hits) ? "yes" : "no");
	if (kprobe_probes[0].armed || kprobe_probes[0].u.kp.addr) {
		unsigned long want = tap_ksym("__x64_sys_getppid");
		unsigned long got = (unsigned long)kprobe_probes[0].u.kp.addr;

		/* the kprobe may sit just past an endbr64 */
		tap_printf(c, "ksym=%s\n", want && got >= want &&
			   got - want < 16 ? "match" : "mismatch");
	}
	if (noisy)
		tap_printf(c, "noisy=%s\n",
			   atomic64_read(&noisy_lines) > 0 ? "yes" : "no");
	tap_puts(c, "end\n");
}

static void
timer_handler(struct tap_context *c)
{
	s64 n;

	if (!exit_ticks)
		return;
	n = atomic64_inc_return(&ticks);
	if (fail_in_timer) {
		tap_error(c, "division by zero");
		return;
	}
	tap_printf(c, "tick %lld\n", (long long)n);
	if (n >= exit_ticks)
		tap_request_exit();
}

static void
sys_enter_handler(struct tap_context *c)
{
	long id = *(long *)c->probe_data;

	if (id == __NR_getppid && is_target()) {
		if (!tap_locks_acquire(c, tp_locks, ARRAY_SIZE(tp_locks)))
			return;
		tp_getppid++;
		tap_locks_release(tp_locks, ARRAY_SIZE(tp_locks));
	}
	if (noisy && strcmp(current->comm, "workload") == 0) {
		s64 n = atomic64_inc_return(&noisy_lines);
		/* One record, several pieces: a torn line would show. */
		tap_printf(c, "noisy cpu=%d n=%lld ", smp_processor_id(),
			   (long long)n);
		tap_printf(c, "id=%ld ", id);
		tap_puts(c, "ok\n");
	}
}

static void
kprobe_handler(struct tap_context *c)
{
	if (is_target())
		atomic64_inc(&kp_getppid);
}

/* Entry half of the .return probe: remember who called. */
static void
kretprobe_entry_handler(struct tap_context *c)
{
	*(pid_t *)c->probe_data = current->tgid;
}

static void
kretprobe_handler(struct tap_context *c)
{
	/* getppid() returns the parent: taprun, which is not pid 0; and the
	 * entry half saw the same caller. */
	if (is_target() && regs_return_value(c->regs) > 0 &&
	    *(pid_t *)c->probe_data == current->tgid)
		atomic64_inc(&krp_getppid);
}

static void
profile_handler(struct tap_context *c)
{
	if (c->regs)
		atomic64_inc(&profile_hits);
}

static void
sys_enter_cb(void *data, struct pt_regs *regs, long id)
{
	struct tap_context *c = tap_tracepoint_enter(data);

	if (!c)
		return;
	c->regs = regs;
	c->probe_data = &id;
	sys_enter_handler(c);
	tap_context_exit(c);
}

static const struct tap_probe probe_begin = {
	.point = "begin", .location = "tap_hello.c:begin",
	.handler = begin_handler,
};
static const struct tap_probe probe_end = {
	.point = "end", .location = "tap_hello.c:end",
	.handler = end_handler,
};
static void
error_handler(struct tap_context *c)
{
	tap_puts(c, "error probe\n");
}

static const struct tap_probe probe_error = {
	.point = "error", .location = "tap_hello.c:error",
	.handler = error_handler,
};
static const struct tap_probe *const error_probes[] = { &probe_error };
static const struct tap_global_param params[] = {
	{ .name = "g_long", .type = TAP_T_LONG, .l = &g_long },
	{ .name = "g_str", .type = TAP_T_STRING, .s = g_str },
};
static const struct tap_probe *const begin_probes[] = { &probe_begin };
static const struct tap_probe *const end_probes[] = { &probe_end };

static struct tap_timer_probe timer_probes[] = {
	{ .probe = { "timer.ms(100)", "tap_hello.c:timer", timer_handler },
	  .interval_ns = 100 * NSEC_PER_MSEC },
};

static struct tap_tracepoint_probe tracepoint_probes[] = {
	{ .probe = { "kernel.trace(\"sys_enter\")", "tap_hello.c:sys_enter",
		     sys_enter_handler },
	  .name = "sys_enter", .callback = sys_enter_cb },
};

static struct tap_kprobe_probe kprobe_probes[] = {
	{ .probe = { "kprobe.function(\"__x64_sys_getppid\")",
		     "tap_hello.c:kprobe", kprobe_handler },
	  .symbol = "__x64_sys_getppid" },
	{ .probe = { "kprobe.function(\"__x64_sys_getppid\").return",
		     "tap_hello.c:kretprobe", kretprobe_handler },
	  .symbol = "__x64_sys_getppid", .is_return = true,
	  .entry_handler = kretprobe_entry_handler,
	  .data_size = sizeof(pid_t) },
};

static struct tap_profile_probe profile_probes[] = {
	{ .probe = { "timer.profile", "tap_hello.c:profile", profile_handler } },
};

static int
hello_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kprobe_probes); i++)
		kprobe_probes[i].symbol = kprobe_sym;
	/* The profile timer interrupts other handlers now and then, and
	 * those count as skipped: only where a test asks for it. */
	if (!profile)
		tap_module.n_profiles = 0;
	return 0;
}

struct tap_module_desc tap_module = {
	.begin = begin_probes, .n_begin = ARRAY_SIZE(begin_probes),
	.end = end_probes, .n_end = ARRAY_SIZE(end_probes),
	.error = error_probes, .n_error = ARRAY_SIZE(error_probes),
	.params = params, .n_params = ARRAY_SIZE(params),
	.timers = timer_probes, .n_timers = ARRAY_SIZE(timer_probes),
	.profiles = profile_probes, .n_profiles = ARRAY_SIZE(profile_probes),
	.tracepoints = tracepoint_probes,
	.n_tracepoints = ARRAY_SIZE(tracepoint_probes),
	.kprobes = kprobe_probes, .n_kprobes = ARRAY_SIZE(kprobe_probes),
	.init = hello_init,
};

/* every module defines it (probes_uprobe.h): no user-space probes here */
struct tap_uprobe_tables tap_uprobe_tables;

#include "runtime.c"
