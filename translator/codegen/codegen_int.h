/*
 * codegen_int.h -- what the files of pass 3 share: the generator's state
 * and the entry points of each concern (expressions, statements, the print
 * family, probes and functions, builtins).  The providers' emit hooks
 * (translator/providers/) are part of pass 3 and use it too; other passes
 * do not.
 */
#ifndef TAPC_CODEGEN_CODEGEN_INT_H
#define TAPC_CODEGEN_CODEGEN_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "translator/parse/ast.h"
#include "translator/codegen/cg_writer.h"
#include "translator/codegen/codegen.h"
#include "translator/sema/builtins.h"
#include "translator/sema/sema.h"
#include "translator/driver/session.h"
#include "translator/providers/provider.h"

/* Temporaries of the frame being generated (a probe or a function). */
struct cg_frame {
	const char *struct_name;	/* "probe_3_locals" */
	const char *member;		/* its member in union tap_frame */
	int nstr;			/* char __sN[MAXSTRINGLEN] */
	int niter;			/* iteration storage __itN */
	long *iter_slots;		/* entries of each __itN */
	int iter_cap;
	bool is_function;
	struct function_sym *fn;
	struct symbol **syms;		/* locals and params it declares */
	int nsyms, sym_cap;
};

/* What a statistics global collects, from how the script reads it. */
struct cg_stat_use {
	struct symbol *sym;
	enum hist_kind hist;
	bool has_hist;
	int64_t lo, hi, step;
	bool variance;
	int64_t shift;			/* @variance(s, shift) */
};

struct cg {
	struct session *s;
	struct program *prog;
	struct arena *a;
	struct cg_writer w;		/* where bodies go */
	FILE *decls;			/* statics the bodies need, written
					 * before them */
	FILE *body_frames;		/* members of union tap_frame */
	struct cg_stat_use *stats;
	int nstats, stat_cap;
	int nauto;			/* autoprint handlers */
	struct cg_frame *frame;
	struct cg_locks *locks;		/* the handler's, while its body is
					 * generated; NULL otherwise */
	bool alone;			/* generating a begin/end/error
					 * handler (codegen_counters.c) */
	const char *err_label;		/* where a script error jumps */
	const char *out_label;		/* the frame's end */
	int label_seq;
	int static_seq;			/* formats, regexes */
	bool failed;
	/* regexes compiled at init */
	struct cg_regex {
		const char *name, *pattern;
	} *regexes;
	int nregex, regex_cap;
	bool submatches;		/* a function reads the groups of
					 * matches (matched()): every =~
					 * keeps them */
	struct cg_tvar *tvar;		/* codegen_tvar.c's, made on first
					 * use */
	struct cg_table *tables;	/* cg_table_row() */
	int ntables, table_cap;
	const bool *merged;		/* --remote-merge: the globals merged
					 * across hosts, by index; else NULL */
};

/* codegen_tvar.c: context variables, through their provider's hooks. */
const char *cg_target_expr(struct cg *g, struct node *n);
bool cg_is_value_store(const struct node *lhs);
const char *cg_value_store(struct cg *g, struct node *lhs, enum op op,
			   const char *val);

/* codegen.c */
char *cg_fmt(struct cg *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cg_unsupported(struct cg *g, struct node *n, const char *what);
const char *cg_new_label(struct cg *g, const char *stem);
const char *cg_where(struct cg *g, struct loc loc, const char *what);
const char *cg_near(struct cg *g, struct node *n);
const char *cg_c_string(struct cg *g, const char *bytes, size_t len);
const char *cg_unescape(struct cg *g, const char *raw, size_t *len);
const char *cg_global_name(struct symbol *sym);
bool cg_is_stat_array(struct symbol *sym);

/* codegen.c, for the providers' emit hooks: the backend being written;
 * a probe's struct tap_probe initializer ("{ .point = ..., .location =
 * ..., .handler = probe_N }") and its script location as a C string. */
enum backend cg_backend(const struct cg *g);
const char *cg_probe_record(struct cg *g, const struct derived_probe *dp);
const char *cg_probe_location(struct cg *g, const struct derived_probe *dp);
/* `.FIELD = ARRAY, .n_FIELD = N,` in the module descriptor (NULL for no
 * rows). */
void cg_desc_array(struct cg *g, const char *field, const char *array,
		   int n);

/* A table several families fill (the kernel's one tracepoint table holds
 * kernel.trace and kernel.syscall rows): rows are added in any order
 * with a key (the probe's index; rows with equal keys keep their order)
 * and written once, sorted, as `static TYPE ARRAY[] = { rows };`. */
struct cg_table {
	const char *array;
	struct cg_table_row { int key; const char *text; } *rows;
	int n, cap;
};
void cg_table_row(struct cg *g, const char *array, int key, const char *row);
/* Writes the table if it has rows; its row count. */
int cg_table_write(struct cg *g, const char *array, const char *type);

/* codegen_expr.c: C expressions; errors jump to g->err_label. */
const char *cg_expr(struct cg *g, struct node *n);
const char *cg_str_temp(struct cg *g);
const char *cg_raise(struct cg *g, const char *msg, const char *near);
const char *cg_raise_rc(struct cg *g, const char *rc, struct symbol *arr,
			const char *near);
const char *cg_keys_decl(struct cg *g, struct node_list *keys,
			 const char **arr, uint32_t *wildcard);
const char *cg_symbol_ref(struct cg *g, struct symbol *sym);
const char *cg_map_ref(struct cg *g, struct symbol *sym);
struct symbol *cg_array_symbol(struct node *n);
const char *cg_stat_data(struct cg *g, struct node *n);
const char *cg_overflow_msg(struct cg *g, struct symbol *sym);

/* codegen_stmt.c */
void cg_stmt(struct cg *g, struct node *n);
/* Iteration storage for sym's entries in the current frame. */
const char *cg_iter_storage(struct cg *g, struct symbol *sym);

/* codegen_print.c */
const char *cg_print_call(struct cg *g, struct node *n);
const char *cg_static_format(struct cg *g, const char *src, size_t len,
			     unsigned int *nargs, unsigned int *off);

/* codegen_autoprint.c: end handlers printing globals written, never read;
 * how many, their records __tap_auto_N. */
int cg_autoprint(struct cg *g);
/* print(G) of a whole array or statistics global, as autoprint prints. */
const char *cg_print_whole(struct cg *g, struct node *n);

/* Which globals autoprint prints, by index (of the whole program). */
bool *cg_autoprint_wanted(struct cg *g);

/* codegen.c: pass 3 with the globals --remote-merge merges (or NULL). */
bool cg_translate(struct session *s, FILE *out, const bool *merged);

/* codegen_merge.c: --remote-merge's halves.  The merged globals of the
 * program (NULL after reporting a shape it cannot merge); the end-probe
 * program's C (MERGE_LOCAL); the table of the globals that one fills;
 * whether a probe is an end probe (it runs here, not on the hosts). */
bool *cg_merge_remote_plan(struct session *s);
bool cg_merge_translate_local(struct session *s, FILE *out);
void cg_merge_table(struct cg *g);
bool cg_merge_is_end(const struct derived_probe *dp);

/* codegen_builtin.c: a call elaboration bound to a builtin
 * (n->u.call.builtin, sema/builtins.h), as an expression; and the C
 * template of each builtin, NULL if it has none (for the unit test). */
const char *cg_builtin_call(struct cg *g, struct node *n);
const char *cg_builtin_template(enum builtin_id id);

/* codegen_locks.c: the handler's lock table __tap_locks_N and where the
 * body takes it (a C bool __locked in the handler says whether it did). */
struct cg_locks {
	int index, n;
	bool held;			/* surely taken at this point */
};
int cg_lock_table(struct cg *g, struct derived_probe *dp, int index);
void cg_lock_use_entry(struct cg *g, struct symbol *sym, bool reads);
void cg_locks_begin(struct cg *g, struct cg_locks *l, int index, int nlocks);
void cg_locks_end(struct cg *g);
void cg_locks_before_expr(struct cg *g, struct node *n);
void cg_locks_before_stmt(struct cg *g, struct node *n);
bool cg_locks_held(struct cg *g);
void cg_locks_set_held(struct cg *g, bool held);

/* codegen_counters.c: globals that probes only count live in per-CPU
 * counters (sym->cpu_adds; arrays: per-CPU deltas folded where they are
 * read); their reads, stores and counts. */
extern const struct provider provider_begin_end;	/* the probes that
							 * run alone */
void cg_choose_counters(struct cg *g);
bool cg_counter_add_parts(struct node *stmt_expr, struct symbol **sym,
			  struct node **delta, bool *negate);
const char *cg_counter_deltas(struct cg *g, struct symbol *sym);
const char *cg_counter_read(struct cg *g, struct symbol *sym);
const char *cg_scalar_value(struct cg *g, struct symbol *sym);
const char *cg_counter_store(struct cg *g, struct symbol *sym,
			     const char *val);
bool cg_counter_stmt(struct cg *g, struct node *stmt_expr);
void cg_fold_counted_arrays(struct cg *g, struct symbol *only,
			    const char *exit_label);

/* codegen_probe.c */
void cg_frame_note(struct cg *g, struct symbol *sym);
void cg_functions(struct cg *g);
void cg_probes(struct cg *g);
const char *cg_function_call(struct cg *g, struct node *n);

#endif
