/*
 * tvar_btf.h -- $var->member chains, @cast and pretty printing ($var$,
 * $$parms) on the kernel's BTF: the BTF source of `struct ta_access`
 * (tvar_access.h).
 *
 * Takes a context variable's access (its base and result) and BTF type,
 * or an @cast's type name, and the script's path (->a, [i], &, $ / $$);
 * produces the access for the whole expression, or reports an error with
 * the step's location (a member that does not exist names the type and
 * suggests close names) and returns NULL.  Part of pass 2.
 */
#ifndef TAPC_SEMA_TVAR_BTF_H
#define TAPC_SEMA_TVAR_BTF_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/parse/ast.h"
#include "translator/sema/tvar_access.h"

struct elab;
struct btf;
struct context_var;

/* `what` is the expression as written for messages ("$file"). */
struct ta_access *tbtf_walk(struct elab *e, const struct btf *btf,
			    uint32_t type, const struct ta_access *base,
			    const struct target_path *path, const char *what,
			    struct loc loc);

/* @cast(operand, "type_name"[, module]) with `path`; NULL after an error. */
struct ta_access *tbtf_cast(struct elab *e, struct node *n);
/* Whether @cast node n's type is in the kernel's BTF (true as well when
 * there is no BTF: the caller's error then says so). */
bool tbtf_kernel_has_type(struct elab *e, struct node *n);

/* The pretty text of $$parms/$$vars (pretty 0: name=%#x each; 1 or 2:
 * name=$name$ or $name$$), from the variables `vars`; "" for none. */
struct ta_access *tbtf_parms(struct elab *e, struct context_var **vars,
			     int nvars, int pretty);

/* The access for a context variable typed by BTF: `base` read as `type`
 * (an integer of the type's size and signedness; pointers 8 bytes). */
void tbtf_set_scalar_result(const struct btf *btf, uint32_t type,
			    struct ta_access *t);

#endif
