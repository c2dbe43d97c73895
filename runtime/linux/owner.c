/*
 * owner.c -- the owner of a --privilege=stapusr module: the module
 * parameter __tap_owner_uid that taprun sets (loader/owner.c), turned into
 * the kuid the process probes compare with (owner.h) at module init.
 *
 * Takes: __tap_owner_uid, a uid in the user namespace of the loader (the
 * one finit_module runs in).  Produces: tap_owner_kuid, or a refusal to
 * load: without the parameter (someone insmod-ed the module by hand) a
 * stapusr module would see every user's processes, so it does not load.
 * Modules built for stapsys or stapdev have no owner and ignore it.
 */
#include <linux/moduleparam.h>
#include <linux/cred.h>
#include <linux/uidgid.h>
#include "owner.h"

/* (uid_t)-1 is no uid (INVALID_UID): the parameter was not given */
static unsigned int __tap_owner_uid = (unsigned int)-1;
module_param(__tap_owner_uid, uint, 0);
MODULE_PARM_DESC(__tap_owner_uid, "stapusr modules: the only user whose processes the process probes see (set by taprun)");

#ifdef TAP_OWNER_ONLY
kuid_t tap_owner_kuid;

int
tap_owner_init(void)
{
	tap_owner_kuid = make_kuid(current_user_ns(), (uid_t)__tap_owner_uid);
	if (!uid_valid(tap_owner_kuid)) {
		pr_err("%s: built for --privilege=stapusr: needs __tap_owner_uid=UID (taprun sets it); not loaded\n",
		       THIS_MODULE->name);
		return -EINVAL;
	}
	return 0;
}
#else
int
tap_owner_init(void)
{
	return 0;
}
#endif
