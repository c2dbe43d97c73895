/*
 * relay_sync.c -- the per-CPU relay lock (see relay_sync.h): locked
 * writes from handlers, the locked flush, and the trace files' read().
 *
 * Takes: records from tap_transport_write() in handler context (interrupts
 * may be on or off, preemption off), flushes from process context, reads
 * from the loader.  Produces: the same bytes in the same order as the
 * kernel's relay_write()/relay_file_read(), never a sub-buffer's unwritten
 * tail, and never part of a record to a reader that offers at least one
 * sub-buffer's worth (the loader writes every CPU's reads to one output).
 * Must not: spin on a lock its own CPU holds (a probe that fires
 * inside a locked section, or an NMI, drops its record, counted as lost),
 * hold a lock across copy_to_user(), or overwrite unread data while a
 * reader is attached (subbuf_start refuses a full buffer then; only a
 * detached flight recorder overwrites, and its reads are refused).
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include "relay_sync.h"
#include "preempt_enable.h"

struct tap_relay_cpu {
	raw_spinlock_t lock;	/* this CPU's rchan_buf positions */
	unsigned int busy;	/* this CPU is inside a locked section */
	bool flushing;		/* the holder is the flush, not a writer */
	bool overwrite;		/* flight recorder detached: reuse oldest */
	unsigned int *records;	/* records in each sub-buffer, or NULL */
};
static size_t tap_relay_n_subbufs;
static DEFINE_PER_CPU(struct tap_relay_cpu, tap_relay_cpu);

struct file_operations tap_relay_fops;

/*
 * Take CPU's lock with interrupts off.  False, with nothing taken, when
 * this CPU is already inside a locked section: only a probe handler or an
 * NMI that interrupted it can ask, and spinning would never end.  Process
 * context (the flush, read()) always gets the lock: a locked section runs
 * with interrupts off, so no task runs on its CPU until it is left.
 */
static inline bool
tap_relay_lock(unsigned int cpu, unsigned long *flags)
{
	struct tap_relay_cpu *self;

	local_irq_save(*flags);
	self = this_cpu_ptr(&tap_relay_cpu);
	if (self->busy) {
		local_irq_restore(*flags);
		return false;
	}
	self->busy = 1;
	raw_spin_lock(&per_cpu_ptr(&tap_relay_cpu, cpu)->lock);
	return true;
}

static inline void
tap_relay_unlock(unsigned int cpu, unsigned long flags)
{
	raw_spin_unlock(&per_cpu_ptr(&tap_relay_cpu, cpu)->lock);
	this_cpu_ptr(&tap_relay_cpu)->busy = 0;
	local_irq_restore(flags);
}

/* Under CPU's lock, after a write: the record landed in the sub-buffer
 * being written unless the switch was refused (offset past the end). */
static inline void
tap_relay_count_record(struct rchan_buf *buf, unsigned int cpu)
{
	struct tap_relay_cpu *rc = per_cpu_ptr(&tap_relay_cpu, cpu);

	if (rc->records && buf && buf->offset <= buf->chan->subbuf_size)
		rc->records[buf->subbufs_produced % tap_relay_n_subbufs]++;
}

/* One record into this CPU's buffer; false when it was dropped here. */
bool
tap_relay_write_locked(struct rchan *chan, const void *data, size_t len)
{
	unsigned long flags;
	unsigned int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	if (!tap_relay_lock(cpu, &flags)) {
		tap_preempt_enable();
		return false;
	}
	/* interrupts are off under the lock: relay_write() would save and
	 * restore them again */
	__relay_write(chan, data, len);
	tap_relay_count_record(*per_cpu_ptr(chan->buf, cpu), cpu);
	tap_relay_unlock(cpu, flags);
	tap_preempt_enable();
	return true;
}

/*
 * Close every CPU's current sub-buffer, as relay_flush() does, each switch
 * under its CPU's lock.  Process context; a locked section cannot be
 * interrupted by the readers' wakeup the switch queues (an irq_work; on
 * PREEMPT_RT a thread, which used to preempt relay_flush() halfway).
 */
void
tap_relay_flush_locked(struct rchan *chan)
{
	struct rchan_buf *buf;
	unsigned long flags;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		buf = *per_cpu_ptr(chan->buf, cpu);
		if (!buf || !tap_relay_lock(cpu, &flags))
			continue;
		per_cpu_ptr(&tap_relay_cpu, cpu)->flushing = true;
		relay_switch_subbuf(buf, 0);
		per_cpu_ptr(&tap_relay_cpu, cpu)->flushing = false;
		tap_relay_unlock(cpu, flags);
	}
}

/*
 * Whether CPU's sub-buffer switch in progress is the flush's (which carries
 * no record, so a refusal loses nothing) rather than a writer's.  Called
 * from the subbuf_start callback, under that CPU's lock, so exact: a
 * writer elsewhere never sees the flush's flag.
 */
bool
tap_relay_flushing(unsigned int cpu)
{
	return per_cpu_ptr(&tap_relay_cpu, cpu)->flushing;
}

bool
tap_relay_overwriting(unsigned int cpu)
{
	return per_cpu_ptr(&tap_relay_cpu, cpu)->overwrite;
}

unsigned int
tap_relay_subbuf_reset(unsigned int cpu, size_t sub)
{
	struct tap_relay_cpu *rc = per_cpu_ptr(&tap_relay_cpu, cpu);
	unsigned int had;

	if (!rc->records || sub >= tap_relay_n_subbufs)
		return 0;
	had = rc->records[sub];
	rc->records[sub] = 0;
	return had;
}

/*
 * Under the lock: after overwriting, the oldest sub-buffer still whole is
 * the one after the one being written; the reader skips to it (what it
 * skips was counted as overwritten at the switch).
 */
static void
tap_relay_skip_overwritten(struct rchan_buf *buf)
{
	size_t n = buf->chan->n_subbufs;

	if (buf->offset <= buf->chan->subbuf_size &&
	    buf->subbufs_produced - buf->subbufs_consumed >= n) {
		buf->subbufs_consumed = buf->subbufs_produced - n + 1;
		buf->bytes_consumed = 0;
	}
}

/*
 * Under the lock, as overwrite goes off: a ring that overwrote is full,
 * and the writer's next switch would find no free sub-buffer before the
 * reader has had time to read one, losing the newest records.  The
 * oldest whole sub-buffer is given up instead, as an overwrite would
 * have: its records are returned, to be counted as overwritten.
 */
static unsigned int
tap_relay_make_room(struct rchan_buf *buf, unsigned int cpu)
{
	size_t n = buf->chan->n_subbufs;

	if (buf->offset > buf->chan->subbuf_size ||
	    buf->subbufs_produced - buf->subbufs_consumed + 1 < n)
		return 0;
	buf->subbufs_consumed++;
	buf->bytes_consumed = 0;
	return tap_relay_subbuf_reset(cpu, (buf->subbufs_consumed - 1) % n);
}

u64
tap_relay_set_overwrite(struct rchan *chan, bool on)
{
	struct rchan_buf *buf;
	unsigned long flags;
	unsigned int cpu;
	u64 given_up = 0;

	for_each_possible_cpu(cpu) {
		buf = *per_cpu_ptr(chan->buf, cpu);
		if (!tap_relay_lock(cpu, &flags))
			continue;
		per_cpu_ptr(&tap_relay_cpu, cpu)->overwrite = on;
		if (buf && !on) {
			tap_relay_skip_overwritten(buf);
			given_up += tap_relay_make_room(buf, cpu);
		}
		tap_relay_unlock(cpu, flags);
	}
	return given_up;
}

/*
 * Under the lock: where the next unread bytes of BUF start (offset from
 * buf->start) and how many there are in that sub-buffer; 0 when none.
 * Sub-buffers before the one being written are complete (their padding is
 * set); a complete one read to its end is handed back to the writer.
 * buf->bytes_consumed is how far the oldest unread one has been read.
 */
static size_t
tap_relay_unread(struct rchan_buf *buf, size_t *from)
{
	size_t size = buf->chan->subbuf_size, n = buf->chan->n_subbufs;
	size_t sub, end;

	tap_relay_skip_overwritten(buf);
	for (;;) {
		sub = buf->subbufs_consumed % n;
		if (buf->subbufs_consumed == buf->subbufs_produced)
			/* the one being written; offset > size: none is */
			end = buf->offset <= size ? buf->offset : 0;
		else
			end = size - buf->padding[sub];
		if (end > buf->bytes_consumed)
			break;
		if (buf->subbufs_consumed == buf->subbufs_produced)
			return 0;
		relay_subbufs_consumed(buf->chan, buf->cpu, 1);
		buf->bytes_consumed = 0;
	}
	*from = sub * size + buf->bytes_consumed;
	return end - buf->bytes_consumed;
}

static ssize_t
tap_relay_read(struct file *filp, char __user *ubuf, size_t count,
	       loff_t *ppos)
{
	struct rchan_buf *buf = filp->private_data;
	unsigned long flags;
	size_t from = 0, avail;
	ssize_t done = 0;

	/* one reader at a time, as relay_file_read() */
	inode_lock(file_inode(filp));
	while (count) {
		if (!tap_relay_lock(buf->cpu, &flags))
			break;
		if (tap_relay_overwriting(buf->cpu)) {
			/* detached flight recorder: any sub-buffer may be
			 * rewritten under the copy; taprun -A attaches */
			tap_relay_unlock(buf->cpu, flags);
			if (!done)
				done = -EBUSY;
			break;
		}
		avail = tap_relay_unread(buf, &from);
		tap_relay_unlock(buf->cpu, flags);
		if (!avail)
			break;
		/*
		 * Whole records only.  A chunk ends where a record does (the
		 * last write's end, or the sub-buffer's padding), but COUNT
		 * may end inside one: the loader, its pass over this file
		 * done, would write another CPU's records into the middle of
		 * the cut one.  Only a reader offering less than one chunk
		 * gets part of one.
		 */
		if (avail > count) {
			if (done)
				break;
			avail = count;
		}
		/* unlocked: the writer does not touch unread bytes */
		if (copy_to_user(ubuf + done, buf->start + from, avail)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		if (!tap_relay_lock(buf->cpu, &flags))
			break;
		buf->bytes_consumed += avail;
		tap_relay_unlock(buf->cpu, flags);
		done += avail;
		count -= avail;
	}
	inode_unlock(file_inode(filp));
	return done;
}

int
tap_relay_sync_init(size_t n_subbufs)
{
	struct tap_relay_cpu *rc;
	unsigned int cpu;

	tap_relay_n_subbufs = n_subbufs;
	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(&tap_relay_cpu, cpu);
		raw_spin_lock_init(&rc->lock);
		rc->busy = 0;
		rc->overwrite = false;
		rc->records = kcalloc(n_subbufs, sizeof(*rc->records),
				      GFP_KERNEL);
		if (!rc->records) {
			tap_relay_sync_exit();
			return -ENOMEM;
		}
	}
	tap_relay_fops = relay_file_operations;
	tap_relay_fops.owner = THIS_MODULE;
	tap_relay_fops.read = tap_relay_read;
	tap_relay_fops.read_iter = NULL;
	tap_relay_fops.splice_read = NULL;
	return 0;
}

void
tap_relay_sync_exit(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		kfree(per_cpu_ptr(&tap_relay_cpu, cpu)->records);
		per_cpu_ptr(&tap_relay_cpu, cpu)->records = NULL;
	}
}
