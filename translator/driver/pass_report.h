/*
 * pass_report.h -- -v's one line per pass, worded as SystemTap words them
 * so that what reads stap's -v reads tapc's:
 *
 *   Pass 1: parsed user script and 484 library scripts using
 *           107328virt/96880res/7224shr/89576data kb, in 210usr/60sys/330real ms.
 *
 * (one line).  A pass_clock taken before the pass gives the times; the
 * memory is this process's at the end of the pass (/proc/self/statm).
 * Times count child processes too (make and cc in pass 4, taprun in 5).
 */
#ifndef TAPC_DRIVER_PASS_REPORT_H
#define TAPC_DRIVER_PASS_REPORT_H

#include "translator/driver/session.h"

struct pass_clock {
	long long usr_ms, sys_ms, real_ms;
};

/* Now, to measure a pass from. */
void pass_clock_start(struct pass_clock *c);

/* With -v: "Pass N: WHAT using ...kb, in ...ms." on stderr; WHAT is
 * printf-formatted.  `with_memory` false leaves out the "using" part, as
 * stap's pass 4 and 5 lines do. */
void pass_report(struct session *s, int pass, const struct pass_clock *since,
		 bool with_memory, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* With -v: "Pass N: WHAT" with no measurements ("Pass 5: starting run.",
 * "Pass 4: using cached PATH"). */
void pass_say(struct session *s, int pass, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
