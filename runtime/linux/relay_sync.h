/*
 * relay_sync.h -- one lock per CPU between that CPU's relay writers, the
 * stop path's flush and the loader's reads of that CPU's trace file.
 *
 * The kernel's relay has none: its sub-buffer switch counts a sub-buffer
 * as produced before it moves the write position, and a reader on another
 * CPU in between takes an unwritten sub-buffer for a full one (64 KiB of
 * NUL bytes in the output).  Here every change of a buffer's positions
 * and every reader's look at them happens under that CPU's lock; the copy
 * to user space does not (the writer never reuses an unread sub-buffer).
 *
 * Flight-recorder mode (taprun -F, no reader attached): the buffers
 * overwrite their oldest sub-buffer when full, and each CPU keeps how
 * many records each sub-buffer holds, so that the records overwritten are
 * counted exactly.  Reads are refused then (the writer may reuse any
 * sub-buffer); a reader that attaches turns overwriting off first.
 */
#ifndef TAP_LINUX_RELAY_SYNC_H
#define TAP_LINUX_RELAY_SYNC_H

#include <linux/fs.h>
#include <linux/relay.h>

int tap_relay_sync_init(size_t n_subbufs);
void tap_relay_sync_exit(void);
bool tap_relay_write_locked(struct rchan *chan, const void *data, size_t len);
void tap_relay_flush_locked(struct rchan *chan);
bool tap_relay_flushing(unsigned int cpu);
/* From subbuf_start, under buf's CPU lock: whether a full buffer may
 * overwrite its oldest sub-buffer, and the records SUB held (now 0). */
bool tap_relay_overwriting(unsigned int cpu);
unsigned int tap_relay_subbuf_reset(unsigned int cpu, size_t sub);
/* Process context: overwrite on (the loader detached) or off (a loader
 * attached: the reader then starts at the oldest sub-buffer kept, one
 * given up to leave the writer room).  The records given up. */
u64 tap_relay_set_overwrite(struct rchan *chan, bool on);
extern struct file_operations tap_relay_fops;

#endif /* TAP_LINUX_RELAY_SYNC_H */
