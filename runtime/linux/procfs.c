/*
 * procfs.c -- the files procfs("PATH").read/.write probes create under
 * /proc/systemtap/MODULE (see procfs.h for what the handlers see).
 *
 * Takes: the generated tables (files and the directories their paths
 * need).  Produces: /proc/systemtap (when no other module made it), the
 * module's directory and its files, at init; all of it gone at exit.
 * /proc/systemtap is shared with other tapc modules and with SystemTap's:
 * it is made only when absent and removed only by the module that made
 * it, and only when it is empty then (another module's directory keeps
 * it).  Two modules loading or unloading at the very same moment can
 * still race on that check; the kernel has no lock the two could share.
 * Must not: copy to or from user space inside a handler -- the copies are
 * here, in the read and write callbacks, before or after the handler.
 */
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "compat/compat.h"
#include "context.h"
#include "procfs.h"

#define TAP_PROCFS_ROOT "systemtap"

static struct proc_dir_entry *tap_procfs_root;	/* when we made it */
static struct proc_dir_entry *tap_procfs_dir;	/* systemtap/MODULE */

/* ---- what handlers call ---- */

const char *
tap_procfs_value(struct tap_context *c)
{
	struct tap_procfs_file *f = c->probe_data;

	return f ? f->buf : "";
}

void
tap_procfs_set(struct tap_context *c, const char *s)
{
	struct tap_procfs_file *f = c->probe_data;

	if (!f)
		return;
	f->len = 0;
	f->buf[0] = '\0';
	tap_procfs_append(c, s);
}

void
tap_procfs_append(struct tap_context *c, const char *s)
{
	struct tap_procfs_file *f = c->probe_data;
	ssize_t n;

	/* past .maxsize the value is cut short, as a string is at
	 * MAXSTRINGLEN */
	if (!f || f->len >= f->bufsize - 1)
		return;
	n = strscpy(f->buf + f->len, s, f->bufsize - f->len);
	f->len = n < 0 ? f->bufsize - 1 : f->len + n;
}

/* ---- the file callbacks (process context, the file's mutex held) ---- */

/* Runs the handler; false when it ended in a script error, whose $value
 * is only what it wrote before the error. */
static bool
tap_procfs_run(struct tap_procfs_file *f, const struct tap_probe *p)
{
	struct tap_context *c = tap_context_enter(p, TAP_SESSION_RUNNING);
	bool ok;

	if (!c)
		return true;
	c->probe_data = f;
	p->handler(c);
	ok = !c->error;
	tap_context_exit(c);
	return ok;
}

static ssize_t
tap_procfs_read(struct file *file, char __user *ubuf, size_t count,
		loff_t *ppos)
{
	struct tap_procfs_file *f = tap_pde_data(file_inode(file));
	ssize_t ret;

	if (!f->read)
		return -EINVAL;
	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	/* a read from the start runs the handler; the rest of the same
	 * reading continues through what it left */
	if (*ppos == 0) {
		f->len = 0;
		f->buf[0] = '\0';
		/* a reader (a scraper, a JSON parser) gets an error, not the
		 * half of a value the script error cut short */
		if (!tap_procfs_run(f, f->read)) {
			f->len = 0;
			f->buf[0] = '\0';
			mutex_unlock(&f->lock);
			return -EIO;
		}
	}
	ret = simple_read_from_buffer(ubuf, count, ppos, f->buf, f->len);
	mutex_unlock(&f->lock);
	return ret;
}

static ssize_t
tap_procfs_write(struct file *file, const char __user *ubuf, size_t count,
		 loff_t *ppos)
{
	struct tap_procfs_file *f = tap_pde_data(file_inode(file));
	size_t n = min(count, min_t(size_t, f->bufsize, MAXSTRINGLEN) - 1);

	const struct tap_probe *const *w;

	if (!f->writes)
		return -EINVAL;
	if (count == 0)
		return 0;
	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	if (copy_from_user(f->buf, ubuf, n)) {
		mutex_unlock(&f->lock);
		return -EFAULT;
	}
	f->buf[n] = '\0';
	f->len = n;
	/* $value is read-only in a write probe: each sees the same bytes */
	for (w = f->writes; *w; w++)
		tap_procfs_run(f, *w);
	/* the value is for these handlers only; a read runs its own */
	f->len = 0;
	f->buf[0] = '\0';
	mutex_unlock(&f->lock);
	*ppos += n;
	return n;
}

static const struct proc_ops tap_procfs_ops = {
	.proc_read = tap_procfs_read,
	.proc_write = tap_procfs_write,
	.proc_lseek = default_llseek,
};

/* ---- /proc/systemtap, shared with other modules ---- */

static bool
tap_procfs_root_exists(void)
{
	struct path p;

	if (kern_path("/proc/" TAP_PROCFS_ROOT, LOOKUP_DIRECTORY, &p))
		return false;
	path_put(&p);
	return true;
}

struct tap_procfs_count {
	struct dir_context ctx;
	int entries;
};

static TAP_FILLDIR_RET
tap_procfs_count_one(struct dir_context *ctx, const char *name, int len,
		     loff_t off, u64 ino, unsigned int type)
{
	struct tap_procfs_count *n = container_of(ctx, struct tap_procfs_count,
						  ctx);

	if (!(len == 1 && name[0] == '.') &&
	    !(len == 2 && name[0] == '.' && name[1] == '.'))
		n->entries++;
	return TAP_FILLDIR_CONTINUE;
}

/* Whether /proc/systemtap has nothing in it (another module's directory
 * keeps it); when it cannot be read, it is left alone. */
static bool
tap_procfs_root_empty(void)
{
	struct tap_procfs_count n = { .ctx.actor = tap_procfs_count_one };
	struct file *d = filp_open("/proc/" TAP_PROCFS_ROOT,
				   O_RDONLY | O_DIRECTORY, 0);
	int ret;

	if (IS_ERR(d))
		return false;
	ret = iterate_dir(d, &n.ctx);
	filp_close(d, NULL);
	return ret == 0 && n.entries == 0;
}

static void
tap_procfs_remove_dirs(void)
{
	if (tap_procfs_dir)
		proc_remove(tap_procfs_dir);	/* and everything in it */
	tap_procfs_dir = NULL;
	if (tap_procfs_root && tap_procfs_root_empty())
		proc_remove(tap_procfs_root);
	tap_procfs_root = NULL;
}

static int
tap_procfs_make_dirs(const char *const *dirs, size_t ndirs)
{
	const char *mod = THIS_MODULE->name;
	char *path;
	size_t i;

	if (!tap_procfs_root_exists()) {
		tap_procfs_root = proc_mkdir(TAP_PROCFS_ROOT, NULL);
		if (!tap_procfs_root)
			return -ENOMEM;
	}
	path = kasprintf(GFP_KERNEL, TAP_PROCFS_ROOT "/%s", mod);
	if (!path)
		return -ENOMEM;
	tap_procfs_dir = proc_mkdir(path, NULL);
	kfree(path);
	if (!tap_procfs_dir)
		return -ENOMEM;
	for (i = 0; i < ndirs; i++)
		if (!proc_mkdir(dirs[i], tap_procfs_dir))
			return -ENOMEM;
	return 0;
}

/* ---- init and exit ---- */

static void
tap_procfs_free(struct tap_procfs_file *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		kvfree(f[i].buf);
		f[i].buf = NULL;
		f[i].pde = NULL;
	}
}

int
tap_procfs_init(struct tap_procfs_file *f, size_t n,
		const char *const *dirs, size_t ndirs)
{
	size_t i;
	int ret;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		mutex_init(&f[i].lock);
		f[i].buf = kvzalloc(f[i].bufsize, GFP_KERNEL);
		if (!f[i].buf) {
			ret = -ENOMEM;
			goto err;
		}
	}
	ret = tap_procfs_make_dirs(dirs, ndirs);
	if (ret)
		goto err;
	for (i = 0; i < n; i++) {
		f[i].pde = proc_create_data(f[i].path, f[i].mode,
					    tap_procfs_dir, &tap_procfs_ops,
					    &f[i]);
		if (!f[i].pde) {
			pr_err("%s: cannot create /proc/%s/%s/%s\n",
			       THIS_MODULE->name, TAP_PROCFS_ROOT,
			       THIS_MODULE->name, f[i].path);
			ret = -ENOMEM;
			goto err;
		}
	}
	return 0;
err:
	tap_procfs_remove_dirs();
	tap_procfs_free(f, n);
	return ret;
}

void
tap_procfs_exit(struct tap_procfs_file *f, size_t n)
{
	if (!n)
		return;
	/* proc_remove waits for callbacks still running on the files */
	tap_procfs_remove_dirs();
	tap_procfs_free(f, n);
}
