/*
 * unsupported.c -- probe families that tapc recognises but does not build
 * yet. Each gets a clear error naming the probe point, instead of "unknown
 * probe point", so users know it is coming and not mistyped.  Last in the
 * registry: a row a real provider claims first can never be reached.
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

static const struct {
	const char *first, *second;	/* second NULL: any */
	const char *what;
} families[] = {
	{ "kernel", "mark", "kernel.mark" },
	{ "module", NULL, "module(...) probes" },	/* but .function and
							 * .statement: dwarf.c */
	{ "perf", NULL, "perf probes: only perf.type(T).config(C)[.sample(N)] and the perf.hw.*, perf.sw.* and perf.hw_cache.* names of the kernel target's tapset" },
	{ "java", NULL, "java probes" },
	{ "python2", NULL, "python probes" },
	{ "python3", NULL, "python probes" },
	{ "hrtimer", NULL, "hrtimer probes" },
};

static int
family_of(const struct node *point)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (pp_is(point, 0, families[i].first) &&
		    (!families[i].second || pp_is(point, 1, families[i].second)))
			return (int)i;
	return -1;
}

static bool
unsupported_claims(const struct node *point)
{
	return family_of(point) >= 0;
}

static int
unsupported_match(struct elab *e, struct node *point)
{
	int f = family_of(point);

	diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
		   "probe point '%s' is not supported yet (%s)",
		   pp_to_string(e->s->arena, point), families[f].what);
	return -1;
}

const struct provider provider_unsupported = {
	.name = "unsupported",
	.claims = unsupported_claims,
	/* Nothing is built for these: their "not supported" error tells
	 * more than a privilege one would. */
	.privilege = PRIV_STAPUSR,
	.match = unsupported_match,
};
