/*
 * probes_uproc.c -- the process life-cycle events: process[("PATH"|PID)]
 * .begin/.end/.thread.begin/.thread.end/.syscall/.syscall.return, on the
 * sched_process_exec/fork/exit and sys_enter/sys_exit tracepoints.
 * Included by probes_uprobe.c (it shares that file's published hit,
 * tap_path_inode and tap_uprobe_complain); armed and disarmed by
 * tap_uprobes_arm/disarm there.
 *
 * Takes: tap_uprobe_tables.uprocs (generated).  Produces: handlers run in
 * the task the event is about, with c->regs = its user registers and,
 * when it has its memory, a hit published as a uprobe's (so @var reads
 * are user reads and tap_ubias() is the program's load bias, umaps.c).
 * Must not: leave a tracepoint armed or an inode referenced on any path;
 * sleep or allocate in a callback; report an .end without its .begin or
 * a .begin twice.
 *
 * Events: .begin is the exec of a program (in the new program), a fork
 * (in the child, at its first return to user space: a new process of its
 * parent's program, as in SystemTap), or, for a process already running
 * when the probes are armed, its first return from a system call, or
 * earlier its first uprobe hit or system call entry, or its exit; .end
 * the exit of a process's last thread, or an exec (the end of the old
 * program, before the new one's .begin, as in SystemTap: so every .begin
 * has its .end); .thread.begin a new thread's first return to user space
 * (sys_exit of clone with 0, in the new thread); .thread.end the exit of
 * a thread that is not the last; .syscall and .syscall.return every
 * sys_enter/sys_exit of a task whose program (or tgid) matches, with its
 * arguments / result.  Whether an exiting task ran PATH is no longer
 * visible at exit (its mm is gone), so the processes that exec'd a
 * program some probe names (or ran it when the probes were armed) are
 * remembered by tgid in a small table, inherited by fork.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/binfmts.h>
#include <linux/spinlock.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include "context.h"
#include "owner.h"
#include "probes.h"
#include "probes_uprobe.h"
#include "transport.h"

/* The scan of the tasks running when the probes were armed is done
 * (tap_uproc_scanned, below, read without its lock). */
static bool tap_uproc_ready;

/* ---- which program each process runs, by tgid ---- */

#define TAP_UPROC_TGIDS 1024	/* processes running a named program */
#define TAP_UPROC_PROBES 64	/* slots looked at per tgid */

static struct {
	atomic_t tgid;
	struct inode *inode;
} tap_uproc_tgids[TAP_UPROC_TGIDS];

static unsigned int
tap_uproc_slot(int tgid, unsigned int i)
{
	return ((unsigned int)tgid * 2654435761u + i) % TAP_UPROC_TGIDS;
}

static void
tap_uproc_forget(int tgid)
{
	unsigned int i, s;

	for (i = 0; i < TAP_UPROC_PROBES; i++) {
		s = tap_uproc_slot(tgid, i);
		if (atomic_read(&tap_uproc_tgids[s].tgid) == tgid) {
			WRITE_ONCE(tap_uproc_tgids[s].inode, NULL);
			atomic_set(&tap_uproc_tgids[s].tgid, 0);
		}
	}
}

static void
tap_uproc_remember(int tgid, struct inode *inode)
{
	unsigned int i, s;

	tap_uproc_forget(tgid);
	if (!inode)
		return;
	for (i = 0; i < TAP_UPROC_PROBES; i++) {
		s = tap_uproc_slot(tgid, i);
		if (atomic_cmpxchg(&tap_uproc_tgids[s].tgid, 0, tgid) == 0) {
			WRITE_ONCE(tap_uproc_tgids[s].inode, inode);
			return;
		}
	}
	/* table full: this process's end events are missed */
}

static struct inode *
tap_uproc_program(int tgid)
{
	unsigned int i, s;

	for (i = 0; i < TAP_UPROC_PROBES; i++) {
		s = tap_uproc_slot(tgid, i);
		if (atomic_read(&tap_uproc_tgids[s].tgid) == tgid)
			return READ_ONCE(tap_uproc_tgids[s].inode);
	}
	return NULL;
}

/* A named program's inode, if inode is one; else NULL. */
static struct inode *
tap_uproc_named(struct inode *inode)
{
	size_t i;

	for (i = 0; inode && i < tap_uprobe_tables.n_uprocs; i++)
		if (tap_uprobe_tables.uprocs[i].inode == inode)
			return inode;
	return NULL;
}

/*
 * A process event's handler runs with a hit published like a uprobe's,
 * when the task has its memory: reads of $target memory (@var) are user
 * reads, and tap_ubias() is where the probe's program is mapped: its
 * lowest mapping at file offset 0 minus its first PT_LOAD's page.  The
 * maps are only looked at under a try-lock (a handler must not wait); if
 * it is taken the bias is 0 and a read of a PIE's variable faults, a
 * script error.
 */
static const struct tap_uprobe_probe tap_uproc_as_uprobe;

static unsigned long
tap_uproc_bias(const struct tap_uproc_probe *p)
{
	unsigned long start = p->inode ? tap_ufile_start(p->inode, NULL)
				       : ULONG_MAX;

	return start == ULONG_MAX ? 0 : start - (unsigned long)p->load_vaddr;
}

static void
tap_uproc_fire_probes(enum tap_uproc_event ev, struct inode *program,
		      int64_t *data)
{
	struct tap_uprobe_hit hit = { .u = &tap_uproc_as_uprobe };
	bool user = current->mm && !(current->flags & PF_KTHREAD);
	struct tap_uproc_probe *p;
	struct tap_context *c;
	size_t i;

	/* stapusr: not the user's task (after the callers' bookkeeping,
	 * which every task needs) */
	if (!tap_owner_allows_current())
		return;
	for (i = 0; i < tap_uprobe_tables.n_uprocs; i++) {
		p = &tap_uprobe_tables.uprocs[i];
		if (p->event != ev || (p->pid && p->pid != current->tgid) ||
		    (p->path && p->inode != program))
			continue;
		c = tap_context_enter(&p->probe, TAP_SESSION_RUNNING);
		if (!c)
			continue;
		c->regs = task_pt_regs(current);
		c->probe_data = data;
		if (user) {
			hit.c = c;
			hit.pc = instruction_pointer(c->regs);
			hit.bias = p->uses_bias ? tap_uproc_bias(p) : 0;
			__this_cpu_write(tap_uprobe_hit_cpu, &hit);
		}
		p->probe.handler(c);
		__this_cpu_write(tap_uprobe_hit_cpu, NULL);
		tap_context_exit(c);
	}
}

static void
tap_uproc_fire(enum tap_uproc_event ev, struct inode *program)
{
	tap_uproc_fire_probes(ev, program, NULL);
}

/* The program current runs (compared, never dereferenced: a probe's
 * inode is referenced, so an equal pointer is that inode). */
static struct inode *
tap_current_program(void)
{
	struct inode *inode = NULL;
	struct file *exe;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	rcu_read_lock();
	exe = rcu_dereference(current->mm->exe_file);
	if (exe)
		inode = file_inode(exe);
	rcu_read_unlock();
	return inode;
}

/* process[(...)].syscall[.return]: the system calls of the processes
 * the probes name, with the arguments or the result. */
static void
tap_uproc_syscall(enum tap_uproc_event ev, struct pt_regs *regs, long nr,
		  long ret)
{
	unsigned long args[TAP_SYSCALL_NARGS];
	int64_t data[TAP_SYSCALL_SLOTS];
	int i;

	/* not while the scan runs: a process it has not reached yet would
	 * see its system call before its .begin */
	if ((current->flags & PF_KTHREAD) || !READ_ONCE(tap_uproc_ready))
		return;
	if (ev == TAP_UPROC_SYSCALL) {
		syscall_get_arguments(current, regs, args);
		for (i = 0; i < TAP_SYSCALL_NARGS; i++)
			data[i] = (int64_t)args[i];
	} else {	/* .return offers no $argN */
		memset(data, 0, TAP_SYSCALL_NARGS * sizeof(data[0]));
	}
	data[TAP_SYSCALL_NR_SLOT] = nr;
	data[TAP_SYSCALL_RET_SLOT] = ret;
	tap_uproc_fire_probes(ev, tap_current_program(), data);
}

/*
 * Processes and threads that were running when the probes were armed
 * are found by a scan of the task list (tap_uproc_scan_running); their
 * .begin / .thread.begin fires in the task itself (pid(), tid(),
 * execname() are its own) before any other event of it
 * (tap_uproc_begin_pending).
 *
 * Why the scan comes AFTER the exec/fork/exit/sys_exit tracepoints are
 * armed: a task that execs, forks or exits between a scan and the arming
 * would be seen by neither and lose its .begin or .end.  Armed first,
 * every event from then on is seen; a task the scan has not reached yet
 * can then get an event of its own during the scan, so this table says,
 * per task, what the scan must leave alone.  One key per slot: a
 * process's tgid, or minus a thread's tid (an atomic_t, so that the
 * system-call fast path can look without the lock); its state says
 *   PENDING  the scan found it running: its .begin is owed, fired by its
 *            first event (and the slot freed);
 *   SEEN     only until the scan is done: an event of the task's own came
 *            first (a .begin fired, or it ended before the scan decided
 *            on it: no .end then, as it had no .begin), so the scan skips
 *            it.
 * Writes, and the scan's check-and-insert per task, hold tap_uproc_lock,
 * so a task is decided once: by the scan or by its own event, never both
 * (no second .begin), and an .end comes only after a .begin.  When the
 * scan is done the SEEN slots are dropped (no events of later tasks are
 * recorded: a pid reused later starts clean).  No allocation: the table
 * is static; when it is full the scan warns and those tasks are not
 * reported.
 */
#define TAP_UPROC_PENDING 4096

enum { TAP_UPROC_FREE, TAP_UPROC_PENDING_BEGIN, TAP_UPROC_SEEN };

/* raw: taken in tracepoint callbacks, which run with preemption off,
 * where a spinlock_t (a sleeping lock on PREEMPT_RT) must not be; what
 * it guards is a few slot probes, never anything that may sleep */
static DEFINE_RAW_SPINLOCK(tap_uproc_lock);
static atomic_t tap_uproc_pending[TAP_UPROC_PENDING];	/* keys */
static u8 tap_uproc_pstate[TAP_UPROC_PENDING];		/* under the lock */
static atomic_t tap_uproc_npending;	/* PENDING slots: any to look for */
static bool tap_uproc_scanned;		/* the scan is done; under the lock */
/* tap_uproc_ready (declared above): the same, read without it */

static unsigned int
tap_uproc_pslot(int key, unsigned int i)
{
	return ((unsigned int)key * 2654435761u + i) % TAP_UPROC_PENDING;
}

/* key's slot, or -1; under the lock */
static int
tap_uproc_pfind(int key)
{
	unsigned int i, s;

	for (i = 0; i < TAP_UPROC_PROBES; i++) {
		s = tap_uproc_pslot(key, i);
		if (atomic_read(&tap_uproc_pending[s]) == key &&
		    tap_uproc_pstate[s] != TAP_UPROC_FREE)
			return s;
	}
	return -1;
}

/* A new slot for key in state; false when full.  Under the lock. */
static bool
tap_uproc_pinsert(int key, u8 state)
{
	unsigned int i, s;

	for (i = 0; i < TAP_UPROC_PROBES; i++) {
		s = tap_uproc_pslot(key, i);
		if (tap_uproc_pstate[s] == TAP_UPROC_FREE) {
			tap_uproc_pstate[s] = state;
			atomic_set(&tap_uproc_pending[s], key);
			if (state == TAP_UPROC_PENDING_BEGIN)
				atomic_inc(&tap_uproc_npending);
			return true;
		}
	}
	return false;
}

/* Under the lock. */
static void
tap_uproc_pfree(int s)
{
	if (tap_uproc_pstate[s] == TAP_UPROC_PENDING_BEGIN)
		atomic_dec(&tap_uproc_npending);
	tap_uproc_pstate[s] = TAP_UPROC_FREE;
	atomic_set(&tap_uproc_pending[s], 0);
}

/* Whether a .begin of key (tgid, or -tid) is owed from the scan (it is
 * not any more: the caller fires it). */
static bool
tap_uproc_pending_take(int key)
{
	unsigned long flags;
	bool taken = false;
	unsigned int i;
	int s;

	/* not before the session runs (the begin probes run after the
	 * probes are armed): the event would be dropped */
	if (!atomic_read(&tap_uproc_npending) ||
	    atomic_read(&tap_session_state) != TAP_SESSION_RUNNING)
		return false;
	/* read first, without the lock: every task's system calls look here
	 * while any is pending */
	for (i = 0; i < TAP_UPROC_PROBES; i++)
		if (atomic_read(&tap_uproc_pending[tap_uproc_pslot(key, i)]) ==
		    key)
			break;
	if (i == TAP_UPROC_PROBES)
		return false;
	raw_spin_lock_irqsave(&tap_uproc_lock, flags);
	s = tap_uproc_pfind(key);
	if (s >= 0 && tap_uproc_pstate[s] == TAP_UPROC_PENDING_BEGIN) {
		tap_uproc_pfree(s);
		/* the scan, still running, must not find it again */
		if (!tap_uproc_scanned)
			tap_uproc_pinsert(key, TAP_UPROC_SEEN);
		taken = true;
	}
	raw_spin_unlock_irqrestore(&tap_uproc_lock, flags);
	return taken;
}

/*
 * An event of key's own (a .begin from an exec, fork or clone, or an
 * end) is about to be reported.  A .begin the scan owed it is taken (it
 * is this one); while the scan runs the task is marked SEEN so that the
 * scan leaves it alone.  Returns false when the event is an end of a
 * task that has not begun: running since before the probes, it ends
 * before the scan reached it (its whole life is before the session:
 * neither its .begin nor its .end is reported).
 */
static bool
tap_uproc_own_event(int key, bool is_end)
{
	unsigned long flags;
	bool report = true;
	int s;

	/* the scan is done and nothing is pending: nothing to record */
	if (READ_ONCE(tap_uproc_ready) && !atomic_read(&tap_uproc_npending))
		return true;
	raw_spin_lock_irqsave(&tap_uproc_lock, flags);
	s = tap_uproc_pfind(key);
	if (s >= 0 && tap_uproc_pstate[s] == TAP_UPROC_PENDING_BEGIN)
		tap_uproc_pfree(s);	/* (ends take it before: see callers) */
	else if (s < 0 && !tap_uproc_scanned && is_end)
		report = false;		/* running since before, not begun */
	if (!tap_uproc_scanned && tap_uproc_pfind(key) < 0)
		tap_uproc_pinsert(key, TAP_UPROC_SEEN);
	raw_spin_unlock_irqrestore(&tap_uproc_lock, flags);
	return report;
}

/*
 * The .begin / .thread.begin still owed to current (running since before
 * the probes were armed), before any other event of it: its first return
 * from a system call, or before its first uprobe hit or system call
 * entry, or its exec or exit.  So a process's .begin comes before its
 * function probes even when it runs into a breakpoint before it returns
 * from the system call it was in.
 */
static void
tap_uproc_begin_pending(void)
{
	if (!atomic_read(&tap_uproc_npending))
		return;
	if (tap_uproc_pending_take(current->tgid))
		tap_uproc_fire(TAP_UPROC_BEGIN,
			       tap_uproc_program(current->tgid));
	if (current->pid != current->tgid &&
	    tap_uproc_pending_take(-current->pid))
		tap_uproc_fire(TAP_UPROC_THREAD_BEGIN,
			       tap_uproc_program(current->tgid));
}

/*
 * An exec ends the old program and begins the new one (as in SystemTap):
 * .end for the old (if it had begun: a .begin still owed fires first),
 * then .begin for the new.  The task's programs are remembered under the
 * lock while the scan runs, so the scan never puts back the old one.
 */
static void
tap_uproc_exec_cb(void *data, struct task_struct *p, pid_t old_pid,
		  struct linux_binprm *bprm)
{
	struct inode *program = bprm->file ? file_inode(bprm->file) : NULL;
	struct inode *old = tap_uproc_program(current->tgid);
	unsigned long flags;

	tap_uproc_begin_pending();
	if (tap_uproc_own_event(current->tgid, true))
		tap_uproc_fire(TAP_UPROC_END, old);
	raw_spin_lock_irqsave(&tap_uproc_lock, flags);
	tap_uproc_remember(current->tgid, tap_uproc_named(program));
	raw_spin_unlock_irqrestore(&tap_uproc_lock, flags);
	tap_uproc_fire(TAP_UPROC_BEGIN, program);
}

static void
tap_uproc_fork_cb(void *data, struct task_struct *parent,
		  struct task_struct *child)
{
	/* a new process runs its parent's program until it execs */
	if (child->tgid != parent->tgid)
		tap_uproc_remember(child->tgid, tap_uproc_program(parent->tgid));
}

/*
 * Whether this exit is the one that ends process tgid.  do_exit() counts
 * the live threads down before this tracepoint but does not say who
 * reached zero, and two threads can both see zero (a thread that woke
 * its joiner in exit_mm() still on its way here while the joiner exits
 * the group).  So the first to claim the tgid's bucket for a second
 * wins: one bucket per hash, tgid and jiffies in one atomic word.
 */
#define TAP_UPROC_ENDED 256
static atomic64_t tap_uproc_ended[TAP_UPROC_ENDED];
static struct inode *tap_uproc_ended_program[TAP_UPROC_ENDED];

/* True for the first caller; a later one gets *program, the program the
 * first one saw (it has forgotten the tgid since). */
static bool
tap_uproc_first_end(int tgid, struct inode **program)
{
	unsigned int i = (u32)tgid * 2654435761u % TAP_UPROC_ENDED;
	atomic64_t *b = &tap_uproc_ended[i];
	u64 now = jiffies & 0xffffffffu, old, mine = (u64)(u32)tgid << 32 | now;
	int tries;

	for (tries = 0; tries < 4; tries++) {
		old = atomic64_read(b);
		if ((u32)(old >> 32) == (u32)tgid &&
		    ((now - (old & 0xffffffffu)) & 0xffffffffu) < HZ) {
			/* another thread of it ended it.  Ours (read before)
			 * is right unless that one has forgotten the tgid
			 * since, and then it has said with what program (it
			 * says so right after its claim, before forgetting;
			 * until then the slot may hold an older tgid's) */
			if (!*program)
				*program = READ_ONCE(tap_uproc_ended_program[i]);
			return false;
		}
		if (atomic64_cmpxchg(b, old, mine) == old) {
			WRITE_ONCE(tap_uproc_ended_program[i], *program);
			return true;
		}
	}
	return true;
}

static void
tap_uproc_exit_cb(void *data, struct task_struct *p)
{
	struct inode *program = tap_uproc_program(current->tgid);
	bool last;

	/* a process or thread running since before the probes, still to
	 * begin */
	tap_uproc_begin_pending();
	/* signal->live was decremented before this tracepoint; the thread
	 * that does not end the process ends as a thread */
	last = atomic_read(&current->signal->live) == 0 &&
	       tap_uproc_first_end(current->tgid, &program);
	if (last) {
		if (tap_uproc_own_event(current->tgid, true))
			tap_uproc_fire(TAP_UPROC_END, program);
		tap_uproc_forget(current->tgid);
	} else if (tap_uproc_own_event(-current->pid, true)) {
		tap_uproc_fire(TAP_UPROC_THREAD_END, program);
	}
}

static bool tap_uproc_wants_syscall_return;

static void
tap_uproc_sys_enter_cb(void *data, struct pt_regs *regs, long id)
{
	tap_uproc_begin_pending();
	tap_uproc_syscall(TAP_UPROC_SYSCALL, regs, id, 0);
}

static void
tap_uproc_sys_exit_cb(void *data, struct pt_regs *regs, long ret)
{
	long nr = syscall_get_nr(current, regs);
	bool new_task = ret == 0 && (nr == __NR_clone || nr == __NR_clone3 ||
				     nr == __NR_fork || nr == __NR_vfork);

	/* a new task's first return to user space: a thread, or a process
	 * forked (it runs its parent's program until it execs: a new process
	 * of it, as in SystemTap; every process.begin sees it, as every
	 * process.end sees it end).  Its own .begin: one a scan owed it is
	 * this one. */
	if (new_task && current->pid != current->tgid) {
		tap_uproc_own_event(-current->pid, false);
		tap_uproc_fire(TAP_UPROC_THREAD_BEGIN,
			       tap_uproc_program(current->tgid));
	} else if (new_task) {
		tap_uproc_own_event(current->tgid, false);
		tap_uproc_fire(TAP_UPROC_BEGIN,
			       tap_uproc_program(current->tgid));
	} else {
		tap_uproc_begin_pending();
	}
	if (tap_uproc_wants_syscall_return)
		tap_uproc_syscall(TAP_UPROC_SYSCALL_RETURN, regs, nr, ret);
}

static struct tap_tracepoint_probe tap_uproc_tps[] = {
	{ .probe = { .point = "process.begin" }, .name = "sched_process_exec",
	  .callback = (void *)tap_uproc_exec_cb },
	{ .probe = { .point = "process.begin" }, .name = "sched_process_fork",
	  .callback = (void *)tap_uproc_fork_cb },
	{ .probe = { .point = "process.end" }, .name = "sched_process_exit",
	  .callback = (void *)tap_uproc_exit_cb },
	{ .probe = { .point = "process.thread.begin" }, .name = "sys_exit",
	  .callback = (void *)tap_uproc_sys_exit_cb },
	{ .probe = { .point = "process.syscall" }, .name = "sys_enter",
	  .callback = (void *)tap_uproc_sys_enter_cb },
};
enum { TAP_UPROC_TP_SYS_EXIT = 3, TAP_UPROC_TP_SYS_ENTER = 4 };

/* Whether an `ev` probe is for the process tgid running `exe`. */
static bool
tap_uproc_begins(enum tap_uproc_event ev, int tgid, struct inode *exe)
{
	const struct tap_uproc_probe *p;
	size_t i;

	for (i = 0; i < tap_uprobe_tables.n_uprocs; i++) {
		p = &tap_uprobe_tables.uprocs[i];
		if (p->event == ev &&
		    (!p->pid || p->pid == tgid) &&
		    (!p->path || (exe && p->inode == exe)))
			return true;
	}
	return false;
}

/*
 * Processes already running when the probes are armed (-x PID, or any
 * for process.begin): those running a named program are remembered, so
 * that their .end and .thread events are seen; those a .begin /
 * .thread.begin probe is for (and their threads) are marked pending.
 * Runs after the tracepoints are armed (see above): per task, under
 * tap_uproc_lock, it skips a task an event of its own has decided on
 * already.  task_lock keeps p->mm; mm->exe_file is RCU-protected.
 */
static void
tap_uproc_scan_running(void)
{
	struct task_struct *p, *t;
	struct inode *exe_inode;
	struct file *exe;
	unsigned int missed = 0;
	unsigned long flags;
	char text[160];
	bool user, threads;

	rcu_read_lock();
	for_each_process(p) {
		exe_inode = NULL;
		task_lock(p);
		user = p->mm && !(p->flags & PF_KTHREAD);
		if (user) {
			exe = rcu_dereference(p->mm->exe_file);
			if (exe)
				exe_inode = file_inode(exe);
		}
		task_unlock(p);
		if (!user)
			continue;
		threads = tap_uproc_begins(TAP_UPROC_THREAD_BEGIN, p->tgid,
					   exe_inode);
		raw_spin_lock_irqsave(&tap_uproc_lock, flags);
		/* an exec, fork return or exit of its own came first: that
		 * event has said what it runs and whether it began */
		if (tap_uproc_pfind(p->tgid) < 0) {
			if (tap_uproc_named(exe_inode))
				tap_uproc_remember(p->tgid, exe_inode);
			if (tap_uproc_begins(TAP_UPROC_BEGIN, p->tgid,
					     exe_inode) &&
			    !tap_uproc_pinsert(p->tgid,
					       TAP_UPROC_PENDING_BEGIN))
				missed++;
		}
		/* threads that have passed their exit event are gone */
		if (threads)
			for_each_thread(p, t)
				if (t->pid != t->tgid && !t->exit_state &&
				    tap_uproc_pfind(-t->pid) < 0 &&
				    !tap_uproc_pinsert(-t->pid,
						       TAP_UPROC_PENDING_BEGIN))
					missed++;
		raw_spin_unlock_irqrestore(&tap_uproc_lock, flags);
	}
	rcu_read_unlock();
	if (missed)
		tap_ctl_send(TAP_MSG_WARNING, text,
			     scnprintf(text, sizeof(text),
				       "process.begin/.thread.begin: %u processes or threads running when the probes were armed are not reported (table full)",
				       missed));
}

/* The scan is done: events no longer need marking; drop the marks (a
 * pid reused later starts clean), keep what is pending. */
static void
tap_uproc_scan_done(void)
{
	unsigned long flags;
	unsigned int s;

	raw_spin_lock_irqsave(&tap_uproc_lock, flags);
	for (s = 0; s < TAP_UPROC_PENDING; s++)
		if (tap_uproc_pstate[s] == TAP_UPROC_SEEN)
			tap_uproc_pfree(s);
	tap_uproc_scanned = true;
	WRITE_ONCE(tap_uproc_ready, true);
	raw_spin_unlock_irqrestore(&tap_uproc_lock, flags);
}

static bool
tap_uproc_wants(enum tap_uproc_event ev)
{
	size_t i;

	for (i = 0; i < tap_uprobe_tables.n_uprocs; i++)
		if (tap_uprobe_tables.uprocs[i].event == ev)
			return true;
	return false;
}

static int
tap_uprocs_arm(void)
{
	struct tap_uproc_probe *p;
	size_t i;
	int ret;

	if (!tap_uprobe_tables.n_uprocs)
		return 0;
	memset(tap_uproc_tgids, 0, sizeof(tap_uproc_tgids));
	memset(tap_uproc_ended, 0, sizeof(tap_uproc_ended));
	for (i = 0; i < tap_uprobe_tables.n_uprocs; i++) {
		p = &tap_uprobe_tables.uprocs[i];
		if (!p->path)
			continue;
		p->inode = tap_path_inode(p->path);
		if (IS_ERR(p->inode)) {
			tap_uprobe_complain(p->probe.point, "cannot find",
					    p->path, (int)PTR_ERR(p->inode));
			p->inode = NULL;
			return -ENOENT;
		}
	}
	atomic_set(&tap_uproc_npending, 0);
	memset(tap_uproc_pending, 0, sizeof(tap_uproc_pending));
	memset(tap_uproc_pstate, 0, sizeof(tap_uproc_pstate));
	tap_uproc_scanned = false;
	WRITE_ONCE(tap_uproc_ready, false);
	tap_uproc_wants_syscall_return =
		tap_uproc_wants(TAP_UPROC_SYSCALL_RETURN);
	/* the events first, then the scan (see tap_uproc_pending): from
	 * here on no exec, fork or exit goes unseen */
	ret = tap_tracepoints_arm(tap_uproc_tps, TAP_UPROC_TP_SYS_EXIT);
	/* only the system call tracepoints some probe needs (they are
	 * costly): sys_exit sees new threads, forks, the first return of
	 * the processes that were running already, and results */
	if (!ret && (tap_uproc_wants(TAP_UPROC_THREAD_BEGIN) ||
		     tap_uproc_wants(TAP_UPROC_BEGIN) ||
		     tap_uproc_wants_syscall_return))
		ret = tap_tracepoints_arm(&tap_uproc_tps[TAP_UPROC_TP_SYS_EXIT],
					  1);
	if (ret)
		return ret;
	tap_uproc_scan_running();
	tap_uproc_scan_done();
	/* .syscall after the scan: a running process's .begin comes before
	 * its system calls (.syscall.return waits for tap_uproc_ready) */
	if (tap_uproc_wants(TAP_UPROC_SYSCALL))
		ret = tap_tracepoints_arm(&tap_uproc_tps[TAP_UPROC_TP_SYS_ENTER],
					  1);
	return ret;
}

static void
tap_uprocs_disarm(void)
{
	size_t i;

	tap_tracepoints_disarm(tap_uproc_tps, ARRAY_SIZE(tap_uproc_tps));
	for (i = 0; i < tap_uprobe_tables.n_uprocs; i++) {
		if (tap_uprobe_tables.uprocs[i].inode)
			iput(tap_uprobe_tables.uprocs[i].inode);
		tap_uprobe_tables.uprocs[i].inode = NULL;
	}
}
