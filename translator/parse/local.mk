## translator/parse/local.mk -- pass 1: the preprocessor (preproc*.c:
## %( %) conditions, @define, $1/@1), the lexer (flex, lex.l), the
## grammar (bison, grammar.y with parse_*.c building nodes), the syntax
## tree (ast.h) and its printer (-p1).  Entry header: parse.h
## (pass_parse(), parse_source()); ast.h is the tree every later pass
## reads; tapset.h finds and parses the tapset library (pass 1 parses
## all of it, as SystemTap does).  Must not include sema/, providers/,
## codegen/, build/ or debuginfo/.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/parse/ast.c \
	translator/parse/ast.h \
	translator/parse/ast_clone.c \
	translator/parse/grammar.y \
	translator/parse/lex.h \
	translator/parse/lex.l \
	translator/parse/parse.c \
	translator/parse/parse.h \
	translator/parse/parse_at.c \
	translator/parse/parse_build.c \
	translator/parse/parse_build.h \
	translator/parse/parse_expr.c \
	translator/parse/preproc.c \
	translator/parse/preproc.h \
	translator/parse/preproc_cond.c \
	translator/parse/preproc_cond.h \
	translator/parse/print.c \
	translator/parse/strlit.c \
	translator/parse/strlit.h \
	translator/parse/tapset.c \
	translator/parse/tapset.h

## The generated lexer and parser silence the few warnings flex's and
## bison's own code gives (pragmas at their top), not ours.
AM_YFLAGS = -d -Wall -Wno-yacc

BUILT_SOURCES += translator/parse/grammar.h
