/*
 * timer.c -- timer.s/sec/ms/msec/us/usec/ns/nsec/hz/jiffies(N), each with
 * an optional .randomize(M), and timer.profile (every tick, on every CPU).
 * No context variables. The period is kept in nanoseconds, except
 * timer.jiffies' which stays in jiffies: the module converts it with the
 * HZ of the kernel it is built for (TAP_JIFFIES_NS), the one fact about
 * the target that the headers always have.  Code generation turns it into
 * an hrtimer (kernel) or a timer thread (user).
 */
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

static const struct {
	const char *name;
	uint64_t ns;		/* nanoseconds per unit; 0: hz */
} units[] = {
	{ "s", 1000000000ull }, { "sec", 1000000000ull },
	{ "ms", 1000000ull }, { "msec", 1000000ull },
	{ "us", 1000ull }, { "usec", 1000ull },
	{ "ns", 1ull }, { "nsec", 1ull },
	{ "hz", 0 }, { "jiffies", 0 },
};

#define TIMER_MAX_NS (86400ull * 1000000000ull)

/* The most jiffies in a day on the target: at its CONFIG_HZ, else at
 * 1000 Hz, the fastest tick Linux offers, so that nothing accepted here
 * is over a day on any kernel. */
static uint64_t
timer_max_jiffies(const struct session *s)
{
	return 86400ull * (s->facts.hz ? s->facts.hz : 1000u);
}

static bool
timer_claims(const struct node *point)
{
	return pp_is(point, 0, "timer");
}

static int
timer_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, point->loc, "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

static int
timer_profile(struct elab *e, struct node *point)
{
	struct pdata_timer *pd = arena_alloc(e->s->arena, sizeof(*pd));

	if (point->u.point.ncomps > 3 ||
	    (point->u.point.ncomps == 3 && !pp_is(point, 2, "tick")))
		return timer_error(e, point, "expected timer.profile or timer.profile.tick");
	pd->kind = PD_PROFILE;
	elab_add_probe(e, point, "timer.profile", pd);
	return 1;
}

static int
timer_match(struct elab *e, struct node *point)
{
	struct pdata_timer *pd;
	int64_t n, r = 0;
	size_t u;

	if (pp_is(point, 1, "profile") && point->u.point.ncomps > 2 &&
	    !pp_is(point, 2, "tick")) {
		/* timer.profile.freq.hz(N) is a perf event in SystemTap */
		diag_error(&e->s->diag, point->loc, "E_UNSUPPORTED_PROBE",
			   "probe point '%s' is not supported yet (perf probes)",
			   pp_to_string(e->s->arena, point));
		return -1;
	}
	if (pp_is(point, 1, "profile"))
		return timer_profile(e, point);
	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (pp_is(point, 1, units[u].name))
			break;
	if (u == sizeof(units) / sizeof(units[0]))
		return timer_error(e, point, "expected timer.s, .ms, .us, .ns, .hz, .jiffies or .profile");
	if (!pp_arg_number(point, 1, &n) || n <= 0)
		return timer_error(e, point, "the interval must be a positive number");
	if (point->u.point.ncomps == 3) {
		if (!pp_is(point, 2, "randomize") ||
		    !pp_arg_number(point, 2, &r) || r < 0)
			return timer_error(e, point, "expected .randomize(N) with N >= 0");
		if (r > n)
			return timer_error(e, point, "the randomization must not exceed the interval");
		if (units[u].ns == 0 && !pp_is(point, 1, "jiffies"))
			return timer_error(e, point, "timer.hz takes no .randomize");
	} else if (point->u.point.ncomps > 3) {
		return timer_error(e, point, "unexpected components after the interval");
	}
	pd = arena_alloc(e->s->arena, sizeof(*pd));
	pd->kind = PD_TIMER;
	if (strcmp(units[u].name, "jiffies") == 0) {
		pd->jiffies = true;
		pd->jiffies_count = (uint64_t)n;
		pd->randomize_ns = (uint64_t)r;	/* in jiffies too */
	} else if (units[u].ns == 0) {
		if (n > 1000000000)
			return timer_error(e, point, "at most 1000000000 Hz");
		pd->period_ns = 1000000000ull / (uint64_t)n;
		pd->randomize_ns = (uint64_t)r;
	} else {
		pd->period_ns = (uint64_t)n * units[u].ns;
		pd->randomize_ns = (uint64_t)r * units[u].ns;
	}
	if (!pd->jiffies && pd->period_ns < 100000 && !e->s->opts.guru)
		return timer_error(e, point, "intervals under 100us need guru mode (-g)");
	if (pd->period_ns > TIMER_MAX_NS ||
	    (pd->jiffies && pd->jiffies_count > timer_max_jiffies(e->s)))
		return timer_error(e, point, "intervals are at most one day");
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

static struct context_var *
timer_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	(void)e; (void)dp; (void)name;
	return NULL;
}

static int
timer_list(struct elab *e, struct derived_probe *dp, struct context_var ***out)
{
	(void)e; (void)dp;
	*out = NULL;
	return 0;
}

const struct provider provider_timer = {
	.name = "timer",
	.claims = timer_claims,
	.match = timer_match,
	.context = timer_context,
	.list_context = timer_list,
};
