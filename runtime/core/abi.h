/*
 * abi.h - what tapc's generated code and both platforms (runtime/linux,
 * runtime/user) must agree on, written once: the session states, the
 * probe record every handler is registered with, the timer probe, the
 * module descriptor generated code fills in, and the slots of a system
 * call's arguments.  tapc includes it as well, for the numbers it writes
 * into generated code.
 *
 * Each platform includes this from its probes header; families only one
 * platform has (tracepoints, kprobes, netfilter hooks, procfs files) stay
 * in that platform's headers, and the descriptor points at them.  Generated code
 * leaves every field marked "runtime" zero.
 * Must not: include anything but platform.h, or name a kernel type.
 */
#ifndef TAP_CORE_ABI_H
#define TAP_CORE_ABI_H

#include "platform.h"

/* How many provider arguments (a tracepoint's) a probe context holds for
 * its handler (c->probe_args); a provider with more keeps them on its
 * callback's stack. */
#define TAP_CONTEXT_ARGS_MAX	12

/* Session life cycle; tap_session_state holds one of these. */
enum tap_session_state {
	TAP_SESSION_STARTING,	/* globals set; begin probes run here */
	TAP_SESSION_RUNNING,	/* probes armed; ordinary handlers run */
	TAP_SESSION_STOPPING,	/* exit requested; end probes run here */
	TAP_SESSION_ERROR,	/* too many errors; error probes run here */
	TAP_SESSION_STOPPED,	/* everything disarmed and reported */
};

struct tap_context;

/* What every probe has, whatever its provider. */
struct tap_probe {
	const char *point;	/* probe point as written, for messages */
	const char *location;	/* script file:line:col of the probe */
	void (*handler)(struct tap_context *c);
	/* Last, so that hand-written tables ({ point, location, handler },
	 * testsuite/vm/modules) need not name it. */
	const char *script_point; /* pn(): the alias the script named, as
				   * expanded ("syscall.read"); NULL: point */
	int timing_index;	/* -t: its row in tap_module.timing (set only
				 * with -t) */
};

/* timer.s(N) & co: fires every interval_ns, re-armed after each hit. */
struct tap_timer_state;		/* the platform's: an hrtimer, a deadline */
struct tap_timer_probe {
	struct tap_probe probe;
	uint64_t interval_ns;
	uint64_t randomize_ns;	/* +/- this much, uniformly; 0 for none */
	struct tap_timer_state *rt;	/* runtime: allocated while armed */
};

/*
 * A system call probe's c->probe_data: an int64_t array of
 * TAP_SYSCALL_SLOTS, its arguments in 0..TAP_SYSCALL_NARGS-1, then the
 * syscall number and (for a return) its value.
 */
#define TAP_SYSCALL_NARGS	6
#define TAP_SYSCALL_NR_SLOT	6
#define TAP_SYSCALL_RET_SLOT	7
#define TAP_SYSCALL_SLOTS	8

struct tap_global_param;	/* core/handler.h */
struct tap_profile_probe;	/* the kernel's (runtime/linux/probes.h) */
struct tap_tracepoint_probe;
struct tap_kprobe_probe;
struct tap_netfilter_probe;
struct tap_hwbkpt_probe;
struct tap_perf_probe;
struct tap_perf_counter;
struct tap_procfs_file;		/* runtime/linux/procfs.h */
struct tap_timing_probe;	/* runtime/linux/timing.h */

/* The script, as the platform runs it: `tap_module`, generated. */
struct tap_module_desc {
	/* begin, end and error probes, each array already in sequence order */
	const struct tap_probe *const *begin;
	size_t n_begin;
	const struct tap_probe *const *end;
	size_t n_end;
	const struct tap_probe *const *error;
	size_t n_error;
	const struct tap_global_param *params;	/* -G name=value */
	size_t n_params;
	struct tap_timer_probe *timers;
	size_t n_timers;
	/* the kernel's families (user programs leave them NULL) */
	struct tap_profile_probe *profiles;
	size_t n_profiles;
	struct tap_tracepoint_probe *tracepoints;
	size_t n_tracepoints;
	struct tap_kprobe_probe *kprobes;
	size_t n_kprobes;
	struct tap_netfilter_probe *netfilters;
	size_t n_netfilters;
	struct tap_hwbkpt_probe *hwbkpts;
	size_t n_hwbkpts;
	struct tap_perf_probe *perfs;
	size_t n_perfs;
	struct tap_perf_counter *perf_counters;
	size_t n_perf_counters;
	/* procfs("PATH") files and the directories under the module's that
	 * their paths need, parents first */
	struct tap_procfs_file *procfs;
	size_t n_procfs;
	const char *const *procfs_dirs;
	size_t n_procfs_dirs;
	size_t locals_size;	/* bytes of locals in each context */
	/* -t: what the timing report names each probe (by index); NULL
	 * without -t (the kernel's only) */
	const struct tap_timing_probe *timing;
	size_t n_timing;
	int (*init)(void);	/* allocate globals; process context;
				 * 0 or a TAP_E* code */
	void (*exit)(void);	/* free them */
};

/* Defined by the generated code. */
extern struct tap_module_desc tap_module;

#endif /* TAP_CORE_ABI_H */
