/*
 * parse_build.h -- the parser's state and the node builders its grammar
 * actions call. Private to pass 1 (grammar.y, parse_build.c, parse.c).
 *
 * Builders check what the grammar cannot: number ranges, lvalues, the
 * arity and argument kinds of @-operators, guru-only embedded code. They
 * report errors and still return a node, so parsing goes on.
 */
#ifndef TAPC_PARSE_PARSE_BUILD_H
#define TAPC_PARSE_PARSE_BUILD_H

#include "translator/parse/ast.h"
#include "translator/parse/lex.h"
#include "translator/driver/session.h"

struct preproc;
struct name_index;

/* Where a foreach sort marker was written. */
struct sort_mark {
	struct node *node;
	int dir;
	struct loc loc;
};

struct parser {
	struct session *s;
	struct preproc *pre;
	struct file_ast *file;
	bool is_private;		/* the current decl began 'private' */
	bool embedded_ok;		/* tapset file or -g */
	struct loc *braces;		/* open '{' locations */
	int nbraces, cap_braces;
	struct sort_mark marks[16];
	int nmarks;
	enum op sort_aggr;		/* stats@count+ in the current foreach */
	struct node **hist_ok;		/* @hist_* nodes in allowed places */
	int nhist_ok, cap_hist_ok;
	struct name_index *functions;	/* this file's, by name (made on
					 * first use) */
};

/* The foreach head as it is being parsed. */
struct fe_vars {
	struct node *value;
	struct node_list keys;
	bool bracketed;
};

void parser_saw_token(struct parser *p, const struct token *t);
void parser_syntax_error(struct parser *p, struct loc at, const char *got,
			 bool at_end, const char **expected, int nexpected);
void yyerror(struct loc *loc, struct parser *p, const char *msg);
/* Mark a histogram node as used where histograms may be (printed,
 * indexed, iterated); the others are reported after the parse. */
void parser_allow_hist(struct parser *p, struct node *hist);
bool parser_hist_allowed(const struct parser *p, const struct node *hist);

void build_probe(struct parser *p, struct loc at, struct node_list *points,
		 struct node *body);
struct node *build_alias(struct parser *p, struct loc at,
			 struct node_list *names, struct node_list *points,
			 struct node *body, bool epilogue);
struct node *build_function(struct parser *p, struct loc at,
			    const struct token *name, int ret,
			    struct node_list *params, int is_private);
void build_function_embedded(struct parser *p, struct node *fn,
			     const struct token *code);
void build_top_embed(struct parser *p, const struct token *code);
struct node *build_global(struct parser *p, const struct token *name,
			  int wrap, int size, struct node *init);
int build_array_size(struct parser *p, const struct token *num);
int build_type_name(struct parser *p, const struct token *name);

struct node *build_point(struct parser *p, struct loc at,
			 const struct pp_component *first);
struct node_list build_points_append(struct parser *p, struct node_list *a,
				     struct node_list *b);
struct node_list build_points_product(struct parser *p, struct node_list *a,
				      struct node_list *b);
struct node_list build_points_finish(struct parser *p, struct node_list *l,
				     int flag, struct node *cond);
struct pp_component build_component(struct parser *p,
				    const struct token *name,
				    struct node *arg);
struct token build_join_name(struct parser *p, const struct token *a,
			     const struct token *b);

struct node *build_block(struct parser *p, struct loc at,
			 struct node_list *stmts);
struct node *build_if(struct parser *p, struct loc at, struct node *cond,
		      struct node *then_stmt, struct node *else_stmt);
struct node *build_while(struct parser *p, struct loc at, struct node *cond,
			 struct node *body);
struct node *build_for(struct parser *p, struct loc at, struct node *init,
		       struct node *cond, struct node *step,
		       struct node *body);
struct node *build_try(struct parser *p, struct loc at, struct node *body,
		       struct node *var, struct node *handler);
struct node *build_expr_stmt(struct parser *p, struct node *expr);
struct node *build_return(struct parser *p, struct loc at,
			  struct node *value);
struct node *build_delete(struct parser *p, struct loc at,
			  struct node *target);

struct fe_vars *fe_new(struct parser *p);
void fe_add_key(struct parser *p, struct fe_vars *fe, struct node *key);
void fe_set_value(struct parser *p, struct fe_vars *fe, struct node *value);
void fe_note_sort(struct parser *p, struct node *n, int dir);
void fe_note_aggregate(struct parser *p, const struct token *at);
struct node *build_foreach(struct parser *p, struct fe_vars *fe,
			   struct node *array, struct node *limit);

struct node *build_number(struct parser *p, const struct token *t,
			  bool negative);
struct node *build_string(struct parser *p, const struct token *t);
struct node *build_join_string(struct parser *p, struct node *s,
			       const struct token *t);
struct node *build_symbol(struct parser *p, const struct token *t);
struct node *build_call(struct parser *p, const struct token *name,
			struct node_list *args);
struct node *build_index(struct parser *p, struct node *base,
			 struct node_list *keys);
struct node *build_in(struct parser *p, struct node *key, bool bracketed,
		      struct node *array, struct loc at);
struct node *build_in_tuple(struct parser *p, struct loc at,
			    struct node_list *keys, struct node *array);
struct node *build_target(struct parser *p, const struct token *t);
struct node *build_at(struct parser *p, const struct token *t,
		      struct node_list *args);
struct node *build_embedded_expr(struct parser *p, const struct token *t);
struct node *build_member(struct parser *p, struct node *value,
			  const struct token *member, struct loc at);
struct node *build_subscript(struct parser *p, struct node *value,
			     struct node *index, struct loc at);
struct node *build_pretty(struct parser *p, struct node *value, int pretty,
			  struct loc at);
struct node *build_paren(struct parser *p, struct node *expr);

struct node *build_assign(struct parser *p, enum op op, struct node *lhs,
			  struct node *rhs, struct loc at);
struct node *build_ternary(struct parser *p, struct node *cond,
			   struct node *a, struct node *b);
struct node *build_binary(struct parser *p, enum node_kind kind, enum op op,
			  struct node *lhs, struct node *rhs, struct loc at);
struct node *build_unary(struct parser *p, enum op op, struct node *operand,
			 struct loc at);
struct node *build_addr_of(struct parser *p, struct node *operand,
			   struct loc at);
struct node *build_crement(struct parser *p, enum op op, bool prefix,
			   struct node *operand, struct loc at);

#endif
