/*
 * error.h - how runtime/core reports failure.
 *
 * Convention: a core function that can fail returns an int, 0 on success
 * and one of the negative TAP_E* codes below otherwise.  The core never
 * raises a script error itself, prints nothing and never aborts: it leaves
 * its outputs in a defined state (0, "" or untouched, as each function
 * documents) and the caller (generated code) turns the code into the
 * script error, adding what only it knows -- the array's name, the script
 * location.  tap_error_message() gives the text SystemTap users expect for
 * each code, without that context.
 */
#ifndef TAP_CORE_ERROR_H
#define TAP_CORE_ERROR_H

enum tap_error {
	TAP_OK = 0,
	TAP_EDIVZERO = -1,	/* division or modulo by zero */
	TAP_EMAPFULL = -2,	/* insert into a full map without wrap */
	TAP_EAGGOVERFLOW = -3,	/* per-CPU maps hold more keys than the
				   aggregate can: "aggregation overflow" */
	TAP_EEMPTY = -4,	/* @min/@max/@avg/@variance/@hist of an
				   aggregate with no data */
	TAP_ETRUNC = -5,	/* output did not fit and was truncated */
	TAP_EFAULT = -6,	/* memory read failed (%m, %M) */
	TAP_EINVAL = -7,	/* bad argument: histogram shape, bucket
				   index, format mismatch */
	TAP_ENOMEM = -8,	/* init-time allocation failed */
	TAP_ENOENT = -9,	/* no such key (delete of a missing key is not
				   an error; this is for lookups that must
				   say so) */
};

const char *tap_error_message(int err);

#endif /* TAP_CORE_ERROR_H */
