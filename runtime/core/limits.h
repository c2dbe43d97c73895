/*
 * limits.h - the script limits both platforms share: `-D NAME=VALUE` in
 * SystemTap's spelling (MAXACTION) becomes ours (TAP_MAXACTION), then the
 * defaults SystemTap has.  A platform may set its own default first (the
 * output buffer size differs); included before everything else that reads
 * a limit.
 */
#ifndef TAP_CORE_LIMITS_H
#define TAP_CORE_LIMITS_H

#if defined(MAXACTION) && !defined(TAP_MAXACTION)
#define TAP_MAXACTION		MAXACTION
#endif
#if defined(MAXNESTING) && !defined(TAP_MAXNESTING)
#define TAP_MAXNESTING		MAXNESTING
#endif
#if defined(MAXERRORS) && !defined(TAP_MAXERRORS)
#define TAP_MAXERRORS		MAXERRORS
#endif
#if defined(MAXSKIPPED) && !defined(TAP_MAXSKIPPED)
#define TAP_MAXSKIPPED		MAXSKIPPED
#endif
#if defined(MAXACTION_INTERRUPTIBLE) && !defined(TAP_MAXACTION_INTERRUPTIBLE)
#define TAP_MAXACTION_INTERRUPTIBLE	MAXACTION_INTERRUPTIBLE
#endif

#ifndef TAP_MAXSKIPPED
#define TAP_MAXSKIPPED		100	/* skipped handlers before the script stops */
#endif
#ifndef TAP_MAXERRORS
#define TAP_MAXERRORS		0	/* errors tolerated; the next one stops */
#endif
#ifndef TAP_MAXACTION
#define TAP_MAXACTION		1000	/* statements per handler */
#endif
#ifndef TAP_MAXNESTING
#define TAP_MAXNESTING		10	/* function call depth */
#endif
/* begin, end and error probes may run longer, as stap's (which run them
 * where they can be interrupted) */
#ifndef TAP_MAXACTION_INTERRUPTIBLE
#define TAP_MAXACTION_INTERRUPTIBLE	(TAP_MAXACTION * 10)
#endif

#endif /* TAP_CORE_LIMITS_H */
