/*
 * kmod_index.h -- which kernel modules a release has and which functions
 * each defines, for module("*") and other module wildcards.
 *
 * module("*").function("xyz") must not open the debug info of thousands
 * of modules: the index lists, for every module file under
 * /lib/modules/KREL (.ko, or Debian's .ko.xz), its name as kallsyms
 * spells it ('-' as '_'), its path, whether the file carries DWARF itself
 * (built with -g), and the names of its probeable functions (ELF function
 * symbols outside init/exit and other text kprobes refuse).  Providers
 * then open only the modules whose names match both patterns.  Functions
 * that exist only inlined are not in a symbol table, so a wildcard over
 * modules does not find them in a module without a matching function of
 * its own (name the module to get them).  The index also lists each
 * module's tracepoints (its __tracepoint_NAME symbols), so that
 * kernel.trace("ext4:*") finds the module to read the BTF of.  Not
 * indexed on purpose: inline functions, whose names are only in DWARF,
 * and reading every module's DWARF once per
 * release costs ~22 s (4.8 GB, 4023 modules of Debian's 6.1 -dbg
 * package, page cache warm) for the 9 modules whose *_open functions are
 * only inlined.
 *
 * Built once per release and kept on disk (kmods/ in the cache root, see
 * cache_dir.h), named by the directory and the size and
 * mtime of its modules.dep, so depmod after an install makes a new one.
 * Takes: a modules directory.  Produces: a read-only index for the run.
 * Must not: fail a run because the cache cannot be written.
 */
#ifndef TAPC_DEBUGINFO_KMOD_INDEX_H
#define TAPC_DEBUGINFO_KMOD_INDEX_H

#include <stdbool.h>
#include <stddef.h>

struct kmod_index;

struct kmod_entry {
	const char *name;	/* "nf_conntrack" (kallsyms' spelling) */
	const char *path;	/* the .ko or .ko.xz */
	bool has_dwarf;		/* the file itself has .debug_info */
	const char *const *funcs;	/* sorted */
	size_t nfuncs;
	const char *const *tracepoints;	/* "ext4_sync_file_enter", sorted */
	size_t ntracepoints;
};

/* The index of `modules_dir` (/lib/modules/KREL), from the disk cache or
 * built now; cached for the process.  NULL with a message in err. */
const struct kmod_index *kmod_index_get(const char *modules_dir, char *err,
					size_t errlen);

size_t kmod_index_count(const struct kmod_index *ix);
const struct kmod_entry *kmod_index_at(const struct kmod_index *ix, size_t i);

/* Whether module `name` (kallsyms' spelling, or '-' for '_') matches the
 * module() pattern `pattern` (fnmatch; '-' and '_' alike). */
bool kmod_name_matches(const char *pattern, const char *name);

/* Whether the module defines a function matching `pattern` (fnmatch). */
bool kmod_entry_has_func(const struct kmod_entry *m, const char *pattern);

/* Whether the module defines a tracepoint matching `pattern` (fnmatch). */
bool kmod_entry_has_tracepoint(const struct kmod_entry *m,
			       const char *pattern);

#endif /* TAPC_DEBUGINFO_KMOD_INDEX_H */
