/*
 * diag_registry.c -- the diagnostic ids of diag_ids.def as a table, their
 * lookup, and the text of `tapc --explain`.
 *
 * The table is small (about a hundred entries) and consulted only when a
 * diagnostic is reported or explained, so lookup is a plain scan.
 */
#include "translator/common/diag_registry.h"

#include <ctype.h>
#include <string.h>

#define ERROR DIAG_ERROR
#define WARNING DIAG_WARNING
#define DIAG_ID(name, level, meaning, cause, fix) \
	{ #name, level, false, meaning, cause, fix },
#define DIAG_RESERVED(name, level, meaning, cause, fix) \
	{ #name, level, true, meaning, cause, fix },
static const struct diag_id_info diag_ids[] = {
#include "translator/common/diag_ids.def"
};
#undef DIAG_ID
#undef DIAG_RESERVED
#undef ERROR
#undef WARNING

#define EXPLAIN_WIDTH 72

size_t
diag_id_count(void)
{
	return sizeof(diag_ids) / sizeof(diag_ids[0]);
}

const struct diag_id_info *
diag_id_at(size_t i)
{
	return i < diag_id_count() ? &diag_ids[i] : NULL;
}

const struct diag_id_info *
diag_id_find(const char *id)
{
	for (size_t i = 0; id && i < diag_id_count(); i++)
		if (strcmp(diag_ids[i].id, id) == 0)
			return &diag_ids[i];
	return NULL;
}

/* The entry whatever the case the user typed the id in. */
static const struct diag_id_info *
find_any_case(const char *id)
{
	for (size_t i = 0; i < diag_id_count(); i++)
		if (strcasecmp(diag_ids[i].id, id) == 0)
			return &diag_ids[i];
	return NULL;
}

/* `label` and `text` as a paragraph filled to EXPLAIN_WIDTH columns; a word
 * longer than a line stands on a line of its own. */
static void
print_filled(FILE *out, const char *label, const char *text)
{
	size_t col = strlen(label);
	const char *p = text;

	fputs(label, out);
	while (*p) {
		size_t len = strcspn(p, " ");
		if (col > 0 && col + 1 + len > EXPLAIN_WIDTH) {
			fputc('\n', out);
			col = 0;
		} else if (col > 0) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)len, p);
		col += len;
		p += len;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

bool
diag_explain(FILE *out, const char *id)
{
	const struct diag_id_info *info = find_any_case(id);

	if (!info)
		return false;
	fprintf(out, "%s (%s%s)\n\n", info->id,
		info->level == DIAG_ERROR ? "error" : "warning",
		info->reserved ? ", reserved: tapc does not report it now" : "");
	print_filled(out, "Meaning:", info->meaning);
	fputc('\n', out);
	print_filled(out, "Typical cause:", info->cause);
	fputc('\n', out);
	print_filled(out, "Fix:", info->fix);
	return true;
}
