/*
 * tapset.c -- loading the tapset library (tapset.h).
 *
 * Files are read in a fixed order (directory order of the search path,
 * then names sorted) so that runs are reproducible. Every file is parsed
 * with the library's shared macro table; a .stpm file's @defines go into
 * it, a .stp file's stay local. Parsing the whole library is fast (the
 * lexer and grammar run at tens of MB/s); elaboration then pulls in only
 * the functions, globals and aliases a script uses.
 */
#include "translator/parse/tapset.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/parse.h"
#include "translator/parse/preproc.h"
#include "translator/driver/paths.h"

const char *
tapset_default_dir(struct session *s)
{
	(void)s;
	return paths_tapset_dir();
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files in `dir` ending in `suffix`, sorted; arena-owned. */
static char **
list_dir(struct session *s, const char *dir, const char *suffix, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0;
	size_t sl = strlen(suffix);

	*count = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l <= sl || strcmp(de->d_name + l - sl, suffix) != 0)
			continue;
		names = arena_grow(s->arena, names, sizeof(*names), &cap, n + 1);
		names[n++] = arena_printf(s->arena, "%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), compare_names);
	*count = n;
	return names;
}

/* A library directory, then its subdirectories for this runtime and
 * architecture (linux/, x86_64/, linux/x86_64/), as SystemTap lays its
 * library out. */
static void
each_file_in(struct session *s, const char *dir, const char *suffix,
	     void (*fn)(struct session *s, const char *path))
{
	const char *runtime = s->opts.target == TARGET_USER ? "dyninst" : "linux";
	const char *arch = s->facts.arch ? s->facts.arch : "x86_64";
	const char *subdirs[] = {
		dir,
		arena_printf(s->arena, "%s/%s", dir, runtime),
		arena_printf(s->arena, "%s/%s", dir, arch),
		arena_printf(s->arena, "%s/%s/%s", dir, runtime, arch),
	};

	for (size_t d = 0; d < sizeof(subdirs) / sizeof(subdirs[0]); d++) {
		int n;
		char **f = list_dir(s, subdirs[d], suffix, &n);
		for (int j = 0; j < n; j++)
			fn(s, f[j]);
	}
}

static void
each_library_file(struct session *s, const char *suffix,
		  void (*fn)(struct session *s, const char *path))
{
	for (int i = 0; i < s->opts.ninclude_dirs; i++)
		each_file_in(s, s->opts.include_dirs[i], suffix, fn);
	each_file_in(s, tapset_default_dir(s), suffix, fn);
}

static void
load_macro_file(struct session *s, const char *path)
{
	struct source *src = source_from_file(s, path, true);

	if (src)
		parse_source_with(s, src, s->macros, true);
}

/* Without its library directory every script would fail later, far
 * from the cause ("unknown probe point syscall.openat"), or a script
 * that needs no library would run as if nothing were wrong: say so. */
static bool
library_dir_readable(struct session *s)
{
	const char *dir = tapset_default_dir(s);
	DIR *d = opendir(dir);
	const char *from;

	if (d) {
		closedir(d);
		return true;
	}
	if (getenv("TAPC_TAPSET_DIR") && *getenv("TAPC_TAPSET_DIR"))
		from = "TAPC_TAPSET_DIR names it";
	else if (getenv("SYSTEMTAP_TAPSET") && *getenv("SYSTEMTAP_TAPSET"))
		from = "SYSTEMTAP_TAPSET names it";
	else
		from = "tapc was installed with it: install tapc again, or set TAPC_TAPSET_DIR";
	diag_fatal_noloc(&s->diag, "cannot read the tapset library directory %s: %s (%s)",
			 dir, strerror(errno), from);
	return false;
}

bool
tapset_load_macros(struct session *s)
{
	int errors = s->diag.errors;

	if (!library_dir_readable(s))
		return false;
	if (!s->macros)
		s->macros = preproc_macro_table_new(s);
	each_library_file(s, ".stpm", load_macro_file);
	return s->diag.errors == errors;
}

/*
 * A tapset file that does not parse is left out with warnings (its own
 * diagnostics, shown as warnings), as SystemTap does, so that one broken
 * file in a -I directory does not stop every script; -W makes them
 * errors again.
 */
static void
load_script_file(struct session *s, const char *path)
{
	struct source *src = source_from_file(s, path, true);
	int cap = s->nlibrary, warnings = s->diag.warnings;
	char *real = realpath(path, NULL);

	if (real) {
		int rcap = s->nlibrary_paths;
		s->library_paths = arena_grow(s->arena, s->library_paths,
					      sizeof(*s->library_paths), &rcap,
					      s->nlibrary_paths + 1);
		s->library_paths[s->nlibrary_paths++] =
			arena_strdup(s->arena, real);
		free(real);
	}
	if (!src)
		return;
	s->diag.errors_as_warnings = !s->diag.warnings_are_errors;
	struct file_ast *f = parse_source_with(s, src, s->macros, false);
	s->diag.errors_as_warnings = false;
	if (s->diag.warnings > warnings && !s->diag.warnings_are_errors) {
		diag_warning(&s->diag, (struct loc){ 0 }, "W_BAD_TAPSET",
			     "tapset file '%s' has errors; it is left out", path);
		return;
	}
	s->library = arena_grow(s->arena, s->library, sizeof(*s->library),
				&cap, s->nlibrary + 1);
	s->library[s->nlibrary++] = f;
}

bool
tapset_is_library_file(struct session *s, const char *path)
{
	char *real = realpath(path, NULL);
	bool found = false;

	for (int i = 0; real && i < s->nlibrary_paths && !found; i++)
		found = strcmp(s->library_paths[i], real) == 0;
	free(real);
	return found;
}

bool
tapset_load_library(struct session *s)
{
	int errors = s->diag.errors;

	if (s->library_loaded)
		return true;
	s->library_loaded = true;
	if (!s->macros)
		tapset_load_macros(s);
	each_library_file(s, ".stp", load_script_file);
	if (s->diag.errors != errors) {
		diag_fatal_noloc(&s->diag,
				 "the tapset library has errors (see above)");
		return false;
	}
	return true;
}
