/*
 * codegen_tvar.h -- pass 3 for $target reads: C for a `struct ta_access`
 * (tvar_access.h), and @entry values of .return probes.  Shared by
 * codegen_expr.c (N_CAST, N_ENTRY) and the providers' emit hooks (their
 * $var reads, the entry handlers their tables register).
 */
#ifndef TAPC_CODEGEN_CODEGEN_TVAR_H
#define TAPC_CODEGEN_CODEGEN_TVAR_H

#include "translator/codegen/codegen_int.h"
#include "translator/sema/tvar_access.h"

/* A C expression for `t`: int64_t for integers and addresses, a
 * const char * for strings and pretty text.  `at` is the script node,
 * for the "near" of a read fault. */
const char *cg_access(struct cg *g, const struct ta_access *t,
		      struct node *at);

/* Guru mode: store `val` (C, int64_t) into what `lhs` (a $target,
 * @var or @cast that pass 2 found writable) reads -- a pt_regs field
 * (the user registers in a uprobe handler) or memory through a
 * fault-safe write (the probed task's user memory in a uprobe handler,
 * kernel memory elsewhere); the expression's value is `val`.  A fault
 * is a script error ("kernel write fault at 0x...", "user write fault
 * at 0x..."). */
const char *cg_target_store(struct cg *g, struct node *lhs, const char *val);

/* @entry(expr) in a .return probe's handler: the value saved at entry. */
const char *cg_entry_value(struct cg *g, struct node *n);

/* Entry handlers of the .return probes with @entry values, written at
 * the module's end; for the kprobe table, probe `dp`'s handler name (or
 * "NULL") and its per-instance data size (C text). */
void cg_entry_handlers(struct cg *g);
const char *cg_entry_handler_name(struct cg *g, struct derived_probe *dp);
const char *cg_entry_data_size(struct cg *g, struct derived_probe *dp);

#endif
