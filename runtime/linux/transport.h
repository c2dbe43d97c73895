/*
 * transport.h -- the module's half of the tap transport: per-CPU relay files
 * for script output and the ctl file for messages (tap_protocol.h).
 *
 * Output goes through tap_transport_write() from handler context on the CPU
 * that produced it.  Messages to the loader go through tap_ctl_send() from
 * process context or tap_ctl_send_atomic() from a handler (never blocks,
 * never wakes anyone directly: the housekeeping timer does the wakeup, so a
 * probe inside the scheduler or the wait-queue code cannot deadlock).
 */
#ifndef TAP_LINUX_TRANSPORT_H
#define TAP_LINUX_TRANSPORT_H

#include <linux/types.h>
#include "tap_protocol.h"

#ifndef TAP_RELAY_SUBBUF_SIZE
#define TAP_RELAY_SUBBUF_SIZE	(64 * 1024)
#endif
#ifndef TAP_RELAY_N_SUBBUFS
#define TAP_RELAY_N_SUBBUFS	8
#endif
#define TAP_CTL_SLOTS		64	/* queued messages to the loader */
#define TAP_CTL_RESERVED	4	/* of them, kept for protocol messages */

int tap_transport_init(const char *modname);
void tap_transport_exit(void);

void tap_transport_write(const void *data, size_t len);
void tap_transport_flush(void);
void tap_transport_count_lost(void);
u64 tap_transport_lost(void);
u64 tap_transport_overwritten(void);
u64 tap_transport_dropped_msgs(void);

int tap_ctl_send(u32 type, const void *payload, size_t len);
bool tap_ctl_send_atomic(u32 type, const void *payload, size_t len);
void tap_ctl_poke(void);		/* deliver wakeups queued by handlers */
bool tap_ctl_attached(void);
void tap_ctl_drain(unsigned long timeout_jiffies);

/* Called by the transport when the loader asks; defined in module.c. */
int tap_session_begin(int target_pid, const char *params, size_t params_len);
int tap_session_arm(void);
void tap_session_loader_gone(void);
bool tap_session_running(void);		/* armed and not stopping */
void tap_session_attached(void);	/* a loader took over (ATTACH) */
void tap_session_counts(void);		/* COUNTS now (DETACH answers) */

#endif /* TAP_LINUX_TRANSPORT_H */
