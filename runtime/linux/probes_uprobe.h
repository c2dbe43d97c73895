/*
 * probes_uprobe.h -- the tables generated code fills for user-space
 * probes, and what their handlers and the u* tapset functions share.
 *
 * process("PATH").function/.statement/.mark: one struct tap_uprobe_probe
 * each, a uprobe (uretprobe for .return) on PATH's inode at a file offset.
 * The handler runs in the probed task (preemptible, may fault; the
 * context makes it atomic like every other probe); c->regs holds the
 * user registers.
 *
 * process[("PATH"|PID)].begin/.end/.thread.begin/.thread.end/.syscall/
 * .syscall.return: one struct tap_uproc_probe each, driven by the
 * sched_process_exec/fork/exit and sys_enter/sys_exit tracepoints
 * (probes_uproc.c), run in the task the event is about.
 *
 * Files whose symbols ubacktrace()/usymname() print: struct
 * tap_usym_file, symbols sorted by file offset, and the call frame
 * information ubacktrace() unwinds them with (struct tap_ucfi, ustack.h).
 */
#ifndef TAP_LINUX_PROBES_UPROBE_H
#define TAP_LINUX_PROBES_UPROBE_H

#include <linux/types.h>
#include <linux/uprobes.h>
#include "probes.h"

struct tap_context;
struct inode;

/* The inode of path, referenced (iput() it), or an ERR_PTR; process
 * context.  Also for perf.*.process("PATH") (probes_perf.c). */
struct inode *tap_path_inode(const char *path);
struct tap_ucfi;

struct tap_uprobe_probe {
	struct tap_probe probe;
	const char *path;
	u64 offset;		/* file offset of the probed instruction */
	u64 vaddr;		/* its link-time address (tap_ubias) */
	u64 ref_ctr_offset;	/* SDT semaphore, 0 for none */
	bool is_return;
	bool at_entry;		/* first instruction of a function */
	bool optional;		/* a missing file is not an error */
	int pid;		/* process(PID): only that process */
	/* .return with @entry values: the handler saving them (in a
	 * context of its own, into c->probe_data, data_size bytes) and
	 * where it runs -- entry_offset == offset: on the function's first
	 * instruction, else after the prologue (see probes_uprobe.c) */
	void (*entry_handler)(struct tap_context *c);
	size_t data_size;
	u64 entry_offset, entry_vaddr;
	/* the perf counters its handlers read (@perf): tap_module's
	 * perf_counters indices, opened for the thread at each hit */
	const u16 *counters;
	size_t n_counters;
	/* runtime */
	struct uprobe_consumer uc;
	struct uprobe_consumer entry_uc;	/* after the prologue */
	struct inode *inode;
	void *handle, *entry_handle;
	bool armed, entry_armed;
};

enum tap_uproc_event {
	TAP_UPROC_BEGIN, TAP_UPROC_END, TAP_UPROC_THREAD_BEGIN,
	TAP_UPROC_THREAD_END,
	/* c->probe_data: a system call's slots (core/abi.h) */
	TAP_UPROC_SYSCALL, TAP_UPROC_SYSCALL_RETURN,
};

struct tap_uproc_probe {
	struct tap_probe probe;
	enum tap_uproc_event event;
	const char *path;	/* only this program, or NULL */
	int pid;		/* only this process, or 0 */
	bool uses_bias;		/* @var: find path's load bias */
	u64 load_vaddr;		/* path's first PT_LOAD page */
	/* runtime */
	struct inode *inode;
};

struct tap_usym {
	u64 offset;		/* file offset of the symbol's first byte */
	u32 size;
	u32 name;		/* into the file's names */
};

struct tap_usym_file {
	const char *path;
	const struct tap_usym *syms;
	size_t nsyms;
	const char *names;
	const struct tap_ucfi *cfi;	/* NULL: frame pointers only */
	const char *build_id;		/* hex, or NULL: umodbuildid() */
	/* runtime */
	struct inode *inode;
};

/* What a uprobe handler tells the u* functions: set between its
 * tap_context_enter and exit on this CPU. */
struct tap_uprobe_hit {
	struct tap_context *c;
	const struct tap_uprobe_probe *u;
	unsigned long pc;	/* the probed address */
	unsigned long func;	/* .return: the function's entry */
	unsigned long bias;	/* the probed file's load bias */
};

struct tap_uprobe_tables {
	struct tap_uprobe_probe *uprobes;
	size_t n_uprobes;
	struct tap_uproc_probe *uprocs;
	size_t n_uprocs;
	struct tap_usym_file *usym_files;
	size_t n_usym_files;
};

/* Defined by every kernel module, generated or hand-written (empty
 * tables when it has no user-space probes): the runtime is compiled
 * apart from the module's code (translator/build/kbuild.c), so it has no
 * definition of its own to fall back on. */
extern struct tap_uprobe_tables tap_uprobe_tables;

int tap_uprobes_arm(void);
void tap_uprobes_disarm(void);

/* For $argN of markers: size bytes of user memory at addr; a script
 * error and 0 on a fault. */
int64_t tap_sdt_read(struct tap_context *c, unsigned long addr, int size,
		     bool is_signed);

/* The load bias of the probed file in the current process (run time
 * address - link-time address): where its statics and globals are; 0
 * outside a uprobe handler. */
unsigned long tap_ubias(struct tap_context *c);

/* The load bias in the current process of another file, at path, whose
 * first PT_LOAD page is load_vaddr (@var of a library's variable): its
 * lowest mapping at file offset 0 minus load_vaddr; 0 when it is not
 * mapped, the maps are busy, or outside a uprobe or process handler. */
unsigned long tap_ubias_file(struct tap_context *c, const char *path,
			     u64 load_vaddr);

/* Whether this CPU is in a uprobe handler (between its context enter
 * and exit): reads of $target memory are then user reads. */
bool tap_in_uprobe(void);

/* The hit of the handler running on this CPU in context c, or NULL. */
const struct tap_uprobe_hit *tap_uprobe_current(struct tap_context *c);

#endif /* TAP_LINUX_PROBES_UPROBE_H */
