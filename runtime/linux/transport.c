/*
 * transport.c -- debugfs directory tap_<module>/ with per-CPU relay files
 * trace0..N (script output) and the ctl file (messages, tap_protocol.h).
 *
 * Takes: output records from output.c (written and read under the
 * per-CPU lock of relay_sync.c), messages from the rest of the
 * runtime, writes from the loader on ctl.  Produces: relay data, queued
 * messages the loader reads from ctl, calls into module.c for START, EXIT
 * and the loader going away (ctl closed, e.g. taprun was SIGKILLed).
 * Must not: block or wake wait queues from handler context (see
 * tap_ctl_send_atomic), or let a second loader open ctl.
 */
#include <linux/debugfs.h>
#include <linux/relay.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/uaccess.h>
#include <linux/module.h>
#include "compat/compat.h"
#include "transport.h"
#include "relay_sync.h"
#include "context.h"

struct tap_ctl_slot {
	struct tap_msg_hdr hdr;
	char payload[TAP_MSG_MAX_PAYLOAD];
};

/* taprun -s N: N megabytes of relay buffer per CPU (0: the default). */
static unsigned int __tap_bufsize_mb;
module_param(__tap_bufsize_mb, uint, 0);
MODULE_PARM_DESC(__tap_bufsize_mb, "output buffer per CPU, MB (taprun -s)");

static struct dentry *tap_dir;
static struct rchan *tap_chan;
static size_t tap_n_subbufs = TAP_RELAY_N_SUBBUFS;
static atomic64_t tap_lost_records = ATOMIC64_INIT(0);
/* Flight recorder (taprun -F): records overwritten while no loader read
 * them, by design; reported apart from the losses. */
static atomic64_t tap_overwritten_records = ATOMIC64_INIT(0);
/* DETACH came: the loader's going away leaves the session running. */
static bool tap_ctl_detached;

static struct tap_ctl_slot *tap_ctl_ring;	/* TAP_CTL_SLOTS slots */
static unsigned int tap_ctl_head, tap_ctl_tail;	/* producer, consumer */
/* raw: taken from hard irq handlers, also on PREEMPT_RT */
static DEFINE_RAW_SPINLOCK(tap_ctl_lock);
static DECLARE_WAIT_QUEUE_HEAD(tap_ctl_wait);
static DECLARE_WAIT_QUEUE_HEAD(tap_drain_wait);
static atomic_t tap_ctl_open = ATOMIC_INIT(0);
static atomic_t tap_ctl_wake_pending = ATOMIC_INIT(0);
static atomic64_t tap_ctl_dropped = ATOMIC64_INIT(0);
static bool tap_ctl_hello_ok;
static bool tap_ctl_drained;
static DEFINE_MUTEX(tap_ctl_io_mutex);		/* one reader/writer at a time */
static struct tap_ctl_slot tap_ctl_iobuf;	/* under tap_ctl_io_mutex */

/* ---- relay ---- */

static int
tap_relay_subbuf_start(struct rchan_buf *buf, void *subbuf, void *prev_subbuf,
		       size_t prev_padding)
{
	size_t sub = ((char *)subbuf - (char *)buf->start) /
		     buf->chan->subbuf_size;
	unsigned int had = tap_relay_subbuf_reset(buf->cpu, sub);

	/* Flight recorder, detached: the oldest sub-buffer is reused and
	 * the records it held are counted as overwritten.  Otherwise no
	 * overwrite: a full buffer drops the record and counts it as lost.
	 * A flush's switch is refused too, but it loses nothing (the flags
	 * are read under buf's CPU lock, relay_sync.c). */
	if (relay_buf_full(buf)) {
		if (tap_relay_overwriting(buf->cpu)) {
			atomic64_add(had, &tap_overwritten_records);
			return 1;
		}
		if (!tap_relay_flushing(buf->cpu))
			atomic64_inc(&tap_lost_records);
		return 0;
	}
	return 1;
}

static struct dentry *
tap_relay_create_buf_file(const char *filename, struct dentry *parent,
			  umode_t mode, struct rchan_buf *buf, int *is_global)
{
	*is_global = 0;
	return debugfs_create_file(filename, 0400, parent, buf,
				   &tap_relay_fops);
}

static int
tap_relay_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static TAP_RELAY_CB_CONST struct rchan_callbacks tap_relay_callbacks = {
	.subbuf_start = tap_relay_subbuf_start,
	.create_buf_file = tap_relay_create_buf_file,
	.remove_buf_file = tap_relay_remove_buf_file,
};

void
tap_transport_write(const void *data, size_t len)
{
	if (tap_chan && len && !tap_relay_write_locked(tap_chan, data, len))
		atomic64_inc(&tap_lost_records);
}

/*
 * Close every CPU's current sub-buffer, so that the loader can read what
 * is in it: after the begin probes and at stop (relay_sync.c says why not
 * relay_flush()).
 */
void
tap_transport_flush(void)
{
	if (tap_chan)
		tap_relay_flush_locked(tap_chan);
}

/* Output that never reached the relay buffers (a print larger than the
 * handler's buffer): counted with the records the buffers dropped. */
void
tap_transport_count_lost(void)
{
	atomic64_inc(&tap_lost_records);
}

u64
tap_transport_lost(void)
{
	return atomic64_read(&tap_lost_records);
}

u64
tap_transport_overwritten(void)
{
	return atomic64_read(&tap_overwritten_records);
}

u64
tap_transport_dropped_msgs(void)
{
	return atomic64_read(&tap_ctl_dropped);
}

/* ---- the message queue to the loader ---- */

static bool
tap_ctl_ring_empty(void)
{
	return READ_ONCE(tap_ctl_head) == READ_ONCE(tap_ctl_tail);
}

/*
 * How many slots a message may fill.  The script's errors, warnings,
 * system() commands and switch_file() requests stop short of the last TAP_CTL_RESERVED, which only
 * the protocol uses (STARTED, DRAIN, COUNTS, STOPPED): a script that warns
 * faster than the loader reads must lose warnings, counted, never the
 * message the loader is waiting for.
 */
static unsigned int
tap_ctl_room_for(u32 type)
{
	if (type == TAP_MSG_ERROR || type == TAP_MSG_WARNING ||
	    type == TAP_MSG_SYSTEM || type == TAP_MSG_SWITCH_FILE)
		return TAP_CTL_SLOTS - TAP_CTL_RESERVED;
	return TAP_CTL_SLOTS;
}

/* Caller holds tap_ctl_lock. */
static bool
__tap_ctl_enqueue(u32 type, const void *payload, size_t len)
{
	struct tap_ctl_slot *slot;

	if (tap_ctl_head - tap_ctl_tail >= tap_ctl_room_for(type)) {
		atomic64_inc(&tap_ctl_dropped);
		return false;
	}
	if (len > TAP_MSG_MAX_PAYLOAD)
		len = TAP_MSG_MAX_PAYLOAD;
	slot = &tap_ctl_ring[tap_ctl_head % TAP_CTL_SLOTS];
	slot->hdr.type = type;
	slot->hdr.len = len;
	if (len)
		memcpy(slot->payload, payload, len);
	WRITE_ONCE(tap_ctl_head, tap_ctl_head + 1);
	return true;
}

int
tap_ctl_send(u32 type, const void *payload, size_t len)
{
	unsigned long flags;
	bool ok;

	if (!tap_ctl_ring)
		return -ENODEV;
	raw_spin_lock_irqsave(&tap_ctl_lock, flags);
	ok = __tap_ctl_enqueue(type, payload, len);
	raw_spin_unlock_irqrestore(&tap_ctl_lock, flags);
	wake_up_interruptible(&tap_ctl_wait);
	return ok ? 0 : -ENOSPC;
}

bool
tap_ctl_send_atomic(u32 type, const void *payload, size_t len)
{
	unsigned long flags;
	bool ok;

	if (!tap_ctl_ring)
		return false;
	/* A handler may interrupt a holder on this CPU: never spin. */
	if (!raw_spin_trylock_irqsave(&tap_ctl_lock, flags)) {
		atomic64_inc(&tap_ctl_dropped);
		return false;
	}
	ok = __tap_ctl_enqueue(type, payload, len);
	raw_spin_unlock_irqrestore(&tap_ctl_lock, flags);
	atomic_set(&tap_ctl_wake_pending, 1);
	return ok;
}

void
tap_ctl_poke(void)
{
	if (atomic_xchg(&tap_ctl_wake_pending, 0))
		wake_up_interruptible(&tap_ctl_wait);
}

bool
tap_ctl_attached(void)
{
	return atomic_read(&tap_ctl_open) != 0;
}

/*
 * Ask the loader to read every trace file dry and wait until it says so (or
 * goes away), so that end-probe output follows all earlier output.
 */
void
tap_ctl_drain(unsigned long timeout_jiffies)
{
	if (!tap_ctl_attached())
		return;
	WRITE_ONCE(tap_ctl_drained, false);
	tap_ctl_send(TAP_MSG_DRAIN, NULL, 0);
	wait_event_timeout(tap_drain_wait,
			   READ_ONCE(tap_ctl_drained) || !tap_ctl_attached(),
			   timeout_jiffies);
}

/* ---- the ctl file ---- */

static int
tap_ctl_open_file(struct inode *inode, struct file *file)
{
	if (atomic_cmpxchg(&tap_ctl_open, 0, 1) != 0)
		return -EBUSY;
	tap_ctl_hello_ok = false;
	return nonseekable_open(inode, file);
}

static int
tap_ctl_release(struct inode *inode, struct file *file)
{
	bool detached = READ_ONCE(tap_ctl_detached);

	atomic_set(&tap_ctl_open, 0);
	wake_up(&tap_drain_wait);
	/* A flight recorder runs on into its ring; otherwise the loader is
	 * gone: nobody will ask for exit or read output. */
	if (!detached)
		tap_session_loader_gone();
	return 0;
}

/*
 * DETACH (taprun -F, or -A leaving again): the session runs on with no
 * reader, its output overwriting the oldest in the ring.  Only a running
 * session: one that never started or has stopped has nothing to record.
 */
static int
tap_ctl_detach(void)
{
	if (!tap_session_running())
		return -EINVAL;
	tap_relay_set_overwrite(tap_chan, true);
	WRITE_ONCE(tap_ctl_detached, true);
	tap_session_counts();	/* what -A -o FILE's reading lost */
	return 0;
}

/*
 * ATTACH (taprun -A): a loader takes over a detached session.  Overwrite
 * goes off first, so the reader starts at the oldest record kept; a
 * session that stopped while detached says so again (its COUNTS and
 * STOPPED went to nobody), and the loader reads its end and removes it.
 */
static int
tap_ctl_attach(void)
{
	if (!READ_ONCE(tap_ctl_detached))
		return -EINVAL;
	atomic64_add(tap_relay_set_overwrite(tap_chan, false),
		     &tap_overwritten_records);
	WRITE_ONCE(tap_ctl_detached, false);
	tap_session_attached();
	return 0;
}

/* Pop one message into tap_ctl_iobuf; false if the queue is empty. */
static bool
tap_ctl_dequeue(void)
{
	unsigned long flags;
	struct tap_ctl_slot *slot;
	bool got = false;

	raw_spin_lock_irqsave(&tap_ctl_lock, flags);
	if (tap_ctl_head != tap_ctl_tail) {
		slot = &tap_ctl_ring[tap_ctl_tail % TAP_CTL_SLOTS];
		memcpy(&tap_ctl_iobuf, slot, sizeof(slot->hdr) + slot->hdr.len);
		WRITE_ONCE(tap_ctl_tail, tap_ctl_tail + 1);
		got = true;
	}
	raw_spin_unlock_irqrestore(&tap_ctl_lock, flags);
	return got;
}

static size_t
tap_ctl_peek_size(void)
{
	unsigned long flags;
	size_t size = 0;

	raw_spin_lock_irqsave(&tap_ctl_lock, flags);
	if (tap_ctl_head != tap_ctl_tail)
		size = sizeof(struct tap_msg_hdr) +
		       tap_ctl_ring[tap_ctl_tail % TAP_CTL_SLOTS].hdr.len;
	raw_spin_unlock_irqrestore(&tap_ctl_lock, flags);
	return size;
}

static ssize_t
tap_ctl_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	size_t done = 0, size;
	ssize_t ret = 0;

	if (count < sizeof(struct tap_ctl_slot))
		return -EINVAL;	/* the loader always offers room for one */
	if (tap_ctl_ring_empty()) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(tap_ctl_wait,
					       !tap_ctl_ring_empty());
		if (ret)
			return ret;
	}
	mutex_lock(&tap_ctl_io_mutex);
	while ((size = tap_ctl_peek_size()) && done + size <= count) {
		if (!tap_ctl_dequeue())
			break;
		size = sizeof(tap_ctl_iobuf.hdr) + tap_ctl_iobuf.hdr.len;
		if (copy_to_user(ubuf + done, &tap_ctl_iobuf, size)) {
			ret = -EFAULT;	/* that message is lost either way */
			break;
		}
		done += size;
	}
	mutex_unlock(&tap_ctl_io_mutex);
	return done ? done : ret;
}

static void
tap_ctl_say_hello(void)
{
	struct tap_msg_hello h = {
		.magic = TAP_PROTOCOL_MAGIC,
		.version = TAP_PROTOCOL_VERSION,
		.ncpus = nr_cpu_ids,
		.subbuf_size = TAP_RELAY_SUBBUF_SIZE,
		.n_subbufs = tap_n_subbufs,
	};

	tap_ctl_send(TAP_MSG_HELLO, &h, sizeof(h));
}

static int
tap_ctl_handle_hello(const struct tap_ctl_slot *m)
{
	const struct tap_msg_hello *h = (const void *)m->payload;
	char text[128];
	int n;

	tap_ctl_say_hello();
	if (m->hdr.len < 8 || h->magic != TAP_PROTOCOL_MAGIC) {
		n = scnprintf(text, sizeof(text), "ctl: not a taprun hello");
		tap_ctl_send(TAP_MSG_ERROR, text, n);
		return -EPROTO;
	}
	if (h->version != TAP_PROTOCOL_VERSION) {
		/* Not an error of the write: the loader reads our HELLO and
		 * explains; START will be refused. */
		n = scnprintf(text, sizeof(text),
			      "module speaks tap protocol %u, loader speaks %u",
			      TAP_PROTOCOL_VERSION, h->version);
		tap_ctl_send(TAP_MSG_ERROR, text, n);
		return 0;
	}
	tap_ctl_hello_ok = true;
	return 0;
}

static int
tap_ctl_dispatch(const struct tap_ctl_slot *m)
{
	const struct tap_msg_start *start = (const void *)m->payload;

	if (m->hdr.type == TAP_MSG_HELLO)
		return tap_ctl_handle_hello(m);
	if (!tap_ctl_hello_ok)
		return -EPROTO;
	switch (m->hdr.type) {
	case TAP_MSG_START:
		if (m->hdr.len < sizeof(*start))
			return -EINVAL;
		return tap_session_begin(start->target_pid,
					 m->payload + sizeof(*start),
					 m->hdr.len - sizeof(*start));
	case TAP_MSG_ARM:
		return tap_session_arm();
	case TAP_MSG_EXIT:
		tap_request_exit();
		return 0;
	case TAP_MSG_DETACH:
		return tap_ctl_detach();
	case TAP_MSG_ATTACH:
		return tap_ctl_attach();
	case TAP_MSG_DRAINED:
		WRITE_ONCE(tap_ctl_drained, true);
		wake_up(&tap_drain_wait);
		return 0;
	default:
		return -EINVAL;
	}
}

static ssize_t
tap_ctl_write(struct file *file, const char __user *ubuf, size_t count,
	      loff_t *ppos)
{
	ssize_t ret;

	if (count < sizeof(struct tap_msg_hdr) ||
	    count > sizeof(struct tap_ctl_slot))
		return -EINVAL;
	mutex_lock(&tap_ctl_io_mutex);
	if (copy_from_user(&tap_ctl_iobuf, ubuf, count)) {
		ret = -EFAULT;
		goto out;
	}
	if (tap_ctl_iobuf.hdr.len != count - sizeof(struct tap_msg_hdr)) {
		ret = -EINVAL;
		goto out;
	}
	/* START runs begin probes, which may send messages: copy it out. */
	{
		struct tap_ctl_slot m;

		memcpy(&m, &tap_ctl_iobuf, count);
		mutex_unlock(&tap_ctl_io_mutex);
		ret = tap_ctl_dispatch(&m);
		return ret < 0 ? ret : count;
	}
out:
	mutex_unlock(&tap_ctl_io_mutex);
	return ret;
}

static __poll_t
tap_ctl_poll(struct file *file, poll_table *wait)
{
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &tap_ctl_wait, wait);
	if (!tap_ctl_ring_empty())
		mask |= EPOLLIN | EPOLLRDNORM;
	return mask;
}

static const struct file_operations tap_ctl_fops = {
	.owner = THIS_MODULE,
	.open = tap_ctl_open_file,
	.release = tap_ctl_release,
	.read = tap_ctl_read,
	.write = tap_ctl_write,
	.poll = tap_ctl_poll,
#ifdef TAPCONF_NO_LLSEEK
	.llseek = no_llseek,
#endif
};

/* ---- setup and teardown ---- */

int
tap_transport_init(const char *modname)
{
	char dirname[64];
	struct dentry *ctl;
	int ret;

	tap_ctl_ring = kcalloc(TAP_CTL_SLOTS, sizeof(*tap_ctl_ring),
			       GFP_KERNEL);
	if (!tap_ctl_ring)
		return -ENOMEM;
	snprintf(dirname, sizeof(dirname), "tap_%s", modname);
	tap_dir = debugfs_create_dir(dirname, NULL);
	if (IS_ERR_OR_NULL(tap_dir)) {
		ret = tap_dir ? PTR_ERR(tap_dir) : -ENODEV;
		pr_err("%s: cannot create debugfs directory %s (%d)\n",
		       modname, dirname, ret);
		tap_dir = NULL;
		goto err;
	}
	if (__tap_bufsize_mb)
		tap_n_subbufs = max_t(size_t, 2, (size_t)__tap_bufsize_mb *
				      (1024 * 1024 / TAP_RELAY_SUBBUF_SIZE));
	ret = tap_relay_sync_init(tap_n_subbufs);
	if (ret)
		goto err;
	tap_chan = relay_open("trace", tap_dir, TAP_RELAY_SUBBUF_SIZE,
			      tap_n_subbufs, &tap_relay_callbacks, NULL);
	if (!tap_chan) {
		pr_err("%s: cannot open relay channel (%zu x %d bytes per cpu)\n",
		       modname, tap_n_subbufs, TAP_RELAY_SUBBUF_SIZE);
		ret = -ENOMEM;
		goto err;
	}
	ctl = debugfs_create_file("ctl", 0600, tap_dir, NULL, &tap_ctl_fops);
	if (IS_ERR_OR_NULL(ctl)) {
		ret = ctl ? PTR_ERR(ctl) : -ENODEV;
		pr_err("%s: cannot create ctl file (%d)\n", modname, ret);
		goto err;
	}
	return 0;
err:
	tap_transport_exit();
	return ret;
}

void
tap_transport_exit(void)
{
	if (tap_chan) {
		relay_close(tap_chan);
		tap_chan = NULL;
	}
	tap_relay_sync_exit();
	debugfs_remove_recursive(tap_dir);
	tap_dir = NULL;
	kfree(tap_ctl_ring);
	tap_ctl_ring = NULL;
}
