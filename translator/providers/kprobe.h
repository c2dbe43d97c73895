/*
 * kprobe.h -- the kprobe backend of the kernel's function probes, shared
 * by the families that place kprobes: kprobe.* (kprobe.c) and
 * kernel.function / module().function (dwarf.c, kfunc.c).  Their dp->pdata
 * starts with a struct pdata_kprobe (pdata.h).  kprobe.c writes the one
 * table; each family adds its probes' rows from its emit_code hook.
 */
#ifndef TAPC_PROVIDERS_KPROBE_H
#define TAPC_PROVIDERS_KPROBE_H

#include "translator/providers/provider.h"

/* Rows of the kprobe table for the probes of `p` (an emit_code hook's
 * work; may assume the entry handlers' names are known). */
void kprobe_add_rows(struct cg *g, enum backend b, const struct provider *p);
/* A .return probe (a kretprobe, entry_handler its entry half). */
bool kprobe_is_return(const struct derived_probe *dp);
/* $argN from the argument registers, $return from the return register:
 * the target_expr hook of a kprobe-placed probe. */
/* --runtime=bpf: kprobe/kretprobe programs (kprobe.c). */
enum bpf_place kprobe_bpf_place(const struct derived_probe *dp,
				struct arena *a, struct bpf_attach *att);
bool kprobe_bpf_has_fentry(const struct derived_probe *dp);
const char *kprobe_bpf_target_expr(struct arena *a,
				   const struct derived_probe *dp,
				   const struct context_var *cv);
const char *kprobe_target_expr(struct cg *g, enum backend b,
			       const struct derived_probe *dp,
			       const struct context_var *cv, struct node *n);

#endif /* TAPC_PROVIDERS_KPROBE_H */
