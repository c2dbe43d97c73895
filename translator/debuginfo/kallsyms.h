/* kallsyms.h -- names of the kernel's functions, for kprobe.function()
 * wildcards, and whether each may be probed.
 *
 * Two sources: the running kernel's /proc/kallsyms (text symbols t/T/W; with
 * addresses when read as root), or, for another kernel (-r KREL), the FUNC
 * entries of its BTF, since Debian's /boot/System.map-KREL is a placeholder.
 * BTF lists only functions ftrace can see, so notrace/noinstr functions are
 * already absent there; it has no addresses and no .cold parts.
 *
 * What is refused (ksym_check() == KSYM_REFUSED), and why:
 *   - `foo.cold`: the out-of-line cold tail of foo, not a function entry;
 *   - addresses inside the kernel's kprobe-forbidden text (between the
 *     __kprobes_text, __noinstr_text and __entry_text start/end markers),
 *     and init text (_sinittext.._einittext, freed after boot): the kernel
 *     would reject them at registration;
 *   - names on the running kernel's kprobes blacklist
 *     (/sys/kernel/debug/kprobes/blacklist, when readable);
 *   - section markers (_stext, __*_text_start) and the __pfx_/__cfi_ padding
 *     symbols, which are labels rather than functions.
 * Compiler clones (`foo.isra.0`, `.constprop.N`, `.part.N`) are KSYM_CLONE:
 * probeable, but their arguments need not match the source, so wildcards
 * leave them out unless the pattern itself contains a '.'.
 *
 * The table owns its strings; free it with ksym_free().
 */
#ifndef TAPC_DEBUGINFO_KALLSYMS_H
#define TAPC_DEBUGINFO_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

struct ksym {
	const char *name;
	const char *module;	/* NULL for vmlinux */
	uint64_t addr;		/* 0 when unknown (BTF, or kallsyms as non-root) */
	char type;		/* 't', 'T', 'W'; 'F' for BTF functions */
	unsigned copies;	/* how many symbols share this name (static
				 * functions): >1 makes a probe by name
				 * ambiguous */
};

enum ksym_probeable {
	KSYM_PROBEABLE,
	KSYM_CLONE,		/* .isra/.constprop/.part: see above */
	KSYM_REFUSED,
};

/* Flags for ksym_foreach(). */
#define KSYM_WITH_MODULES 1u	/* also symbols of loaded modules */
#define KSYM_WITH_REFUSED 2u	/* also what ksym_check() refuses */

struct ksym_table;

/* `path` is normally "/proc/kallsyms"; blacklist may be NULL or a
 * debugfs kprobes/blacklist file (missing or unreadable is fine). */
struct ksym_table *
ksym_load_kallsyms(const char *path, const char *blacklist,
		   char *err, size_t errlen);

struct ksym_table *
ksym_load_btf(const struct btf *btf, char *err, size_t errlen);

void
ksym_free(struct ksym_table *t);

/* "kallsyms" or "btf". */
const char *
ksym_source(const struct ksym_table *t);

bool
ksym_has_addresses(const struct ksym_table *t);

/* One entry per distinct (module, name), sorted by module then name. */
size_t
ksym_count(const struct ksym_table *t);

const struct ksym *
ksym_at(const struct ksym_table *t, size_t idx);

/* A vmlinux function by exact name, NULL if none. */
const struct ksym *
ksym_find(const struct ksym_table *t, const char *name);

/* Whether the function may be probed; *why gets a phrase for messages
 * ("a .cold part, not a function entry") when not KSYM_PROBEABLE. */
enum ksym_probeable
ksym_check(const struct ksym_table *t, const struct ksym *sym,
	   const char **why);

/* Call fn for each vmlinux function matching the fnmatch(3) glob, in
 * name order, skipping clones (unless the glob has a '.') and refused
 * functions (unless KSYM_WITH_REFUSED); stops when fn returns false.
 * Returns the number visited. */
size_t
ksym_foreach(const struct ksym_table *t, const char *glob, unsigned flags,
	     bool (*fn)(const struct ksym *sym, void *ctx), void *ctx);

#endif /* TAPC_DEBUGINFO_KALLSYMS_H */
