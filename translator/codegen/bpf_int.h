/*
 * bpf_int.h -- what the files of the BPF backend's pass 3 share
 * (--runtime=bpf; runtime/bpf/README.md has the design).
 *
 * bpf_emit.c writes the BPF C of the kernel-side probes (maps, frames,
 * one program per probe) and decides which probes run where;
 * bpf_expr.c translates their statements and expressions; bpf_user.c
 * writes the user-space half's glue: the print and error tables, the
 * map <-> global copies, the BPF object embedded.  The user-space
 * probes themselves are the user target's codegen (codegen.c), run on
 * the program with only those probes.
 */
#ifndef TAPC_CODEGEN_BPF_INT_H
#define TAPC_CODEGEN_BPF_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "translator/codegen/codegen.h"
#include "translator/providers/provider.h"
#include "translator/sema/sema.h"

/* The BPF value kinds of expressions. */
enum bx { BX_LONG, BX_STR, BX_QSTR, BX_VOID };

struct bval {
	enum bx t;
	const char *c;	/* BX_LONG: an int64_t expression; BX_STR: a char
			 * pointer (a buffer or a literal); BX_QSTR: a
			 * struct tap_bpf_qstr lvalue */
};

/* An argument of a print site, as user space decodes it. */
struct bpf_print_site {
	const char *fmt;	/* printf's format, or NULL for print/println */
	bool newline;		/* println */
	int nargs;
	enum bx *args;
};

struct bpf_error_site {
	const char *msg;	/* "division by 0" */
	const char *near;	/* "operator '/' at f.stp:3:9" */
	bool has_addr;		/* msg is a format with one %llx */
};

/* Nested inline calls deeper than this are refused (the BPF program's
 * size grows with each). */
#define BPF_MAX_INLINE 8
#define BPF_MAX_TRY 8

struct bpf_cg {
	struct session *s;
	struct program *prog;
	struct arena *a;
	bool failed;
	FILE *out;			/* the handlers */
	FILE *frames;			/* frame and record structs */
	int indent;
	int seq;			/* temporaries and labels */
	/* The probe being written, and how its program attaches. */
	struct derived_probe *dp;
	const struct bpf_attach *att;
	/* Why it has no classic tracepoint form, once a read of its
	 * context variables is found that the format record cannot give
	 * (NULL: none so far). */
	const char *classic_why;
	FILE *frame;			/* its frame struct's members */
	int cont;			/* the innermost loop's continue label */
	/* Tables user space gets. */
	/* Script functions being written inline (bpf_call.c), innermost
	 * last: their locals are frame members i<inst>_<n>. */
	struct bpf_inline {
		struct function_sym *fn;
		int inst;		/* this call's frame slots and label */
		int ncb;		/* b->ncb at the call */
	} inl[BPF_MAX_INLINE];
	int ninl;
	/* Inside a foreach callback (bpf_foreach.c): how a handler's
	 * "return 0" (an error, next) is written there instead. */
	const char *abort_stmt;
	/* How the program itself returns once its frame is found: its
	 * verdict (bpf_attach.ret_stmt), NULL for "return 0;". */
	const char *ret_stmt;
	/* break and continue of the innermost loop when it is a foreach
	 * callback's (NULL: a C loop's "break;" and "goto cont<k>;") */
	const char *brk_stmt, *cont_stmt;
	int ncb;			/* foreach callbacks being written */
	/* try bodies being written, innermost last (bpf_try.c) */
	struct bpf_try {
		int k;			/* its catch%d label, try%d_msg */
		int ncb;		/* b->ncb at the try */
	} tries[BPF_MAX_TRY];
	int ntry;
	FILE *callbacks;		/* their text, before the handlers */
	bool has_bpf_loop;		/* the kernel has bpf_loop() (5.17) */
	struct bpf_print_site *prints;
	int nprints, print_cap;
	struct bpf_error_site *errors;
	int nerrors, error_cap;
	/* Kernel-side probes' names, in program order (attach errors). */
	const char **kernel_names;
	const char **kernel_progs;	/* "probe_3" */
	const char **kernel_where;	/* "f.stp:3:1" */
	const struct bpf_attach *kernel_attach;	/* perf events' periods */
	/* A tracepoint probe without a classic form: why (NULL: it has
	 * one, or is no tracepoint). */
	const char **kernel_classic_why;
	int nkernel_names;
	/* Globals a BPF program uses (by symbol index in prog->globals). */
	bool *kernel_global;
	/* Statistics some probe prints with @hist_log (same index). */
	bool *hist_log;
	/* ... with @hist_linear(s, lo, hi, step): those bounds, and the
	 * bucket count runtime/core gives them (0: none). */
	struct bpf_hist_linear {
		int64_t lo, hi, step;
		int buckets;
	} *hist_lin;
	/* Statistics @variance reads, without a histogram: its shift + 1
	 * (0: none; same index). */
	int *variance_shift;
	/* Locals some expression of the probe reads. */
	struct symbol **read_locals;
	int nread;
	/* Locals holding user_string_quoted() (BX_QSTR). */
	struct symbol **qstr_locals;
	int nqstr, qstr_cap;
	/* The kernel's structs and unions typed accesses reach members of,
	 * declared as CO-RE flavors (bpf_emit.c: bpf_core_offset()). */
	struct bpf_flavor {
		const char *name;	/* the kernel's name ("file") */
		bool is_union;
		const struct ta_hop **members;	/* one per member name */
		int nmembers, cap;
	} *flavors;
	int nflavors, flavor_cap;
	int nenums;			/* enumerators of the flavors' enums */
};

/* The placement of every probe, after bpf_split(). */
struct bpf_split {
	struct derived_probe **kernel, **user;
	int nkernel, nuser;
	struct bpf_attach *attach;	/* per kernel probe */
};

/* Pass 3 for --runtime=bpf (build_bpf.c calls these in order). */
bool bpf_split(struct session *s, struct bpf_split *sp);
/* The BPF C of the kernel-side probes; false after reporting. */
bool bpf_emit_kernel(struct bpf_cg *b, const struct bpf_split *sp,
		     FILE *out);
/* The user program's glue, after the user codegen's text; object_key
 * names the BPF object linked beside it (a comment: it makes the key of
 * the program's cache entry depend on the object). */
void bpf_emit_user_glue(struct bpf_cg *b, FILE *out, const char *object_key);

void bpf_emit_globals_struct(struct bpf_cg *b, FILE *out);

/* bpf_emit.c: a C expression for the offset of `hop`'s member that
 * libbpf relocates at load against the running kernel's BTF (CO-RE),
 * its container declared as a flavor; NULL when it cannot be one (the
 * caller adds hop->offset as a constant). */
const char *bpf_core_offset(struct bpf_cg *b, const struct ta_hop *hop);

/* bpf_expr.c */
void bpf_line(struct bpf_cg *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *bpf_fmt(struct bpf_cg *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bpf_refuse(struct bpf_cg *b, struct node *n, const char *what);
void bpf_stmt(struct bpf_cg *b, struct node *n);
struct bval bpf_expr(struct bpf_cg *b, struct node *n);
bool bpf_is_qstr_local(struct bpf_cg *b, struct symbol *sym);
bool bpf_is_read_local(struct bpf_cg *b, struct symbol *sym);
const char *bpf_global_map(struct bpf_cg *b, struct symbol *sym);
const char *bpf_key_type(struct bpf_cg *b, struct symbol *sym);
const char *bpf_value_type(struct bpf_cg *b, struct symbol *sym);
bool bpf_uses_hist_log(struct bpf_cg *b, struct symbol *sym);
int bpf_variance_shift(struct bpf_cg *b, struct symbol *sym);
const struct bpf_hist_linear *bpf_hist_linear(struct bpf_cg *b,
					      struct symbol *sym);
const char *bpf_stat_adder(struct bpf_cg *b, struct symbol *sym);
const char *bpf_abort(struct bpf_cg *b);
const char *bpf_new_long_temp(struct bpf_cg *b, const char *init);
const char *bpf_new_str_temp(struct bpf_cg *b);
struct bval bpf_as_long(struct bpf_cg *b, struct node *n);
const char *bpf_as_str(struct bpf_cg *b, struct node *n);

const char *bpf_near(struct bpf_cg *b, struct node *n);
/* an error that ends the handler even inside a try (MAXACTION) */
void bpf_raise_uncaught(struct bpf_cg *b, const char *msg, struct node *n);
/* an expression for its effect, or a statement (a for's init and step) */
void bpf_expr_or_stmt(struct bpf_cg *b, struct node *n);
/* one round of while/for: the MAXACTION count (__acts), the test
 * (false: stop), the body (continue: goto contK), the step */
void bpf_loop_round(struct bpf_cg *b, struct node *n, const char *stop,
		    struct node *cond, struct node *step, struct node *body,
		    int k);
void bpf_mark_kernel_global(struct bpf_cg *b, struct symbol *sym);

/* bpf_sprintf.c: sprintf/sprint/sprintln through bpf_snprintf() */
struct bval bpf_sprintf(struct bpf_cg *b, struct node *n);

/* bpf_try.c: an error inside a try goes to its catch (false: not in
 * a try this C function can reach; report it) */
bool bpf_try_catch(struct bpf_cg *b, const char *msg, const char *addr);
void bpf_try(struct bpf_cg *b, struct node *n);

/* bpf_callback.c: a loop body as a static callback function, its text
 * kept apart until bpf_callback_end() */
struct bpf_callback {
	FILE *out;
	int indent, cont;
	const char *abort_stmt, *brk_stmt, *cont_stmt;
	char *text;
	size_t len;
};
/* head: the function's comment and signature, up to its '{' */
void bpf_callback_begin(struct bpf_cg *b, struct bpf_callback *cb,
			const char *head);
void bpf_callback_end(struct bpf_cg *b, struct bpf_callback *cb);

/* bpf_foreach.c */
void bpf_foreach(struct bpf_cg *b, struct node *n);

/* bpf_loop.c: while/for as a bpf_loop() callback where the kernel has
 * it and the loop can be one (false: nothing written; the caller writes
 * a C loop the verifier walks round by round) */
bool bpf_loop_callback(struct bpf_cg *b, struct node *n, struct node *cond,
		       struct node *step, struct node *body);

/* bpf_effect.c: what computing n could do beyond giving its value,
 * for leaving out a store of it nobody reads */
enum bpf_effect {
	BPF_PURE,	/* nothing: the store may go */
	BPF_FAILS,	/* raise a script error (a fault, '/' by zero) */
	BPF_ACTS,	/* have an effect (a store, a print, exit()) */
};
enum bpf_effect bpf_effect_of(struct node *n);

/* bpf_call.c: script functions written inline at each call */
bool bpf_is_script_function(const struct function_sym *fn);
struct bval bpf_call_script(struct bpf_cg *b, struct node *n);
void bpf_return(struct bpf_cg *b, struct node *n);
const char *bpf_inline_local(struct bpf_cg *b, struct symbol *sym);

#endif
