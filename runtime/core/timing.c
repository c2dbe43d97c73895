/*
 * timing.c -- `tapc -t`: merging per-CPU figures and printing the report
 * (see timing.h).  Both platforms' output: tap_print() into the context
 * the platform entered for the report, after the end and error probes.
 *
 *   ----- probe hit report: 
 *   POINT, (FILE:LINE:COL), hits: N, cycles: MINmin/AVGavg/MAXmax,
 *     variance: V, from: ALIAS, index: I       (one line per probe that ran)
 *   ----- probe error report:                  (only with errors or skips)
 *   POINT, (FILE:LINE:COL), errors: E, skipped: S, index: I
 *
 * The first table is stap -t's, to the byte (its header's trailing space
 * included); stap's "refresh report" about its own housekeeping timer has
 * no counterpart here.
 */
#include "timing.h"
#include "abi.h"

/* the platform's (runtime/linux/output.h, runtime/user/runtime.h) */
void tap_print(struct tap_context *c, const char *s, size_t len);

void
tap_timing_acc_merge(struct tap_timing_acc *total,
		     const struct tap_timing_acc *part)
{
	total->errors += part->errors;
	total->skipped += part->skipped;
	if (!part->hits)
		return;
	if (!total->hits || part->min < total->min)
		total->min = part->min;
	if (part->max > total->max)
		total->max = part->max;
	total->hits += part->hits;
	total->sum += part->sum;
	if (part->sumsq == TAP_TIMING_SUMSQ_OVERFLOW ||
	    __builtin_add_overflow(total->sumsq, part->sumsq, &total->sumsq))
		total->sumsq = TAP_TIMING_SUMSQ_OVERFLOW;
}

/* The sample variance, -1 when the squares did not fit in 64 bits. */
static int64_t
tap_timing_variance(const struct tap_timing_acc *t, uint64_t avg)
{
	uint64_t spread;

	if (t->sumsq == TAP_TIMING_SUMSQ_OVERFLOW)
		return -1;
	if (t->hits < 2)
		return 0;
	spread = t->sumsq - (t->sumsq < avg * t->sum ? t->sumsq : avg * t->sum);
	return (int64_t)(spread / (t->hits - 1));
}

static void
tap_timing_put(struct tap_context *c, const char *s)
{
	tap_print(c, s, tap_strlen(s));
}

/* "POINT, (LOCATION), ": the probe's names are any length */
static void
tap_timing_names(struct tap_context *c, const struct tap_timing_probe *p)
{
	tap_timing_put(c, p->point);
	tap_timing_put(c, ", (");
	tap_timing_put(c, p->location);
	tap_timing_put(c, "), ");
}

void
tap_timing_print(struct tap_context *c,
		 void (*sum)(size_t index, struct tap_timing_acc *t))
{
	const struct tap_timing_probe *probes = tap_module.timing;
	struct tap_timing_acc t;
	bool troubles = false;
	char num[160];
	size_t i;

	tap_timing_put(c, "----- probe hit report: \n");
	for (i = 0; i < tap_module.n_timing; i++) {
		uint64_t avg;

		sum(i, &t);
		if (t.errors || t.skipped)
			troubles = true;
		if (!t.hits)
			continue;
		avg = t.sum / t.hits;
		tap_timing_names(c, &probes[i]);
		snprintf(num, sizeof(num),
			 "hits: %llu, cycles: %llumin/%lluavg/%llumax, variance: %lld,",
			 (unsigned long long)t.hits, (unsigned long long)t.min,
			 (unsigned long long)avg, (unsigned long long)t.max,
			 (long long)tap_timing_variance(&t, avg));
		tap_timing_put(c, num);
		tap_timing_put(c, probes[i].derivation);
		snprintf(num, sizeof(num), ", index: %zu\n", i);
		tap_timing_put(c, num);
	}
	if (!troubles)
		return;
	tap_timing_put(c, "----- probe error report:\n");
	for (i = 0; i < tap_module.n_timing; i++) {
		sum(i, &t);
		if (!t.errors && !t.skipped)
			continue;
		tap_timing_names(c, &probes[i]);
		snprintf(num, sizeof(num), "errors: %llu, skipped: %llu, index: %zu\n",
			 (unsigned long long)t.errors,
			 (unsigned long long)t.skipped, i);
		tap_timing_put(c, num);
	}
}
