/*
 * timing.c -- `tapc -t` on the user target: the accumulators' life, skips
 * per probe, and the report, printed once after the end and error probes
 * in the script's output (stdout or -o's file), as the kernel's module
 * prints it.  Format: runtime/core/timing.c.
 */
#include <stdlib.h>
#include <string.h>
#include "runtime.h"

struct tap_timing_acc *tap_timing_accs;

int
tap_timing_init(void)
{
	if (!tap_module.timing || !tap_module.n_timing)
		return 0;
	tap_timing_accs = calloc(tap_module.n_timing, sizeof(*tap_timing_accs));
	return tap_timing_accs ? 0 : -1;
}

void
tap_timing_exit(void)
{
	free(tap_timing_accs);
	tap_timing_accs = NULL;
}

void
tap_timing_skip(const struct tap_probe *p)
{
	if (tap_timing_accs && p && p->timing_index >= 0 &&
	    (size_t)p->timing_index < tap_module.n_timing)
		tap_timing_accs[p->timing_index].skipped++;
}

/* One thread: the figures are the totals already. */
static void
tap_timing_sum(size_t index, struct tap_timing_acc *t)
{
	*t = tap_timing_accs[index];
}

void
tap_timing_report(void)
{
	static const struct tap_probe report = {
		.point = "-t report", .location = "", .timing_index = -1,
	};
	struct tap_context *c;

	if (!tap_timing_accs)
		return;
	c = tap_context_enter(&report, tap_session_state);
	if (!c)
		return;
	tap_timing_print(c, tap_timing_sum);
	tap_context_exit(c);
}
