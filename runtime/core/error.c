/*
 * error.c - the message for each TAP_E* code.  Texts follow what SystemTap
 * prints for the same condition, minus the location the caller appends.
 */
#include "error.h"

const char *
tap_error_message(int err)
{
	switch (err) {
	case TAP_OK:
		return "success";
	case TAP_EDIVZERO:
		return "division by zero";
	case TAP_EMAPFULL:
		return "Array overflow, check MAXMAPENTRIES";
	case TAP_EAGGOVERFLOW:
		return "aggregation overflow";
	case TAP_EEMPTY:
		return "empty aggregate";
	case TAP_ETRUNC:
		return "output truncated";
	case TAP_EFAULT:
		return "read fault";
	case TAP_EINVAL:
		return "invalid argument";
	case TAP_ENOMEM:
		return "out of memory";
	case TAP_ENOENT:
		return "no such element";
	}
	return "unknown error";
}
