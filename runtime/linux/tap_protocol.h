/*
 * tap_protocol.h -- the messages a tapc module and taprun exchange over the
 * module's control file, debugfs tap_<module>/ctl.
 *
 * Shared by the kernel runtime (runtime/linux/transport.c) and the loader
 * (loader/ctl.c), so it uses only fixed-width integer types and no kernel or
 * libc structures.  Every message is a struct tap_msg_hdr followed by `len`
 * bytes of payload.  A write(2) to ctl carries exactly one message; a read(2)
 * returns one or more whole messages.
 *
 * Conversation:
 *   loader -> HELLO {magic, version}        module -> HELLO {magic, version,
 *                                                     ncpus, ...}
 *   loader -> START {target pid}            module: begin probes run inside
 *                                           this write(2), output flushed
 *   loader: reads the trace files dry, so begin output comes first
 *   loader -> ARM                           module: arm probes,
 *                                           -> STARTED {status}
 *   ... module -> ERROR / WARNING text at any time ...
 *   ... module -> SYSTEM command text at any time: the loader runs it ...
 *   ... module -> SWITCH_FILE at any time: the loader moves -o FILE on ...
 *   loader -> EXIT (SIGINT, -T, -c command ended)   or the script calls exit()
 *   module: disarm probes, -> DRAIN;  loader reads every trace file dry,
 *   loader -> DRAINED;  module: end probes, -> COUNTS, -> STOPPED {status}
 *   loader: drains again, closes its files, delete_module().
 *
 * Flight recorder (taprun -F): once STARTED, the loader -> DETACH and
 * closes ctl; the session runs on, its relay buffers overwriting their
 * oldest sub-buffer when full.  taprun -A opens ctl again: HELLO, then
 * ATTACH (overwrite off; the ring is read from its oldest record); a
 * session that stopped meanwhile answers ATTACH with COUNTS and STOPPED.
 * The attached loader may EXIT as above, or DETACH again.
 *
 * HELLO's first two fields are frozen forever so that any two versions can at
 * least tell each other apart; everything else may change with
 * TAP_PROTOCOL_VERSION.  Must not: grow kernel-only or libc-only types.
 */
#ifndef TAP_PROTOCOL_H
#define TAP_PROTOCOL_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef __u32 tap_u32;
typedef __s32 tap_s32;
typedef __u64 tap_u64;
#else
#include <stdint.h>
typedef uint32_t tap_u32;
typedef int32_t tap_s32;
typedef uint64_t tap_u64;
#endif

#define TAP_PROTOCOL_MAGIC	0x31504154u	/* "TAP1" little-endian */
/* Overridable only so that the test suite can build a mismatched module. */
#ifndef TAP_PROTOCOL_VERSION
#define TAP_PROTOCOL_VERSION	2u
#endif

/* Longest payload of one message; ERROR and WARNING text is cut to fit. */
#define TAP_MSG_MAX_PAYLOAD	512u

/* The most kernel symbols one module may ask taprun to resolve (the
 * __tap_ksyms module parameter, runtime/linux/ksyms.h). */
#define TAP_MAX_KSYMS		256

enum tap_msg_type {
	TAP_MSG_HELLO = 1,	/* both ways: struct tap_msg_hello */
	TAP_MSG_START = 2,	/* loader: struct tap_msg_start; runs begin */
	TAP_MSG_STARTED = 3,	/* module: struct tap_msg_status; probes armed */
	TAP_MSG_EXIT = 4,	/* loader: no payload; please stop */
	TAP_MSG_DRAIN = 5,	/* module: no payload; probes disarmed */
	TAP_MSG_DRAINED = 6,	/* loader: no payload; trace files read dry */
	TAP_MSG_ERROR = 7,	/* module: text, not NUL-terminated */
	TAP_MSG_WARNING = 8,	/* module: text, not NUL-terminated */
	TAP_MSG_COUNTS = 9,	/* module: struct tap_msg_counts */
	TAP_MSG_STOPPED = 10,	/* module: struct tap_msg_status; all done */
	TAP_MSG_ARM = 11,	/* loader: no payload; begin output read */
	TAP_MSG_SYSTEM = 12,	/* module: a shell command for system(), text */
	TAP_MSG_SWITCH_FILE = 13, /* module: no payload; -o FILE -> FILE.N */
	TAP_MSG_DETACH = 14,	/* loader: no payload; run on, overwriting */
	TAP_MSG_ATTACH = 15,	/* loader: no payload; take over the session */
};

struct tap_msg_hdr {
	tap_u32 type;		/* enum tap_msg_type */
	tap_u32 len;		/* payload bytes after this header */
};

struct tap_msg_hello {
	tap_u32 magic;		/* TAP_PROTOCOL_MAGIC (frozen) */
	tap_u32 version;	/* TAP_PROTOCOL_VERSION (frozen) */
	tap_u32 ncpus;		/* module: trace files are trace0..ncpus-1 */
	tap_u32 subbuf_size;	/* module: relay sub-buffer size, bytes */
	tap_u32 n_subbufs;	/* module: sub-buffers per CPU */
	tap_u32 reserved;
};

/*
 * START's payload: this struct, then the -G assignments the module does not
 * take as module parameters, as NUL-terminated "name=value" strings (set
 * through tap_module.params before begin probes run).
 */
struct tap_msg_start {
	tap_s32 target_pid;	/* target(): -c child or -x PID, 0 if none */
	tap_u32 flags;		/* none defined yet; send 0 */
};

struct tap_msg_status {
	tap_s32 status;		/* 0 ok; negative errno or 1 (script error) */
	tap_u32 reserved;
};

struct tap_msg_counts {
	tap_u64 skipped;	/* handlers not run: reentrancy, locks, missed */
	tap_u64 lost;		/* output records dropped: relay full */
	tap_u64 errors;		/* script run-time errors */
	tap_u64 warnings;	/* warnings, including ones not delivered */
	tap_u64 missed;		/* kprobe/kretprobe hits the kernel missed */
	tap_u64 overwritten;	/* flight recorder: records overwritten */
};

#endif /* TAP_PROTOCOL_H */
