/*
 * kernel_facts.h -- filling the session's kernel facts (what %( %)
 * conditions test: kernel_v, kernel_vr, arch, runtime, CONFIG_*) from the
 * kernel the script is translated for, and opening that kernel
 * (s->kernel) for the later passes.
 *
 * For -r KREL or the running kernel it reads the release, version,
 * architecture and .config through debuginfo/kernel.h. When no such kernel
 * is installed (a host without headers, say) it still succeeds with what
 * it knows (the release string, uname's architecture) so that pass 1 can
 * run anywhere; later passes ask for the build directory themselves.
 */
#ifndef TAPC_DRIVER_KERNEL_FACTS_H
#define TAPC_DRIVER_KERNEL_FACTS_H

#include "translator/driver/session.h"

void kernel_facts_fill(struct session *s);
void kernel_facts_release(struct session *s);

#endif
