/*
 * provider.h -- probe providers: one module per probe family.
 *
 * Elaboration hands every concrete probe point (aliases already expanded)
 * to the provider that claims its first components. The provider expands
 * wildcards into derived probes (elab_add_probe), answers which context
 * variables ($name) a derived probe offers, and keeps its parameters in
 * dp->pdata, one of the pdata structs below, which code generation reads.
 * A family that is recognised but not built yet says so by name.
 */
#ifndef TAPC_PROVIDERS_PROVIDER_H
#define TAPC_PROVIDERS_PROVIDER_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/parse/ast.h"
#include "translator/sema/sema.h"

struct elab;

struct provider {
	const char *name;		/* "timer" */
	/* Whether this provider owns `point` (by its first components). */
	bool (*claims)(const struct node *point);
	/*
	 * Expand `point` into derived probes with elab_add_probe(). Returns
	 * how many were added: 0 when nothing matched (the caller reports
	 * it unless the point is optional), -1 after reporting an error.
	 */
	int (*match)(struct elab *e, struct node *point);
	/* The context variable `name` (without '$') of `dp`, or NULL. */
	struct context_var *(*context)(struct elab *e, struct derived_probe *dp,
				       const char *name);
	/* Every context variable of `dp`, for -L and for hints. */
	int (*list_context)(struct elab *e, struct derived_probe *dp,
			    struct context_var ***out);
};

/* ---- what code generation reads from dp->pdata ---- */

enum pdata_kind {
	PD_BEGIN, PD_END, PD_ERROR, PD_NEVER,
	PD_TIMER, PD_PROFILE, PD_TRACEPOINT, PD_KPROBE, PD_SYSCALL,
	PD_UPROBE, PD_PROCESS, PD_PROCFS,
};

struct pdata_begin_end {
	enum pdata_kind kind;		/* PD_BEGIN, PD_END, PD_ERROR, PD_NEVER */
	int64_t sequence;		/* begin(-5): run order, default 0 */
};

struct pdata_timer {
	enum pdata_kind kind;		/* PD_TIMER or PD_PROFILE */
	uint64_t period_ns;		/* for .hz: 1e9 / N */
	uint64_t randomize_ns;		/* .randomize(M), 0 if none; in
					 * jiffies for timer.jiffies */
	bool jiffies;			/* period given in jiffies, which the
					 * module converts with its HZ */
	uint64_t jiffies_count;		/* timer.jiffies(N) */
};

struct pdata_tracepoint {
	enum pdata_kind kind;		/* PD_TRACEPOINT */
	const char *system;		/* "sched" ("" when unknown) */
	const char *name;		/* "sched_switch" */
	int nargs;
	struct context_var **args;	/* TP_PROTO arguments, in order */
};

struct pdata_kprobe {
	enum pdata_kind kind;		/* PD_KPROBE */
	const char *symbol;		/* "vfs_read" */
	const char *module;		/* NULL for the kernel */
	bool is_return;
	uint64_t address;		/* kprobe.statement(ADDR).absolute */
	int maxactive;			/* .maxactive(N), 0 = default */
	bool from_kernel_function;	/* kernel.function (kfunc.c) */
	struct context_var **params;	/* its parameters, arg_index = the
					 * argument register */
	int nparams;
	const void *dwarf;		/* providers/dwarf.c's probe data
					 * (site, variables), or NULL */
};

/* kernel.syscall("NAME")[.return]: context_var.arg_index is 0..5 for
 * the arguments, or one of these. */
#define SYSCALL_ARG_NR (-1)
#define SYSCALL_ARG_RETURN (-2)

struct pdata_syscall {
	enum pdata_kind kind;		/* PD_SYSCALL */
	const char *name;		/* "openat" */
	int nr;				/* x86_64 syscall number */
	int nargs;
	bool is_return;
};

/* process("PATH").function/.statement/.mark (process.c): a uprobe at
 * a file offset.  context_var.arg_index: UPROBE_ARG_RETURN for $return,
 * N for $argN+1 of a mark (args[N]). */
#define UPROBE_ARG_RETURN (-1)

struct sdt_arg;
struct process_dwarf;

struct pdata_uprobe {
	enum pdata_kind kind;		/* PD_UPROBE */
	const char *path;		/* canonical path of the ELF file */
	uint64_t offset;		/* file offset of the probed byte */
	uint64_t vaddr;			/* its link-time address */
	uint64_t ref_ctr_offset;	/* SDT semaphore's file offset, or 0 */
	const char *function;		/* symbol, for .function */
	const char *mark;		/* marker name, for .mark */
	const char *mark_provider;	/* and its provider */
	const char *plt;		/* .plt: the function the stub calls */
	bool is_return;
	bool at_entry;			/* on a function's first instruction */
	/* .return: where its @entry values are taken -- after the prologue
	 * (where .call reads them) with DWARF, else the first instruction */
	uint64_t entry_offset, entry_vaddr;
	struct process_dwarf *dwarf;	/* $vars from DWARF, or NULL */
	int pid;			/* process(PID): only this process */
	int nargs;			/* .mark: its operands */
	struct sdt_arg *args;
	uint64_t *arg_sym_vaddr;	/* link-time address of each operand's
					 * symbol (rip-relative globals) */
};

/* process[("PATH"|PID)].begin/.end, .thread.begin/.end (process.c). */
enum process_event {
	PROC_BEGIN, PROC_END, PROC_THREAD_BEGIN, PROC_THREAD_END,
	PROC_SYSCALL, PROC_SYSCALL_RETURN,	/* on raw_syscalls sys_enter/
						 * sys_exit; c->probe_data:
						 * int64_t[8], PROC_SYSCALL_* */
};

/* The slots of a process syscall event's data: $arg1..$arg6 in 0..5. */
#define PROC_SYSCALL_NR_SLOT 6
#define PROC_SYSCALL_RET_SLOT 7

struct pdata_process {
	enum pdata_kind kind;		/* PD_PROCESS */
	enum process_event event;
	const char *path;		/* only this program, or NULL */
	int pid;			/* only this process, or 0 */
	bool uses_bias;			/* @var: the program's load bias is
					 * wanted (tap_ubias) */
	uint64_t load_vaddr;		/* its first PT_LOAD's page */
};

/* procfs[("PATH")][.umask(N)].read[.maxsize(N)] / .write (procfs.c):
 * the file /proc/systemtap/MODULE/PATH. */
struct pdata_procfs {
	enum pdata_kind kind;		/* PD_PROCFS */
	const char *path;		/* "command" when not given */
	bool is_write;
	int umask;			/* .umask(N), 0 when not given */
	int64_t maxsize;		/* .read.maxsize(N), 0 when not given */
	struct context_var *value;	/* its $value */
};

static inline enum pdata_kind
pdata_kind_of(const void *pdata)
{
	return *(const enum pdata_kind *)pdata;
}

/* process.c: what the module cache key must cover besides the program:
 * the probed files (a rebuilt program moves its offsets), -d, --ldd. */
struct hash;
struct session;
void process_hash_inputs(struct session *s, struct hash *h);

/* @var(...) in a process probe: the probed program's variable, or NULL
 * after an error (providers/process.c). */
struct ta_access;
struct node;
struct ta_access *process_atvar(struct elab *e, struct derived_probe *dp,
				struct node *n);
/* $$name / $$provider of a process probe (a .plt stub's function, a
 * marker's name and provider), or NULL (providers/process.c). */
const char *process_meta_string(const struct derived_probe *dp,
				const char *name);
/* process.c, for --vm: the files user-space probes need in the guest at
 * their host paths (probed programs and libraries, and the -c program
 * when it is given by path); how many. */
int process_guest_files(struct session *s, const char ***out);

/* The registry, in the order providers are asked. */
extern const struct provider *const provider_registry[];
const struct provider *provider_for(const struct node *point);

/* Helpers for providers reading points. */
bool pp_is(const struct node *point, int i, const char *name);
const char *pp_name(const struct node *point, int i);
const struct node *pp_arg(const struct node *point, int i);
bool pp_arg_number(const struct node *point, int i, int64_t *out);
const char *pp_arg_string(const struct node *point, int i);
/* Whether two component arguments (number or string literals, or
 * NULL for none) are the same. */
bool pp_args_equal(const struct node *a, const struct node *b);
const char *pp_to_string(struct arena *a, const struct node *point);

#endif
