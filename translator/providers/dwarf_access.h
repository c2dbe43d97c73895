/*
 * dwarf_access.h -- the DWARF source of `struct ta_access`
 * (translator/sema/tvar_access.h): a DWARF variable's location as a base,
 * and $var->member chains, [i], &, $ / $$ walked through DWARF types.
 * The twin of translator/sema/tvar_btf.h for variables typed by libdw.
 * Part of pass 2; never emits C.
 */
#ifndef TAPC_PROVIDERS_DWARF_ACCESS_H
#define TAPC_PROVIDERS_DWARF_ACCESS_H

#include "translator/parse/ast.h"
#include "translator/debuginfo/dwarf.h"
#include "translator/sema/tvar_access.h"

struct elab;
struct context_var;

/* The access reading variable `v` itself (base from its location, result
 * from its type), or NULL with *why saying why it cannot be read here. */
struct ta_access *dwacc_var(struct elab *e, struct dw_file *f,
			    const struct dw_var *v, const char **why);

/* Variable `v` as a context variable: its access (dwacc_var; a char
 * array reads as a string, from user memory when `user`), C type, size
 * and signedness; `arg_index` as the provider numbers it.  Writable in
 * guru mode (pass 2 still checks that its location can be stored into),
 * kernel and user probes alike. */
struct context_var *dwacc_context_var(struct elab *e, struct dw_file *f,
				      const struct dw_var *v, int arg_index,
				      bool user);

/* $return of a function returning `type`. */
struct ta_access *dwacc_return(struct elab *e, struct dw_file *f,
			       uint64_t type);

/* `base` (the variable's access) of DWARF `type`, followed by `path`;
 * NULL after reporting an error at the step that went wrong. `what` is
 * the expression as written ("$item"). */
struct ta_access *dwacc_walk(struct elab *e, struct dw_file *f,
			     uint64_t type, const struct ta_access *base,
			     const struct target_path *path, const char *what,
			     struct loc loc);

/* The whole expression for a context variable typed by DWARF: plain
 * $var, or its path; reports a variable that cannot be read at this
 * probe. NULL after an error. */
struct ta_access *dwacc_target(struct elab *e, struct context_var *cv,
			       const struct target_path *path, const char *what,
			       struct loc loc);

/* $$vars/$$parms/$$locals text: "a=0x1 b=0x2"; with pretty (1 or 2)
 * each as $name$ / $name$$. */
struct ta_access *dwacc_parms(struct elab *e, struct context_var **vars,
			      int nvars, int pretty);

/* $$vars, $$parms or $$locals (`name` without "$$") of a probe from
 * providers/dwarf.c: true with *out set; false if `dp` is not one. */
struct derived_probe;
bool dwacc_meta(struct elab *e, const struct derived_probe *dp,
		const char *name, int pretty, struct ta_access **out);

/* @cast(ptr, "type", "module") when `module` is a module with DWARF
 * (a path to a .ko, or a name found as dw_kernel_module finds it): true
 * with *out set, or NULL after an error was reported; false to leave it
 * to BTF (the kernel, <header>, modules without DWARF). */
bool dwacc_cast(struct elab *e, struct node *n, struct ta_access **out);

/* @cast(ptr, "type", ...) `n` with the type found in DWARF file `f`
 * (`where` names it in messages; NULL: f's path).  NULL after an error
 * was reported. */
struct ta_access *dwacc_cast_in(struct elab *e, struct dw_file *f,
				struct node *n, const char *where);

/* @cast(ptr, "type", "<sys/un.h>"): the type from the headers named,
 * compiled (debuginfo/header_types.h): true with *out set, or NULL after
 * an error was reported (with the compiler's message when they do not
 * compile); false when the module string is not a header list. */
bool dwacc_header_cast(struct elab *e, struct node *n, struct ta_access **out);

/* @var("name@file"[, "module"]) in probe `dp` (NULL in a function): the
 * static or global of the module named, else of the probe's DWARF file,
 * else of the kernel's debug vmlinux, followed by its path.  NULL after
 * an error was reported. */
struct ta_access *dwacc_atvar(struct elab *e, struct derived_probe *dp,
			      struct node *n);

/* The two halves of every @var("name[@file]") (kernel, module, process):
 * split the spec into *name and *file (NULL without @FILE), false after
 * an error for an empty name; then find the variable in f, false after
 * an error (no such variable, or DWARF that cannot be read). */
bool dwacc_atvar_spec(struct elab *e, const struct node *n,
		      const char **name, const char **file);
bool dwacc_atvar_find(struct elab *e, struct dw_file *f, const struct node *n,
		      const char *name, const char *file, struct dw_var *v);

#endif
