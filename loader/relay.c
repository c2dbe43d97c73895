/*
 * relay.c -- reading the module's per-CPU relay files (debugfs
 * tap_<module>/trace<cpu>) and writing their bytes to the script's output:
 * stdout, -o FILE, or with -b one file per CPU (FILE_<cpu>); -o FILE
 * moves on to FILE.1, FILE.2, ... at switch_file() and, with -S SIZE[,N],
 * whenever the file would pass SIZE megabytes (keeping the last N); in
 * the background (-F -o) taprun's stdout and stderr move on with it.
 *
 * Takes: the module name and output options.  Produces: every byte the
 * module's handlers committed, in per-CPU order, from every CPU there is
 * a file for: as many as are possible (no fixed limit), and those that
 * come online during the session (taprun_relay_scan, called again by
 * the session loop).  A relay read returns 0
 * when nothing is pending (it never blocks), so the session loop calls
 * taprun_relay_read_all() on every poll wakeup and timeout.
 * Must not: reorder bytes within one CPU's stream, or split a record: the
 * module writes each handler's output as one record and read() returns
 * whole records.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

#define TAPRUN_RELAY_READS_PER_PASS 16

static int
taprun_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= w;
	}
	return 0;
}

/* The possible CPUs: one past the highest in /sys/devices/system/cpu/
 * possible ("0-3", "0,2-5"); relay makes trace<cpu> for each that comes
 * online.  The configured count when that file cannot be read. */
static int
taprun_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	int lo, hi, n = 0;
	char sep;

	if (f) {
		while (fscanf(f, "%d", &lo) == 1) {
			hi = lo;
			if (fscanf(f, "%c", &sep) == 1 && sep == '-' &&
			    fscanf(f, "%d%c", &hi, &sep) < 1)
				break;
			if (hi + 1 > n)
				n = hi + 1;
			if (sep != ',')
				break;
		}
		fclose(f);
	}
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? n : 1;
}

/* Room for trace<cpu>: fd[] and out[] grow to cover it. */
static int
taprun_relay_room(struct taprun_relay *r, int cpu)
{
	int cap = r->cap, i, *fd, *out;

	if (cpu < r->cap)
		return 0;
	while (cap <= cpu)
		cap = cap ? cap * 2 : 1;
	fd = realloc(r->fd, cap * sizeof(*fd));
	if (fd)
		r->fd = fd;
	out = fd ? realloc(r->out, cap * sizeof(*out)) : NULL;
	if (!out) {
		taprun_err("relay: no memory for %d CPUs", cap);
		return -ENOMEM;
	}
	r->out = out;
	for (i = r->cap; i < cap; i++)
		r->fd[i] = r->out[i] = -1;
	r->cap = cap;
	return 0;
}

static int
taprun_relay_open_out(struct taprun_relay *r, int cpu)
{
	char path[4096];
	int fd;

	if (!r->bulk) {
		r->out[cpu] = r->main_out;
		return 0;
	}
	snprintf(path, sizeof(path), "%s_%d", r->outfile ? r->outfile : "tap_out",
		 cpu);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		int err = errno;
		taprun_err("output: cannot create %s: %s", path, strerror(err));
		return -err;
	}
	r->out[cpu] = fd;
	return 0;
}

static int
taprun_relay_open_one(struct taprun_relay *r, int cpu)
{
	char path[512];
	int err;

	err = taprun_relay_room(r, cpu);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/trace%d", r->dir, cpu);
	r->fd[cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd[cpu] < 0) {
		err = errno;
		taprun_err("relay: cannot open trace%d: %s", cpu,
			   strerror(err));
		return -err;
	}
	if (cpu + 1 > r->nfiles)
		r->nfiles = cpu + 1;
	r->generation++;
	taprun_verbose("relay: reading trace%d", cpu);
	return taprun_relay_open_out(r, cpu);
}

/*
 * Open the trace files not open yet: all of them at the start, and then
 * those of CPUs that came online since (relay makes a CPU's file when it
 * first comes up; it stays when the CPU goes down).  Files opened, or a
 * negative errno.
 */
int
taprun_relay_scan(struct taprun_relay *r)
{
	struct dirent *e;
	int cpu, opened = 0, ret = 0;
	DIR *d = opendir(r->dir);

	if (!d) {
		ret = -errno;
		taprun_err("relay: cannot list %s: %s", r->dir, strerror(errno));
		return ret;
	}
	while ((e = readdir(d)) != NULL) {
		if (sscanf(e->d_name, "trace%d", &cpu) != 1 || cpu < 0 ||
		    (cpu < r->nfiles && r->fd[cpu] >= 0))
			continue;
		ret = taprun_relay_open_one(r, cpu);
		if (ret)
			break;
		opened++;
	}
	closedir(d);
	return ret ? ret : opened;
}

int
taprun_relay_open(struct taprun_relay *r, const char *name,
		  const char *outfile, bool bulk)
{
	int ret;

	*r = (struct taprun_relay){ .main_out = STDOUT_FILENO,
				    .outfile = outfile, .bulk = bulk,
				    .own_out = bulk || outfile };
	ret = taprun_relay_room(r, taprun_possible_cpus() - 1);
	if (ret)
		goto err;
	if (outfile && !bulk) {
		r->main_out = open(outfile, O_WRONLY | O_CREAT | O_TRUNC |
				   O_CLOEXEC, 0644);
		if (r->main_out < 0) {
			ret = -errno;
			taprun_err("output: cannot create %s: %s", outfile,
				   strerror(errno));
			goto err;
		}
	}
	snprintf(r->dir, sizeof(r->dir), "%s/tap_%s", TAPRUN_DEBUGFS, name);
	ret = taprun_relay_scan(r);
	if (ret == 0) {
		taprun_err("relay: no trace files in %s", r->dir);
		ret = -ENOENT;
	}
	if (ret > 0)
		return 0;
err:
	taprun_relay_close(r);
	return ret;
}

void
taprun_relay_close(struct taprun_relay *r)
{
	int i;

	for (i = 0; i < r->nfiles; i++) {
		if (r->fd[i] >= 0)
			close(r->fd[i]);
		if (r->bulk && r->out[i] >= 0)
			close(r->out[i]);
	}
	if (r->own_out && !r->bulk && r->main_out >= 0)
		close(r->main_out);
	free(r->fd);
	free(r->out);
	r->fd = r->out = NULL;
	r->nfiles = r->cap = 0;
	r->main_out = -1;
}

/*
 * Read until every trace file is empty, however much that is: for DRAIN
 * and STOPPED, when the probes are disarmed and what is left is finite
 * (an end probe's dump can be as large as the -s buffers).  Bytes moved,
 * or a negative errno.
 */
int
taprun_relay_read_dry(struct taprun_relay *r)
{
	int n, total = 0;

	/* a CPU that came up since the last scan may hold the last words */
	taprun_relay_scan(r);
	while ((n = taprun_relay_read_all(r)) > 0)
		total += n;
	return n < 0 ? n : total;
}

static int taprun_relay_next_file(struct taprun_relay *r);

/*
 * -S: before `n` more bytes go to the -o file, move on to the next file
 * if they would take it past the limit.  A file that already has bytes
 * is never left empty-handed, so a single read larger than the limit
 * still lands whole (reads hold whole records, which are never split).
 */
static void
taprun_relay_rotate(struct taprun_relay *r, size_t n)
{
	if (!r->limit || r->bulk || !r->outfile || r->broken)
		return;
	if (r->file_bytes && r->file_bytes + n > r->limit)
		taprun_relay_next_file(r);
	r->file_bytes += n;
}

/*
 * Read every trace file, a bounded amount each; bytes moved, or a
 * negative errno the first time the output fails.  After that the data is read and dropped, so the
 * module's buffers keep draining while it stops.
 */
int
taprun_relay_read_all(struct taprun_relay *r)
{
	static char buf[256 * 1024];
	ssize_t n;
	int i, ret, moved = 0;

	for (i = 0; i < r->nfiles; i++) {
		if (r->fd[i] < 0)
			continue;
		/* A bounded number of reads per call: a script that traces
		 * taprun's own reads (vfs_read, say) makes output as fast as
		 * it is read, and the session loop must still get to see
		 * signals, the -c command's end and the module's messages. */
		for (int reads = 0; reads < TAPRUN_RELAY_READS_PER_PASS; reads++) {
			n = read(r->fd[i], buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			taprun_relay_rotate(r, n);
			ret = r->broken ? 0 : taprun_write_all(r->out[i], buf, n);
			if (ret) {
				if (ret != -EPIPE)
					taprun_err("output: write: %s", strerror(-ret));
				r->broken = true;
				return ret;
			}
			moved += n;
			r->bytes += n;
		}
	}
	return moved;
}

/*
 * switch_file(): what the module committed so far goes to the current
 * file, then -o FILE's output moves on to FILE.1, FILE.2, ... (with -b,
 * each CPU's FILE_<cpu> to FILE_<cpu>.N).  Without -o the output is
 * stdout, which cannot be switched: nothing changes.  The switch point
 * is where taprun reads the streams when the request comes, so a record
 * committed at the same moment may land on either side.  0, or a
 * negative errno when the next file cannot be made (the output then
 * stays where it was).
 */
int
taprun_relay_switch(struct taprun_relay *r)
{
	if (!r->outfile) {
		taprun_verbose("output: switch_file() without -o: stdout stays");
		return 0;
	}
	taprun_relay_read_all(r);
	return taprun_relay_next_file(r);
}

/* The name of output file number `n` (0: FILE itself). */
static void
taprun_relay_file_name(const struct taprun_relay *r, unsigned int n,
		       char *path, size_t size)
{
	if (n == 0)
		snprintf(path, size, "%s", r->outfile);
	else
		snprintf(path, size, "%s.%u", r->outfile, n);
}

void
taprun_relay_limit(struct taprun_relay *r, unsigned long long bytes,
		   unsigned int keep)
{
	r->limit = bytes;
	r->keep = keep;
}

/* In the background (-F -o, daemon.c) taprun's stdout and stderr are
 * the current output file: they move on with it, so that a message
 * lands beside the output it came with and is rotated away with it. */
static void
taprun_relay_stdio_follow(const struct taprun_relay *r)
{
	if (!r->stdio_follows)
		return;
	fflush(stdout);
	fflush(stderr);
	if (dup2(r->main_out, STDOUT_FILENO) < 0 ||
	    dup2(r->main_out, STDERR_FILENO) < 0)
		taprun_err("output: messages stay in the previous file: %s", strerror(errno));
}

/* The move to the next file itself, for switch_file() and -S; with -S's
 * N, the file that falls out of the last N is removed. */
static int
taprun_relay_next_file(struct taprun_relay *r)
{
	char path[4096];
	int i, fd;

	r->switches++;
	r->file_bytes = 0;
	for (i = r->bulk ? 0 : -1; i < (r->bulk ? r->nfiles : 0); i++) {
		if (i >= 0 && r->out[i] < 0)
			continue;
		if (i < 0)
			snprintf(path, sizeof(path), "%s.%u", r->outfile,
				 r->switches);
		else
			snprintf(path, sizeof(path), "%s_%d.%u", r->outfile, i,
				 r->switches);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			int err = errno;
			taprun_err("output: switch_file: cannot create %s: %s", path, strerror(err));
			return -err;
		}
		if (i < 0) {
			for (int cpu = 0; cpu < r->nfiles; cpu++)
				if (r->out[cpu] == r->main_out)
					r->out[cpu] = fd;
			close(r->main_out);
			r->main_out = fd;
			taprun_relay_stdio_follow(r);
		} else {
			close(r->out[i]);
			r->out[i] = fd;
		}
	}
	taprun_verbose("output: switched to file %u", r->switches);
	if (r->keep && !r->bulk && r->switches >= r->keep) {
		taprun_relay_file_name(r, r->switches - r->keep, path,
				       sizeof(path));
		if (unlink(path) != 0 && errno != ENOENT)
			taprun_err("output: -S: cannot remove %s: %s", path, strerror(errno));
		else
			taprun_verbose("output: removed %s (-S keeps %u files)", path, r->keep);
	}
	return 0;
}
