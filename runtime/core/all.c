/*
 * all.c - the whole portable core as one translation unit, for the kernel
 * target: a module's generated C includes this file (after the kernel
 * headers) instead of naming each core source, so that adding a file to
 * the core means adding it here and to runtime/local.mk only.  Never part
 * of the user-space library, which builds the files one by one.
 */
#include "platform.c"
#include "error.c"
#include "buf.c"
#include "stat.c"
#include "hist.c"
#include "map.c"
#include "pmap.c"
#include "cmap.c"
#include "format.c"
#include "tapstring.c"
#include "json.c"
#include "merge.c"
#include "timing.c"
#include "fp.c"
#include "match.c"
