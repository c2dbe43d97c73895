/*
 * paths.h -- where tapc finds its parts: the tapset library, the runtime
 * sources compiled into modules, taprun, the VM tools, and its cache.
 *
 * Run from its build tree, tapc uses the source tree (so that a
 * developer's edits take effect without installing); installed, it uses
 * the installed copies. Environment variables override each: TAPC_TAPSET_DIR
 * (or stap's SYSTEMTAP_TAPSET),
 * TAPC_RUNTIME_DIR, TAPC_TAPRUN, TAPC_CACHE_DIR (default
 * $XDG_CACHE_HOME/tapc or ~/.cache/tapc).
 */
#ifndef TAPC_DRIVER_PATHS_H
#define TAPC_DRIVER_PATHS_H

#include <stdbool.h>

bool paths_uninstalled(void);
const char *paths_tapset_dir(void);
const char *paths_runtime_dir(void);
const char *paths_taprun(void);
const char *paths_taprun_static(void);
const char *paths_vm_tools(void);
const char *paths_cache_dir(void);

#endif
