/*
 * probes.h -- the kernel's probe records: what generated code fills in for
 * the families only the kernel has (timer.profile, tracepoints, kprobes,
 * netfilter hooks, hardware watchpoints),
 * beside core/abi.h's struct tap_module_desc (named tap_module), which
 * lists every probe of the script by provider.
 *
 * Generated code defines the handlers and the arrays; runtime/linux/module.c
 * runs begin probes when the loader says START, then arms the timer,
 * tracepoint and kprobe tables, and on exit disarms them and runs end
 * probes.  Handlers are `void handler(struct tap_context *c)`: atomic
 * context, no sleeping, no allocation.  The runtime-state fields of each
 * struct (marked "runtime") are the platform's; generated code leaves them
 * zero.
 */
#ifndef TAP_LINUX_PROBES_H
#define TAP_LINUX_PROBES_H

#include <linux/types.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>
#include <linux/netfilter.h>
#include "../core/core.h"
#include "context.h"	/* struct tap_global_param, via core/handler.h */

#include "../core/abi.h"	/* struct tap_probe, the timers, the module
				 * descriptor, the session states */

/* timer.jiffies(N): N ticks of the kernel the module is built for, so
 * that a module built with -r KREL uses that kernel's CONFIG_HZ. */
#define TAP_JIFFIES_NS(n) ((u64)(n) * NSEC_PER_SEC / HZ)

/*
 * timer.profile: one pinned hrtimer per CPU, every interval_ns (the
 * translator uses the tick, NSEC_PER_SEC / HZ); c->regs holds the
 * interrupted registers.
 */
struct tap_profile_probe {
	struct tap_probe probe;
	u64 interval_ns;
	/* runtime */
	void __percpu *timers;	/* struct tap_profile_timer per CPU */
};

/*
 * kernel.trace("name"): the generated callback has the tracepoint's own
 * prototype, `void cb(void *data, ARGS...)`; data is this struct.  It calls
 * tap_tracepoint_enter(data), stores its arguments where the handler finds
 * them (c->probe_data), runs the handler and tap_context_exit().
 */
struct tap_tracepoint_probe {
	struct tap_probe probe;
	const char *name;	/* "sys_enter", without the subsystem */
	const char *module;	/* "ext4": the module defining it; NULL
				 * for the kernel's own */
	void *callback;
	bool optional;		/* missing tracepoint is not an error */
	/* runtime */
	struct tracepoint *tp;
	bool armed;
};

/*
 * netfilter.hook("H").pf("P")[.priority("N")]: a netfilter hook in the
 * initial network namespace.  The runtime's hook function enters the
 * context and gives the handler c->probe_data, an int64_t array of
 * TAP_NF_SLOTS (below); the verdict slot, NF_ACCEPT unless the handler
 * (in guru mode) sets it, is what the hook returns.
 */
#define TAP_NF_HOOKNUM	0
#define TAP_NF_SKB	1
#define TAP_NF_IN	2
#define TAP_NF_OUT	3
#define TAP_NF_STATE	4
#define TAP_NF_VERDICT	5
#define TAP_NF_PF	6
#define TAP_NF_SLOTS	7

struct tap_netfilter_probe {
	struct tap_probe probe;
	int pf;			/* NFPROTO_* */
	int hooknum;		/* NF_INET_* and the like */
	int priority;
	/* runtime */
	struct nf_hook_ops ops;
	bool armed;
};

/*
 * kernel.data("sym"|ADDR)[.length(N)].write/.rw: a hardware watchpoint on
 * every CPU (register_wide_hw_breakpoint).  The runtime's handler enters
 * the context with c->regs the registers of the access; it runs in the
 * debug exception, like an NMI.
 */
struct tap_hwbkpt_probe {
	struct tap_probe probe;
	const char *symbol;	/* "sym" (a tap_ksym name), or NULL */
	unsigned long addr;	/* the address when symbol is NULL */
	int len;		/* 1, 2, 4 or 8 bytes */
	bool rw;		/* reads too, not only writes */
	/* runtime */
	struct perf_event * __percpu *bp;
};

/*
 * perf.type(T).config(C).sample(N): a sampling perf event on each CPU
 * online when armed (perf_event_create_kernel_counter); the overflow
 * handler runs the probe every N events with c->regs the interrupted
 * registers.  It runs in the PMU's interrupt, NMI-like for hardware
 * events.
 */
struct tap_perf_probe {
	struct tap_probe probe;
	u32 type;		/* perf_event_attr.type */
	u64 config;		/* perf_event_attr.config */
	u64 sample;		/* sample_period */
	const char *path;	/* .process("PATH"): run only in its threads */
	/* runtime: one event per possible CPU, NULL where none; path's
	 * inode, referenced while armed */
	struct perf_event **events;
	struct inode *inode;
};

/*
 * perf.type(T).config(C)[.process("PATH")].counter("NAME"): no handler; a
 * counting event per thread, opened by tap_perf_counters_open() when a
 * uprobe whose probe reads it (@perf) is hit in the thread, and read by
 * tap_perf_counter_read() in that probe's handler.
 */
#define TAP_PERF_THREADS 512	/* threads a counter follows at once */

struct tap_perf_thread {
	struct task_struct *task;	/* published after event (release) */
	struct perf_event *event;	/* or ERR_PTR: why it did not open */
};

struct tap_perf_counter {
	const char *name;
	const char *point;
	u32 type;		/* perf_event_attr.type */
	u64 config;		/* perf_event_attr.config */
	/* runtime: TAP_PERF_THREADS slots, hashed by task */
	struct tap_perf_thread *threads;
};

/*
 * kprobe.function("sym")[.return]: c->regs holds the registers.  For a
 * .return probe, entry_handler (optional) runs at function entry, and both
 * it and the return handler find the same data_size bytes of per-call
 * storage in c->probe_data (for @entry values).
 */
struct tap_kprobe_probe {
	struct tap_probe probe;
	const char *symbol;
	unsigned long offset;
	bool is_return;
	bool optional;		/* unknown symbol is not an error */
	int maxactive;		/* kretprobe instances; 0 lets the kernel pick */
	void (*entry_handler)(struct tap_context *c);
	size_t data_size;
	/* runtime */
	union {
		struct kprobe kp;
		struct kretprobe krp;
	} u;
	bool armed;
};

/* Provider helpers the platform calls (probes_*.c). */
int tap_timers_arm(struct tap_timer_probe *t, size_t n);
void tap_timers_disarm(struct tap_timer_probe *t, size_t n);
int tap_profiles_arm(struct tap_profile_probe *p, size_t n);
void tap_profiles_disarm(struct tap_profile_probe *p, size_t n);
int tap_tracepoints_arm(struct tap_tracepoint_probe *t, size_t n);
void tap_tracepoints_disarm(struct tap_tracepoint_probe *t, size_t n);
int tap_kprobes_arm(struct tap_kprobe_probe *k, size_t n);
void tap_kprobes_disarm(struct tap_kprobe_probe *k, size_t n);
int tap_netfilters_arm(struct tap_netfilter_probe *f, size_t n);
int tap_hwbkpts_arm(struct tap_hwbkpt_probe *h, size_t n);
void tap_hwbkpts_disarm(struct tap_hwbkpt_probe *h, size_t n);
int tap_perfs_arm(struct tap_perf_probe *p, size_t n);
void tap_perfs_disarm(struct tap_perf_probe *p, size_t n);
int tap_perf_counters_alloc(void);
void tap_perf_counters_open(const u16 *idx, size_t n);
void tap_perf_counters_release(void);
/* @perf("NAME") in a handler: the thread's count (or a script error). */
struct tap_context;
int64_t tap_perf_counter_read(struct tap_context *c, int index);
void tap_netfilters_disarm(struct tap_netfilter_probe *f, size_t n);
u64 tap_kprobes_missed(struct tap_kprobe_probe *k, size_t n);

/* For generated tracepoint callbacks. */
/* Inline: every tracepoint hit runs it, and the runtime is compiled
 * apart from the generated callbacks (translator/build/kbuild.c). */
static inline struct tap_context *
tap_tracepoint_enter(void *data)
{
	struct tap_tracepoint_probe *t = data;

	return tap_context_enter(&t->probe, TAP_SESSION_RUNNING);
}

#endif /* TAP_LINUX_PROBES_H */
