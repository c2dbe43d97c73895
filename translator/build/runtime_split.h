/*
 * runtime_split.h -- the generated C apart from the runtime it includes.
 *
 * Pass 3's C includes the platform's runtime.c in one line (#include
 * "runtime.c") after its own code, so that the -D limits of its prelude
 * (the #define lines before #include "runtime.h") reach the runtime too.
 * That runtime is the same for every script with the same prelude and
 * most of the compile, so both pass-4 builders (kbuild.c for modules,
 * build_user.c for user programs) compile it apart, once, and keep the
 * object in the cache. Generated code and runtime meet only through
 * runtime.h's non-static declarations.
 */
#ifndef TAPC_BUILD_RUNTIME_SPLIT_H
#define TAPC_BUILD_RUNTIME_SPLIT_H

#include <stdbool.h>

#include "translator/driver/session.h"

/*
 * Split c_text: *script is the text without its #include "runtime.c"
 * line, *runtime the runtime's own translation unit (the prelude's
 * #define and #undef lines, #include "runtime.h", #include "runtime.c").
 * Both in s's arena. False when c_text has no such line, or more than
 * one, or no #include "runtime.h" before it.
 */
bool runtime_split(struct session *s, const char *c_text,
		   const char **script, const char **runtime);

#endif /* TAPC_BUILD_RUNTIME_SPLIT_H */
