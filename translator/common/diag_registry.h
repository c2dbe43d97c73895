/*
 * diag_registry.h -- the table of diagnostic ids (diag_ids.def) as data:
 * looking an id up, and `tapc --explain ID`.
 *
 * Takes an id as a call site or a user writes it; gives its entry (level,
 * meaning, typical cause, fix). The table is compiled from diag_ids.def
 * and nothing adds to it at run time.
 * Must not: print diagnostics (diag.c does), or know any pass.
 */
#ifndef TAPC_DIAG_REGISTRY_H
#define TAPC_DIAG_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "translator/common/diag.h"

struct diag_id_info {
	const char *id;		/* "E_NO_MATCH" */
	enum diag_level level;	/* DIAG_ERROR or DIAG_WARNING */
	bool reserved;		/* in the table, reported by no source */
	const char *meaning;	/* one line */
	const char *cause;	/* the usual way to get it */
	const char *fix;	/* what to do */
};

/* The entry of `id` (exact spelling); NULL if the table has none. */
const struct diag_id_info *diag_id_find(const char *id);

/* The table in order, for tests: entry i of diag_id_count(). */
size_t diag_id_count(void);
const struct diag_id_info *diag_id_at(size_t i);

/*
 * `tapc --explain ID`: print what `id` means, a typical cause and the fix
 * to `out`. The id may be written in any case (e_no_match). Returns false,
 * printing nothing, when the table has no such id.
 */
bool diag_explain(FILE *out, const char *id);

#endif
