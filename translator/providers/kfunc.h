/*
 * kfunc.h -- the BTF half of the kernel.function family (kfunc.c), which
 * the DWARF provider (dwarf.c) hands what DWARF cannot serve:
 * kernel.function(...) when the kernel has no debug vmlinux, and
 * module("NAME").function("PATTERN") on a module without DWARF (probes on
 * the module's functions by "module:name", parameters typed by the
 * module's BTF, split on the kernel's).  Its probes are the DWARF
 * provider's (dp->provider), with pdata_kprobe.dwarf NULL.
 */
#ifndef TAPC_PROVIDERS_KFUNC_H
#define TAPC_PROVIDERS_KFUNC_H

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct context_var;
struct derived_probe;
struct elab;
struct node;

/* kernel.function(...) from the kernel's BTF: the provider hooks'
 * contracts (provider.h). */
int kfunc_match(struct elab *e, struct node *point);
struct context_var *kfunc_context(struct elab *e, struct derived_probe *dp,
				  const char *name);
int kfunc_list(struct elab *e, struct derived_probe *dp,
	       struct context_var ***out);
/* Why a kfunc probe has no typed parameters (no BTF for it), or NULL
 * (also for a probe DWARF typed). */
const char *kfunc_untyped_reason(const struct derived_probe *dp);

/* One probe per name of `funcs` matching `pattern` (fnmatch), on module
 * `modname` (kallsyms' spelling), named module("DISPLAY").function(...);
 * `btf` NULL gives untyped probes (why: `btf_err`).  Returns the count,
 * or -1 after an error (an unsupported suffix, @FILE). */
int kfunc_match_module(struct elab *e, struct node *point,
		       const char *modname, const char *display,
		       const struct btf *btf, const char *btf_err,
		       const char *const *funcs, size_t nfuncs,
		       const char *pattern);

#endif /* TAPC_PROVIDERS_KFUNC_H */
