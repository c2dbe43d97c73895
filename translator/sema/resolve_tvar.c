/*
 * resolve_tvar.c -- pass 2 for $target expressions (resolve_tvar.h):
 * binding a $var with its path, the $$ meta variables ($$parms, $$vars,
 * $$locals, $$return, and $$name/$$provider of process probes), @cast and
 * @var to a `struct ta_access` (tvar_access.h), and @defined() of them.
 *
 * The debug-info source that typed a context variable walks its path:
 * DWARF (providers/dwarf_access.c), else BTF (tvar_btf.c).  @cast tries
 * the headers it names, then a module's DWARF, then BTF; @var goes to
 * the process provider in process probes, else to DWARF.  A variable no
 * source typed can only be read plainly.  Must not: walk types itself
 * (the sources do) or emit C (codegen/codegen_tvar.c does).
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"
#include "translator/sema/resolve_tvar.h"
#include "translator/providers/dwarf_access.h"
#include "translator/sema/tvar_btf.h"

static enum type
type_of(const struct ta_access *t)
{
	return t->result.kind == TA_RES_STRING ||
	       t->result.kind == TA_RES_PRETTY ? TY_STRING : TY_LONG;
}

bool
target_is_meta(const char *name)
{
	return strncmp(name, "$$", 2) == 0;
}

bool
target_needs_entry(const struct derived_probe *dp,
		   const struct context_var *cv)
{
	return provider_is_return(dp) && cv->arg_index >= 0;
}

bool
target_meta_needs_entry(const struct derived_probe *dp, const char *name)
{
	return provider_is_return(dp) && (strcmp(name, "$$parms") == 0 ||
				       strcmp(name, "$$vars") == 0);
}

bool
target_bind_access(struct elab *e, struct context_var *cv, struct node *n)
{
	const struct target_path *path = &n->u.target.path;
	struct ta_access *t = NULL;

	if (cv->dwarf) {
		t = dwacc_target(e, cv, path, n->u.target.name, n->loc);
		if (!t)
			return false;
	} else if (cv->access && cv->btf) {
		t = tbtf_walk(e, cv->btf, cv->btf_type, cv->access, path,
			      n->u.target.name, n->loc);
		if (!t)
			return false;
	} else if (path->nsteps || path->addr_of || path->pretty) {
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
			   "'%s' has no type information here (neither BTF nor DWARF describes it): member access, '&' and '$' need one",
			   n->u.target.name);
		return false;
	} else if (cv->access) {
		t = cv->access;
	} else {
		return true;	/* the provider reads it its own way */
	}
	n->u.target.access = t;
	n->type = type_of(t);
	return true;
}

/* The probe's parameters ($$parms): its context variables but $return. */
static int
parameters(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	struct context_var **all;
	int n = provider_list_context(e, dp, &all), k = 0;

	*out = arena_alloc(e->s->arena, sizeof(**out) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		if (strcmp(all[i]->name, "return") != 0)
			(*out)[k++] = all[i];
	return k;
}

/* n becomes the string literal text ($$name of a .plt probe): the body
 * is this derived probe's own copy. */
static void
string_constant(struct elab *e, struct node *n, const char *text)
{
	char *raw = arena_alloc(e->s->arena, 2 * strlen(text) + 1), *o = raw;

	for (const char *c = text; *c; c++) {
		if (*c == '\\' || *c == '"')
			*o++ = '\\';
		*o++ = *c;
	}
	n->kind = N_STRING;
	n->u.string.raw = raw;
	n->type = TY_STRING;
}

bool
target_bind_meta(struct elab *e, struct derived_probe *dp, struct node *n,
		 bool in_entry)
{
	const char *name = n->u.target.name + 2;
	const struct target_path *path = &n->u.target.path;
	struct context_var **vars = NULL, *ret = NULL;
	int nvars = 0;

	if (path->nsteps || path->addr_of) {
		diag_error(&e->s->diag, n->loc, "E_TARGET_META",
			   "'%s' is a string: it has no members and no address",
			   n->u.target.name);
		return false;
	}
	if (provider_meta_string(dp, name) && !path->pretty) {
		string_constant(e, n, provider_meta_string(dp, name));
		return true;
	}
	if (dwacc_meta(e, dp, name, path->pretty, &n->u.target.access)) {
		n->type = TY_STRING;	/* DWARF: locals too */
		return true;
	}
	if (strcmp(name, "parms") == 0 || strcmp(name, "vars") == 0) {
		if (provider_is_return(dp) && !in_entry) {
			diag_error(&e->s->diag, n->loc, "E_INTERNAL",
				   "'%s' in a .return probe must be read at entry",
				   n->u.target.name);
			return false;
		}
		nvars = parameters(e, dp, &vars);
	} else if (strcmp(name, "return") == 0) {
		ret = provider_is_return(dp) ?
			provider_context(e, dp, "return") : NULL;
		/* Nothing for a void function (BTF knows it has no value). */
		if (ret && ret->access && !(ret->btf && !ret->btf_type)) {
			vars = &ret;
			nvars = 1;
		}
	} else if (strcmp(name, "locals") != 0) {
		diag_error(&e->s->diag, n->loc, "E_UNRESOLVED_TARGET",
			   "unknown context variable '%s'; the $$ forms are $$vars, $$parms, $$locals and $$return ($$name: in .plt and .mark probes; $$provider: in .mark probes)",
			   n->u.target.name);
		return false;
	}
	/* $$locals: locals need DWARF; without it there are none. */
	n->u.target.access = tbtf_parms(e, vars, nvars, path->pretty);
	n->type = TY_STRING;
	return true;
}

/*
 * @cast(p, "T", "kernel<uapi/linux/if_alg.h>") names a type of the
 * kernel's user-space ABI: vmlinux's BTF lacks it when only a module
 * uses it (sockaddr_alg: af_alg).  The same header is installed for user
 * space without "uapi/" (linux-libc-dev's <linux/if_alg.h>), with the
 * same layout: its types are read as for "<linux/if_alg.h>".  Only when
 * every header of the list is a uapi one and the BTF has no such type.
 */
static bool
uapi_header_cast(struct elab *e, struct node *n, struct ta_access **out)
{
	const char *module = n->u.cast.module, *p;
	char headers[512] = "";
	size_t used = 0;

	if (!module || strncmp(module, "kernel<", 7) != 0)
		return false;
	for (p = module + 6; *p == '<'; p = strchr(p, '>') + 1) {
		const char *end = strchr(p, '>');

		if (!end || strncmp(p + 1, "uapi/", 5) != 0 ||
		    used + (size_t)(end - p) >= sizeof(headers))
			return false;
		used += (size_t)snprintf(headers + used, sizeof(headers) - used,
					 "<%.*s>", (int)(end - p - 6), p + 6);
	}
	if (*p || !*headers || tbtf_kernel_has_type(e, n))
		return false;
	n->u.cast.module = arena_strdup(e->s->arena, headers);
	if (!dwacc_header_cast(e, n, out))
		*out = NULL;
	n->u.cast.module = module;
	return true;
}

bool
target_bind_cast(struct elab *e, struct node *n)
{
	struct ta_access *t;

	/* user headers, else a module's DWARF, else BTF (a uapi type it
	 * lacks: the user-space copy of its header) */
	if (!dwacc_header_cast(e, n, &t) && !dwacc_cast(e, n, &t) &&
	    !uapi_header_cast(e, n, &t))
		t = tbtf_cast(e, n);
	if (!t)
		return false;
	n->u.cast.access = t;
	n->type = type_of(t);
	return true;
}

bool
target_bind_atvar(struct elab *e, struct derived_probe *dp, struct node *n)
{
	struct ta_access *t = provider_atvar(e, dp, n);

	if (!t)
		return false;
	n->u.atvar.access = t;
	n->type = type_of(t);
	return true;
}

/* Whether binding succeeds, with no diagnostics: @defined(). */
static bool
binds_quietly(struct elab *e, struct derived_probe *dp,
	      struct context_var *cv, struct node *n)
{
	struct diag *d = &e->s->diag;
	struct diag_mark quiet;
	struct node copy = *n;
	bool ok;

	diag_hold(d, &quiet);
	ok = n->kind == N_CAST ? target_bind_cast(e, &copy)
	     : n->kind == N_ATVAR ? target_bind_atvar(e, dp, &copy)
			       : target_bind_access(e, cv, &copy);
	ok = ok && diag_held_errors(d, &quiet) == 0;
	diag_release(d, &quiet, false);
	return ok;
}

bool
target_defined(struct elab *e, struct context_var *cv, struct node *n)
{
	const struct target_path *path = n->kind == N_CAST ? &n->u.cast.path
							  : &n->u.target.path;

	if (n->kind == N_TARGET && (!cv || (cv->dwarf && !cv->access)))
		return false;
	if (n->kind == N_TARGET && !path->nsteps && !path->addr_of &&
	    !path->pretty)
		return true;
	return binds_quietly(e, NULL, cv, n);
}

bool
target_atvar_defined(struct elab *e, struct derived_probe *dp, struct node *n)
{
	return binds_quietly(e, dp, NULL, n);
}
