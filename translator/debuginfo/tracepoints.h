/* tracepoints.h -- the kernel's tracepoints, with subsystem and typed
 * arguments, for the kernel.trace("...") provider.
 *
 * The list and the argument types come from BTF: every tracepoint has a
 * typedef `btf_trace_<name>`, a pointer to a function whose first parameter
 * is the `void *__data` cookie and whose others are the TP_PROTO arguments.
 * Typedef'd prototypes carry no parameter names, so the names come from the
 * `__traceiter_<name>` function BTF also describes (same parameters, with
 * names), or `__bpf_trace_<name>`; failing both they are `arg1`, `arg2`...
 *
 * BTF does not know the subsystem ("sched" in "sched:sched_switch").  It
 * comes from the running kernel's tracefs (events/<system>/<name>/) when
 * the target is the running kernel, and from the kernel headers'
 * `#define TRACE_SYSTEM` (the headers in include/trace/events and the arch's
 * asm/trace/) otherwise.  A tracepoint found in neither has system "".
 *
 * The table borrows the `struct btf`: free the table before the btf.
 */
#ifndef TAPC_DEBUGINFO_TRACEPOINTS_H
#define TAPC_DEBUGINFO_TRACEPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

struct tp_arg {
	const char *name;	/* "prev" */
	const char *type_text;	/* "struct task_struct *" */
	uint32_t type;		/* BTF type id */
	int64_t size;		/* bytes; -1 if unknown */
	bool is_signed;
	bool is_pointer;
	bool is_string;		/* char pointer or array */
	bool is_bool;
	bool is_aggregate;	/* a struct or union passed by value */
};

struct tracepoint {
	const char *system;	/* "sched", or "" when unknown */
	const char *name;	/* "sched_switch" */
	uint32_t typedef_id;	/* btf_trace_<name> */
	uint32_t func_id;	/* where the arg names came from, or 0 */
	int nargs;		/* TP_PROTO arguments, without __data */
	struct tp_arg *args;
};

/* Where to find subsystem names; any may be NULL. */
struct tp_sources {
	const char *tracefs_events;	/* "/sys/kernel/tracing/events" */
	const char *source_dir;		/* tree with include/trace/events */
	const char *srcarch;		/* "x86": also scan arch/x86/include/asm */
};

struct tracepoints;

struct tracepoints *
tracepoints_load(const struct btf *btf, const struct tp_sources *src,
		 char *err, size_t errlen);

void
tracepoints_free(struct tracepoints *tps);

/* Sorted by system, then name. */
size_t
tracepoints_count(const struct tracepoints *tps);

const struct tracepoint *
tracepoints_at(const struct tracepoints *tps, size_t idx);

/* By exact name, with or without "system:"; NULL if none. */
const struct tracepoint *
tracepoints_find(const struct tracepoints *tps, const char *spec);

/* True if `spec` (a kernel.trace() argument) matches tp.  "name-glob"
 * matches the name in any system; "system-glob:name-glob" both parts.
 * Globs are fnmatch(3) patterns (*, ?, [...]). */
bool
tracepoints_spec_matches(const char *spec, const struct tracepoint *tp);

/* Call fn for each tracepoint matching `spec`, in table order; stops early
 * when fn returns false.  Returns the number of matches visited. */
size_t
tracepoints_foreach(const struct tracepoints *tps, const char *spec,
		    bool (*fn)(const struct tracepoint *tp, void *ctx),
		    void *ctx);

/* How many tracepoints got their system from tracefs, from headers, and
 * not at all (for diagnostics and tests). */
void
tracepoints_system_stats(const struct tracepoints *tps, size_t *from_tracefs,
			 size_t *from_headers, size_t *unknown);

#endif /* TAPC_DEBUGINFO_TRACEPOINTS_H */
