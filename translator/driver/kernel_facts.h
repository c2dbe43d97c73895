/*
 * kernel_facts.h -- filling the session's target facts (what %( %) conditions
 * test) from the kernel the script is translated for.
 *
 * For -r KREL or the running kernel it reads the release, version,
 * architecture and .config through debuginfo/kernel.h. When no such kernel
 * is installed (a host without headers, say) it still succeeds with what
 * it knows (the release string, uname's architecture) so that pass 1 can
 * run anywhere; later passes ask for the build directory themselves.
 */
#ifndef TAPC_TARGET_H
#define TAPC_TARGET_H

#include "translator/driver/session.h"

void target_facts_fill(struct session *s);
void target_facts_release(struct session *s);

#endif
