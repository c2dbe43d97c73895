/*
 * stat.c - statistics accumulators: adding a value, merging per-CPU
 * accumulators, extracting @count/@sum/@min/@max/@avg/@variance, and the
 * per-CPU scalar aggregate struct tap_stat.  Takes a struct tap_stat_desc
 * describing what to collect; allocates only in tap_stat_init().  All
 * arithmetic is done in unsigned 64-bit so that wrap-around is defined, as
 * SystemTap's is on the machines it runs on.  See stat.h for the locking
 * contract.
 */
#include "stat.h"
#include "error.h"
#include "arith.h"

int
tap_stat_desc_init(struct tap_stat_desc *d, enum tap_hist_type hist,
		   int64_t start, int64_t stop, int64_t interval,
		   bool variance, int shift)
{
	uint64_t span;

	tap_memset(d, 0, sizeof(*d));
	d->hist = hist;
	d->variance = variance;
	if (shift < 0 || shift > 62)
		return TAP_EINVAL;
	d->shift = shift;
	switch (hist) {
	case TAP_HIST_NONE:
		return TAP_OK;
	case TAP_HIST_LOG:
		d->buckets = TAP_HIST_LOG_BUCKETS;
		return TAP_OK;
	case TAP_HIST_LINEAR:
		break;
	}
	if (interval <= 0 || stop < start)
		return TAP_EINVAL;
	/* Buckets between start and stop, plus underflow and overflow.
	 * The span is computed unsigned: it may not fit in an int64. */
	span = ((uint64_t)stop - (uint64_t)start) / (uint64_t)interval;
	if (span > TAP_HIST_MAX_BUCKETS - 3)
		return TAP_EINVAL;
	d->start = start;
	d->stop = stop;
	d->interval = interval;
	d->buckets = (int)span + 3;
	return TAP_OK;
}

size_t
tap_stat_data_size(const struct tap_stat_desc *d)
{
	return sizeof(struct tap_stat_data) +
	       (size_t)d->buckets * sizeof(int64_t);
}

void
tap_stat_data_clear(const struct tap_stat_desc *d, struct tap_stat_data *sd)
{
	tap_memset(sd, 0, tap_stat_data_size(d));
}

/* The value scaled for the variance computation, without signed-shift UB. */
static inline int64_t
scaled(const struct tap_stat_desc *d, int64_t v)
{
	return (int64_t)((uint64_t)v << d->shift);
}

/* Welford's update, in SystemTap's integer rounding. */
static void
add_variance(const struct tap_stat_desc *d, struct tap_stat_data *sd,
	     int64_t v)
{
	int64_t delta = tap_sub(scaled(d, v), sd->avg_s);

	sd->avg_s = tap_add(sd->avg_s, delta / sd->count);
	sd->m2 = tap_add(sd->m2,
			 tap_mul(delta, tap_sub(scaled(d, v), sd->avg_s)));
	sd->variance_s = sd->m2 / (sd->count - 1);
}

static void
add_to_histogram(const struct tap_stat_desc *d, struct tap_stat_data *sd,
		 int64_t v)
{
	switch (d->hist) {
	case TAP_HIST_NONE:
		return;
	case TAP_HIST_LOG:
		sd->hist[tap_hist_log_bucket(v)]++;
		return;
	case TAP_HIST_LINEAR:
		sd->hist[tap_hist_linear_bucket(d, v)]++;
		return;
	}
}

/* The `<<<` hot path: no division unless variance is wanted. */
void
tap_stat_data_add(const struct tap_stat_desc *d, struct tap_stat_data *sd,
		  int64_t v)
{
	if (sd->count == 0) {
		sd->count = 1;
		sd->sum = sd->min = sd->max = v;
		sd->avg_s = scaled(d, v);
		sd->m2 = 0;
	} else {
		sd->count++;
		sd->sum = tap_add(sd->sum, v);
		if (v > sd->max)
			sd->max = v;
		if (v < sd->min)
			sd->min = v;
		if (d->variance)
			add_variance(d, sd, v);
	}
	add_to_histogram(d, sd, v);
}

void
__tap_stat_merge_sums(const struct tap_stat_desc *d,
		      struct tap_stat_data *agg,
		      const struct tap_stat_data *part)
{
	int i;

	if (part->count == 0)
		return;
	if (agg->count == 0) {
		agg->min = part->min;
		agg->max = part->max;
	}
	agg->count += part->count;
	agg->sum = tap_add(agg->sum, part->sum);
	if (part->min < agg->min)
		agg->min = part->min;
	if (part->max > agg->max)
		agg->max = part->max;
	for (i = 0; i < d->buckets; i++)
		agg->hist[i] += part->hist[i];
}

/* The overall mean; m2 is reused below as the total-variance sum. */
void
__tap_stat_merge_mean(const struct tap_stat_desc *d,
		      struct tap_stat_data *agg)
{
	agg->avg_s = 0;
	if (agg->count)
		agg->avg_s = scaled(d, agg->sum) / agg->count;
	agg->m2 = 0;
}

/* Between-CPU spread of the means plus each CPU's own spread. */
void
__tap_stat_merge_spread(struct tap_stat_data *agg,
			const struct tap_stat_data *part)
{
	int64_t dm;

	if (part->count == 0)
		return;
	dm = tap_sub(part->avg_s, agg->avg_s);
	agg->m2 = tap_add(agg->m2, tap_mul(tap_mul(part->count, dm), dm));
	agg->m2 = tap_add(agg->m2, tap_mul(part->count - 1,
					   part->variance_s));
}

void
__tap_stat_merge_end(const struct tap_stat_desc *d,
		     struct tap_stat_data *agg)
{
	agg->variance_s = 0;
	/* Without per-CPU Welford state the spread sum is meaningless. */
	if (d->variance && agg->count > 1)
		agg->variance_s = agg->m2 / (agg->count - 1);
}

int64_t
tap_stat_count(const struct tap_stat_data *sd)
{
	return sd ? sd->count : 0;
}

int64_t
tap_stat_sum(const struct tap_stat_data *sd)
{
	return sd ? sd->sum : 0;
}

int
tap_stat_min(const struct tap_stat_data *sd, int64_t *out)
{
	*out = 0;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	*out = sd->min;
	return TAP_OK;
}

int
tap_stat_max(const struct tap_stat_data *sd, int64_t *out)
{
	*out = 0;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	*out = sd->max;
	return TAP_OK;
}

int
tap_stat_avg(const struct tap_stat_data *sd, int64_t *out)
{
	*out = 0;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	*out = sd->sum / sd->count;
	return TAP_OK;
}

int
tap_stat_variance(const struct tap_stat_desc *d,
		  const struct tap_stat_data *sd, int64_t *out)
{
	*out = 0;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	*out = sd->variance_s >> (2 * d->shift);
	return TAP_OK;
}

static inline struct tap_stat_data *
slot(struct tap_stat *st, unsigned int cpu)
{
	return (struct tap_stat_data *)(st->slots + cpu * st->slot_size);
}

int
tap_stat_init(struct tap_stat *st, const struct tap_stat_desc *d)
{
	size_t bytes;

	tap_memset(st, 0, sizeof(*st));
	st->desc = *d;
	st->plain = d->hist == TAP_HIST_NONE && !d->variance;
	st->ncpus = tap_num_cpus();
	st->slot_size = TAP_ALIGN_UP(tap_stat_data_size(d), TAP_CACHELINE);
	/* One slot per CPU, the merged slot, and slack for alignment. */
	bytes = st->slot_size * (st->ncpus + 1) + TAP_CACHELINE;
	st->mem = tap_alloc(bytes);
	if (!st->mem)
		return TAP_ENOMEM;
	st->slots = (char *)TAP_ALIGN_UP((uintptr_t)st->mem, TAP_CACHELINE);
	return TAP_OK;
}

void
tap_stat_free(struct tap_stat *st)
{
	tap_free(st->mem);
	st->mem = NULL;
	st->slots = NULL;
}

/* Merge every CPU's slot into the merged slot (caller holds the write
 * lock).  Never NULL: an empty aggregate has count 0. */
const struct tap_stat_data *
tap_stat_get(struct tap_stat *st)
{
	struct tap_stat_data *agg = slot(st, st->ncpus);
	unsigned int cpu;

	tap_stat_data_clear(&st->desc, agg);
	for (cpu = 0; cpu < st->ncpus; cpu++)
		__tap_stat_merge_sums(&st->desc, agg, slot(st, cpu));
	__tap_stat_merge_mean(&st->desc, agg);
	for (cpu = 0; cpu < st->ncpus; cpu++)
		__tap_stat_merge_spread(agg, slot(st, cpu));
	__tap_stat_merge_end(&st->desc, agg);
	return agg;
}

void
tap_stat_clear(struct tap_stat *st)
{
	unsigned int cpu;

	for (cpu = 0; cpu <= st->ncpus; cpu++)
		tap_stat_data_clear(&st->desc, slot(st, cpu));
}

void
__tap_stat_pair_step(const struct tap_stat_desc *d, struct tap_stat_pair *acc,
		     const struct tap_stat_data *part)
{
	int64_t n1 = acc->count, n2 = part->count, n, sum, avg, d1, d2, m;

	if (n2 == 0)
		return;
	if (n1 == 0) {
		acc->count = n2;
		acc->sum = part->sum;
		acc->avg_s = part->avg_s;
		acc->variance_s = part->variance_s;
		return;
	}
	n = n1 + n2;
	sum = tap_add(acc->sum, part->sum);
	avg = scaled(d, sum) / n;
	d1 = tap_sub(acc->avg_s, avg);
	d2 = tap_sub(part->avg_s, avg);
	m = tap_add(tap_mul(tap_mul(n1, d1), d1),
		    tap_mul(n1 - 1, acc->variance_s));
	m = tap_add(m, tap_add(tap_mul(tap_mul(n2, d2), d2),
			       tap_mul(n2 - 1, part->variance_s)));
	acc->variance_s = m / (n - 1);
	acc->avg_s = avg;
	acc->count = n;
	acc->sum = sum;
}

void
__tap_stat_pair_finish(const struct tap_stat_desc *d,
		       const struct tap_stat_pair *acc,
		       struct tap_stat_data *agg)
{
	agg->avg_s = acc->avg_s;
	agg->m2 = 0;
	agg->variance_s = d->variance ? acc->variance_s : 0;
}
