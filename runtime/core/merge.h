/*
 * merge.h - `tapc --remote-merge`: a script's globals written out as text
 * lines on each host, and added together into one program's globals here.
 *
 * On each host the module's end phase writes, instead of running the
 * script's end probes, one line per scalar global or array entry
 * (tap_merge_put) and a closing line (TAP_MERGE_END); tapc collects the
 * lines of every host into one file, and the program that runs the end
 * probes here reads it (tap_merge_load_line) into its globals, which
 * start cleared (tap_merge_reset), before its end probes run.  The
 * arithmetic: integers add; statistics merge as a machine's CPUs do
 * (counts, sums and histogram buckets add, min and max combine, @avg
 * follows from the merged sum and count); arrays merge by key.
 *
 * A line:  "\036M NAME NKEYS KEY... L VALUE"  or
 *          "\036M NAME NKEYS KEY... T COUNT SUM MIN MAX [BUCKET:N]..."
 * KEY is "i" and a decimal, or "s" and the string's bytes with those
 * below '!', above '~' and '%' as %XX; only non-zero buckets are listed.
 * The leading \036 (record separator) tells these lines apart from the
 * script's own output.  Strings as values are not carried: tapc refuses
 * scripts that would need them (translator/codegen/codegen_merge.c).
 *
 * Nothing here allocates; the loader edits the line it is given.
 */
#ifndef TAP_CORE_MERGE_H
#define TAP_CORE_MERGE_H

#include "platform.h"
#include "value.h"
#include "buf.h"
#include "stat.h"
#include "map.h"

#define TAP_MERGE_MARK		"\036M "
#define TAP_MERGE_END		"\036M.end\n"
#define TAP_MERGE_VERSION	1

/* One global the loader may fill: exactly one of the pointers is set,
 * the one its shape needs (a scalar long, a scalar aggregate, an array
 * of longs, an array of aggregates). */
struct tap_merge_global {
	const char *name;
	unsigned int nkeys;
	enum tap_type keys[TAP_MAP_MAX_KEYS];
	int64_t *scalar;
	struct tap_stat *stat;
	struct tap_map *map;
	struct tap_pmap *pmap;
};

/* Write one line: a scalar (nk 0) or one array entry.  vt is TAP_T_LONG
 * (value lv) or TAP_T_STAT (d and sd; sd NULL or empty: count 0). */
int tap_merge_put(struct tap_buf *b, const char *name,
		  const struct tap_value *keys, const enum tap_type *kt,
		  unsigned int nk, enum tap_type vt, int64_t lv,
		  const struct tap_stat_desc *d,
		  const struct tap_stat_data *sd);

/* Clear the globals a merge fills, so that each holds the hosts' sum. */
void tap_merge_reset(const struct tap_merge_global *g, size_t n);

/* Add one line (its marker and newline may be there or not; the line is
 * edited in place).  0, or a negative error with *why saying what is
 * wrong with the line. */
int tap_merge_load_line(const struct tap_merge_global *g, size_t n,
			char *line, const char **why);

/* Statistics: add part into agg (count, sum, min, max, buckets). */
void tap_merge_stat_data(const struct tap_stat_desc *d,
			 struct tap_stat_data *agg,
			 const struct tap_stat_data *part);

#endif /* TAP_CORE_MERGE_H */
