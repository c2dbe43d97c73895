/*
 * tapset.h -- the tapset library, found and parsed in pass 1 (as in
 * SystemTap, so that a broken tapset is reported whatever pass the user
 * stops at): its macros (*.stpm), which every script may use, and its
 * scripts (*.stp), from which pass 2 pulls the aliases, functions and
 * globals a script uses.
 *
 * The search path is every -I DIR, then the default library (paths.h:
 * the source tree's tapsets/ from the build tree, else the installed one).
 */
#ifndef TAPC_PARSE_TAPSET_H
#define TAPC_PARSE_TAPSET_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* Parse every *.stpm of the library into s->macros. */
bool tapset_load_macros(struct session *s);
/* Parse every *.stp of the library into s->library (once). */
bool tapset_load_library(struct session *s);
/* Whether `path` is one of the library's own files. */
bool tapset_is_library_file(struct session *s, const char *path);
/* The directory of the default library, for messages and listings. */
const char *tapset_default_dir(struct session *s);

#endif
