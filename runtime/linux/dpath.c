/*
 * dpath.c -- d_path() without locks, for probe context (see dpath.h).
 *
 * Takes: a struct path (mount and dentry).  Produces: "/dir/name" from
 * the current task's root, " (deleted)" appended for an unlinked file,
 * or the file system's own name for dentries that have one (pipes,
 * sockets: d_op->d_dname, which formats and takes no lock).  Must not:
 * take a lock, sleep, or load a field of a dentry or mount directly.
 *
 * The walk goes up d_parent, prepending d_name, to the root of the
 * mount, then on from the mount point in the parent mount, until the
 * task's root (or the top of the namespace, or a dentry that is its own
 * parent).  struct mount is private to fs/ (fs/mount.h is not among the
 * installed headers); only its first fields are needed, and they have
 * been mnt_hash, mnt_parent, mnt_mountpoint, mnt since 3.3 (struct
 * tap_mount).  tap_dpath_init() checks that against d_path() on a mount
 * point at load time; if they differ the walk stops at the first mount
 * root it meets and returns -EXDEV for paths beyond it.
 *
 * Part of runtime.c's translation unit.
 */
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include "compat/compat.h"
#include "dpath.h"
#include "preempt_enable.h"

#define TAP_DPATH_DEPTH	256	/* dentries and mounts, at most */

/* The head of struct mount (fs/mount.h). */
struct tap_mount {
	struct hlist_node mnt_hash;
	struct tap_mount *mnt_parent;
	struct dentry *mnt_mountpoint;
	struct vfsmount mnt;
};

static bool tap_dpath_mounts_ok = true;	/* the layout above was checked */

#define TAP_DREAD(dst, src) \
	(!tap_copy_from_kernel_nofault(&(dst), &(src), sizeof(dst)))

/* Prepend len bytes of s at *end (down to buf): false if they do not fit. */
static bool
tap_dpath_prepend(char *buf, char **end, const char *s, int len)
{
	if (len > *end - buf)
		return false;
	*end -= len;
	memcpy(*end, s, len);
	return true;
}

/* Prepend "/" and dentry d's name; 0, -ENAMETOOLONG or -EFAULT.  A
 * rename racing us may pair the new length with the old name (which
 * stays valid under RCU: preemption is off): the name is cut at its NUL. */
static int
tap_dpath_name(char *buf, char **end, const struct dentry *d)
{
	char name[NAME_MAX + 1];
	const unsigned char *p;
	u32 len;

	if (!TAP_DREAD(p, d->d_name.name) || !TAP_DREAD(len, d->d_name.len))
		return -EFAULT;
	len = min_t(u32, len, NAME_MAX);
	if (tap_copy_from_kernel_nofault(name, p, len))
		return -EFAULT;
	name[len] = '\0';
	if (!tap_dpath_prepend(buf, end, name, strlen(name)) ||
	    !tap_dpath_prepend(buf, end, "/", 1))
		return -ENAMETOOLONG;
	return 0;
}

/* The task's root, read without fs->seq (see dpath.h); false when the
 * task has none (exiting). */
static bool
tap_dpath_root(struct path *root)
{
	struct fs_struct *fs = READ_ONCE(current->fs);

	return fs && TAP_DREAD(*root, fs->root);
}

/* One step up from (*d, *m): the parent dentry, or across the mount
 * point.  1: moved, 0: reached the top, negative: an error. */
static int
tap_dpath_up(struct dentry **d, struct tap_mount **m, char *buf, char **end)
{
	struct dentry *root, *parent;
	struct tap_mount *up;
	int err;

	if (!TAP_DREAD(root, (*m)->mnt.mnt_root))
		return -EFAULT;
	if (*d == root) {
		if (!tap_dpath_mounts_ok)
			return -EXDEV;
		if (!TAP_DREAD(up, (*m)->mnt_parent))
			return -EFAULT;
		if (up == *m)
			return 0;	/* the namespace's root */
		if (!TAP_DREAD(*d, (*m)->mnt_mountpoint))
			return -EFAULT;
		*m = up;
		return 1;
	}
	if (!TAP_DREAD(parent, (*d)->d_parent))
		return -EFAULT;
	if (parent == *d)
		return 0;	/* the root of a file system not mounted here */
	err = tap_dpath_name(buf, end, *d);
	if (err)
		return err;
	*d = parent;
	return 1;
}

#ifdef CONFIG_PREEMPT_RT
#define TAP_DMA_BUF_MAGIC 0x444d4142	/* "DMAB", uapi/linux/magic.h */

static bool
tap_dpath_is_dmabuf(const struct dentry *d)
{
	struct super_block *sb;
	unsigned long magic;

	return !TAP_DREAD(sb, d->d_sb) || !TAP_DREAD(magic, sb->s_magic) ||
	       magic == TAP_DMA_BUF_MAGIC;
}
#endif

/*
 * dentry d's own name (pipe:[N], socket:[N]...) when its file system
 * makes one, as d_path() does.  They only format, but for dma-buf's,
 * which takes a spinlock: a sleeping lock on PREEMPT_RT, so there no
 * name is made for a dma-buf (-EOPNOTSUPP).
 */
static char *
tap_dpath_dname(struct dentry *d, char *buf, int buflen, bool *done)
{
	const struct dentry_operations *op;
	char *(*dname)(struct dentry *, char *, int) = NULL;

	*done = TAP_DREAD(op, d->d_op) && op && TAP_DREAD(dname, op->d_dname)
		&& dname;
	if (!*done)
		return NULL;
#ifdef CONFIG_PREEMPT_RT
	if (tap_dpath_is_dmabuf(d))
		return ERR_PTR(-EOPNOTSUPP);
#endif
	return dname(d, buf, buflen);
}

/* Whether d was unlinked: unhashed and not a root (d_unlinked()). */
static bool
tap_dpath_unlinked(const struct dentry *d)
{
	struct hlist_bl_node **pprev;
	struct dentry *parent;

	return TAP_DREAD(pprev, d->d_hash.pprev) && !pprev &&
	       TAP_DREAD(parent, d->d_parent) && parent != d;
}

char *
tap_dpath(const struct path *p, char *buf, int buflen)
{
	struct dentry *d = p->dentry;
	struct tap_mount *m = container_of(p->mnt, struct tap_mount, mnt);
	char *end = buf + buflen;
	struct path root;
	bool done;
	char *s;
	int i, step = 1;
	static const char deleted[] = " (deleted)";

	if (buflen < 2)
		return ERR_PTR(-ENAMETOOLONG);
	s = tap_dpath_dname(d, buf, buflen, &done);
	if (done)
		return s;
	if (!tap_dpath_root(&root))
		root = (struct path){ .mnt = NULL, .dentry = NULL };
	*--end = '\0';
	if (tap_dpath_unlinked(d) &&
	    !tap_dpath_prepend(buf, &end, deleted, sizeof(deleted) - 1))
		return ERR_PTR(-ENAMETOOLONG);
	for (i = 0; i < TAP_DPATH_DEPTH && step > 0; i++) {
		if (d == root.dentry && &m->mnt == root.mnt)
			break;
		step = tap_dpath_up(&d, &m, buf, &end);
	}
	if (step < 0)
		return ERR_PTR(step);
	/* the root itself ("", " (deleted)") is "/" */
	if (*end != '/' && !tap_dpath_prepend(buf, &end, "/", 1))
		return ERR_PTR(-ENAMETOOLONG);
	return end;
}

/*
 * struct tap_mount must be the head of this kernel's struct mount: the
 * walk from a mount point (a mount's root dentry: the walk crosses into
 * the parent mount at once) must give what d_path() gives.  Checked on
 * the first of these that is a mount point here; none: nothing to check
 * against, the layout is trusted (it has not changed since 3.3).
 */
void
tap_dpath_init(void)
{
	static const char *const points[] = { "/proc", "/sys", "/dev" };
	char mine[64], theirs[64];
	struct path p;
	char *a, *b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(points); i++) {
		if (kern_path(points[i], 0, &p))
			continue;
		if (p.dentry != p.mnt->mnt_root) {
			path_put(&p);
			continue;
		}
		preempt_disable();	/* as in a handler */
		a = tap_dpath(&p, mine, sizeof(mine));
		tap_preempt_enable();
		b = d_path(&p, theirs, sizeof(theirs));
		path_put(&p);
		tap_dpath_mounts_ok = !IS_ERR(a) && !IS_ERR(b) && !strcmp(a, b);
		if (!tap_dpath_mounts_ok)
			pr_warn("%s: paths across mounts are not available (%s)\n",
				THIS_MODULE->name, points[i]);
		return;
	}
}
