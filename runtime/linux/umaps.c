/*
 * umaps.c -- where a file is mapped in the current process: the load
 * bias of a program or library, for @var reads of its statics in
 * process(...) probes (tap_ubias_file, probes_uprobe.h) and for the
 * process events (tap_uproc_bias in probes_uproc.c).
 *
 * Takes: an inode or a path, and the file's link-time first PT_LOAD page.
 * Produces: the start of the lowest mapping at file offset 0, or
 * ULONG_MAX.  Must not: wait for the mm's lock (a handler runs in atomic
 * context: the maps are looked at under a try-lock, mmlock.h, and busy
 * maps give no answer, so a read through a bias of 0 faults: a script
 * error, never a hang).
 *
 * Part of runtime.c's translation unit, after mmlock.c.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/dcache.h>
#include "dpath.h"
#include "mmlock.h"
#include "probes_uprobe.h"

/* Whether mapped file f is the file at path (its name first: the whole
 * path only for a mapping of a file of that name; tap_dpath, not
 * d_path, which may take locks that sleep on PREEMPT_RT). */
static bool
tap_ufile_is(struct file *f, const char *path)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	char *p;
	bool same;

	rcu_read_lock();
	same = !strcmp(f->f_path.dentry->d_name.name, base ? base + 1 : path);
	rcu_read_unlock();
	if (!same)
		return false;
	p = tap_dpath(&f->f_path, buf, sizeof(buf));
	return !IS_ERR(p) && !strcmp(p, path);
}

/* The start of the current process's lowest mapping at file offset 0 of
 * the file with this inode (or, inode NULL, at path); ULONG_MAX when
 * there is none or the maps are busy. */
static unsigned long
tap_ufile_start(struct inode *inode, const char *path)
{
	struct mm_struct *mm = tap_mm_read_trylock();
	unsigned long start = ULONG_MAX;
	struct vm_area_struct *vma;

	if (!mm)
		return ULONG_MAX;
	/* find_vma: the same on every kernel (the VMA iterators are not) */
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end))
		if (vma->vm_file && !vma->vm_pgoff &&
		    (inode ? file_inode(vma->vm_file) == inode
			   : tap_ufile_is(vma->vm_file, path))) {
			start = vma->vm_start;
			break;
		}
	tap_mm_read_unlock(mm);
	return start;
}

unsigned long
tap_ubias_file(struct tap_context *c, const char *path, u64 load_vaddr)
{
	unsigned long start;

	if (!tap_uprobe_current(c))
		return 0;
	start = tap_ufile_start(NULL, path);
	return start == ULONG_MAX ? 0 : start - (unsigned long)load_vaddr;
}
