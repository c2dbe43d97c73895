/*
 * cg_writer.c -- the indenting writer (see cg_writer.h). Tabs, as the
 * runtime's kernel style has it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/cg_writer.h"
#include "translator/common/arena.h"

static void
cg_tabs(struct cg_writer *w)
{
	int i;

	for (i = 0; i < w->depth; i++)
		fputc('\t', w->out);
}

static void
cg_vline(struct cg_writer *w, const char *tail, const char *fmt, va_list ap)
{
	cg_tabs(w);
	vfprintf(w->out, fmt, ap);
	fputs(tail, w->out);
}

void
cg_line(struct cg_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_vline(w, "\n", fmt, ap);
	va_end(ap);
}

void
cg_open(struct cg_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cg_vline(w, " {\n", fmt, ap);
	va_end(ap);
	w->depth++;
}

void
cg_open_block(struct cg_writer *w)
{
	cg_tabs(w);
	fputs("{\n", w->out);
	w->depth++;
}

void
cg_close(struct cg_writer *w, const char *suffix)
{
	if (w->depth > 0)
		w->depth--;
	cg_tabs(w);
	fprintf(w->out, "}%s\n", suffix ? suffix : "");
}

void
cg_label(struct cg_writer *w, const char *name)
{
	int depth = w->depth;

	w->depth = depth > 0 ? depth - 1 : 0;
	cg_line(w, "%s: __attribute__((unused)) ;", name);	/* may have no goto */
	w->depth = depth;
}

void
cg_indent(struct cg_writer *w, int delta)
{
	w->depth += delta;
	if (w->depth < 0)
		w->depth = 0;
}

void
cg_blank(struct cg_writer *w)
{
	fputc('\n', w->out);
}

/* Copies text to out with a space inside each star-slash and slash-star;
 * out has room for 2 * strlen(text) + 1 bytes. */
static void
cg_comment_escape(char *out, const char *text)
{
	for (; *text; text++) {
		*out++ = *text;
		if ((text[0] == '*' && text[1] == '/') ||
		    (text[0] == '/' && text[1] == '*'))
			*out++ = ' ';
	}
	*out = '\0';
}

const char *
cg_comment_text(struct arena *a, const char *text)
{
	char *out = arena_alloc(a, 2 * strlen(text) + 1);

	cg_comment_escape(out, text);
	return out;
}

void
cg_comment(struct cg_writer *w, const char *fmt, ...)
{
	va_list ap, again;
	char *text, *safe;
	int n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	text = malloc((size_t)n + 1);
	safe = malloc(2 * (size_t)n + 1);
	if (!text || !safe) {
		fprintf(stderr, "tapc: fatal: out of memory (%zu bytes)\n",
			3 * (size_t)n + 2);
		exit(1);
	}
	vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	va_end(ap);
	cg_comment_escape(safe, text);
	cg_tabs(w);
	fprintf(w->out, "/* %s */\n", safe);
	free(safe);
	free(text);
}
