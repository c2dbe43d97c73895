/*
 * probes_uprobe.c -- user-space probes: uprobes and uretprobes on a file's
 * inode (process("PATH").function/.statement/.mark[.return]), with the
 * @entry values of a .return (uprobe_entry.c), and the arming of
 * everything user-space: these, the process events (probes_uproc.c, both
 * included here) and the files ubacktrace() symbolizes.
 *
 * Takes: tap_uprobe_tables (generated).  Produces: armed probes; handlers
 * run in the probed task with c->regs = its user registers and the hit
 * published for the u* tapset functions (tap_uprobe_current).
 * Must not: leave a uprobe registered or an inode referenced on any path;
 * sleep in a handler.
 */
#include <linux/kernel.h>
#include <linux/namei.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/binfmts.h>
#include <linux/percpu.h>
#include <linux/hash.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "compat/compat_uprobe.h"
#include "context.h"
#include "owner.h"
#include "probes.h"
#include "probes_uprobe.h"
#include "transport.h"
#include "uret.h"

static DEFINE_PER_CPU(const struct tap_uprobe_hit *, tap_uprobe_hit_cpu);

const struct tap_uprobe_hit *
tap_uprobe_current(struct tap_context *c)
{
	const struct tap_uprobe_hit *h = __this_cpu_read(tap_uprobe_hit_cpu);

	return h && h->c == c ? h : NULL;
}

bool
tap_in_uprobe(void)
{
	return __this_cpu_read(tap_uprobe_hit_cpu) != NULL;
}

unsigned long
tap_ubias(struct tap_context *c)
{
	const struct tap_uprobe_hit *h = tap_uprobe_current(c);

	return h ? h->bias : 0;
}

/* Run handler (the probe's, or its entry half) with the hit published;
 * false if the context could not be entered (skipped). */
static bool
tap_uprobe_run(struct tap_uprobe_probe *u, void (*handler)(struct tap_context *),
	       struct pt_regs *regs, struct tap_uprobe_hit hit, void *data)
{
	struct tap_context *c;

	c = tap_context_enter(&u->probe, TAP_SESSION_RUNNING);
	if (!c)
		return false;
	hit.u = u;
	hit.c = c;
	c->regs = regs;
	c->probe_data = data;
	__this_cpu_write(tap_uprobe_hit_cpu, &hit);
	handler(c);
	__this_cpu_write(tap_uprobe_hit_cpu, NULL);
	tap_context_exit(c);
	return true;
}

#include "uprobe_entry.c"

/* A process's .begin still owed since the probes were armed, fired before
 * its first uprobe hit (probes_uproc.c) */
static void tap_uproc_begin_pending(void);

/* The entry half of a .return probe: save its @entry values for the call
 * whose return address is at `stack`. */
static void
tap_uprobe_save_entry(struct tap_uprobe_probe *u, struct pt_regs *regs,
		      unsigned long stack, unsigned long pc, unsigned long bias)
{
	struct tap_uprobe_hit hit = { .pc = pc, .bias = bias };
	struct tap_uentry_slot *s = tap_uentry_claim(current->pid, stack, u);
	char *data;

	if (!s) {	/* table full: this call's return is skipped */
		tap_count_skip();
		tap_timing_skip(&u->probe);
		return;
	}
	data = tap_uentry_data_of(s);
	memset(data, 0, u->data_size);
	tap_uentry_release(s, tap_uprobe_run(u, u->entry_handler, regs, hit,
					     data) ?
			   TAP_UENTRY_READY : TAP_UENTRY_FREE);
}

static int
tap_uprobe_handler(TAP_UPROBE_HANDLER_ARGS)
{
	struct tap_uprobe_probe *u = container_of(uc, struct tap_uprobe_probe,
						  uc);
	/* handle_swbp() has set ip back to the probed instruction */
	unsigned long pc = instruction_pointer(regs);
	struct tap_uprobe_hit hit = { .pc = pc, .bias = pc - u->vaddr };

	if (u->pid && current->tgid != u->pid)
		return 0;
	tap_uproc_begin_pending();
	if (!tap_owner_allows_current())	/* stapusr: not the user's */
		return 0;
	if (u->n_counters)	/* may sleep: before the context */
		tap_perf_counters_open(u->counters, u->n_counters);
	if (u->is_return)	/* the entry half on the first instruction:
				 * the return address is at sp */
		tap_uprobe_save_entry(u, regs, user_stack_pointer(regs), pc,
				      hit.bias);
	else
		tap_uprobe_run(u, u->probe.handler, regs, hit, NULL);
	return 0;
}

/*
 * The entry half after the prologue, on a uprobe of its own: the
 * uretprobe on the first instruction has pushed this call's return
 * instance by now (no call in between), unless the kernel declined to
 * (then the return will not be seen either, and nothing is saved).
 */
static int
tap_uprobe_entry_handler(TAP_UPROBE_HANDLER_ARGS)
{
	struct tap_uprobe_probe *u = container_of(uc, struct tap_uprobe_probe,
						  entry_uc);
	unsigned long pc = instruction_pointer(regs);
	unsigned long bias = pc - u->entry_vaddr;
	struct tap_uret ri;

	if (u->pid && current->tgid != u->pid)
		return 0;
	tap_uproc_begin_pending();
	if (!tap_owner_allows_current())	/* stapusr: not the user's */
		return 0;
	if (u->n_counters)	/* may sleep: before the context */
		tap_perf_counters_open(u->counters, u->n_counters);
	if (tap_uret_newest(&ri) && ri.func == u->vaddr + bias)
		tap_uprobe_save_entry(u, regs, ri.slot, pc, bias);
	return 0;
}

static int
tap_uretprobe_handler(TAP_URETPROBE_HANDLER_ARGS)
{
	struct tap_uprobe_probe *u = container_of(uc, struct tap_uprobe_probe,
						  uc);
	/* ip is the return address in the caller by now */
	struct tap_uprobe_hit hit = { .pc = instruction_pointer(regs),
				      .func = func, .bias = func - u->vaddr };
	struct tap_uentry_slot *s;

	if (u->pid && current->tgid != u->pid)
		return 0;
	tap_uproc_begin_pending();
	if (!tap_owner_allows_current())	/* stapusr: not the user's */
		return 0;
	if (u->n_counters)	/* may sleep: before the context */
		tap_perf_counters_open(u->counters, u->n_counters);
	if (!u->entry_handler) {
		tap_uprobe_run(u, u->probe.handler, regs, hit, NULL);
		return 0;
	}
	/* `ret` has popped the return address */
	s = tap_uentry_find(current->pid,
			    user_stack_pointer(regs) - sizeof(long), u);
	/* none: the entry was skipped (counted there: a full table, a busy
	 * CPU) or came before the session ran */
	if (!s)
		return 0;
	tap_uprobe_run(u, u->probe.handler, regs, hit, tap_uentry_data_of(s));
	tap_uentry_release(s, TAP_UENTRY_FREE);
	return 0;
}

struct inode *
tap_path_inode(const char *path)
{
	struct path p;
	struct inode *inode;
	int ret = kern_path(path, LOOKUP_FOLLOW, &p);

	if (ret)
		return ERR_PTR(ret);
	inode = igrab(d_inode(p.dentry));
	path_put(&p);
	return inode ? inode : ERR_PTR(-ENOENT);
}

static void
tap_uprobe_complain(const char *point, const char *what, const char *path,
		    int err)
{
	char text[320];
	int n = scnprintf(text, sizeof(text), "probe %s: %s %s (%d)", point,
			  what, path, err);

	tap_ctl_send(TAP_MSG_ERROR, text, n);
}

/* @entry values after the prologue: a second uprobe there. */
static int
tap_uprobe_arm_entry(struct tap_uprobe_probe *u)
{
	int ret = -EOPNOTSUPP;

#if defined(TAPCONF_UPROBE_RETURN_INSTANCES) && defined(CONFIG_UPROBES)
	u->entry_uc.handler = tap_uprobe_entry_handler;
	ret = tap_uprobe_register(u->inode, u->entry_offset, 0, &u->entry_uc,
				  &u->entry_handle);
	if (!ret) {
		u->entry_armed = true;
		return 0;
	}
#endif
	tap_uprobe_complain(u->probe.point,
			    ret == -EOPNOTSUPP ?
			    "@entry after the prologue needs the kernel's uretprobe return instances, which this kernel does not show; cannot pair the entry of" :
			    "cannot place the @entry uprobe in", u->path, ret);
	return ret;
}

static int
tap_uprobe_arm_one(struct tap_uprobe_probe *u)
{
	struct inode *inode = tap_path_inode(u->path);
	int ret;

	if (IS_ERR(inode)) {
		if (u->optional)
			return 0;
		tap_uprobe_complain(u->probe.point, "cannot find", u->path,
				    (int)PTR_ERR(inode));
		return PTR_ERR(inode);
	}
	memset(&u->uc, 0, sizeof(u->uc));
	memset(&u->entry_uc, 0, sizeof(u->entry_uc));
	if (u->is_return)
		u->uc.ret_handler = tap_uretprobe_handler;
	else
		u->uc.handler = tap_uprobe_handler;
	/* @entry values on the first instruction: the same uprobe */
	if (u->entry_handler && u->entry_offset == u->offset)
		u->uc.handler = tap_uprobe_handler;
	ret = tap_uprobe_register(inode, u->offset, u->ref_ctr_offset, &u->uc,
				  &u->handle);
	if (ret) {
		iput(inode);
		if (u->optional)
			return 0;
		tap_uprobe_complain(u->probe.point, "cannot place a uprobe in",
				    u->path, ret);
		return ret;
	}
	u->inode = inode;
	u->armed = true;
	if (u->entry_handler && u->entry_offset != u->offset)
		return tap_uprobe_arm_entry(u);
	return 0;
}

#include "probes_uproc.c"

/* ---- the files ubacktrace() symbolizes ---- */

static void
tap_usym_files_open(void)
{
	struct tap_usym_file *f;
	size_t i;

	for (i = 0; i < tap_uprobe_tables.n_usym_files; i++) {
		f = &tap_uprobe_tables.usym_files[i];
		f->inode = tap_path_inode(f->path);
		if (IS_ERR(f->inode))
			f->inode = NULL;	/* not on this system: no names */
	}
}

static void
tap_usym_files_close(void)
{
	struct tap_usym_file *f;
	size_t i;

	for (i = 0; i < tap_uprobe_tables.n_usym_files; i++) {
		f = &tap_uprobe_tables.usym_files[i];
		if (f->inode)
			iput(f->inode);
		f->inode = NULL;
	}
}

/* ---- arm and disarm everything (process context) ---- */

int
tap_uprobes_arm(void)
{
	size_t i;
	int ret;

	tap_usym_files_open();
	ret = tap_perf_counters_alloc();
	if (!ret)
		ret = tap_uentry_alloc();
	if (!ret)
		ret = tap_uprocs_arm();
	for (i = 0; !ret && i < tap_uprobe_tables.n_uprobes; i++)
		ret = tap_uprobe_arm_one(&tap_uprobe_tables.uprobes[i]);
	return ret;	/* the caller disarms what was armed on failure */
}

void
tap_uprobes_disarm(void)
{
	struct tap_uprobe_probe *u;
	bool any = false;
	size_t i;

	for (i = 0; i < tap_uprobe_tables.n_uprobes; i++) {
		u = &tap_uprobe_tables.uprobes[i];
		if (!u->armed)
			continue;
		tap_uprobe_unregister_nosync(u->inode, u->offset, &u->uc,
					     u->handle);
		if (u->entry_armed)
			tap_uprobe_unregister_nosync(u->inode, u->entry_offset,
						     &u->entry_uc,
						     u->entry_handle);
		any = true;
	}
	if (any)
		tap_uprobe_unregister_sync();
	for (i = 0; i < tap_uprobe_tables.n_uprobes; i++) {
		u = &tap_uprobe_tables.uprobes[i];
		if (!u->armed)
			continue;
		iput(u->inode);
		u->inode = NULL;
		u->armed = false;
		u->entry_armed = false;
	}
	tap_perf_counters_release();	/* no handler runs any more */
	tap_uentry_free();
	tap_uprocs_disarm();
	tap_usym_files_close();
}

/* ---- for generated code: $argN of SDT markers ---- */

/* size bytes of user memory at addr, extended to 64 bits; a script error
 * (and 0) when it cannot be read. */
int64_t
tap_sdt_read(struct tap_context *c, unsigned long addr, int size,
	     bool is_signed)
{
	union { u8 b; u16 h; u32 w; u64 q; } v = { .q = 0 };

	if (copy_from_user_nofault(&v, (const void __user *)addr, size)) {
		tap_error(c, "user read fault at 0x%lx", addr);
		return 0;
	}
	switch (size) {
	case 1: return is_signed ? (int64_t)(s8)v.b : (int64_t)v.b;
	case 2: return is_signed ? (int64_t)(s16)v.h : (int64_t)v.h;
	case 4: return is_signed ? (int64_t)(s32)v.w : (int64_t)v.w;
	default: return (int64_t)v.q;
	}
}
