/*
 * ast.h -- the syntax tree of a SystemTap script.
 *
 * Every construct is a `struct node`: a kind, a source location set at birth
 * by the constructor, a type slot filled by elaboration, and a union of named
 * sub-structs, one per kind. Lists are arena-owned arrays (`struct
 * node_list`). Passes walk the tree with a switch on `kind`, or with
 * ast_walk() when they only care about a few kinds.
 *
 * Literal strings keep their escapes as written (`"a\n"` holds a backslash
 * and an 'n'); adjacent literals are joined at parse time. Command-line
 * arguments ($1, @1, $#, @#) are substituted by the preprocessor, so they
 * never appear here.
 */
#ifndef TAPC_PARSE_AST_H
#define TAPC_PARSE_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/common/arena.h"
#include "translator/common/diag.h"

enum node_kind {
	/* top level */
	N_PROBE,	/* probe P1, P2 { body } */
	N_ALIAS,	/* probe NAME = P1, P2 { prologue } / += epilogue */
	N_FUNCTION,	/* function NAME:type(params) { } or %{ %} */
	N_GLOBAL,	/* global NAME[size]% = init */
	N_EMBED,	/* top-level %{ ... %} */
	N_PROBE_POINT,	/* a.b("x").c? if (cond) */

	/* statements */
	N_BLOCK,
	N_NULL_STMT,	/* ; */
	N_EXPR_STMT,
	N_IF,
	N_WHILE,
	N_FOR,
	N_FOREACH,
	N_BREAK,
	N_CONTINUE,
	N_NEXT,
	N_RETURN,
	N_DELETE,
	N_TRY,

	/* expressions */
	N_NUMBER,
	N_STRING,
	N_SYMBOL,	/* a local, a global, an array's name */
	N_TARGET,	/* $var, $$vars, &$var->a[2]$ */
	N_CAST,		/* @cast(expr, "type"[, "module"])->... */
	N_ATVAR,	/* @var("name@file"[, "module"])->... */
	N_AUTOCAST,	/* expr->member, (expr)[i]: typed later by inference */
	N_ENTRY,	/* @entry(expr) */
	N_DEFINED,	/* @defined(expr) */
	N_PROBEWRITE,	/* @probewrite(var) */
	N_PERF,		/* @perf("name") */
	N_REGISTER,	/* @kregister(n), @uregister(n) */
	N_DEREF,	/* @kderef(size, addr), @uderef(size, addr) */
	N_CONST,	/* @const("C_EXPRESSION"): library and guru code */
	N_EMBEDDED_EXPR,/* %{ code %} used as a value (guru mode) */
	N_UNARY,	/* - + ! ~ */
	N_CREMENT,	/* ++x x++ --x x-- */
	N_BINARY,	/* arithmetic, bitwise, shift, '.' concatenation */
	N_COMPARE,	/* == != < <= > >= */
	N_REGEX,	/* =~ !~ */
	N_LOGICAL,	/* && || */
	N_TERNARY,
	N_ASSIGN,	/* = += ... .= and <<< */
	N_IN,		/* [k1, k2] in arr */
	N_INDEX,	/* arr[k1, k2], @hist_log(s)[3]; a NULL key is '*' */
	N_CALL,		/* name(args); print/printf family included */
	N_STAT_OP,	/* @count @sum @min @max @avg @variance */
	N_HIST,		/* @hist_log(s), @hist_linear(s, lo, hi, step) */

	N_KIND_COUNT
};

enum op {
	OP_NONE,
	/* arithmetic and bitwise */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_SHL, OP_SHR,
	OP_BAND, OP_BOR, OP_BXOR, OP_CONCAT,
	/* unary */
	OP_NEG, OP_PLUS, OP_NOT, OP_BNOT, OP_ADDR,
	/* comparison, regex, logic */
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_MATCH, OP_NOMATCH, OP_ANDAND, OP_OROR,
	/* crement */
	OP_INC, OP_DEC,
	/* assignment */
	OP_ASSIGN, OP_ADD_ASSIGN, OP_SUB_ASSIGN, OP_MUL_ASSIGN,
	OP_DIV_ASSIGN, OP_MOD_ASSIGN, OP_SHL_ASSIGN, OP_SHR_ASSIGN,
	OP_AND_ASSIGN, OP_OR_ASSIGN, OP_XOR_ASSIGN, OP_CONCAT_ASSIGN,
	OP_STAT_ADD,	/* <<< */
	/* statistics */
	OP_COUNT, OP_SUM, OP_MIN, OP_MAX, OP_AVG, OP_VARIANCE,
	OP_COUNT_
};

/* Spelling of an operator as written in scripts ("+=", "@count"). */
const char *op_spelling(enum op op);

/* Value types, filled in by elaboration. */
enum type {
	TY_UNKNOWN, TY_LONG, TY_STRING, TY_STATS, TY_VOID
};
const char *type_name(enum type t);

struct node;
struct symbol;
struct function_sym;
struct context_var;
struct builtin;
struct ta_access;
struct ta_vtype;

struct node_list {
	struct node **v;
	int n, cap;
};

/* One component of a probe point: name("arg"). */
struct pp_component {
	const char *name;	/* may hold '*' wildcards, "**" */
	struct node *arg;	/* N_NUMBER, N_STRING, or NULL */
	struct loc loc;
};

/* A step after a target variable: ->name, [index], or a pretty suffix. */
enum target_step_kind { STEP_MEMBER, STEP_INDEX };
struct target_step {
	enum target_step_kind kind;
	const char *member;
	struct node *index;
	struct loc loc;
};

/* Steps shared by $var, @cast and @var. */
struct target_path {
	struct target_step *steps;
	int nsteps, cap;
	int pretty;		/* 0, 1 for `$`, 2 for `$$` */
	bool addr_of;		/* leading & */
};

enum hist_kind { HIST_LOG, HIST_LINEAR };
enum sort_dir { SORT_NONE = 0, SORT_ASC = 1, SORT_DESC = -1 };

struct node {
	enum node_kind kind;
	struct loc loc;
	enum type type;
	union {
		struct {
			struct node_list points;	/* N_PROBE_POINT */
			struct node *body;		/* N_BLOCK */
		} probe;
		struct {
			struct node_list names;		/* N_PROBE_POINT */
			struct node_list points;
			struct node *body;
			bool epilogue;			/* += */
			struct node *epilogue_body;	/* = P { pro }, { epi } */
		} alias;
		struct {
			const char *name;
			enum type ret;
			struct node_list params;	/* N_SYMBOL, typed */
			struct node *body;		/* N_BLOCK or NULL */
			const char *embedded;		/* %{ %} text */
			bool is_private;
			bool pure, unprivileged, guru, unmangled;
			bool submatches;	/* reads the last =~ match's
						 * groups: they are kept */
		} function;
		struct {
			const char *name;
			long size;		/* [N]; 0 = not given */
			bool wrap;		/* % */
			bool is_private;
			struct node *init;	/* literal or NULL */
		} global;
		struct {
			const char *code;
		} embed;
		struct {
			struct pp_component *comps;
			int ncomps, cap;
			bool optional;		/* ? */
			bool sufficient;	/* ! */
			struct node *cond;	/* if (cond) or NULL */
		} point;
		struct {
			struct node_list stmts;
		} block;
		struct {
			struct node *expr;
		} expr_stmt;
		struct {
			struct node *cond, *then_stmt, *else_stmt;
		} if_stmt;
		struct {
			struct node *cond, *body;
		} while_stmt;
		struct {
			struct node *init, *cond, *step, *body; /* any NULL */
		} for_stmt;
		struct {
			struct node *value;	/* v in `v = [k] in a`, or NULL */
			struct node_list keys;	/* N_SYMBOL */
			bool keys_bracketed;	/* written as [k] */
			struct node *array;	/* N_SYMBOL, N_INDEX (slice), N_HIST */
			int sort_column;	/* 0 value, 1..n key, -1 none */
			enum sort_dir sort_dir;
			bool sort_on_array;	/* written `a+` not `v+` */
			enum op sort_aggr;	/* stats@count+: OP_COUNT.. */
			struct node *limit;
			struct node *body;
		} foreach;
		struct {
			struct node *value;	/* may be NULL */
		} ret;
		struct {
			struct node *target;
		} del;
		struct {
			struct node *body;
			struct node *catch_var;	/* N_SYMBOL or NULL */
			struct node *handler;
		} try_stmt;
		struct {
			uint64_t value;
			const char *text;	/* as written: 0x1f, 017, 42 */
		} number;
		struct {
			const char *raw;	/* contents between the quotes */
		} string;
		struct {
			const char *name;
			enum type decl_type;	/* param type annotation */
			struct symbol *sym;	/* bound by elaboration */
		} symbol;
		struct {
			const char *name;	/* "$var", "$$vars", "$$return" */
			struct target_path path;
			struct context_var *cv;	/* bound by elaboration */
			struct ta_access *access;/* how to read it, bound by
						  * elaboration, or NULL */
		} target;
		struct {
			struct node *operand;
			const char *type_name;	/* N_STRING raw text */
			const char *module;	/* or NULL */
			struct target_path path;
			struct ta_access *access;/* bound by elaboration */
		} cast;
		struct {
			const char *name;	/* "name@file" */
			const char *module;
			struct target_path path;
			struct ta_access *access;/* bound by elaboration */
		} atvar;
		struct {
			struct node *operand;
			struct target_path path;
			struct ta_access *access;/* bound by type inference */
			struct ta_vtype *vtype;	/* the operand's type then */
		} autocast;
		struct {
			const char *name;	/* @entry, @defined, ... */
			struct node_list args;
		} atop;			/* N_ENTRY .. N_DEREF */
		struct {
			const char *code;
		} embedded_expr;
		struct {
			enum op op;
			struct node *operand;
		} unary;
		struct {
			enum op op;
			bool prefix;
			struct node *operand;
		} crement;
		struct {
			enum op op;
			struct node *lhs, *rhs;
		} binary;		/* N_BINARY N_COMPARE N_REGEX N_LOGICAL
					 * N_ASSIGN */
		struct {
			struct node *cond, *then_expr, *else_expr;
		} ternary;
		struct {
			struct node_list keys;	/* NULL entry = '*' */
			bool bracketed;		/* [k] in a, not k in a */
			struct node *array;	/* N_SYMBOL or N_HIST */
		} in;
		struct {
			struct node *base;	/* N_SYMBOL or N_HIST */
			struct node_list keys;	/* NULL entry = '*' */
		} index;
		struct {
			const char *name;
			struct node_list args;
			struct function_sym *fn;/* bound by elaboration; NULL
						 * for the print family */
			/* else bound by elaboration to a function pass 3
			 * writes inline (sema/builtins.h) */
			const struct builtin *builtin;
		} call;
		struct {
			enum op op;
			struct node *operand;
			struct node *shift;	/* @variance(s, shift) */
		} stat;
		struct {
			enum hist_kind kind;
			struct node *operand;
			struct node *lo, *hi, *step;
		} hist;
	} u;
};

/* The result of parsing one file. */
struct file_ast {
	const struct source *src;
	struct node_list items;	/* probes, aliases, functions, globals, embeds,
				 * in source order */
};

/* Constructors: zeroed node of `kind` at `loc`. */
struct node *ast_new(struct arena *a, enum node_kind kind, struct loc loc);
void ast_list_push(struct arena *a, struct node_list *l, struct node *n);
void ast_path_push(struct arena *a, struct target_path *p,
		   struct target_step step);
void ast_point_push(struct arena *a, struct node *point,
		    struct pp_component comp);

/*
 * Generic walk: `pre` is called before a node's children (return false to
 * skip them), `post` after. Either may be NULL.
 */
typedef bool (*ast_visit_fn)(struct node *n, void *ctx);
void ast_walk(struct node *n, ast_visit_fn pre, ast_visit_fn post, void *ctx);

const char *ast_kind_name(enum node_kind kind);

/* A deep copy (nodes, lists, paths; strings shared). NULL gives NULL. */
struct node *ast_clone(struct arena *a, const struct node *n);

#endif
