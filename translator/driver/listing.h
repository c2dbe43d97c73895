/*
 * listing.h -- `tapc -l` / `-L`: list the probe points a pattern matches.
 */
#ifndef TAPC_DRIVER_LISTING_H
#define TAPC_DRIVER_LISTING_H

#include <stdbool.h>

#include "translator/driver/session.h"

bool pass_list(struct session *s);
/* --dump-functions, --dump-probe-types, --dump-probe-aliases */
bool pass_dump(struct session *s);

#endif
