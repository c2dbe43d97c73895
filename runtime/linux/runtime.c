/*
 * runtime.c -- the whole Linux platform as one translation unit, for a
 * generated module to #include after its own definitions: the portable
 * core (compiled with the module's -D limits) and this directory.
 */
#include "../core/all.c"
#include "context.c"
#include "output.c"
#include "memory.c"
#include "locks.c"
#include "ksyms.c"
#include "owner.c"
#include "relay_sync.c"
#include "transport.c"
#include "probes_timer.c"
#include "probes_tracepoint.c"
#include "probes_kprobe.c"
#include "probes_netfilter.c"
#include "probes_hwbkpt.c"
#include "mmlock.c"
#include "dpath.c"
#include "umaps.c"
#include "uret.c"
#include "probes_uprobe.c"
#include "ustack.c"
#include "regex.c"
#include "procfs.c"
#include "timing.c"
#include "module.c"
