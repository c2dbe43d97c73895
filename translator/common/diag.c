/*
 * diag.c -- printing diagnostics with the source line and a caret.
 *
 * The caret line copies tabs from the source line so that the caret sits
 * under the right column whatever the terminal's tab width. Ids are
 * checked against diag_ids.def as they are reported. Holding (diag_hold)
 * swaps the output for a memory stream and remembers the counts, so that
 * releasing can either pass the text on or forget it.
 */
#include "translator/common/diag.h"

#include <stdlib.h>
#include <string.h>

#include "translator/common/diag_registry.h"

static const char *const level_names[] = {
	[DIAG_NOTE] = "note",
	[DIAG_WARNING] = "warning",
	[DIAG_ERROR] = "error",
};

void
diag_init(struct diag *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->max_errors = 100;
}

bool
loc_before(struct loc a, struct loc b)
{
	if (a.line != b.line)
		return a.line < b.line;
	return a.col < b.col;
}

/* Find the start of 1-based line `line` in `src`; NULL if out of range. */
static const char *
source_line(const struct source *src, int line, size_t *len)
{
	const char *p = src->text, *end = src->text + src->len;

	for (int n = 1; n < line; n++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	const char *eol = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((eol ? eol : end) - p);
	return p;
}

static void
print_quote(FILE *out, struct loc at)
{
	size_t len;
	const char *line;

	if (!at.src || at.line <= 0 || !at.src->text)
		return;
	line = source_line(at.src, at.line, &len);
	if (!line)
		return;
	if (len > 400)
		len = 400;	/* quoting a minified line in full helps no one */
	fprintf(out, " %.*s\n ", (int)len, line);
	for (int i = 0; i + 1 < at.col && (size_t)i < len; i++)
		fputc(line[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

/* An id not in the table (or reported at another level) is a bug in the
 * call site. It goes to stderr, past any hold, so that every test whose
 * output is compared catches it. */
static void
check_id(enum diag_level level, const char *id)
{
	const struct diag_id_info *info = diag_id_find(id);

	if (!id || (info && info->level == level))
		return;
	fprintf(stderr, "tapc: internal error: diagnostic id '%s' %s\n", id,
		info ? "is reported at another level than diag_ids.def says" :
		"is not in translator/common/diag_ids.def");
}

/* A warning that only says the optimizer dropped code or data nobody
 * uses. */
static bool
is_elision(const char *id)
{
	return id && (strcmp(id, "W_DEAD_STORE") == 0 ||
		      strcmp(id, "W_NO_EFFECT") == 0 ||
		      strcmp(id, "W_UNUSED_VAR") == 0 ||
		      strcmp(id, "W_PROBE_ELIDED") == 0);
}

void
diag_vreport(struct diag *d, enum diag_level level, struct loc at,
	     const char *id, const char *fmt, va_list ap)
{
	check_id(level, id);
	d->last_shown = false;
	if (level == DIAG_ERROR && d->errors_as_warnings)
		level = DIAG_WARNING;
	if (level == DIAG_WARNING && at.src && at.src->is_tapset &&
	    !d->library_warnings && !d->errors_as_warnings) {
		/* The library's elisions are its business, not the user's. */
		d->warnings++;
		return;
	}
	if (level == DIAG_WARNING) {
		if (d->no_warnings) {
			d->warnings++;	/* counted, not shown */
			return;
		}
		/* -W is about the user's script: the library's own
		 * elisions, shown at -vv, stay warnings (the user cannot
		 * change the library; SystemTap's buildok scripts run with
		 * -Wvv).  What the script's use of the library causes
		 * (W_VERSION_DEPENDENT ...) is the user's: an error. */
		if (d->warnings_are_errors &&
		    !(at.src && at.src->is_tapset && is_elision(id)))
			level = DIAG_ERROR;
	}
	if (level == DIAG_ERROR)
		d->errors++;
	else if (level == DIAG_WARNING)
		d->warnings++;
	if (!d->out)
		return;
	if (level == DIAG_ERROR && d->max_errors &&
	    d->errors > d->max_errors) {
		if (d->errors == d->max_errors + 1)
			fprintf(d->out, "tapc: too many errors, stopping here\n");
		return;
	}
	if (at.src && at.line > 0)
		fprintf(d->out, "%s:%d:%d: ", at.src->name, at.line, at.col);
	else
		fputs("tapc: ", d->out);
	fprintf(d->out, "%s: ", level_names[level]);
	vfprintf(d->out, fmt, ap);
	if (id)
		fprintf(d->out, " [%s]", id);
	fputc('\n', d->out);
	print_quote(d->out, at);
	d->last_shown = true;
}

/* The same error at the same place twice (a pass that looks at a node
 * more than once) is reported once. */
static bool
repeats_last(struct diag *d, struct loc at, const char *id)
{
	return d->errors > 0 && at.src && d->last_error.src == at.src &&
	       d->last_error.line == at.line && d->last_error.col == at.col &&
	       id && d->last_id && strcmp(id, d->last_id) == 0;
}

void
diag_error(struct diag *d, struct loc at, const char *id, const char *fmt, ...)
{
	va_list ap;

	if (repeats_last(d, at, id)) {
		d->last_shown = false;	/* and so is its hint */
		return;
	}
	d->last_id = id;
	va_start(ap, fmt);
	diag_vreport(d, DIAG_ERROR, at, id, fmt, ap);
	va_end(ap);
	d->last_error = at;
}

void
diag_warning(struct diag *d, struct loc at, const char *id,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, DIAG_WARNING, at, id, fmt, ap);
	va_end(ap);
}

void
diag_note(struct diag *d, struct loc at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(d, DIAG_NOTE, at, NULL, fmt, ap);
	va_end(ap);
}

void
diag_hint(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->last_shown || !d->out)
		return;
	fputs("hint: ", d->out);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}

void
diag_fatal_noloc(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	d->last_shown = false;
	if (!d->out)
		return;
	fputs("tapc: error: ", d->out);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
	d->last_shown = true;
}

void
diag_info(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	d->last_shown = false;
	if (!d->out)
		return;
	fputs("tapc: ", d->out);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}

/* ---- holding ---- */

void
diag_hold(struct diag *d, struct diag_mark *m)
{
	m->out = d->out;
	m->text = NULL;
	m->len = 0;
	m->stream = d->out ? open_memstream(&m->text, &m->len) : NULL;
	m->errors = d->errors;
	m->warnings = d->warnings;
	m->last_error = d->last_error;
	m->last_id = d->last_id;
	m->last_shown = d->last_shown;
	if (m->stream)
		d->out = m->stream;
}

int
diag_held_errors(const struct diag *d, const struct diag_mark *m)
{
	return d->errors - m->errors;
}

const char *
diag_held_text(struct diag_mark *m)
{
	if (m->stream)
		fflush(m->stream);
	return m->text ? m->text : "";
}

void
diag_release(struct diag *d, struct diag_mark *m, bool keep)
{
	if (m->stream) {
		fclose(m->stream);
		m->stream = NULL;
	}
	d->out = m->out;
	if (keep) {
		if (m->text && d->out)
			fputs(m->text, d->out);
	} else {
		d->errors = m->errors;
		d->warnings = m->warnings;
		d->last_error = m->last_error;
		d->last_id = m->last_id;
		d->last_shown = m->last_shown;
	}
	free(m->text);
	m->text = NULL;
	m->len = 0;
}

void
diag_replay(struct diag *d, const char *text, int errors)
{
	d->errors += errors;
	d->last_shown = false;
	if (text && *text && d->out)
		fputs(text, d->out);
}
