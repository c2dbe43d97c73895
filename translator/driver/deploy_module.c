/*
 * deploy_module.c -- the stripped (and perhaps signed) copy of a module
 * that leaves the cache (deploy_module.h).
 *
 * Only debug sections go: the symbol table stays (the kernel's module
 * loader resolves relocations through it, and kallsyms names the
 * module's functions in backtraces), and so do .modinfo and the
 * sections taprun reads.  Stripping comes before signing because the
 * signature covers the file's bytes; stripping a signed module would
 * leave a signature that no longer matches.
 */
#include "translator/driver/deploy_module.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/driver/sign_key.h"
#include "translator/driver/spawn.h"

static long long
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

bool
deploy_module_write(struct session *s, const char *ko, const char *dest)
{
	const char *strip[] = { "strip", "--strip-debug", "-o", dest, ko, NULL };
	int rc;

	unlink(dest);		/* strip -o will not write through a link */
	rc = spawn_wait((char *const *)strip, NULL);
	if (rc != 0) {
		if (rc < 0)
			diag_fatal_noloc(&s->diag, "cannot run strip (binutils) to write %s: %s", dest, strerror(errno));
		else
			diag_fatal_noloc(&s->diag, "strip --strip-debug failed writing %s from %s", dest, ko);
		unlink(dest);
		return false;
	}
	if (s->opts.verbose)
		fprintf(stderr, "tapc: %s: %lld bytes, without debug sections (the cache's %s: %lld)\n",
			dest, file_size(dest), ko, file_size(ko));
	if (s->opts.sign_module && !sign_key_sign_module(s, dest)) {
		unlink(dest);
		return false;
	}
	return true;
}
