/*
 * procfs.h -- procfs("PATH").read/.write probes: files under
 * /proc/systemtap/MODULE whose read(2) and write(2) run a handler.
 *
 * Generated code fills one struct tap_procfs_file per file (a file may
 * have a read probe, write probes or both: every write probe of a file
 * runs for each write(2), in the script's order, as SystemTap's do) and lists the directories
 * the paths need, parents first.  The platform creates them at module
 * init and removes them at exit (tap_procfs_init / tap_procfs_exit).
 *
 * A read(2) at offset 0 runs the read handler, which fills the file's
 * buffer through $value (tap_procfs_set / tap_procfs_append); the bytes
 * are then copied out in the read callback, in process context; a
 * handler that ends in a script error makes the read fail (EIO) rather
 * than hand out the part of $value it wrote before the error.  A
 * write(2) copies at most bufsize - 1 bytes in (a longer write is a short
 * write: the caller writes the rest in the next call, which runs the
 * handler again) and runs the write handler, which reads $value
 * (tap_procfs_value), the same for each of the file's write handlers.  Handlers run in the usual probe context (per-CPU,
 * preemption off, MAXACTION); c->probe_data is the file.  Each file's
 * mutex serializes its callbacks, so the buffer has one user at a time.
 */
#ifndef TAP_LINUX_PROCFS_H
#define TAP_LINUX_PROCFS_H

#include <linux/types.h>
#include <linux/mutex.h>
#include "probes.h"

struct proc_dir_entry;

struct tap_procfs_file {
	const char *path;		/* under the module's directory */
	umode_t mode;			/* 0444 / 0222 / 0666 less the umask */
	const struct tap_probe *read;	/* NULL: no read probe */
	/* NULL-terminated; NULL: no write probe */
	const struct tap_probe *const *writes;
	size_t bufsize;			/* .read.maxsize(N), else MAXSTRINGLEN */
	/* runtime */
	char *buf;			/* bufsize bytes, allocated at init */
	size_t len;			/* bytes of $value */
	struct mutex lock;
	struct proc_dir_entry *pde;
};

int tap_procfs_init(struct tap_procfs_file *f, size_t n,
		    const char *const *dirs, size_t ndirs);
void tap_procfs_exit(struct tap_procfs_file *f, size_t n);

/* For handlers: $value of the file the probe runs for. */
const char *tap_procfs_value(struct tap_context *c);
void tap_procfs_set(struct tap_context *c, const char *s);
void tap_procfs_append(struct tap_context *c, const char *s);

#endif /* TAP_LINUX_PROCFS_H */
