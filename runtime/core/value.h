/*
 * value.h - a script value as the core's functions receive it.
 *
 * SystemTap scripts have two scalar types, long (int64) and string.  Map
 * keys and printf arguments arrive as arrays of struct tap_value; the
 * callee knows from the map's key types or the format's directives which
 * member to read.  Strings are borrowed: the core copies what it keeps.
 */
#ifndef TAP_CORE_VALUE_H
#define TAP_CORE_VALUE_H

#include "platform.h"

enum tap_type {
	TAP_T_NONE,
	TAP_T_LONG,
	TAP_T_STRING,
	TAP_T_STAT,
};

struct tap_value {
	int64_t l;
	const char *s;
};

#define TAP_LONG(v)	((struct tap_value){ .l = (v), .s = NULL })
#define TAP_STR(v)	((struct tap_value){ .l = 0, .s = (v) })

#endif /* TAP_CORE_VALUE_H */
