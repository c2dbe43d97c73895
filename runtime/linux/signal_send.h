/*
 * signal_send.h -- raise(): a signal for the current task, sent from any
 * probe context without deadlocking on the locks signal delivery takes.
 *
 * Takes: a signal number and the current task.  Produces: the signal sent
 * now, where that is safe, or from this CPU's irq_work as soon as
 * interrupts are back on.  Must not: be called before tap_signal_init()
 * or after tap_signal_exit().
 */
#ifndef TAP_LINUX_SIGNAL_SEND_H
#define TAP_LINUX_SIGNAL_SEND_H

/* 0, or -EINVAL (not a signal number), -EBUSY (this CPU still holds a
 * different deferred signal), or send_sig()'s error. */
int tap_signal_current(int sig);
/* At module init, before any probe. */
void tap_signal_init(void);
/* At module exit, after every probe is gone: deliver what was deferred. */
void tap_signal_exit(void);

#endif
