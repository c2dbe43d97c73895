/*
 * kfunc.h -- what the DWARF provider asks of the BTF one (kfunc.c) for
 * module("NAME").function("PATTERN") on a module without DWARF: probes on
 * the module's functions by "module:name", parameters typed by the
 * module's BTF (split on the kernel's).
 */
#ifndef TAPC_PROVIDERS_KFUNC_H
#define TAPC_PROVIDERS_KFUNC_H

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct elab;
struct node;

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
