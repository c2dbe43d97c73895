/*
 * tapset.h -- the tapset library: finding it, loading its macros (*.stpm,
 * needed already by pass 1) and its scripts (*.stp, for pass 2).
 *
 * The search path is every -I DIR, then the default library (paths.h:
 * the source tree's tapsets/ from the build tree, else the installed one).
 */
#ifndef TAPC_PARSE_TAPSET_H
#define TAPC_PARSE_TAPSET_H

#include <stdbool.h>

#include "translator/driver/session.h"

struct elab;
struct node;

/* Parse every *.stpm of the library into s->macros. */
bool tapset_load_macros(struct session *s);
/* Parse every *.stp of the library into s->library (once). */
bool tapset_load_library(struct session *s);
/* Whether `path` is one of the library's own files. */
bool tapset_is_library_file(struct session *s, const char *path);
/* The directory of the default library, for messages and listings. */
const char *tapset_default_dir(struct session *s);
/* "did you mean" for a probe point no alias or provider knows. */
void tapset_hint_probe(struct elab *e, const struct node *point);

#endif
