/*
 * compat.h -- --compatible=VERSION after the preprocessor: the behaviours
 * SystemTap changed between versions, asked through one function so that
 * every pass compares versions the same way.  (The preprocessor's
 * systemtap_v condition reads the same option: parse/preproc_cond.c.)
 *
 * The behaviours and the version that changed them:
 *   1.3  %p pads to the word size no more (codegen_print.c)
 *   1.5  @sum of an empty aggregate is 0, not an error (codegen_expr.c)
 */
#ifndef TAPC_DRIVER_COMPAT_H
#define TAPC_DRIVER_COMPAT_H

#include <stdbool.h>
#include "translator/driver/session.h"

/* True when the script asked, with --compatible, for a SystemTap older
 * than `version`: it wants the behaviour `version` changed. */
bool session_compat_before(const struct session *s, const char *version);

#endif
