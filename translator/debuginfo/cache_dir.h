/*
 * cache_dir.h -- the one directory tapc keeps what it can compute again in
 * (built modules and programs, BTF extracted from vmlinuz, DWARF function
 * indexes, module indexes, probe sites), and making directories in it.
 *
 * The root is $TAPC_CACHE_DIR, else $XDG_CACHE_HOME/tapc, else
 * $HOME/.cache/tapc (relative paths in the variables are ignored, as the
 * XDG spec asks).  Every cache is optional: a caller that gets false
 * computes again and must not fail a run for want of a cache.
 */
#ifndef TAPC_DEBUGINFO_CACHE_DIR_H
#define TAPC_DEBUGINFO_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The root, or NULL when no variable names an absolute directory. */
const char *cache_root(void);

/* ROOT/SUB into out (made, with its parents, when create); false when
 * there is no root, the path does not fit, or it cannot be made. */
bool cache_subdir(const char *sub, bool create, char *out, size_t len);

/* mkdir -p PATH (mode 0755); true when it exists afterwards. */
bool cache_mkdir_p(const char *path);

/* FNV-1a of a string: short, stable cache file names from long keys. */
uint64_t cache_name_hash(const char *s);

#endif
