/*
 * run_kernel.h -- pass 5 for the kernel target: run the module with
 * taprun on this machine, or in a throwaway VM with --vm.
 */
#ifndef TAPC_BUILD_RUN_KERNEL_H
#define TAPC_BUILD_RUN_KERNEL_H

#include "translator/driver/session.h"

/* Run `ko`; returns the exit status tapc should give. */
int run_kernel_module(struct session *s, const char *ko);

#endif
