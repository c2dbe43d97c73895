/*
 * pdata.h -- what each family keeps in dp->pdata, for the files of that
 * family (its matching, its $target variables and its emit hooks).  Only
 * translator/providers/ includes this: other passes ask the provider's
 * hooks (provider.h), never the parameters.
 */
#ifndef TAPC_PROVIDERS_PDATA_H
#define TAPC_PROVIDERS_PDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/sema/sema.h"

/* begin_end.c */
enum be_kind { BE_BEGIN, BE_END, BE_ERROR, BE_NEVER };

struct pdata_begin_end {
	enum be_kind kind;
	int64_t sequence;		/* begin(-5): run order, default 0 */
};

struct pdata_timer {
	bool profile;			/* timer.profile: every tick, per CPU */
	uint64_t period_ns;		/* for .hz: 1e9 / N */
	uint64_t randomize_ns;		/* .randomize(M), 0 if none */
	bool jiffies;			/* period given in jiffies */
	uint64_t jiffies_count;		/* timer.jiffies(N) */
};

struct pdata_tracepoint {
	const char *system;		/* "sched" ("" when unknown) */
	const char *name;		/* "sched_switch" */
	const char *module;		/* "ext4"; NULL for the kernel's own */
	int nargs;
	struct context_var **args;	/* TP_PROTO arguments, in order */
};

struct pdata_kprobe {
	const char *symbol;		/* "vfs_read" */
	const char *module;		/* NULL for the kernel */
	bool is_return;
	uint64_t address;		/* kprobe.statement(ADDR).absolute */
	int maxactive;			/* .maxactive(N), 0 = default */
	bool from_kernel_function;	/* kernel.function (kfunc.c) */
	struct context_var **params;	/* its parameters, arg_index = the
					 * argument register */
	int nparams;
	int nargs;			/* the function's arguments in BTF
					 * (fexit's $return follows them),
					 * -1 when BTF does not describe it */
	bool args_in_slots;		/* each of them 1-8 bytes: one u64
					 * slot of a BPF trampoline's array */
	const void *dwarf;		/* providers/dwarf.c's probe data
					 * (site, variables), or NULL */
};

/* kernel.syscall("NAME")[.return]: context_var.arg_index is 0..5 for
 * the arguments, or one of these. */
#define SYSCALL_ARG_NR (-1)
#define SYSCALL_ARG_RETURN (-2)

struct pdata_syscall {
	const char *name;		/* "openat" */
	int nr;				/* x86_64 syscall number; its ia32
					 * twins are syscall_table.h's */
	int nargs;
	bool is_return;
};

/* process("PATH").function/.statement/.mark (process.c): a uprobe at
 * a file offset.  context_var.arg_index: UPROBE_ARG_RETURN for $return,
 * N for $argN+1 of a mark (args[N]). */
#define UPROBE_ARG_RETURN (-1)

struct sdt_arg;
struct process_dwarf;

/* The two kinds of dp->pdata of the process family (process.c). */
enum process_pdata { PROCESS_PD_UPROBE, PROCESS_PD_EVENT };

struct pdata_uprobe {
	enum process_pdata kind;	/* PROCESS_PD_UPROBE */
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
	bool is_i386;			/* in an i386 file: no $return */
	int nargs;			/* .mark: its operands */
	struct sdt_arg *args;
	uint64_t *arg_sym_vaddr;	/* link-time address of each operand's
					 * symbol (rip-relative globals) */
};

/* process[("PATH"|PID)].begin/.end, .thread.begin/.end (process.c). */
enum process_event {
	PROC_BEGIN, PROC_END, PROC_THREAD_BEGIN, PROC_THREAD_END,
	PROC_SYSCALL, PROC_SYSCALL_RETURN,	/* on raw_syscalls sys_enter/
						 * sys_exit; c->probe_data as
						 * kernel.syscall's */
};

/* A process syscall event's data: TAP_SYSCALL_SLOTS (runtime/core/
 * abi.h), $arg1..$arg6 in 0..5. */

struct pdata_process {
	enum process_pdata kind;	/* PROCESS_PD_EVENT */
	enum process_event event;
	const char *path;		/* only this program, or NULL */
	int pid;			/* only this process, or 0 */
	bool uses_bias;			/* @var: the program's load bias is
					 * wanted (tap_ubias) */
	uint64_t load_vaddr;		/* its first PT_LOAD's page */
};

#endif /* TAPC_PROVIDERS_PDATA_H */
