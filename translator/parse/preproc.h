/*
 * preproc.h -- the token-level preprocessor between lexer and parser.
 *
 * It resolves %( COND %? THEN %: ELSE %) conditionals against the kernel
 * facts (struct kernel_facts), records @define macros and expands their
 * uses, and substitutes command-line arguments ($1 as tokens, @1 as a
 * string, $# and @# as the count). What comes out is the token stream the
 * grammar sees.
 */
#ifndef TAPC_PARSE_PREPROC_H
#define TAPC_PARSE_PREPROC_H

#include "translator/parse/lex.h"
#include "translator/driver/session.h"

struct preproc;
struct macro_table;

/* Macros shared by every file of a run (the library's .stpm files). */
struct macro_table *preproc_macro_table_new(struct session *s);

/* A preprocessor over `src`. `shared` may be NULL; macros the file defines
 * are added to `shared` when `export_macros` (a .stpm file), else kept
 * local to the file. */
struct preproc *preproc_new(struct session *s, const struct source *src,
			    struct macro_table *shared, bool export_macros);
void preproc_next(struct preproc *pre, struct token *tok);
void preproc_free(struct preproc *pre);

/* Evaluate a preprocessor comparison; exported for unit tests. */
int preproc_version_compare(const char *a, const char *b);

#endif
