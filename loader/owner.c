/*
 * owner.c -- the owner of a --privilege=stapusr module: the one user whose
 * processes its process probes may see (runtime/linux/owner.h), passed as
 * the module parameter __tap_owner_uid.
 *
 * Takes: the module's "tap_privilege=" .modinfo string and who runs
 * taprun.  Produces: "__tap_owner_uid=UID" appended to the parameters of a
 * stapusr module; nothing for stapsys and stapdev modules (and modules
 * without the string, taken as stapdev as in privilege.c), which see
 * every process.
 *
 * Which uid: the real uid, which the kernel keeps and the caller cannot
 * choose: it stays the user's when taprun is installed setuid root
 * (only the effective uid becomes 0).  When the real uid is 0 the caller
 * is root, and under sudo (SUDO_UID set by sudo) the user who ran sudo
 * is meant, as for the -c command (target.c): the owner is SUDO_UID.  The
 * environment is the caller's to set, so SUDO_UID is believed only with
 * a real uid of 0, where it can only narrow what root, who may load any
 * module, would see.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "loader/taprun.h"

/* The user a stapusr module is run for (see above). */
uid_t
taprun_owner_uid(void)
{
	unsigned long sudo_uid;

	if (getuid() != 0)
		return getuid();
	if (taprun_sudo_id("SUDO_UID", &sudo_uid) && sudo_uid < (uid_t)-1)
		return (uid_t)sudo_uid;
	return 0;
}

int
taprun_owner_param(const char *module, char **params)
{
	char level[64], param[64];

	if (taprun_modinfo_get(module, "tap_privilege", level, sizeof(level)) ||
	    taprun_privilege_rank(level) != 1)
		return 0;	/* not stapusr: no owner */
	snprintf(param, sizeof(param), "__tap_owner_uid=%u",
		 (unsigned)taprun_owner_uid());
	taprun_verbose("%s: stapusr: process probes see only uid %u's processes",
		       module, (unsigned)taprun_owner_uid());
	return taprun_params_add(params, param);
}
