/*
 * compat.c -- is the SystemTap version the script asked for older than a
 * given one (compat.h)?  Versions compare as the preprocessor compares
 * them, number by number, so 1.10 is after 1.9.
 */
#include "translator/driver/compat.h"
#include "translator/parse/preproc.h"

bool
session_compat_before(const struct session *s, const char *version)
{
	const char *asked = s->opts.compatible ? s->opts.compatible
					       : TAPC_COMPAT_VERSION;

	return preproc_version_compare(asked, version) < 0;
}
