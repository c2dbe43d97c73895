/*
 * process.h -- what the files of the process family share (process.c:
 * matching, context variables, cache and --vm inputs; process_emit.c:
 * its C).  A process probe's dp->pdata is a struct pdata_uprobe (a
 * uprobe) or a struct pdata_process (an event), told apart by their
 * first member (pdata.h).
 */
#ifndef TAPC_PROVIDERS_PROCESS_H
#define TAPC_PROVIDERS_PROCESS_H

#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"

extern const struct provider provider_process;

static inline enum process_pdata
process_pdata_kind(const void *pdata)
{
	return *(const enum process_pdata *)pdata;
}

/* `dp`'s uprobe or event parameters, or NULL when it is not one. */
static inline const struct pdata_uprobe *
process_uprobe_of(const struct derived_probe *dp)
{
	return dp->provider == &provider_process &&
	       process_pdata_kind(dp->pdata) == PROCESS_PD_UPROBE ?
	       dp->pdata : NULL;
}

static inline const struct pdata_process *
process_event_of(const struct derived_probe *dp)
{
	return dp->provider == &provider_process &&
	       process_pdata_kind(dp->pdata) == PROCESS_PD_EVENT ?
	       dp->pdata : NULL;
}

/* The program -c CMD runs (a script's interpreter), canonical, as
 * process probes without a path take it; NULL after an error at point
 * (no -c, no such program).  Also perf.*.process (perf.c). */
const char *process_command_program(struct elab *e, struct node *point);

/* process_bpf.c: --runtime=bpf's uprobe programs. */
enum bpf_place process_bpf_place(const struct derived_probe *dp,
				 struct arena *a, struct bpf_attach *att);
const char *process_bpf_target_expr(struct arena *a,
				    const struct derived_probe *dp,
				    const struct context_var *cv);

/* process_emit.c: the provider's emit_tables and target_expr hooks. */
void process_emit_tables(struct cg *g, enum backend b);
const char *process_target_expr(struct cg *g, enum backend b,
				const struct derived_probe *dp,
				const struct context_var *cv, struct node *n);

#endif /* TAPC_PROVIDERS_PROCESS_H */
