/*
 * cg_writer.h -- the indenting writer pass 3 writes C through, so that the
 * generator reads like the C it writes: cg_line() writes one line at the
 * current depth, cg_open() a line that ends in '{' and goes one level in,
 * cg_close() goes back out and writes the '}' (with an optional suffix).
 * Text in generated comments goes through cg_comment() or
 * cg_comment_text(): a probe point or a path from the script may hold a
 * "*" "/" that would end the comment early and break the build.
 * Must not: know anything about scripts.
 */
#ifndef TAPC_CODEGEN_CG_WRITER_H
#define TAPC_CODEGEN_CG_WRITER_H

#include <stdio.h>

struct arena;

struct cg_writer {
	FILE *out;
	int depth;
};

void cg_line(struct cg_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cg_open(struct cg_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A bare '{' (a function body, a block of its own). */
void cg_open_block(struct cg_writer *w);
void cg_close(struct cg_writer *w, const char *suffix);
/* A label, one level out as C style has it. */
void cg_label(struct cg_writer *w, const char *name);
void cg_indent(struct cg_writer *w, int delta);
/* A blank line. */
void cg_blank(struct cg_writer *w);
/* A comment line, the formatted text between the comment's delimiters,
 * made safe as cg_comment_text() does. */
void cg_comment(struct cg_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* `text` as it may stand inside a C comment (a copy in `a`): a space
 * splits every star-slash, which would end it, and slash-star, which
 * -Wcomment warns about. */
const char *cg_comment_text(struct arena *a, const char *text);

#endif
