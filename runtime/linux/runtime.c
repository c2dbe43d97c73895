/*
 * runtime.c -- the whole Linux platform as one translation unit, for a
 * generated module to #include after its own definitions.  Each part is
 * also a standalone file that Kbuild could list instead.
 */
#include "context.c"
#include "output.c"
#include "memory.c"
#include "locks.c"
#include "transport.c"
#include "probes_timer.c"
#include "probes_tracepoint.c"
#include "probes_kprobe.c"
#include "module.c"
