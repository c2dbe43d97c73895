/*
 * parse.h -- pass 1: from script text to syntax trees.
 *
 * parse_source() runs the lexer, the preprocessor (%( %) conditions,
 * @define macros, $1/@1 arguments) and the bison parser over one source and
 * returns its tree; errors go to the session's diagnostics and parsing goes
 * on after them, so one run reports many. pass_parse() is the driver's
 * entry: it loads the user's script (file or -e text) into s->user_file.
 */
#ifndef TAPC_PARSE_PARSE_H
#define TAPC_PARSE_PARSE_H

#include <stdbool.h>
#include <stdio.h>

#include "translator/parse/ast.h"
#include "translator/driver/session.h"

/* Read a file into a source; NULL (with a diagnostic) if unreadable. */
struct source *source_from_file(struct session *s, const char *path,
				bool is_tapset);
struct source *source_from_text(struct session *s, const char *name,
				const char *text, size_t len);

/* Parse one source. Returns a tree even after errors (possibly partial);
 * check s->diag.errors. */
struct file_ast *parse_source(struct session *s, const struct source *src);

/* Parse with a macro table shared across files (the library's .stpm
 * macros); with `export_macros`, the file's own @defines go there too. */
struct macro_table;
struct file_ast *parse_source_with(struct session *s, const struct source *src,
				   struct macro_table *macros,
				   bool export_macros);

/* Pass 1 for the driver: parse the user's script. */
bool pass_parse(struct session *s);

/* Print a tree in tapc's canonical form: parsing this output again prints
 * the same text. */
void print_file(FILE *out, const struct file_ast *f);
void print_node(FILE *out, const struct node *n);
/* One statement at `indent` tabs (a negative indent continues the line). */
void print_statement(FILE *out, const struct node *n, int indent);

#endif
