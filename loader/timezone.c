/*
 * timezone.c -- the local time zone, for a module that asks for it.
 *
 * Takes: the module's declared parameters __tap_tz_gmtoff and
 * __tap_tz_name (tapsets/linux/timezone.stp declares them when a script
 * calls tz_gmtoff(), tz_name() or tz_ctime()) and this process's time
 * zone (TZ, /etc/localtime), as localtime() sees it now.  Produces:
 * "__tap_tz_gmtoff=SECONDS_WEST __tap_tz_name=ABBREV" appended to the
 * parameters.  The kernel knows no time zone names, so the loader is the
 * one place that can give them, as SystemTap's staprun does.
 * Must not: pass parameters a module does not declare (the kernel would
 * log them as unknown).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "loader/taprun.h"

int
taprun_tz_params(const char *module, char **params)
{
	char assign[96];
	time_t now = time(NULL);
	struct tm tm;
	int ret;

	if (!taprun_modinfo_has_param(module, "__tap_tz_gmtoff"))
		return 0;
	tzset();
	if (!localtime_r(&now, &tm)) {
		taprun_err("time zone: localtime: %s", strerror(errno));
		return -EINVAL;
	}
	/* tm_gmtoff is seconds east of UTC; SystemTap gives seconds west. */
	snprintf(assign, sizeof(assign), "__tap_tz_gmtoff=%ld",
		 -(long)tm.tm_gmtoff);
	ret = taprun_params_add(params, assign);
	if (ret || !taprun_modinfo_has_param(module, "__tap_tz_name"))
		return ret;
	snprintf(assign, sizeof(assign), "__tap_tz_name=%.31s",
		 tm.tm_zone && *tm.tm_zone ? tm.tm_zone : "UTC");
	return taprun_params_add(params, assign);
}
