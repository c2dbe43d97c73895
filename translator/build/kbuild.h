/*
 * kbuild.h -- pass 4 for the kernel target: generated C in, a loadable
 * module out, built by the target kernel's kbuild and kept in a cache.
 *
 * The cache key hashes everything that decides the module: the elaborated
 * program (-p2's text), the options that change code generation, the tapc
 * version, the runtime sources and the target kernel's build tree. It is
 * computed after pass 2, so a hit skips passes 3 and 4.
 */
#ifndef TAPC_BUILD_KBUILD_H
#define TAPC_BUILD_KBUILD_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* The key (32 hex digits) and the module name (-m, or tap_ + key). */
const char *kbuild_cache_key(struct session *s);
const char *kbuild_module_name(struct session *s, const char *key);

/* The cached module for `key`, or NULL. */
const char *kbuild_cached_module(struct session *s, const char *key,
				 const char *name);

/* Build `c_text` as module `name` and store it under `key`. Returns the
 * module's path, or NULL after reporting why. */
const char *kbuild_build_module(struct session *s, const char *c_text,
				const char *name, const char *key);

/* Write the kbuild directory of `c_text` as module `name` into `dir`
 * (created; it must not exist), with the runtime object from the cache
 * when there is one, but run no make: a test suite builds many such
 * directories in one kbuild run (--stage-build). Returns the path the
 * module will have, or NULL after reporting why. */
const char *kbuild_stage_module(struct session *s, const char *c_text,
				const char *name, const char *dir);

#endif
