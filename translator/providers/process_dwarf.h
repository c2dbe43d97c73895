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

/*
 * Statement sites: every address where a line of "FUNC@FILE:LINE" (FILE
 * and LINE optional; FUNC and FILE wildcards) starts, in `path`'s DWARF.
 * fn gets each with its link-time address (from symbol_addr) and its
 * DWARF view; returns how many, or -1 with a message in err.
 */
int process_dwarf_statements(struct elab *e, const char *path,
			     const char *spec,
			     uint64_t (*symbol_addr)(const char *name,
						     void *ctx),
			     void *ctx,
			     void (*fn)(struct process_dwarf *d, uint64_t vaddr,
					const char *function, const char *file,
					int line, void *fctx),
			     void *fctx, char *err, size_t errlen);

/* The context variable `name` (a parameter, a local, "return"), or NULL. */
struct context_var *process_dwarf_var(struct elab *e, struct process_dwarf *d,
				      const char *name);

/* .return view `ret` takes its parameters (@entry) from .call view `call`. */
void process_dwarf_set_entry(struct process_dwarf *ret,
			     struct process_dwarf *call);

/* @var("name@file") in `path`'s DWARF (n an N_ATVAR): that file's
 * static or global, at its link-time address plus its load bias -- the
 * probed file's (bias NULL: tap_ubias(c)) or, for another file such as a
 * library of the program, the C expression bias -- followed by n's path.
 * NULL after an error was reported. */
struct node;
struct ta_access *process_dwarf_atvar(struct elab *e, const char *path,
				      uint64_t (*symbol_addr)(const char *name,
							      void *ctx),
				      void *ctx, const char *bias,
				      struct node *n);

/* Every context variable (for -L and hints); how many. */
int process_dwarf_list(struct elab *e, struct process_dwarf *d,
		       struct context_var ***out);

#endif
