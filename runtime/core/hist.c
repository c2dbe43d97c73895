/*
 * hist.c - histogram buckets and their ASCII rendering.
 *
 * Takes a struct tap_stat_desc (shape) and a merged struct tap_stat_data,
 * and appends to a struct tap_buf exactly what SystemTap prints for
 * @hist_log and @hist_linear: a "value |---...--- count" header, one row
 * per bucket with the value right-aligned, a bar of '@' scaled to 50
 * columns and the count; up to two empty buckets shown on each side of the
 * data; runs of empty buckets inside the data replaced by a single "~" row
 * (a row is elided when it and all its neighbours within `elision` rows
 * are empty; a negative `elision` never elides); linear histograms show
 * "<start" and ">last" rows for under- and overflow only when non-empty.
 * Must not allocate; output that does not fit is truncated by the buffer,
 * or, through tap_hist_print_part(), continued in the next buffer.
 */
#include "stat.h"
#include "error.h"
#include "arith.h"

/* Index of the log2 bucket of v; see stat.h for the layout.  Computed on
 * the magnitude in unsigned arithmetic so that INT64_MIN lands in 0. */
int
tap_hist_log_bucket(int64_t v)
{
	uint64_t mag = (uint64_t)v;
	int bits;

	if (v == 0)
		return TAP_HIST_LOG_BUCKET0;
	if (v < 0)
		mag = 0 - mag;
	bits = 64 - __builtin_clzll(mag);	/* 1 for 1, 2 for 2..3, ... */
	if (v < 0)
		return TAP_HIST_LOG_BUCKET0 - bits;
	return TAP_HIST_LOG_BUCKET0 + bits;
}

/* The value a log bucket's row is labelled with. */
int64_t
tap_hist_log_bucket_value(int bucket)
{
	if (bucket == TAP_HIST_LOG_BUCKET0)
		return 0;
	if (bucket < TAP_HIST_LOG_BUCKET0)
		return (int64_t)(0 - ((uint64_t)1 <<
				      (TAP_HIST_LOG_BUCKET0 - 1 - bucket)));
	return (int64_t)((uint64_t)1 << (bucket - TAP_HIST_LOG_BUCKET0 - 1));
}

/* Bucket 0 is underflow, 1..buckets-2 hold [start + (i-1)*interval, ...),
 * and buckets-1 is overflow. */
int
tap_hist_linear_bucket(const struct tap_stat_desc *d, int64_t v)
{
	uint64_t off;
	uint64_t idx;

	if (v < d->start)
		return 0;
	off = (uint64_t)v - (uint64_t)d->start;
	idx = off / (uint64_t)d->interval + 1;
	if (idx >= (uint64_t)(d->buckets - 1))
		return d->buckets - 1;
	return (int)idx;
}

int
tap_hist_bucket_count(const struct tap_stat_desc *d,
		      const struct tap_stat_data *sd, int64_t index,
		      int64_t *out)
{
	*out = 0;
	if (d->hist == TAP_HIST_NONE || index < 0 || index >= d->buckets)
		return TAP_EINVAL;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	*out = sd->hist[index];
	return TAP_OK;
}

/* The rows to show: the non-empty range widened by two on each side; log
 * histograms do not widen into negative buckets unless data is there, and
 * linear ones drop empty under/overflow rows. */
struct hist_layout {
	int low, high;
	bool under, over;
	int64_t valmax;
	int64_t scale;
	int val_space;
	int cnt_space;
};

static void
hist_range(const struct tap_stat_desc *d, const struct tap_stat_data *sd,
	   struct hist_layout *l)
{
	int i;

	l->low = -1;
	l->high = 0;
	l->valmax = 0;
	for (i = 0; i < d->buckets; i++) {
		if (sd->hist[i] > 0 && l->low == -1)
			l->low = i;
		if (sd->hist[i] > 0)
			l->high = i;
		if (sd->hist[i] > l->valmax)
			l->valmax = sd->hist[i];
	}
	for (i = 0; i < 2; i++) {
		if (d->hist == TAP_HIST_LOG) {
			if (l->low != TAP_HIST_LOG_BUCKET0 && l->low > 0)
				l->low--;
		} else if (l->low > 0) {
			l->low--;
		}
		if (l->high < d->buckets - 1)
			l->high++;
	}
	l->under = l->over = false;
	if (d->hist == TAP_HIST_LINEAR) {
		if (l->low == 0 && sd->hist[0] == 0)
			l->low++;
		if (l->high == d->buckets - 1 && sd->hist[l->high] == 0)
			l->high--;
		l->under = l->low == 0;
		l->over = l->high == d->buckets - 1;
	}
}

static int
max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Column widths.  The linear value column is sized from start and from
 * start + interval * high (one interval wider than the last label, as
 * SystemTap sizes it), plus a column for a '<' or '>' marker. */
static void
hist_widths(const struct tap_stat_desc *d, struct hist_layout *l)
{
	if (l->valmax <= TAP_HIST_WIDTH)
		l->scale = 1;
	else
		l->scale = (l->valmax + TAP_HIST_WIDTH - 1) / TAP_HIST_WIDTH;
	l->cnt_space = tap_dec_width(l->valmax);
	if (d->hist == TAP_HIST_LINEAR) {
		int64_t top = (int64_t)((uint64_t)d->start +
					(uint64_t)d->interval * l->high);

		l->val_space = max_int(tap_dec_width(d->start) + l->under,
				       tap_dec_width(top) + l->over);
	} else {
		l->val_space = max_int(
			tap_dec_width(tap_hist_log_bucket_value(l->high)),
			tap_dec_width(tap_hist_log_bucket_value(l->low)));
	}
	l->val_space = max_int(l->val_space, 5);	/* "value" */
}

/* A row is elided if it and every row within `elision` of it (inside
 * the shown range) are empty. */
static bool
row_elided(const struct tap_stat_desc *d, const struct tap_stat_data *sd,
	   const struct hist_layout *l, int i, int elision)
{
	int span = elision < d->buckets ? elision : d->buckets;
	int from = i - span > l->low ? i - span : l->low;
	int to = i + span < l->high ? i + span : l->high;
	int k;

	if (elision < 0)
		return false;
	for (k = from; k <= to; k++)
		if (sd->hist[k] != 0)
			return false;
	return true;
}

static int64_t
row_value(const struct tap_stat_desc *d, int i, const char **prefix)
{
	*prefix = "";
	if (d->hist == TAP_HIST_LOG)
		return tap_hist_log_bucket_value(i);
	if (i == 0) {
		*prefix = "<";
		return d->start;
	}
	if (i == d->buckets - 1) {
		*prefix = ">";
		return tap_add(d->start, tap_mul(i - 2, d->interval));
	}
	return tap_add(d->start, tap_mul(i - 1, d->interval));
}

static void
print_row(struct tap_buf *b, const struct tap_stat_desc *d,
	  const struct tap_stat_data *sd, const struct hist_layout *l, int i)
{
	const char *prefix;
	int64_t val = row_value(d, i, &prefix);
	int64_t bar = sd->hist[i] / l->scale;

	tap_buf_pad(b, ' ', l->val_space - tap_dec_width(val) -
			    (long)tap_strlen(prefix));
	tap_buf_puts(b, prefix);
	tap_buf_put_s64(b, val);
	tap_buf_puts(b, " |");
	tap_buf_pad(b, '@', bar);
	tap_buf_pad(b, ' ', TAP_HIST_WIDTH - bar + 1 + l->cnt_space -
			    tap_dec_width(sd->hist[i]));
	tap_buf_put_s64(b, sd->hist[i]);
	tap_buf_putc(b, '\n');
}

/*
 * A piece of the print -- the header, an elision mark with the row after
 * it, the closing newline -- goes into b whole or not at all: when it
 * does not fit, b is put back to where the piece began and the caller is
 * told to make room and call again from *cur.  With cur->cut the buffer
 * is filled to its end and cut instead (one buffer for the whole print).
 */
static bool
hist_piece_fits(struct tap_buf *b, size_t start, const struct tap_hist_cursor *cur)
{
	if (!b->truncated || cur->cut)
		return true;
	b->len = start;
	b->data[start] = '\0';
	b->truncated = false;
	return false;
}

int
tap_hist_print_part(struct tap_buf *b, const struct tap_stat_desc *d,
		    const struct tap_stat_data *sd, int elision,
		    struct tap_hist_cursor *cur)
{
	struct hist_layout l;
	size_t start;
	int i;

	if (d->hist == TAP_HIST_NONE)
		return TAP_EINVAL;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	hist_range(d, sd, &l);
	hist_widths(d, &l);

	if (!cur->started) {
		start = b->len;
		tap_buf_pad(b, ' ', l.val_space - 5);
		tap_buf_puts(b, "value |");
		tap_buf_pad(b, '-', TAP_HIST_WIDTH);
		tap_buf_puts(b, " count\n");
		if (!hist_piece_fits(b, start, cur))
			return TAP_HIST_MORE;
		cur->started = true;
		cur->row = l.low;
	}
	for (i = cur->row; i <= l.high; i++) {
		if (row_elided(d, sd, &l, i, elision)) {
			cur->eliding = true;
			continue;
		}
		start = b->len;
		if (cur->eliding) {
			tap_buf_pad(b, ' ', l.val_space);
			tap_buf_puts(b, " ~\n");
		}
		print_row(b, d, sd, &l, i);
		if (!hist_piece_fits(b, start, cur)) {
			cur->row = i;
			return TAP_HIST_MORE;
		}
		cur->eliding = false;
	}
	cur->row = l.high + 1;
	start = b->len;
	tap_buf_putc(b, '\n');
	if (!hist_piece_fits(b, start, cur))
		return TAP_HIST_MORE;
	return tap_buf_status(b);
}

/* The whole print into one buffer; what does not fit is cut (sprint). */
int
tap_hist_print(struct tap_buf *b, const struct tap_stat_desc *d,
	       const struct tap_stat_data *sd, int elision)
{
	struct tap_hist_cursor cur = { .cut = true };

	return tap_hist_print_part(b, d, sd, elision, &cur);
}
