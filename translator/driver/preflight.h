/*
 * preflight.h -- before building a module that this run would load here,
 * check that this machine can load it, and if not say so at once: why
 * (host_caps.h's reason) and which ways of running the script do work
 * here, instead of failing in taprun after the build.
 */
#ifndef TAPC_DRIVER_PREFLIGHT_H
#define TAPC_DRIVER_PREFLIGHT_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* True when the run does not load a module here (-p1..-p4, --vm, -r for
 * another kernel, --target=user) or when this machine can load it;
 * otherwise reports the refusal and returns false. */
bool preflight_check(struct session *s);

/* `tapc --info`: what host_caps found, then the ways to run here. */
int preflight_print_info(FILE *out);

#endif
