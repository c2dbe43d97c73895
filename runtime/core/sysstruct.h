/*
 * sysstruct.h -- the user structs SystemTap's syscall aliases decode into
 * their *_str variables (rt_sigaction's act_str, sysinfo's info_str,
 * adjtimex's buf_str, clock_adjtime's tx_uaddr_str, sched_setattr's and
 * sched_getattr's sched_attr_str), spelled as SystemTap spells them.
 *
 * Portable core C, unit-tested in user space and compiled into modules
 * by the syscall tapset (runtime/linux/tapset_sysfmt.c).  The structs
 * below are the x86_64 ABI's layouts, spelled out so that no libc or
 * kernel header decides them; each holds the leading part of the user
 * struct that is printed, which is all the tapset copies.  Reading user
 * memory is the caller's: these functions take a copy, write a
 * NUL-terminated string of at most size bytes into dst, and never
 * allocate or sleep.
 */
#ifndef TAP_CORE_SYSSTRUCT_H
#define TAP_CORE_SYSSTRUCT_H

#include "platform.h"

/* struct sigaction as rt_sigaction() takes it (the kernel's, not the C
 * library's): sa_mask is one 64-bit word, rt_sigaction's sigsetsize. */
struct tap_sys_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t restorer;
	uint64_t mask;
};

/* struct sysinfo up to procs. */
struct tap_sys_sysinfo {
	int64_t uptime;
	uint64_t loads[3];
	uint64_t totalram;
	uint64_t freeram;
	uint64_t sharedram;
	uint64_t bufferram;
	uint64_t totalswap;
	uint64_t freeswap;
	uint16_t procs;
};

/* struct __kernel_timex (adjtimex, clock_adjtime) up to tick. */
struct tap_sys_timex {
	uint32_t modes;
	uint32_t pad0;
	int64_t offset;
	int64_t freq;
	int64_t maxerror;
	int64_t esterror;
	int32_t status;
	uint32_t pad1;
	int64_t constant;
	int64_t precision;
	int64_t tolerance;
	int64_t time_sec;
	int64_t time_usec;
	int64_t tick;
};

/* struct sched_attr as first defined (SCHED_ATTR_SIZE_VER0, 48 bytes);
 * later kernels append the utilization clamps, which are not printed. */
struct tap_sys_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

void tap_sysstruct_sigset(char *dst, size_t size, uint64_t mask);
void tap_sysstruct_sigaction(char *dst, size_t size,
			     const struct tap_sys_sigaction *act);
void tap_sysstruct_sysinfo(char *dst, size_t size,
			   const struct tap_sys_sysinfo *si);
void tap_sysstruct_timex(char *dst, size_t size,
			 const struct tap_sys_timex *tx);
void tap_sysstruct_sched_attr(char *dst, size_t size,
			      const struct tap_sys_sched_attr *sa);

#endif /* TAP_CORE_SYSSTRUCT_H */
