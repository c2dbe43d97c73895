/*
 * runtime.c - the user platform as one unit: the portable core and this
 * directory's sources.  A generated program includes it after its own
 * code (as it includes runtime/linux/runtime.c for the kernel), so that
 * the core is compiled with the program's -D limits (MAXSTRINGLEN,
 * MAXMAPENTRIES, ...).  Pass 4 compiles it apart, with only the
 * program's prelude before it (translator/build/runtime_split.h), so
 * nothing here may test a macro the program's own code defines.
 * Declares nothing of its own.
 */
#include "runtime.h"
#include "../core/all.c"
#include "context.c"
#include "timing.c"
#include "main.c"
