/*
 * codegen_int.h -- what the files of pass 3 share: the generator's state
 * and the entry points of each concern (expressions, statements, the print
 * family, probes and functions, builtins). Not for other passes.
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
	struct cg_tvar *tvar;		/* codegen_tvar.c's, made on first
					 * use */
};

/* codegen_kernel.c: the kernel-only probes' callbacks and tables, and
 * their context variables. */
struct cg_kernel_counts {
	int tracepoints, kprobes, profiles;
};
void cg_kernel_tables(struct cg *g, struct cg_kernel_counts *out);
const char *cg_target_expr(struct cg *g, struct node *n);

/* codegen_uprobe.c: user-space probes' tables (always emitted for the
 * kernel target) and their context variables. */
void cg_uprobe_tables(struct cg *g);
const char *cg_uprobe_target_expr(struct cg *g, struct node *n,
				  const struct derived_probe *dp,
				  const struct context_var *cv);

/* codegen_procfs.c: procfs("PATH") files and their $value. */
void cg_procfs_tables(struct cg *g, int *nfiles, int *ndirs);
bool cg_is_procfs_value(const struct node *lhs);
const char *cg_procfs_store(struct cg *g, struct node *lhs, enum op op,
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

/* codegen_expr.c: C expressions; errors jump to g->err_label. */
const char *cg_expr(struct cg *g, struct node *n);
const char *cg_str_temp(struct cg *g);
const char *cg_raise(struct cg *g, const char *msg, const char *near);
const char *cg_keys_decl(struct cg *g, struct node_list *keys,
			 const char **arr, uint32_t *wildcard);
const char *cg_symbol_ref(struct cg *g, struct symbol *sym);
const char *cg_map_ref(struct cg *g, struct symbol *sym);
struct symbol *cg_array_symbol(struct node *n);
const char *cg_stat_data(struct cg *g, struct node *n);
const char *cg_overflow_msg(struct cg *g, struct symbol *sym);

/* codegen_stmt.c */
void cg_stmt(struct cg *g, struct node *n);

/* codegen_print.c */
const char *cg_print_call(struct cg *g, struct node *n);
const char *cg_static_format(struct cg *g, const char *src, size_t len,
			     unsigned int *nargs, unsigned int *off);

/* codegen_autoprint.c: end handlers printing globals written, never read;
 * how many, their records __tap_auto_N. */
int cg_autoprint(struct cg *g);

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

/* codegen_probe.c */
void cg_frame_note(struct cg *g, struct symbol *sym);
void cg_functions(struct cg *g);
void cg_probes(struct cg *g);
const char *cg_function_call(struct cg *g, struct node *n);

#endif
