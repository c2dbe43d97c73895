/*
 * runtime.h -- what generated code sees of the Linux kernel platform: the
 * registration table (probes.h), the per-CPU context and session state
 * (context.h), output (output.h), safe memory reads (memory.h), locks for
 * globals (locks.h), per-CPU counters (counter.h), regular expressions (regex.h) and the protocol
 * constants.
 *
 * A generated module is one C file: it includes this header, defines its
 * handlers, the probe arrays and `struct tap_module_desc tap_module`, and
 * ends with `#include "runtime.c"`.  tapc's kbuild drops that line and
 * links a runtime object compiled apart (README.md), so everything the
 * two share is declared here, not static.
 */
#ifndef TAP_LINUX_RUNTIME_H
#define TAP_LINUX_RUNTIME_H

#include <linux/module.h>
#include <linux/kernel.h>
#include "compat/compat.h"
#include "tap_protocol.h"
#include "context.h"
#include "output.h"
#include "memory.h"
#include "locks.h"
#include "counter.h"
#include "ksyms.h"
#include "probes.h"
#include "mmlock.h"
#include "signal_send.h"
#include "probes_uprobe.h"
#include "ustack.h"
#include "transport.h"
#include "regex.h"
#include "procfs.h"
#include "timing.h"

/* <stdint.h>'s limits, which the generated C uses on both targets (the
 * kernel spells them S64_MAX...). */
#ifndef INT64_MAX
#define INT64_MAX	S64_MAX
#define INT64_MIN	S64_MIN
#define UINT64_MAX	U64_MAX
#endif

#endif /* TAP_LINUX_RUNTIME_H */
