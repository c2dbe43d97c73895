/*
 * codegen_ucfi.h -- pass 3: the call frame information of a user file as
 * the runtime's struct tap_ucfi (runtime/linux/ustack.h), for
 * ubacktrace() & co. to unwind code built without frame pointers.
 * The process family (providers/process_emit.c) calls it for each file
 * it embeds symbols for (the probed programs, -d PATH, --ldd).
 */
#ifndef TAPC_CODEGEN_CODEGEN_UCFI_H
#define TAPC_CODEGEN_CODEGEN_UCFI_H

#include <stdbool.h>

struct cg;

/* Whether the program walks user stacks (ubacktrace, ucallers,
 * sprint_ubacktrace and what calls them): only then are tables made. */
bool cg_ucfi_wanted(struct cg *g);

/* Emit `static const struct tap_ucfi __tap_ucfi_IDX` for the file at
 * path; false (with a warning) when it has no usable CFI. */
bool cg_ucfi_table(struct cg *g, const char *path, int idx);

#endif
