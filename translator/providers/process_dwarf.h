/*
 * process_dwarf.h -- DWARF for process("PATH").function probes (through
 * the debug-info layer translator/debuginfo/dwarf.h): where a function's
 * prologue ends, and its parameters, locals and return value as context
 * variables.  Used by process.c only.
 */
#ifndef TAPC_PROVIDERS_PROCESS_DWARF_H
#define TAPC_PROVIDERS_PROCESS_DWARF_H

#include <stdbool.h>
#include <stdint.h>

struct elab;
struct context_var;
struct process_dwarf;

/*
 * The DWARF view of function `func` of `path` for an entry probe
 * (is_return false: the site after the prologue, its address in *vaddr)
 * or a return probe; NULL when the file has no DWARF or does not describe
 * the function (the probe then stays on the symbol, without $vars).
 * symbol_addr gives the link-time address of an ELF symbol (0: none).
 */
struct process_dwarf *process_dwarf_find(struct elab *e, const char *path,
					 const char *func, bool is_return,
					 uint64_t (*symbol_addr)(const char *name,
								 void *ctx),
					 void *ctx, uint64_t *vaddr);

/* The context variable `name` (a parameter, a local, "return"), or NULL. */
struct context_var *process_dwarf_var(struct elab *e, struct process_dwarf *d,
				      const char *name);

/* Every context variable (for -L and hints); how many. */
int process_dwarf_list(struct elab *e, struct process_dwarf *d,
		       struct context_var ***out);

#endif
