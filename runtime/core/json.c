/*
 * json.c - JSON values for --json output (see json.h for the shapes).
 *
 * Takes script values, statistics and histograms; appends their JSON text
 * to a struct tap_buf.  The escaping is the part that matters: a script
 * string may hold any byte, and the document must still parse, so control
 * bytes are escaped and bytes that do not form UTF-8 are written as the
 * code point of the byte (\u00XX), never passed through.
 * Must not: allocate, or write anything but JSON values.
 */
#include "json.h"

/* Length of the UTF-8 sequence at s (1..4), or 0 when it is not one:
 * a stray continuation byte, an overlong form, a surrogate, past U+10FFFF
 * or cut short. */
static int
json_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

static void
json_put_u00(struct tap_buf *b, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	tap_buf_putn(b, e, sizeof(e));
}

int
tap_json_str(struct tap_buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	int n;

	tap_buf_putc(b, '"');
	while (*s) {
		switch (*s) {
		case '"': tap_buf_puts(b, "\\\""); s++; continue;
		case '\\': tap_buf_puts(b, "\\\\"); s++; continue;
		case '\n': tap_buf_puts(b, "\\n"); s++; continue;
		case '\t': tap_buf_puts(b, "\\t"); s++; continue;
		case '\r': tap_buf_puts(b, "\\r"); s++; continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			json_put_u00(b, *s++);
			continue;
		}
		n = json_utf8_len(s);
		if (n == 0) {
			json_put_u00(b, *s++);
			continue;
		}
		tap_buf_putn(b, (const char *)s, (size_t)n);
		s += n;
	}
	tap_buf_putc(b, '"');
	return tap_buf_status(b);
}

static void
json_member_long(struct tap_buf *b, const char *name, int64_t v)
{
	tap_buf_puts(b, name);
	tap_buf_put_s64(b, v);
}

int
tap_json_stat(struct tap_buf *b, const struct tap_stat_data *sd)
{
	int64_t v;

	if (!sd || tap_stat_count(sd) == 0) {
		tap_buf_puts(b, "{\"count\":0}");
		return tap_buf_status(b);
	}
	json_member_long(b, "{\"count\":", tap_stat_count(sd));
	(void)tap_stat_min(sd, &v);
	json_member_long(b, ",\"min\":", v);
	(void)tap_stat_max(sd, &v);
	json_member_long(b, ",\"max\":", v);
	json_member_long(b, ",\"sum\":", tap_stat_sum(sd));
	(void)tap_stat_avg(sd, &v);
	json_member_long(b, ",\"avg\":", v);
	tap_buf_putc(b, '}');
	return tap_buf_status(b);
}

int
tap_json_value(struct tap_buf *b, const struct tap_value *v, enum tap_type t,
	       const struct tap_stat_data *sd)
{
	switch (t) {
	case TAP_T_STRING:
		return tap_json_str(b, v->s);
	case TAP_T_STAT:
		return tap_json_stat(b, sd);
	case TAP_T_LONG:
	case TAP_T_NONE:
		break;
	}
	tap_buf_put_s64(b, v->l);
	return tap_buf_status(b);
}

int
tap_json_entry(struct tap_buf *b, bool first, const struct tap_value *keys,
	       const enum tap_type *key_types, unsigned int nkeys,
	       const struct tap_value *val, enum tap_type t,
	       const struct tap_stat_data *sd)
{
	unsigned int i;

	tap_buf_puts(b, first ? "{\"key\":[" : ",{\"key\":[");
	for (i = 0; i < nkeys; i++) {
		if (i)
			tap_buf_putc(b, ',');
		tap_json_value(b, &keys[i], key_types[i], NULL);
	}
	tap_buf_puts(b, "],\"value\":");
	tap_json_value(b, val, t, sd);
	tap_buf_putc(b, '}');
	return tap_buf_status(b);
}

/* The value a bucket's row is labelled with (its lowest value). */
static int64_t
json_bucket_low(const struct tap_stat_desc *d, int i)
{
	if (d->hist == TAP_HIST_LOG)
		return tap_hist_log_bucket_value(i);
	return d->start + (int64_t)(i - 1) * d->interval;
}

int
tap_json_named_value(struct tap_buf *b, const char *name,
		     const struct tap_value *v, enum tap_type t,
		     const struct tap_stat_data *sd)
{
	tap_buf_puts(b, "{\"name\":");
	tap_json_str(b, name);
	tap_buf_puts(b, ",\"value\":");
	tap_json_value(b, v, t, sd);
	tap_buf_puts(b, "}\n");
	return tap_buf_status(b);
}

int
tap_json_hist(struct tap_buf *b, const char *name,
	      const struct tap_stat_desc *d, const struct tap_stat_data *sd)
{
	bool linear = d->hist == TAP_HIST_LINEAR, first = true;
	int i, lo = 0, hi = d->buckets;

	if (d->hist == TAP_HIST_NONE)
		return TAP_EINVAL;
	if (!sd || sd->count == 0)
		return TAP_EEMPTY;
	tap_buf_puts(b, "{\"name\":");
	tap_json_str(b, name);
	tap_buf_puts(b, linear ? ",\"hist\":\"linear\",\"stats\":"
			       : ",\"hist\":\"log\",\"stats\":");
	tap_json_stat(b, sd);
	if (linear) {
		json_member_long(b, ",\"start\":", d->start);
		json_member_long(b, ",\"stop\":", d->stop);
		json_member_long(b, ",\"interval\":", d->interval);
		if (sd->hist[0])
			json_member_long(b, ",\"underflow\":", sd->hist[0]);
		if (sd->hist[d->buckets - 1])
			json_member_long(b, ",\"overflow\":",
					 sd->hist[d->buckets - 1]);
		lo = 1;
		hi = d->buckets - 1;
	}
	tap_buf_puts(b, ",\"buckets\":[");
	for (i = lo; i < hi; i++) {
		if (!sd->hist[i])
			continue;
		json_member_long(b, first ? "{\"value\":" : ",{\"value\":",
				 json_bucket_low(d, i));
		json_member_long(b, ",\"count\":", sd->hist[i]);
		tap_buf_putc(b, '}');
		first = false;
	}
	tap_buf_puts(b, "]}\n");
	return tap_buf_status(b);
}
