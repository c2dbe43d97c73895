/*
 * unsupported.c -- probe families that tapc recognises but does not build
 * yet. Each gets a clear error naming the probe point, instead of "unknown
 * probe point", so users know it is coming and not mistyped.
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

static const struct {
	const char *first, *second;	/* second NULL: any */
	const char *what;
} families[] = {
	{ "kernel", "statement", "kernel.statement (debug-info probes)" },
	{ "kernel", "data", "kernel.data (watchpoints)" },
	{ "kernel", "mark", "kernel.mark" },
	{ "module", NULL, "module(...) probes" },
	{ "process", NULL, "process(...) probes (uprobes)" },
	{ "perf", NULL, "perf probes" },
	{ "netfilter", NULL, "netfilter probes" },
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

static struct context_var *
unsupported_context(struct elab *e, struct derived_probe *dp, const char *n)
{
	(void)e; (void)dp; (void)n;
	return NULL;
}

static int
unsupported_list(struct elab *e, struct derived_probe *dp,
		 struct context_var ***out)
{
	(void)e; (void)dp;
	*out = NULL;
	return 0;
}

const struct provider provider_unsupported = {
	.name = "unsupported",
	.claims = unsupported_claims,
	.match = unsupported_match,
	.context = unsupported_context,
	.list_context = unsupported_list,
};
