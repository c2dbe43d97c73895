/*
 * owner.h -- a --privilege=stapusr module's process probes see only the
 * tasks of the user who loaded it: whether the current task is that
 * user's (tap_owner_allows_current), asked once per probe hit.
 *
 * Takes: TAP_OWNER_ONLY, defined by the generated code of a stapusr
 * module (translator/codegen), and the module parameter __tap_owner_uid,
 * which taprun sets to the invoking user (loader/owner.c).  Produces: the
 * answer, always "yes" in a module built for stapsys or stapdev, which
 * may see every task; a stapusr module loaded without the parameter
 * refuses to load (tap_owner_init), as no parameter must never mean no
 * filter.
 *
 * "The user's own task" is what the kernel lets the user ptrace without
 * privilege: its real, effective and saved uids are all the owner's and
 * its memory is dumpable.  That is stricter than SystemTap, which looks
 * at the effective uid only: a set-uid program the user starts (its
 * effective uid root), a root daemon that only set its effective uid to
 * the user's, and a process that made itself undumpable (ssh-agent) hold
 * what the user may not read.  The objective credentials
 * (current->real_cred) are read: they are what others see of a task
 * (kill, ptrace); only the task itself replaces them (commit_creds), and
 * every hit runs in that task, so the read needs no lock
 * (current_real_cred).  A task that changes its uids mid-life is judged
 * at each hit: one that becomes root through a set-uid exec has its
 * .end of the old program and everything after unseen, one that gives
 * up root is seen from then on (an .end without its .begin).
 */
#ifndef TAP_LINUX_OWNER_H
#define TAP_LINUX_OWNER_H

#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/uidgid.h>

#ifdef TAP_OWNER_ONLY
/* the owner, from __tap_owner_uid at load (owner.c) */
extern kuid_t tap_owner_kuid;

static inline bool
tap_owner_allows_current(void)
{
	const struct cred *cred = current_real_cred();
	struct mm_struct *mm = current->mm;

	if (!uid_eq(cred->uid, tap_owner_kuid) ||
	    !uid_eq(cred->euid, tap_owner_kuid) ||
	    !uid_eq(cred->suid, tap_owner_kuid))
		return false;
	/* no mm: an exiting task (.end), judged by its uids alone */
	return !mm || get_dumpable(mm) == SUID_DUMP_USER;
}
#else
static inline bool
tap_owner_allows_current(void)
{
	return true;
}
#endif

/* At module init: 0, or -EINVAL (with a kernel log line saying why) when
 * a stapusr module has no valid owner. */
int tap_owner_init(void);

#endif
