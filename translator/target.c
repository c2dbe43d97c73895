/*
 * target.c -- the session's target facts from debuginfo/kernel.h.
 */
#include "translator/target.h"

#include <string.h>
#include <sys/utsname.h>

#include "translator/debuginfo/kernel.h"

static const char *
config_lookup(void *ctx, const char *name)
{
	return kernel_config(ctx, name);
}

/* "6.1.0-57-amd64" -> "6.1.0": the leading dotted numbers. */
static const char *
version_of_release(struct session *s, const char *release)
{
	size_t n = strspn(release, "0123456789.");

	while (n > 0 && release[n - 1] == '.')
		n--;
	return arena_strndup(s->arena, release, n);
}

void
target_facts_fill(struct session *s)
{
	struct target_facts *f = &s->facts;
	struct utsname u;
	char err[256];

	f->runtime = s->opts.target == TARGET_USER ? "user" : "kernel";
	uname(&u);
	f->arch = arena_strdup(s->arena, u.machine);
	f->kernel_release = arena_strdup(s->arena, s->opts.kernel_release ?
					 s->opts.kernel_release : u.release);
	f->kernel_version = version_of_release(s, f->kernel_release);
	struct kernel_target *kt = kernel_target_open(s->opts.kernel_release,
						      NULL, err, sizeof(err));
	if (!kt) {
		s->kernel_error = arena_strdup(s->arena, err);
		return;
	}
	f->kernel_release = arena_strdup(s->arena, kernel_release(kt));
	f->kernel_version = arena_strdup(s->arena, kernel_release_version(kt));
	f->arch = arena_strdup(s->arena, kernel_arch(kt));
	if (kernel_has_config(kt)) {
		f->config_lookup = config_lookup;
		f->config_ctx = kt;
	}
	s->kernel = kt;
}

void
target_facts_release(struct session *s)
{
	if (s->kernel)
		kernel_target_free(s->kernel);
	s->kernel = NULL;
}
