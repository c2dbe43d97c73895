/*
 * deploy_module.h -- the module a user takes to another machine: a copy of
 * the cached module without its debug sections (`strip --strip-debug`),
 * signed with tapc's own key when --sign-module asks (sign_key.c).  The
 * cache keeps the full module; this copy is what `-p4 -m NAME` leaves in
 * the current directory as NAME.ko, and what a signed pass 5 loads.
 */
#ifndef TAPC_DRIVER_DEPLOY_MODULE_H
#define TAPC_DRIVER_DEPLOY_MODULE_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* Write `dest` from the cached module `ko`: stripped, and signed under
 * --sign-module.  With -v says the sizes before and after.  False with
 * a diagnostic when a step fails (dest is then removed). */
bool deploy_module_write(struct session *s, const char *ko,
			 const char *dest);

#endif
