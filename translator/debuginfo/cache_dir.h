/*
 * cache_dir.h -- the one directory tapc keeps what it can compute again in
 * (built modules and programs, BTF extracted from vmlinuz, DWARF function
 * indexes, module indexes, probe sites), and making directories in it.
 *
 * The root is $TAPC_CACHE_DIR, else $XDG_CACHE_HOME/tapc, else
 * $HOME/.cache/tapc, else the passwd entry's home's .cache/tapc (relative
 * paths in the variables are ignored, as the XDG spec asks); never a
 * shared directory.  The root, and what a caller trusts below it, must be
 * owned by this user, not writable by group or others, and not a symbolic
 * link: root loads modules from here.  Every cache is optional: a caller
 * that gets false computes again and must not fail a run for want of a
 * cache.
 */
#ifndef TAPC_DEBUGINFO_CACHE_DIR_H
#define TAPC_DEBUGINFO_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The root (made when missing), or NULL when there is none or it may not
 * be trusted (said once on stderr). */
const char *cache_root(void);

/* Turn caching off for this process (--disable-cache): cache_root()
 * returns NULL from now on, so nothing is read from or written to it. */
void cache_disable(void);

/* ROOT/SUB into out (made, with its parents, when create); false when
 * there is no root, the path does not fit, or it cannot be made. */
bool cache_subdir(const char *sub, bool create, char *out, size_t len);

/* mkdir -p PATH (mode 0700); true when it exists afterwards. */
bool cache_mkdir_p(const char *path);

/* Whether the file PATH below the root, and every directory between,
 * may be trusted (see above).  Check before loading anything cached. */
bool cache_trusted(const char *path);

/* Copy FROM to TO (in a cache directory, with MODE) through a fresh
 * temporary file and rename(), so that a link planted at TO is replaced,
 * not followed. */
bool cache_store(const char *from, const char *to, mode_t mode);
/* The same, making TO's directory (and its parents) first. */
bool cache_store_in_new_dir(const char *from, const char *to, mode_t mode);

/* FNV-1a of a string: short, stable cache file names from long keys. */
uint64_t cache_name_hash(const char *s);

#endif
