/*
 * grammar.y -- the SystemTap script grammar (pure bison, with locations).
 *
 * Tokens come from the preprocessor (preproc.c); the actions only build
 * nodes through the helpers of parse_build.h, which also check what the
 * grammar cannot say (lvalues, @-operator arities, guru-only constructs).
 * Precedence, from loosest to tightest, follows SystemTap:
 *   = op= <<<  ?:  ||  &&  |  ^  &  in  == != < <= > >= =~ !~  << >>
 *   .  + -  * / %  unary  ++ --
 * Statements need no ';' between them; an expression statement takes a
 * following ';' as its own, so `x = 1;` is one statement, not two.
 */
%code top {
/* bison's own code is not held to our warning list */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
}

%code requires {
#include "translator/parse/ast.h"
#include "translator/parse/lex.h"
struct parser;
struct fe_vars;
/* A node's location is where its first token starts. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)					\
	do {								\
		if (N)							\
			(Cur) = YYRHSLOC(Rhs, 1);			\
		else							\
			(Cur) = YYRHSLOC(Rhs, 0);			\
	} while (0)
}

%code {
#include <stdio.h>
#include <string.h>

#include "translator/parse/parse_build.h"
#include "translator/parse/preproc.h"

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p);
}

%define api.pure full
%define api.location.type {struct loc}
%define parse.error custom
%locations
%param {struct parser *p}

%union {
	struct token tok;
	struct node *node;
	struct node_list list;
	struct target_path path;
	struct pp_component comp;
	struct fe_vars *fev;
	int num;
}

%token YYEOF 0 "end of input"
%token <tok> IDENT "identifier" NUMBER "number" STRING "string"
%token <tok> TVAR "target variable" ATNAME "@-operator"
%token <tok> EMBEDDED "embedded code"
%token <tok> DOLLAR "'$'" DOLLAR2 "'$$'"
%token <tok> ARGREF "'$N'" ARGSTR "'@N'" ARGC "'$#'" ARGCS "'@#'"
%token <tok> PP_IF "'%('" PP_THEN "'%?'" PP_ELSE "'%:'" PP_END "'%)'"
%token <tok> PROBE "'probe'" GLOBAL "'global'" FUNCTION "'function'"
%token <tok> PRIVATE "'private'" IF "'if'" ELSE "'else'" WHILE "'while'"
%token <tok> FOR "'for'" FOREACH "'foreach'" IN "'in'" LIMIT "'limit'"
%token <tok> BREAK "'break'" CONTINUE "'continue'" NEXT "'next'"
%token <tok> RETURN "'return'" DELETE "'delete'" TRY "'try'"
%token <tok> CATCH "'catch'"
%token <tok> STAT_ADD "'<<<'" SHL_ASSIGN "'<<='" SHR_ASSIGN "'>>='"
%token <tok> SHL "'<<'" SHR "'>>'" ARROW "'->'" INC "'++'" DEC "'--'"
%token <tok> ADD_ASSIGN "'+='" SUB_ASSIGN "'-='" MUL_ASSIGN "'*='"
%token <tok> DIV_ASSIGN "'/='" MOD_ASSIGN "'%='" AND_ASSIGN "'&='"
%token <tok> OR_ASSIGN "'|='" XOR_ASSIGN "'^='" CONCAT_ASSIGN "'.='"
%token <tok> EQ "'=='" NE "'!='" LE "'<='" GE "'>='" ANDAND "'&&'"
%token <tok> OROR "'||'" MATCH "'=~'" NOMATCH "'!~'"
%token <tok> '-' '+' '*' '/' '%' '&' '|' '^' '~' '!' '<' '>' '?' ':' '.'
%token <tok> ',' ';' '=' '(' ')' '{' '}' '[' ']'

%precedence LOW_STMT
%precedence ';'
%precedence LOWER_THAN_ELSE
%precedence ELSE
%right '=' ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN SHL_ASSIGN
       SHR_ASSIGN AND_ASSIGN OR_ASSIGN XOR_ASSIGN CONCAT_ASSIGN STAT_ADD
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%precedence IN
%left EQ NE '<' LE '>' GE MATCH NOMATCH
%left SHL SHR
%left '.'
%left '+' '-'
%left '*' '/' '%'
%precedence LOW_PRIMARY
%precedence INC DEC
%precedence '(' '[' STRING IDENT NUMBER TVAR ATNAME EMBEDDED '!' '~'

%type <node> pp_arg pp_cond block stmt simple opt_expr expr
%type <node> unary postfix value primary strings literal opt_ginit fe_array opt_limit
%type <node> function_head param global_one
%type <list> pp pp_seq pp_elem pp_alts pp_list opt_args args index_keys stmts opt_params params
%type <tok> pp_name pp_word member_name
%type <comp> pp_comp
%type <num> pp_flag opt_sort opt_type opt_private opt_wrap
%type <num> opt_size
%type <fev> fe_vars fe_var_list
%type <node> fe_var index_key foreach_head

%%

file:
	  %empty
	| file item
	;

item:
	  PROBE pp_list block		{ build_probe(p, @1, &$2, $3); }
	| PROBE pp_list '=' pp_list block
					{ build_alias(p, @1, &$2, &$4, $5, false); }
	| PROBE pp_list '=' pp_list block ',' block
					{ build_alias(p, @1, &$2, &$4, $5, false)
						->u.alias.epilogue_body = $7; }
	| PROBE pp_list ADD_ASSIGN pp_list block
					{ build_alias(p, @1, &$2, &$4, $5, true); }
	| function_head block		{ $1->u.function.body = $2; }
	| function_head EMBEDDED	{ build_function_embedded(p, $1, &$2); }
	| opt_private GLOBAL global_list opt_semi
	| PRIVATE { p->is_private = true; } global_list opt_semi
	| EMBEDDED			{ build_top_embed(p, &$1); }
	| error
	;

opt_private:
	  %empty			{ $$ = 0; p->is_private = false; }
	| PRIVATE			{ $$ = 1; p->is_private = true; }
	;

opt_semi:
	  %empty
	| ';'
	;

/* ---- probe points ---- */

pp_list:
	  pp
	| pp_list ',' pp		{ $$ = build_points_append(p, &$1, &$3); }
	;

/* One written probe point; {a,b} alternatives make it several. */
pp:
	  pp_seq pp_flag pp_cond	{ $$ = build_points_finish(p, &$1, $2, $3); }
	;

pp_seq:
	  pp_elem
	| pp_seq '.' pp_elem		{ $$ = build_points_product(p, &$1, &$3); }
	;

pp_elem:
	  pp_comp			{ $$ = (struct node_list){0};
					  ast_list_push(p->s->arena, &$$, build_point(p, @1, &$1)); }
	| '{' pp_alts '}'		{ $$ = $2; }
	;

/* An alternative may end in its own '?', '!' or condition when nothing
 * follows the braces: kernel.{trace("a")!, trace("b")}. */
pp_alts:
	  pp
	| pp_alts ',' pp		{ $$ = build_points_append(p, &$1, &$3); }
	;

pp_comp:
	  pp_name			{ $$ = build_component(p, &$1, NULL); }
	| pp_name '(' pp_arg ')'	{ $$ = build_component(p, &$1, $3); }
	;

pp_name:
	  pp_word
	| pp_name pp_word		{ $$ = build_join_name(p, &$1, &$2); }
	;

pp_word:
	  IDENT | '*' | PROBE | GLOBAL | FUNCTION | PRIVATE | ELSE | WHILE
	| FOR | FOREACH | IN | LIMIT | BREAK | CONTINUE | NEXT | RETURN
	| DELETE | TRY | CATCH
	;

pp_arg:
	  literal
	;

pp_flag:
	  %empty			{ $$ = 0; }
	| '?'				{ $$ = 1; }
	| '!'				{ $$ = 2; }
	;

pp_cond:
	  %empty			{ $$ = NULL; }
	| IF '(' expr ')'		{ $$ = $3; }
	;

literal:
	  NUMBER			{ $$ = build_number(p, &$1, false); }
	| '-' NUMBER			{ $$ = build_number(p, &$2, true); }
	| strings
	;

/* ---- functions and globals ---- */

function_head:
	  opt_private FUNCTION IDENT opt_type '(' opt_params ')'
					{ $$ = build_function(p, @2, &$3, $4, &$6, $1); }
	;

opt_type:
	  %empty			{ $$ = TY_UNKNOWN; }
	| ':' IDENT			{ $$ = build_type_name(p, &$2); }
	;

opt_params:
	  %empty			{ $$ = (struct node_list){0}; }
	| params
	;

params:
	  param				{ $$ = (struct node_list){0};
					  ast_list_push(p->s->arena, &$$, $1); }
	| params ',' param		{ $$ = $1; ast_list_push(p->s->arena, &$$, $3); }
	;

param:
	  IDENT opt_type		{ $$ = build_symbol(p, &$1);
					  $$->u.symbol.decl_type = $2; }
	;

global_list:
	  global_one
	| global_list ',' global_one
	;

global_one:
	  IDENT opt_wrap opt_size opt_ginit
					{ $$ = build_global(p, &$1, $2, $3, $4); }
	;

opt_wrap:
	  %empty			{ $$ = 0; }
	| '%'				{ $$ = 1; }
	;

opt_size:
	  %empty			{ $$ = 0; }
	| '[' NUMBER ']'		{ $$ = build_array_size(p, &$2); }
	;

opt_ginit:
	  %empty			{ $$ = NULL; }
	| '=' literal			{ $$ = $2; }
	;

/* ---- statements ---- */

block:
	  '{' stmts '}'			{ $$ = build_block(p, @1, &$2); }
	| '{' stmts error '}'		{ $$ = build_block(p, @1, &$2); }
	;

stmts:
	  %empty			{ $$ = (struct node_list){0}; }
	| stmts stmt			{ $$ = $1; if ($2) ast_list_push(p->s->arena, &$$, $2); }
	;

stmt:
	  block
	| ';'				{ $$ = ast_new(p->s->arena, N_NULL_STMT, @1); }
	| simple %prec LOW_STMT
	| simple ';'
	| IF '(' expr ')' stmt %prec LOWER_THAN_ELSE
					{ $$ = build_if(p, @1, $3, $5, NULL); }
	| IF '(' expr ')' stmt ELSE stmt
					{ $$ = build_if(p, @1, $3, $5, $7); }
	| WHILE '(' expr ')' stmt	{ $$ = build_while(p, @1, $3, $5); }
	| FOR '(' opt_expr ';' opt_expr ';' opt_expr ')' stmt
					{ $$ = build_for(p, @1, $3, $5, $7, $9); }
	| FOREACH '(' foreach_head ')' stmt
					{ $$ = $3; $$->loc = @1; $$->u.foreach.body = $5; }
	| TRY block CATCH block		{ $$ = build_try(p, @1, $2, NULL, $4); }
	| TRY block CATCH '(' IDENT ')' block
					{ $$ = build_try(p, @1, $2, build_symbol(p, &$5), $7); }
	| error ';'			{ $$ = NULL; }
	;

simple:
	  expr %prec LOW_STMT		{ $$ = build_expr_stmt(p, $1); }
	| BREAK				{ $$ = ast_new(p->s->arena, N_BREAK, @1); }
	| CONTINUE			{ $$ = ast_new(p->s->arena, N_CONTINUE, @1); }
	| NEXT				{ $$ = ast_new(p->s->arena, N_NEXT, @1); }
	| RETURN %prec LOW_STMT		{ $$ = build_return(p, @1, NULL); }
	| RETURN expr %prec LOW_STMT	{ $$ = build_return(p, @1, $2); }
	| DELETE expr %prec LOW_STMT	{ $$ = build_delete(p, @1, $2); }
	;

opt_expr:
	  %empty			{ $$ = NULL; }
	| expr
	;

foreach_head:
	  fe_vars IN fe_array opt_limit	{ $$ = build_foreach(p, $1, $3, $4); }
	;

fe_vars:
	  fe_var			{ $$ = fe_new(p); fe_add_key(p, $$, $1); }
	| '[' fe_var_list ']'		{ $$ = $2; $$->bracketed = true; }
	| fe_var '=' fe_var		{ $$ = fe_new(p); fe_set_value(p, $$, $1);
					  fe_add_key(p, $$, $3); }
	| fe_var '=' '[' fe_var_list ']'
					{ $$ = $4; $$->bracketed = true;
					  fe_set_value(p, $$, $1); }
	;

fe_var_list:
	  fe_var			{ $$ = fe_new(p); fe_add_key(p, $$, $1); }
	| fe_var_list ',' fe_var	{ $$ = $1; fe_add_key(p, $$, $3); }
	;

fe_var:
	  IDENT opt_sort		{ $$ = build_symbol(p, &$1);
					  fe_note_sort(p, $$, $2); }
	;

opt_sort:
	  %empty			{ $$ = SORT_NONE; }
	| '+'				{ $$ = SORT_ASC; }
	| '-'				{ $$ = SORT_DESC; }
	;

fe_array:
	  IDENT opt_aggr opt_sort	{ $$ = build_symbol(p, &$1);
					  fe_note_sort(p, $$, $3); }
	| IDENT '[' index_keys ']' opt_aggr opt_sort
					{ $$ = build_index(p, build_symbol(p, &$1), &$3);
					  fe_note_sort(p, $$, $6); }
	| ATNAME '(' opt_args ')' opt_sort
					{ $$ = build_at(p, &$1, &$3);
					  fe_note_sort(p, $$, $5); }
	;

/* stats@count+ : which statistic a foreach over statistics sorts by */
opt_aggr:
	  %empty
	| ATNAME			{ fe_note_aggregate(p, &$1); }
	;

opt_limit:
	  %empty			{ $$ = NULL; }
	| LIMIT expr			{ $$ = $2; }
	;

/* ---- expressions ---- */

expr:
	  expr '=' expr			{ $$ = build_assign(p, OP_ASSIGN, $1, $3, @2); }
	| expr ADD_ASSIGN expr		{ $$ = build_assign(p, OP_ADD_ASSIGN, $1, $3, @2); }
	| expr SUB_ASSIGN expr		{ $$ = build_assign(p, OP_SUB_ASSIGN, $1, $3, @2); }
	| expr MUL_ASSIGN expr		{ $$ = build_assign(p, OP_MUL_ASSIGN, $1, $3, @2); }
	| expr DIV_ASSIGN expr		{ $$ = build_assign(p, OP_DIV_ASSIGN, $1, $3, @2); }
	| expr MOD_ASSIGN expr		{ $$ = build_assign(p, OP_MOD_ASSIGN, $1, $3, @2); }
	| expr SHL_ASSIGN expr		{ $$ = build_assign(p, OP_SHL_ASSIGN, $1, $3, @2); }
	| expr SHR_ASSIGN expr		{ $$ = build_assign(p, OP_SHR_ASSIGN, $1, $3, @2); }
	| expr AND_ASSIGN expr		{ $$ = build_assign(p, OP_AND_ASSIGN, $1, $3, @2); }
	| expr OR_ASSIGN expr		{ $$ = build_assign(p, OP_OR_ASSIGN, $1, $3, @2); }
	| expr XOR_ASSIGN expr		{ $$ = build_assign(p, OP_XOR_ASSIGN, $1, $3, @2); }
	| expr CONCAT_ASSIGN expr	{ $$ = build_assign(p, OP_CONCAT_ASSIGN, $1, $3, @2); }
	| expr STAT_ADD expr		{ $$ = build_assign(p, OP_STAT_ADD, $1, $3, @2); }
	| expr '?' expr ':' expr	{ $$ = build_ternary(p, $1, $3, $5); }
	| expr OROR expr		{ $$ = build_binary(p, N_LOGICAL, OP_OROR, $1, $3, @2); }
	| expr ANDAND expr		{ $$ = build_binary(p, N_LOGICAL, OP_ANDAND, $1, $3, @2); }
	| expr '|' expr			{ $$ = build_binary(p, N_BINARY, OP_BOR, $1, $3, @2); }
	| expr '^' expr			{ $$ = build_binary(p, N_BINARY, OP_BXOR, $1, $3, @2); }
	| expr '&' expr			{ $$ = build_binary(p, N_BINARY, OP_BAND, $1, $3, @2); }
	| expr IN IDENT			{ $$ = build_in(p, $1, false, build_symbol(p, &$3), @2); }
	| expr IN ATNAME '(' opt_args ')'
					{ $$ = build_in(p, $1, false, build_at(p, &$3, &$5), @2); }
	| expr EQ expr			{ $$ = build_binary(p, N_COMPARE, OP_EQ, $1, $3, @2); }
	| expr NE expr			{ $$ = build_binary(p, N_COMPARE, OP_NE, $1, $3, @2); }
	| expr '<' expr			{ $$ = build_binary(p, N_COMPARE, OP_LT, $1, $3, @2); }
	| expr LE expr			{ $$ = build_binary(p, N_COMPARE, OP_LE, $1, $3, @2); }
	| expr '>' expr			{ $$ = build_binary(p, N_COMPARE, OP_GT, $1, $3, @2); }
	| expr GE expr			{ $$ = build_binary(p, N_COMPARE, OP_GE, $1, $3, @2); }
	| expr MATCH expr		{ $$ = build_binary(p, N_REGEX, OP_MATCH, $1, $3, @2); }
	| expr NOMATCH expr		{ $$ = build_binary(p, N_REGEX, OP_NOMATCH, $1, $3, @2); }
	| expr SHL expr			{ $$ = build_binary(p, N_BINARY, OP_SHL, $1, $3, @2); }
	| expr SHR expr			{ $$ = build_binary(p, N_BINARY, OP_SHR, $1, $3, @2); }
	| expr '.' expr			{ $$ = build_binary(p, N_BINARY, OP_CONCAT, $1, $3, @2); }
	| expr '+' expr			{ $$ = build_binary(p, N_BINARY, OP_ADD, $1, $3, @2); }
	| expr '-' expr			{ $$ = build_binary(p, N_BINARY, OP_SUB, $1, $3, @2); }
	| expr '*' expr			{ $$ = build_binary(p, N_BINARY, OP_MUL, $1, $3, @2); }
	| expr '/' expr			{ $$ = build_binary(p, N_BINARY, OP_DIV, $1, $3, @2); }
	| expr '%' expr			{ $$ = build_binary(p, N_BINARY, OP_MOD, $1, $3, @2); }
	| unary
	;

unary:
	  '-' unary			{ $$ = build_unary(p, OP_NEG, $2, @1); }
	| '+' unary			{ $$ = build_unary(p, OP_PLUS, $2, @1); }
	| '!' unary			{ $$ = build_unary(p, OP_NOT, $2, @1); }
	| '~' unary			{ $$ = build_unary(p, OP_BNOT, $2, @1); }
	| '&' unary			{ $$ = build_addr_of(p, $2, @1); }
	| INC value			{ $$ = build_crement(p, OP_INC, true, $2, @1); }
	| DEC value			{ $$ = build_crement(p, OP_DEC, true, $2, @1); }
	| postfix
	;

/* One postfix ++ or --: `a -- -- b` is a-- then --b, as in SystemTap. */
postfix:
	  value %prec LOW_PRIMARY
	| value INC			{ $$ = build_crement(p, OP_INC, false, $1, @2); }
	| value DEC			{ $$ = build_crement(p, OP_DEC, false, $1, @2); }
	;

/* Member and index steps apply to any value: on $var, @cast and @var they
 * extend its path; on anything else they make an autocast. */
value:
	  primary
	| value ARROW member_name	{ $$ = build_member(p, $1, &$3, @2); }
	| value '[' expr ']'		{ $$ = build_subscript(p, $1, $3, @2); }
	| value DOLLAR			{ $$ = build_pretty(p, $1, 1, @2); }
	| value DOLLAR2			{ $$ = build_pretty(p, $1, 2, @2); }
	;

primary:
	  NUMBER			{ $$ = build_number(p, &$1, false); }
	| strings %prec LOW_PRIMARY
	| IDENT %prec LOW_PRIMARY	{ $$ = build_symbol(p, &$1); }
	| IDENT '(' opt_args ')'	{ $$ = build_call(p, &$1, &$3); }
	| IDENT '[' index_keys ']'	{ $$ = build_index(p, build_symbol(p, &$1), &$3); }
	| '[' index_keys ']' IN IDENT	{ $$ = build_in_tuple(p, @1, &$2, build_symbol(p, &$5)); }
	| '[' index_keys ']' IN ATNAME '(' opt_args ')'
					{ $$ = build_in_tuple(p, @1, &$2, build_at(p, &$5, &$7)); }
	| '(' expr ')'			{ $$ = build_paren(p, $2); }
	| TVAR				{ $$ = build_target(p, &$1); }
	| ATNAME '(' opt_args ')'	{ $$ = build_at(p, &$1, &$3); }
	| ATNAME %prec LOW_PRIMARY	{ $$ = build_at(p, &$1, NULL); }
	| EMBEDDED			{ $$ = build_embedded_expr(p, &$1); }
	;

strings:
	  STRING			{ $$ = build_string(p, &$1); }
	| strings STRING		{ $$ = build_join_string(p, $1, &$2); }
	;

member_name:
	  IDENT | PROBE | GLOBAL | FUNCTION | PRIVATE | IF | ELSE | WHILE
	| FOR | FOREACH | IN | LIMIT | BREAK | CONTINUE | NEXT | RETURN
	| DELETE | TRY | CATCH
	;

opt_args:
	  %empty			{ $$ = (struct node_list){0}; }
	| args
	;

args:
	  expr				{ $$ = (struct node_list){0};
					  ast_list_push(p->s->arena, &$$, $1); }
	| args ',' expr			{ $$ = $1; ast_list_push(p->s->arena, &$$, $3); }
	;

index_keys:
	  index_key			{ $$ = (struct node_list){0};
					  ast_list_push(p->s->arena, &$$, $1); }
	| index_keys ',' index_key	{ $$ = $1; ast_list_push(p->s->arena, &$$, $3); }
	;

index_key:
	  expr
	| '*'				{ $$ = NULL; }
	;

%%

/* The token feeder: the preprocessor's next token, with braces tracked so
 * that "expected '}'" can say which '{' is open. */
static int
yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p)
{
	struct token t;

	preproc_next(p->pre, &t);
	lval->tok = t;
	*lloc = t.loc;
	parser_saw_token(p, &t);
	return t.kind;
}

/* Symbol names as bison spells them ("'{'", "\"identifier\""), made
 * readable: quotes of the alias stripped. */
static const char *
readable_symbol(yysymbol_kind_t sym)
{
	const char *name = yysymbol_name(sym);
	static char buf[64];
	size_t n = strlen(name);

	if (n >= 2 && name[0] == '"' && name[n - 1] == '"' && n - 2 < sizeof(buf)) {
		memcpy(buf, name + 1, n - 2);
		buf[n - 2] = '\0';
		return buf;
	}
	return name;
}

static int
yyreport_syntax_error(const yypcontext_t *ctx, struct parser *p)
{
	enum { MAX_EXPECTED = 6 };
	yysymbol_kind_t expected[MAX_EXPECTED];
	yysymbol_kind_t got = yypcontext_token(ctx);
	int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
	const char *names[MAX_EXPECTED];
	char got_name[64];

	snprintf(got_name, sizeof(got_name), "%s", readable_symbol(got));
	for (int i = 0; i < n && i < MAX_EXPECTED; i++)
		names[i] = arena_strdup(p->s->arena, readable_symbol(expected[i]));
	parser_syntax_error(p, *yypcontext_location(ctx), got_name,
			    got == YYSYMBOL_YYEOF, names, n);
	return 0;
}

const char *
lex_kind_name(int kind)
{
	return readable_symbol(YYTRANSLATE(kind));
}
