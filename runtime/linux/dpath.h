/*
 * dpath.h -- the path of a struct path from probe context, as d_path()
 * gives it, without d_path()'s locks (dpath.c).
 *
 * d_path() walks under RCU, but retries under rename_lock and mount_lock
 * (seqlocks) when a rename or mount raced the walk, and reads the task's
 * root under fs->seq: spinlocks, which on PREEMPT_RT are sleeping locks,
 * not to be taken with preemption off as every handler runs.  This walk
 * takes no lock: every field is read no-fault and the walk is bounded,
 * so a rename or unmount at the same moment gives a stale or cut name,
 * never a hang or an oops.
 */
#ifndef TAP_LINUX_DPATH_H
#define TAP_LINUX_DPATH_H

struct path;

/* Called once from module init (process context): checks that the
 * mount walk reads struct mount as this kernel lays it out. */
void tap_dpath_init(void);

/* The path of p into buf (at its end, as d_path()), or an ERR_PTR:
 * -ENAMETOOLONG when it does not fit, -EFAULT when a dentry or mount
 * cannot be read. */
char *tap_dpath(const struct path *p, char *buf, int buflen);

#endif /* TAP_LINUX_DPATH_H */
