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
 */
#ifndef TAP_LINUX_RELAY_SYNC_H
#define TAP_LINUX_RELAY_SYNC_H

#include <linux/fs.h>
#include <linux/relay.h>

void tap_relay_sync_init(void);
bool tap_relay_write_locked(struct rchan *chan, const void *data, size_t len);
void tap_relay_flush_locked(struct rchan *chan);
bool tap_relay_flushing(unsigned int cpu);
extern struct file_operations tap_relay_fops;

#endif /* TAP_LINUX_RELAY_SYNC_H */
