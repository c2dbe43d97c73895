/*
 * stat.h - statistics aggregates: what `<<<` feeds and @count, @sum, @min,
 * @max, @avg, @variance, @hist_log and @hist_linear read.
 *
 * A struct tap_stat_desc says once, per script global, what is collected:
 * the histogram shape (none, log2, or linear start/stop/interval) and
 * whether variance is kept (it costs a division per `<<<`) with its bit
 * shift.  A struct tap_stat_data is one accumulator (one CPU's, or a merged
 * result) followed by its histogram buckets; its size depends on the desc.
 *
 * struct tap_stat is a scalar aggregate (`global s; s <<< v`): one data
 * slot per CPU, each on its own cache lines, so tap_stat_add() touches only
 * the calling CPU's slot and needs no shared lock -- the generated code
 * holds the global's *read* lock.  tap_stat_get() merges all slots into a
 * private aggregate; it needs the global's *write* lock so that no CPU adds
 * while it reads.  Arrays of statistics are struct tap_pmap (map.h), built
 * from the same data functions.
 *
 * Semantics follow SystemTap: @avg is the integer quotient sum/count,
 * @variance is kept per CPU with Welford's method on values scaled by
 * 2^shift and merged with the total-variance formula, so results match
 * stap's integer rounding (stap truncates the Welford delta to 32 bits; we
 * keep 64, which only differs where stap overflows).  Reading @min, @max,
 * @avg, @variance or a histogram of an empty aggregate is TAP_EEMPTY
 * ("empty aggregate"); @count and @sum of one are 0.
 *
 * Nothing here allocates except tap_stat_init().
 */
#ifndef TAP_CORE_STAT_H
#define TAP_CORE_STAT_H

#include "platform.h"
#include "error.h"
#include "arith.h"
#include "buf.h"

enum tap_hist_type {
	TAP_HIST_NONE,
	TAP_HIST_LOG,
	TAP_HIST_LINEAR,
};

/* Log histograms: one bucket per power of two for each sign, plus zero.
 * Bucket 64 holds 0, 65 holds 1, 66 holds 2..3, ..., 127 holds 2^62..;
 * bucket 63 holds -1, 62 holds -2..-3, ..., 0 holds INT64_MIN. */
#define TAP_HIST_LOG_BUCKETS	128
#define TAP_HIST_LOG_BUCKET0	64

/* Most buckets a linear histogram may have, underflow and overflow
 * included (SystemTap's STP_MAX_BUCKETS). */
#ifndef TAP_HIST_MAX_BUCKETS
#define TAP_HIST_MAX_BUCKETS	128
#endif

/* Width of the bar column and how many empty neighbours make a bucket row
 * elidable, as SystemTap's HIST_WIDTH and HIST_ELISION. */
#define TAP_HIST_WIDTH		50
#ifndef TAP_HIST_ELISION
#ifdef HIST_ELISION
#define TAP_HIST_ELISION	HIST_ELISION
#else
#define TAP_HIST_ELISION	2
#endif
#endif

struct tap_stat_desc {
	enum tap_hist_type hist;
	int64_t start;		/* linear only */
	int64_t stop;		/* linear only */
	int64_t interval;	/* linear only, > 0 */
	int buckets;		/* set by tap_stat_desc_init() */
	bool variance;		/* keep Welford state on every add */
	int shift;		/* variance bit shift, 0..62 */
};

struct tap_stat_data {
	int64_t count;
	int64_t sum;
	int64_t min;
	int64_t max;
	int64_t avg_s;		/* running mean, scaled by 2^shift */
	int64_t m2;		/* Welford M2, scaled by 2^(2*shift) */
	int64_t variance_s;	/* m2 / (count - 1), scaled */
	int64_t hist[];		/* desc->buckets counters */
};

struct tap_stat {
	struct tap_stat_desc desc;
	size_t slot_size;	/* bytes per CPU slot, cache-line multiple */
	bool plain;		/* no histogram, no variance: tap_stat_add's
				 * inline case */
	unsigned int ncpus;
	void *mem;		/* what tap_alloc() returned */
	char *slots;		/* ncpus slots, then the merged slot */
};

/* Describing what to collect (init time). */
int tap_stat_desc_init(struct tap_stat_desc *d, enum tap_hist_type hist,
		       int64_t start, int64_t stop, int64_t interval,
		       bool variance, int shift);
size_t tap_stat_data_size(const struct tap_stat_desc *d);

/* One accumulator. */
void tap_stat_data_clear(const struct tap_stat_desc *d,
			 struct tap_stat_data *sd);
void tap_stat_data_add(const struct tap_stat_desc *d,
		       struct tap_stat_data *sd, int64_t v);

/* Merging accumulators into agg: clear agg, then call merge_sums for every
 * part, merge_mean once, merge_spread for every part, merge_end once. */
/*
 * Arrays of statistics merge their CPUs one after another, as SystemTap's
 * maps do: the first CPU's mean and variance are taken as they are, and
 * each further CPU is combined with the running result by the Total
 * Variance formula. (Scalars merge all CPUs at once around the overall
 * mean: __tap_stat_merge_*.) The two orders round differently; each
 * matches what SystemTap prints for its kind.
 */
struct tap_stat_pair {
	int64_t count, sum, avg_s, variance_s;
};
void __tap_stat_pair_step(const struct tap_stat_desc *d,
			  struct tap_stat_pair *acc,
			  const struct tap_stat_data *part);
void __tap_stat_pair_finish(const struct tap_stat_desc *d,
			    const struct tap_stat_pair *acc,
			    struct tap_stat_data *agg);

void __tap_stat_merge_sums(const struct tap_stat_desc *d,
			   struct tap_stat_data *agg,
			   const struct tap_stat_data *part);
void __tap_stat_merge_mean(const struct tap_stat_desc *d,
			   struct tap_stat_data *agg);
void __tap_stat_merge_spread(struct tap_stat_data *agg,
			     const struct tap_stat_data *part);
void __tap_stat_merge_end(const struct tap_stat_desc *d,
			  struct tap_stat_data *agg);

/* Reading one (merged) accumulator; sd may be NULL for "no such entry". */
int64_t tap_stat_count(const struct tap_stat_data *sd);
int64_t tap_stat_sum(const struct tap_stat_data *sd);
int tap_stat_min(const struct tap_stat_data *sd, int64_t *out);
int tap_stat_max(const struct tap_stat_data *sd, int64_t *out);
int tap_stat_avg(const struct tap_stat_data *sd, int64_t *out);
int tap_stat_variance(const struct tap_stat_desc *d,
		      const struct tap_stat_data *sd, int64_t *out);

/* Scalar aggregates. */
int tap_stat_init(struct tap_stat *st, const struct tap_stat_desc *d);
void tap_stat_free(struct tap_stat *st);
/* `s <<< v`.  Inline, because every add runs it and handlers are compiled
 * apart from the runtime (kbuild.c): the plain case (no histogram, no
 * variance, not this CPU's first value) is done here, the rest by
 * tap_stat_data_add().  The caller holds this CPU's lock of `st`. */
static inline void
tap_stat_add(struct tap_stat *st, int64_t v)
{
	struct tap_stat_data *sd = (struct tap_stat_data *)
		(st->slots + tap_cpu_id() * st->slot_size);

	if (!st->plain || sd->count == 0) {
		tap_stat_data_add(&st->desc, sd, v);
		return;
	}
	sd->count++;
	sd->sum = tap_add(sd->sum, v);
	if (v > sd->max)
		sd->max = v;
	if (v < sd->min)
		sd->min = v;
}
const struct tap_stat_data *tap_stat_get(struct tap_stat *st);
void tap_stat_clear(struct tap_stat *st);

/* Histograms (hist.c). */
int tap_hist_log_bucket(int64_t v);
int64_t tap_hist_log_bucket_value(int bucket);
int tap_hist_linear_bucket(const struct tap_stat_desc *d, int64_t v);
int tap_hist_print(struct tap_buf *b, const struct tap_stat_desc *d,
		   const struct tap_stat_data *sd, int elision);
/* A histogram printed over several buffers (a handler's output buffer is
 * 8 KiB in the kernel; 2,000 rows are ~120 KB): a call fills b with whole
 * rows and returns TAP_HIST_MORE when rows are left; the caller empties
 * the buffer and calls again with the same cursor (zeroed at first).  A
 * piece too big for an empty buffer: call again with cut set. */
#define TAP_HIST_MORE	1
struct tap_hist_cursor {
	int row;		/* next bucket row to print */
	bool started;		/* the header is out */
	bool eliding;		/* an elision mark is owed before that row */
	bool cut;		/* fill b to its end and cut, never stop */
};
int tap_hist_print_part(struct tap_buf *b, const struct tap_stat_desc *d,
			const struct tap_stat_data *sd, int elision,
			struct tap_hist_cursor *cur);
int tap_hist_bucket_count(const struct tap_stat_desc *d,
			  const struct tap_stat_data *sd, int64_t index,
			  int64_t *out);

#endif /* TAP_CORE_STAT_H */
