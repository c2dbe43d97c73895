/*
 * timer.c -- timer.s/sec/ms/msec/us/usec/ns/nsec/hz/jiffies(N), each with
 * an optional .randomize(M), and timer.profile (every tick, on every CPU).
 * No context variables. The period is kept in nanoseconds, except
 * timer.jiffies' which stays in jiffies: the platform converts it with its
 * own HZ (TAP_JIFFIES_NS: the module with the HZ of the kernel it is built
 * for, the one fact about the target that the headers always have).  The
 * emit hooks turn it into an hrtimer (kernel) or a timer thread (user).
 *
 * What the emitted C may assume: the platform arms every struct
 * tap_timer_probe of tap_module.timers after the begin probes and
 * re-arms it after each hit; on the kernel, every struct
 * tap_profile_probe of tap_module.profiles gets a pinned hrtimer per CPU
 * at the tick, with the interrupted registers in c->regs.  The user
 * platform has no per-CPU ticks: timer.profile is a timer there.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"

extern const struct provider provider_timer;

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
	pd->profile = true;
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

/* ---- code generation ---- */

/* A timer's interval or randomization in C: nanoseconds, or for
 * timer.jiffies ticks that the platform converts with its own HZ
 * (TAP_JIFFIES_NS in runtime/linux/probes.h and runtime/user/runtime.h). */
static const char *
timer_ns_expr(struct cg *g, const struct pdata_timer *t, uint64_t n)
{
	if (t->jiffies && n)
		return cg_fmt(g, "TAP_JIFFIES_NS(%lluULL)", (unsigned long long)n);
	return cg_fmt(g, "%lluULL", (unsigned long long)n);
}

static const struct pdata_timer *
timer_of(const struct derived_probe *dp)
{
	return dp->provider == &provider_timer ? dp->pdata : NULL;
}

static int
timer_table(struct cg *g, enum backend b)
{
	struct program *p = g->prog;
	int i, n = 0;

	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_timer *t = timer_of(dp);

		if (!t)
			continue;
		/* the kernel has per-CPU timer.profile (profile_table) */
		if (t->profile && b != BACKEND_USER)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_timer_probe __tap_timers[] =");
		cg_line(&g->w, "{ .probe = %s, .interval_ns = %s, .randomize_ns = %s },",
			cg_probe_record(g, dp),
			t->profile ? "4000000ULL"
				: timer_ns_expr(g, t, t->jiffies ? t->jiffies_count
								 : t->period_ns),
			timer_ns_expr(g, t, t->randomize_ns));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

static int
profile_table(struct cg *g)
{
	struct program *p = g->prog;
	int n = 0;

	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_timer *t = timer_of(dp);

		if (!t || !t->profile)
			continue;
		if (!n++)
			cg_open(&g->w, "static struct tap_profile_probe __tap_profiles[] =");
		cg_line(&g->w, "{ .probe = %s, .interval_ns = 0 },",
			cg_probe_record(g, dp));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

static int ntimers, nprofiles;	/* rows of __tap_timers, __tap_profiles */

/* May assume the handlers probe_N. */
static void
timer_tables(struct cg *g, enum backend b)
{
	ntimers = timer_table(g, b);
	nprofiles = b == BACKEND_KMOD ? profile_table(g) : 0;
}

static void
timer_desc(struct cg *g, enum backend b)
{
	cg_desc_array(g, "timers", "__tap_timers", ntimers);
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "profiles", "__tap_profiles", nprofiles);
}

static const char *const timer_shapes[] = {
	"timer.s(NUMBER)", "timer.s(NUMBER).randomize(NUMBER)",
	"timer.ms(NUMBER)", "timer.ms(NUMBER).randomize(NUMBER)",
	"timer.us(NUMBER)", "timer.us(NUMBER).randomize(NUMBER)",
	"timer.ns(NUMBER)", "timer.ns(NUMBER).randomize(NUMBER)",
	"timer.hz(NUMBER)",
	"timer.jiffies(NUMBER)", "timer.jiffies(NUMBER).randomize(NUMBER)",
	"timer.profile", "timer.profile.tick",
	NULL,
};

/* timer.profile samples whatever runs on every CPU, other users' tasks
 * included: stapsys.  An interval timer fires in no task's name: any
 * user. */
static enum privilege
timer_privilege(const struct node *point)
{
	return pp_is(point, 1, "profile") ? PRIV_STAPSYS : PRIV_STAPUSR;
}

/* --runtime=bpf: timer.profile is a BPF program on a cpu-clock sampling
 * perf event per CPU, at the tick the user target assumes (4 ms, as
 * TAP_JIFFIES_NS); timer.hz(N) one such event on one CPU, so that its
 * handler may write what other BPF programs use.  The other interval
 * timers run in the user program's session. */
static enum bpf_place
timer_bpf_place(const struct derived_probe *dp, struct arena *a,
		struct bpf_attach *att)
{
	const struct pdata_timer *t = timer_of(dp);
	bool hz = !t->profile && !t->jiffies && pp_is(dp->point, 1, "hz");

	if (!t->profile && !hz) {
		att->what = "timer";
		return BPF_PLACE_USER;
	}
	att->section = "perf_event";
	att->ctx_type = "struct bpf_perf_event_data";
	att->guard = NULL;
	att->perf_period_ns = t->profile ? 4000000ull : t->period_ns;
	att->perf_every_cpu = t->profile;
	att->what = arena_printf(a, "perf event (cpu-clock, %llu ns%s)",
				 att->perf_period_ns,
				 t->profile ? ", every CPU" : "");
	return BPF_PLACE_KERNEL;
}

const struct provider provider_timer = {
	.name = "timer",
	.claims = timer_claims,
	.match = timer_match,
	.point_privilege = timer_privilege,
	.shapes = timer_shapes,
	.emit_tables = timer_tables,
	.emit_desc = timer_desc,
	.bpf_place = timer_bpf_place,
};
