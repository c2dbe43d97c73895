/*
 * tapset_sysfmt.c -- brings the strace-style decoder (runtime/core/sysfmt.c)
 * into a module for the syscall and errno tapsets, once however many tapset
 * files ask for it.
 */
#ifndef TAP_TAPSET_SYSFMT_C
#define TAP_TAPSET_SYSFMT_C
#include "../core/sysfmt.c"
#endif
