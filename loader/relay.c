/*
 * relay.c -- reading the module's per-CPU relay files (debugfs
 * tap_<module>/trace<cpu>) and writing their bytes to the script's output:
 * stdout, -o FILE, or with -b one file per CPU (FILE_<cpu>).
 *
 * Takes: the module name and output options.  Produces: every byte the
 * module's handlers committed, in per-CPU order.  A relay read returns 0
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

static int
taprun_relay_open_out(struct taprun_relay *r, int cpu, const char *outfile,
		      bool bulk)
{
	char path[4096];
	int fd;

	if (!bulk) {
		r->out[cpu] = r->out[0];
		return 0;
	}
	snprintf(path, sizeof(path), "%s_%d", outfile ? outfile : "tap_out",
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
taprun_relay_open_one(struct taprun_relay *r, const char *dir, int cpu,
		      const char *outfile, bool bulk)
{
	char path[512];
	int err;

	snprintf(path, sizeof(path), "%s/trace%d", dir, cpu);
	r->fd[cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd[cpu] < 0) {
		err = errno;
		taprun_err("relay: cannot open trace%d: %s", cpu,
			   strerror(err));
		return -err;
	}
	if (cpu + 1 > r->nfiles)
		r->nfiles = cpu + 1;
	return taprun_relay_open_out(r, cpu, outfile, bulk);
}

int
taprun_relay_open(struct taprun_relay *r, const char *name,
		  const char *outfile, bool bulk)
{
	char dir[256];
	struct dirent *e;
	DIR *d;
	int i, cpu, ret = 0;

	for (i = 0; i < TAPRUN_MAX_CPUS; i++)
		r->fd[i] = r->out[i] = -1;
	r->nfiles = 0;
	r->bytes = 0;
	r->broken = false;
	r->own_out = bulk || outfile;
	r->out[0] = STDOUT_FILENO;
	if (outfile && !bulk) {
		r->out[0] = open(outfile, O_WRONLY | O_CREAT | O_TRUNC |
				 O_CLOEXEC, 0644);
		if (r->out[0] < 0) {
			ret = -errno;
			taprun_err("output: cannot create %s: %s", outfile,
				   strerror(errno));
			return ret;
		}
	}
	snprintf(dir, sizeof(dir), "%s/tap_%s", TAPRUN_DEBUGFS, name);
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		taprun_err("relay: cannot list %s: %s", dir, strerror(errno));
		goto err;
	}
	while ((e = readdir(d)) != NULL) {
		if (sscanf(e->d_name, "trace%d", &cpu) != 1 || cpu < 0 ||
		    cpu >= TAPRUN_MAX_CPUS)
			continue;
		ret = taprun_relay_open_one(r, dir, cpu, outfile, bulk);
		if (ret)
			break;
	}
	closedir(d);
	if (!ret && r->nfiles == 0) {
		taprun_err("relay: no trace files in %s", dir);
		ret = -ENOENT;
	}
	if (!ret)
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
		if (r->own_out && r->out[i] >= 0 && (i == 0 || r->out[i] != r->out[0]))
			close(r->out[i]);
		r->fd[i] = r->out[i] = -1;
	}
	if (r->nfiles == 0 && r->own_out && r->out[0] >= 0)
		close(r->out[0]);
	r->nfiles = 0;
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

	while ((n = taprun_relay_read_all(r)) > 0)
		total += n;
	return n < 0 ? n : total;
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
