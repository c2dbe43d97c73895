/*
 * cg_writer.h -- the indenting writer pass 3 writes C through, so that the
 * generator reads like the C it writes: cg_line() writes one line at the
 * current depth, cg_open() a line that ends in '{' and goes one level in,
 * cg_close() goes back out and writes the '}' (with an optional suffix).
 * Must not: know anything about scripts.
 */
#ifndef TAPC_CODEGEN_CG_WRITER_H
#define TAPC_CODEGEN_CG_WRITER_H

#include <stdio.h>

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

#endif
