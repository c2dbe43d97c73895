/*
 * probes_perf.c -- perf.type(T).config(C).sample(N) probes: a sampling
 * perf event on every CPU online when the session arms them, made with
 * perf_event_create_kernel_counter().
 *
 * Takes: tap_module.perfs, each with its event type, config and sample
 * period.  Produces: armed events whose overflow handler runs the probe
 * with c->regs the interrupted registers (print_backtrace(), user_mode()
 * ... see the sampled code).  For a hardware event the handler runs in
 * the PMU's NMI: the context refuses to nest as for any probe, and output
 * goes through the same lock-free per-CPU paths.  An event the machine
 * lacks (no PMU, as under QEMU's TCG) fails the arming with a message
 * naming the probe.  CPUs that come online later get no event.
 *
 * perf.*.process("PATH"): the same machine-wide events; the handler runs
 * the probe only when the interrupted task runs PATH (its mm's exe_file
 * is PATH's inode, looked up once at arming).  So the probe runs for the
 * samples that land in PATH's threads -- about one per N of their events,
 * as events of their own would give -- while every CPU still takes the
 * sampling interrupts.  The exe_file is read under RCU, which NMIs may
 * use; the task interrupted is current, so its mm cannot go away.
 */
#include <linux/cpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/rcupdate.h>
#include "context.h"
#include "probes.h"
#include "probes_uprobe.h"
#include "transport.h"

/* Whether the current task runs the program whose file is inode. */
static bool
tap_perf_in_program(const struct inode *inode)
{
	struct mm_struct *mm = current->mm;
	struct file *exe;
	bool in;

	if (!mm || (current->flags & PF_KTHREAD))	/* a borrowed mm */
		return false;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	in = exe && file_inode(exe) == inode;
	rcu_read_unlock();
	return in;
}

static void
tap_perf_handler(struct perf_event *ev, struct perf_sample_data *data,
		 struct pt_regs *regs)
{
	struct tap_perf_probe *p = ev->overflow_handler_context;
	struct tap_context *c;

	if (p->inode && !tap_perf_in_program(p->inode))
		return;
	c = tap_context_enter(&p->probe, TAP_SESSION_RUNNING);
	if (!c)
		return;
	c->regs = regs;
	c->regs_kind = TAP_REGS_INTERRUPTED;
	p->probe.handler(c);
	c->regs_kind = TAP_REGS_CALL;
	tap_context_exit(c);
}

static void
tap_perf_complain(const struct tap_perf_probe *p, int cpu, int err)
{
	char text[256];
	int n;

	n = scnprintf(text, sizeof(text),
		      "probe %s: cannot open perf event type %u config 0x%llx on CPU %d: %s (%d)",
		      p->probe.point, p->type, (unsigned long long)p->config,
		      cpu, err == -ENOENT || err == -EOPNOTSUPP ?
		      "this machine has no such event" : "refused", err);
	tap_ctl_send(TAP_MSG_ERROR, text, n);
}

static void tap_perf_disarm_one(struct tap_perf_probe *p);

static int
tap_perf_arm_one(struct tap_perf_probe *p)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	int cpu, ret = 0;

	if (p->path) {
		struct inode *inode = tap_path_inode(p->path);
		char text[256];
		int n;

		if (IS_ERR(inode)) {
			n = scnprintf(text, sizeof(text),
				      "probe %s: cannot find %s (%d)",
				      p->probe.point, p->path,
				      (int)PTR_ERR(inode));
			tap_ctl_send(TAP_MSG_ERROR, text, n);
			return (int)PTR_ERR(inode);
		}
		p->inode = inode;
	}
	p->events = kcalloc(nr_cpu_ids, sizeof(*p->events), GFP_KERNEL);
	if (!p->events) {
		tap_perf_disarm_one(p);
		return -ENOMEM;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = p->type;
	attr.config = p->config;
	attr.sample_period = p->sample;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
						      tap_perf_handler, p);
		if (IS_ERR(ev)) {
			ret = (int)PTR_ERR(ev);
			tap_perf_complain(p, cpu, ret);
			break;
		}
		p->events[cpu] = ev;
	}
	cpus_read_unlock();
	if (ret)
		tap_perf_disarm_one(p);
	return ret;
}

int
tap_perfs_arm(struct tap_perf_probe *p, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tap_perf_arm_one(&p[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* perf_event_release_kernel() waits for a running overflow handler. */
static void
tap_perf_disarm_one(struct tap_perf_probe *p)
{
	unsigned int cpu;

	if (p->events) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			if (p->events[cpu])
				perf_event_release_kernel(p->events[cpu]);
		kfree(p->events);
		p->events = NULL;
	}
	if (p->inode) {		/* no handler reads it any more */
		iput(p->inode);
		p->inode = NULL;
	}
}

void
tap_perfs_disarm(struct tap_perf_probe *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tap_perf_disarm_one(&p[i]);
}
