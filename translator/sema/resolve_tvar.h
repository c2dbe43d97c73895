/*
 * resolve_tvar.h -- pass 2 for $target expressions: binding a $var
 * (with its ->member path, & and $ suffixes), $$parms/$$vars/$$locals/
 * $$return and @cast to a `struct ta_access` (tvar_access.h), whatever
 * debug-info source typed the variable.  Called by resolve.c, which walks
 * the index expressions inside paths itself.
 */
#ifndef TAPC_SEMA_RESOLVE_TVAR_H
#define TAPC_SEMA_RESOLVE_TVAR_H

#include <stdbool.h>

#include "translator/parse/ast.h"
#include "translator/sema/sema.h"

struct elab;

/* Whether `name` is one of the $$ meta variables. */
bool target_is_meta(const char *name);

/* Whether $var in a .return probe means its value at entry (a parameter
 * of a kernel.function(...).return): resolve.c wraps it in @entry. */
bool target_needs_entry(const struct derived_probe *dp,
			const struct context_var *cv);

/* Likewise for $$parms and $$vars. */
bool target_meta_needs_entry(const struct derived_probe *dp,
			     const char *name);

/* $var bound to `cv`: sets n->u.target.access and n->type; false after
 * an error. */
bool target_bind_access(struct elab *e, struct context_var *cv,
			struct node *n);

/* $$parms & co: sets n->u.target.access (a string) and n->type; false
 * after an error.  `in_entry`: evaluated at function entry. */
bool target_bind_meta(struct elab *e, struct derived_probe *dp,
		      struct node *n, bool in_entry);

/* @cast(...): sets n->u.cast.access and n->type; false after an error. */
bool target_bind_cast(struct elab *e, struct node *n);
/* @var("name@file"[, "module"]) in probe `dp` (NULL in a function)
 * through DWARF; false after an error. */
struct derived_probe;
bool target_bind_atvar(struct elab *e, struct derived_probe *dp,
		       struct node *n);

/* @defined(n): whether $var (bound to `cv`, NULL when the probe has
 * none) or @cast(...) with its whole path resolves; no diagnostics. */
bool target_defined(struct elab *e, struct context_var *cv, struct node *n);

/* @defined(@var(...)): whether it binds in probe dp (NULL: a function),
 * with no diagnostics. */
bool target_atvar_defined(struct elab *e, struct derived_probe *dp,
			  struct node *n);

#endif
