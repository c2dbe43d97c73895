/*
 * remote.h -- `tapc --remote HOST...`: run the script's module on other
 * machines over the user's own OpenSSH client.
 *
 * For each host: ask it (over ssh, BatchMode, the user's ~/.ssh/config
 * and agent; tapc stores no credentials) its kernel release and whether
 * it can load a module; build once per distinct release here (a child
 * `tapc -p4 -r KREL`, so the module cache serves the second host of a
 * release); copy the module and the static loader there; run them all at
 * once, streaming their output back; clean up.  A host that cannot be
 * reached, whose kernel has no headers here, or that refuses the module
 * is reported with the reason and the others go on.  --remote-merge:
 * the hosts run the script but its end probes and send their globals
 * back; a program built here runs the end probes once over their sum
 * (translator/codegen/codegen_merge.c, runtime/core/merge.h).
 */
#ifndef TAPC_DRIVER_REMOTE_H
#define TAPC_DRIVER_REMOTE_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* Check a --remote URL: [ssh://][USER@]HOST[:PORT].  NULL if it is
 * fine, else why not. */
const char *remote_url_problem(const char *url);

/* Options that cannot go with --remote; false after reporting them. */
bool remote_check_options(struct session *s);

/* The whole run for s->opts.remotes; argv is tapc's own command line,
 * handed (less the --remote options) to the per-kernel builds.  Returns
 * tapc's exit status: 0 when every host ran and exited 0. */
int remote_run(struct session *s, int argc, char **argv);

#endif
