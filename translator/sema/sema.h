/*
 * sema.h -- pass 2, elaboration: the parsed script plus the tapset library
 * in, a resolved and typed program out.
 *
 * Elaboration expands probe aliases and wildcards and hands every concrete
 * probe point to the provider that claims it (providers/provider.h), binds
 * every name to a symbol (a global, a local, a parameter, a function, a
 * context variable), infers the type of every expression and symbol, and
 * drops what is not used. Pass 3 reads only `struct program` and the
 * bindings left in the tree (node->u.symbol.sym, node->u.call.fn,
 * node->u.target.cv, node->type); it never looks anything up by name.
 */
#ifndef TAPC_SEMA_SEMA_H
#define TAPC_SEMA_SEMA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "translator/parse/ast.h"
#include "translator/driver/session.h"
#include "translator/sema/tvar_access.h"

struct provider;
struct ta_access;
struct btf;
struct dw_file;

#define SEMA_MAX_KEYS 9

enum sym_kind { SYM_GLOBAL, SYM_LOCAL, SYM_PARAM };

/* A variable: a global (scalar or array), a local of a probe or function,
 * or a function parameter. */
struct symbol {
	const char *name;
	enum sym_kind kind;
	enum type type;			/* of the value; TY_STATS for <<< */
	int nkeys;			/* 0: scalar; 1..9: array */
	enum type key_types[SEMA_MAX_KEYS];
	long max_entries;		/* global a[N]; 0 = MAXMAPENTRIES */
	bool wrap;			/* global a%[N] */
	struct node *decl;		/* N_GLOBAL, the param, or first use */
	struct node *init;		/* global's initializer, or NULL */
	int index;			/* slot among its kind's storage */
	bool read, written;
	bool format_typed;		/* its type came from a printf directive */
	bool is_private;
	const char *cmdline_value;	/* -G name=value */
	const char *c_name;		/* identifier the generated C uses */
	bool cpu_adds;			/* pass 3: probes add into it
					 * without a lock, each on its CPU
					 * (codegen_counters.c) */
	/* Autocast (locals): the debug-info type of every typed value
	 * stored in it (types.c); none if two differ (vtype_mixed). */
	struct ta_vtype vtype;
	bool vtype_mixed;
};

/* A script or tapset function that is called. */
struct function_sym {
	const char *name;
	struct node *decl;		/* N_FUNCTION */
	enum type ret;
	struct symbol **params;
	int nparams;
	struct symbol **locals;		/* params first, then locals */
	int nlocals;
	int index;
	const char *c_name;
	bool from_tapset;
	struct symbol **writes;		/* global arrays it changes, calls
					 * included (checks.c) */
	int nwrites, cap_writes;
	struct ta_vtype ret_vtype;	/* as a symbol's vtype, of what it */
	bool ret_vtype_mixed;		/* returns */
};

/* A context variable a provider offers ($prev, $return, $count...). */
struct context_var {
	const char *name;		/* without the '$' */
	enum type type;			/* TY_LONG or TY_STRING */
	const char *c_type;		/* the kernel's type, for -L */
	int arg_index;			/* provider-defined (argument slot) */
	bool writable;			/* only in guru mode */
	bool script_value;		/* a string the probe's handler shares
					 * with what fired it, set without
					 * guru mode (provider.h value_store) */
	bool write_only;		/* a .read probe's $value: assigned
					 * ('=', '.='), never read */
	bool is_pointer, is_signed;
	int size;			/* bytes */
	/* For $var->member, $var$ and $$parms (tvar_access.h): how to
	 * read the value itself, and its type in the kernel's BTF.  NULL /
	 * 0 when the provider has no type for it (then only plain $var). */
	struct ta_access *access;
	const struct btf *btf;
	uint32_t btf_type;
	/* Or typed by DWARF (providers/dwarf.c): the file and type handle
	 * (translator/debuginfo/dwarf.h); NULL / 0 otherwise. */
	struct dw_file *dwarf;
	uint64_t dwarf_type;
	const char *unavailable;	/* why a DWARF variable cannot be
					 * read at this probe, or NULL */
};

/* One probe the module registers: a concrete point with its handler. */
struct derived_probe {
	const struct provider *provider;
	struct node *point;		/* concrete N_PROBE_POINT */
	const char *name;		/* printed form: kernel.trace("sched_switch") */
	const char *written;		/* the point as the user wrote it */
	const char *alias_name;		/* the alias it named, if any */
	struct node *origin;		/* the N_PROBE it came from */
	struct node *body;		/* N_BLOCK: alias prologues, the
					 * probe's body, alias epilogues */
	struct node *cond;		/* combined if (...) or NULL */
	struct symbol **locals;
	int nlocals;
	struct context_var **ctxvars;	/* those the handler uses */
	int nctxvars, ctxvars_cap;
	void *pdata;			/* the provider's own parameters */
	int index;
	const char *c_name;		/* handler function name */
};

/* A perf.type(T).config(C)[.process("PATH")].counter("NAME") probe: no
 * handler, but a counting perf event per thread that the process probes
 * naming it read with @perf("NAME") (providers/perf.c). */
struct perf_counter {
	const char *name;
	const char *point;		/* printed, for messages */
	const char *path;		/* canonical .process("PATH"), or NULL:
					 * readable in any program */
	int64_t type, config;
	struct loc loc;
	int index;			/* in program.counters and the C table */
};

/* Each array's _cap is its allocated length, kept apart from the count so
 * that appends double it (amortised O(1)); a count lowered by a rollback
 * or by optimize.c stays within it. */
struct program {
	struct derived_probe **probes;
	int nprobes, probes_cap;
	struct symbol **globals;
	int nglobals, globals_cap;
	struct function_sym **functions;
	int nfunctions, functions_cap;
	struct node **embeds;		/* top-level %{ %} blocks in use */
	int nembeds;
	struct perf_counter **counters;	/* perf.*.counter("NAME") probes */
	int ncounters, counters_cap;
	/* When pass 3 writes only part of the program (the user half of
	 * --runtime=bpf): the whole, for what depends on every probe
	 * (which globals are read, for autoprint).  NULL otherwise. */
	const struct program *whole;
};

/* Pass 2 for the driver: load the library, elaborate s->user_file into
 * s->program. */
bool pass_elaborate(struct session *s);

/* The counter named name, or NULL (elaborate.c). */
struct perf_counter *program_counter(const struct program *p,
				     const char *name);

/* -p2 output. */
void sema_print_program(FILE *out, const struct session *s);

/* Whether call n is print(G) or println(G) of a whole array or
 * statistics global G under --json (types.c; codegen prints it whole). */
bool sema_is_whole_print(const struct session *s, const struct node *n);

/* Whether name is one of the print functions, printf ... sprintdln,
 * which take any number of values of any type (resolve.c). */
bool sema_is_print_family(const char *name);

/* Whether node n by itself (not its operands) has a side effect or can
 * raise a script error, as pass 2's dead-code elision judges it
 * (optimize.c): a store, a call, C code, @kderef/@kregister, '/' or '%'.
 * Pass 3 builds finer judgements on it (codegen/bpf_effect.c). */
bool opt_node_acts(const struct node *n);

/* Whether a statement or body does nothing: empty blocks and ';' only
 * (optimize.c drops such probes). */
bool opt_is_empty(const struct node *n);

#endif
