/*
 * sysfmt.h -- system call arguments and results as strace prints them:
 * errno names ("ENOENT"), return strings ("-2 (ENOENT)"), and symbolic
 * flag sets ("O_RDONLY|O_CLOEXEC", "PROT_READ|PROT_WRITE").
 *
 * Portable core C: the same file is unit-tested in user space and compiled
 * into modules by the syscall tapsets.  The constants are the x86_64 Linux
 * ABI values, spelled out here so that no libc or kernel header decides
 * them.  Every function writes a NUL-terminated string of at most size
 * bytes into dst and never allocates or sleeps.
 */
#ifndef TAP_CORE_SYSFMT_H
#define TAP_CORE_SYSFMT_H

#include "platform.h"

/* One named bit (or bit field value) of a flag word. */
struct tap_sysfmt_flag {
	unsigned long value;
	const char *name;
};

/* The flag sets the tapsets decode; see tap_sysfmt_flags_of(). */
enum tap_sysfmt_set {
	TAP_SYSFMT_OPEN,	/* open/openat flags, access mode included */
	TAP_SYSFMT_PROT,	/* mmap/mprotect protection */
	TAP_SYSFMT_MAP,		/* mmap flags */
	TAP_SYSFMT_ACCESS,	/* access/faccessat mode */
	TAP_SYSFMT_AT,		/* *at() flags: AT_SYMLINK_NOFOLLOW ... */
	TAP_SYSFMT_CLONE,	/* clone flags (the low byte is the signal) */
	TAP_SYSFMT_SOCK_TYPE,	/* socket type with SOCK_CLOEXEC/NONBLOCK */
	TAP_SYSFMT_SOCK_FAMILY,	/* AF_* */
	TAP_SYSFMT_SEEK,	/* lseek whence */
	TAP_SYSFMT_SIGNAL,	/* signal numbers */
	TAP_SYSFMT_SA_FLAGS,	/* struct sigaction's sa_flags */
	TAP_SYSFMT_ADJ_MODES,	/* struct timex's modes (adjtimex) */
	TAP_SYSFMT_NSETS
};

const char *tap_sysfmt_errno_name(long err);
void tap_sysfmt_retstr(char *dst, size_t size, long ret);
void tap_sysfmt_decode(char *dst, size_t size, enum tap_sysfmt_set set,
		       long value);
void tap_sysfmt_dirfd(char *dst, size_t size, long fd);
void tap_sysfmt_mode(char *dst, size_t size, long mode);
void tap_sysfmt_hex(char *dst, size_t size, unsigned long value);
void tap_sysfmt_dec(char *dst, size_t size, long value);
void tap_sysfmt_buf(char *dst, size_t size, const char *data, size_t n,
		    bool more);

#endif /* TAP_CORE_SYSFMT_H */
