/*
 * diag.h -- diagnostics: every message the translator gives about a script.
 *
 * A diagnostic has a level, a stable id that tests can name (E_SYNTAX,
 * W_UNUSED_VAR, ...), a location and a message. It prints as
 *
 *     file:line:col: error: message [E_ID]
 *      source line
 *           ^
 *     hint: what to do about it
 *
 * Errors accumulate; the driver stops after the pass that produced them.
 * Every id is in diag_ids.def (diag_registry.h); reporting one that is not
 * prints an internal error, so a test that reaches it fails.
 *
 * Speculative work (a wildcard's expansions, an optional probe point,
 * @defined, the -l/-L listing) wraps what it reports in diag_hold() ...
 * diag_release(): kept, it is printed as if never held; dropped, it is as
 * if it never happened (not printed, not counted).
 */
#ifndef TAPC_COMMON_DIAG_H
#define TAPC_COMMON_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* One script or tapset file, kept whole so that diagnostics can quote it. */
struct source {
	const char *name;	/* path, or "<input>" for -e */
	const char *text;	/* NUL-terminated contents */
	size_t len;
	bool is_tapset;		/* from the library: embedded C allowed */
};

struct loc {
	const struct source *src;
	int line, col;		/* 1-based; line 0 means "no location" */
};

enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

struct diag {
	FILE *out;
	int errors, warnings;
	bool no_warnings;	/* -w */
	bool warnings_are_errors; /* -W */
	bool errors_as_warnings;/* a tapset file: its errors only warn */
	bool library_warnings;	/* show warnings located in the library
				 * (-v); else they are counted only */
	int max_errors;		/* stop printing after this many (0: no cap) */
	struct loc last_error;	/* to suppress repeats at one spot */
	const char *last_id;
	bool last_shown;	/* the last error, warning or note was
				 * printed: a hint may follow it */
};

/* What diag_hold() saved; the caller's, on its stack. Holds nest: release
 * them in the reverse order. */
struct diag_mark {
	FILE *out;		/* where output went before the hold */
	FILE *stream;		/* what is said while held (NULL: no out) */
	char *text;		/* its text, while held */
	size_t len;
	int errors, warnings;
	struct loc last_error;
	const char *last_id;
	bool last_shown;
};

/* Output to `out`; NULL counts diagnostics without printing them. */
void diag_init(struct diag *d, FILE *out);

void diag_error(struct diag *d, struct loc at, const char *id,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_warning(struct diag *d, struct loc at, const char *id,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_note(struct diag *d, struct loc at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A hint line for the diagnostic just reported; nothing when that one was
 * not printed (-w, a repeat, the library's warnings, too many errors). */
void diag_hint(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_vreport(struct diag *d, enum diag_level level, struct loc at,
		  const char *id, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/* Plain "tapc: error: ..." with no location, for command-line problems. */
void diag_fatal_noloc(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "tapc: ..." -- what -v tells; held and dropped like diagnostics. */
void diag_info(struct diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Start holding what is reported: printed into memory, counted. */
void diag_hold(struct diag *d, struct diag_mark *m);
/* Errors reported since diag_hold(). */
int diag_held_errors(const struct diag *d, const struct diag_mark *m);
/* What was printed since diag_hold() ("" if nothing); valid until
 * diag_release(). */
const char *diag_held_text(struct diag_mark *m);
/* End the hold: `keep` prints what was held where it would have gone;
 * else it is forgotten, errors and warnings uncounted. */
void diag_release(struct diag *d, struct diag_mark *m, bool keep);
/* Report again what a dropped hold said (diag_held_text(), `errors`), for
 * when it turns out to be the explanation after all. */
void diag_replay(struct diag *d, const char *text, int errors);

bool loc_before(struct loc a, struct loc b);

#endif
