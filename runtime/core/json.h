/*
 * json.h - JSON text for tapc's --json output: the pieces the generated
 * code puts together into one JSON document per line when a script's
 * arrays, aggregates and histograms are printed (print of a histogram, the
 * end-of-run autoprint).  The documents' shapes are in doc/tapc.1
 * (--json); here are only the values inside them:
 *
 *   a string   "text", escaped as RFC 8259 wants (\" \\ \n \t ..., other
 *              control bytes as \u00XX); bytes that are not UTF-8 become
 *              \u00XX of the byte, so the text always parses
 *   a number   the long in decimal
 *   a stat     {"count":N,"min":N,"max":N,"sum":N,"avg":N}, or
 *              {"count":0} for an empty aggregate
 *   an entry   {"key":[K1,...],"value":V} of an array
 *   a hist     {"name":N,"hist":"log","stats":STAT,"buckets":[{"value":LOW,"count":N},...]}
 *              with only the non-empty buckets; a linear one ("linear") adds
 *              "start", "stop", "interval", and its
 *              under- and overflow as "underflow":N, "overflow":N when not 0
 *
 * Everything writes into a struct tap_buf and returns its status (what
 * does not fit is cut, as any output).  Nothing here allocates.
 */
#ifndef TAP_CORE_JSON_H
#define TAP_CORE_JSON_H

#include "platform.h"
#include "buf.h"
#include "value.h"
#include "stat.h"

int tap_json_str(struct tap_buf *b, const char *s);
int tap_json_value(struct tap_buf *b, const struct tap_value *v,
		   enum tap_type t, const struct tap_stat_data *sd);
int tap_json_stat(struct tap_buf *b, const struct tap_stat_data *sd);
int tap_json_entry(struct tap_buf *b, bool first, const struct tap_value *keys,
		   const enum tap_type *key_types, unsigned int nkeys,
		   const struct tap_value *val, enum tap_type t,
		   const struct tap_stat_data *sd);
/* Whole documents, each ending its line: {"name":NAME,"value":V} and
 * {"name":NAME,"hist":...} (TAP_EEMPTY, and nothing written, for an
 * empty aggregate). */
int tap_json_named_value(struct tap_buf *b, const char *name,
			 const struct tap_value *v, enum tap_type t,
			 const struct tap_stat_data *sd);
int tap_json_hist(struct tap_buf *b, const char *name,
		  const struct tap_stat_desc *d, const struct tap_stat_data *sd);

#endif /* TAP_CORE_JSON_H */
