/*
 * host_caps.h -- what this machine offers a tracer: can it load kernel
 * modules, does it have BTF, kernel debuginfo, tracefs, kernel headers,
 * BPF, kprobes.  Each answer is a yes or a no with the reason, in words a
 * user can act on.
 *
 * Used by `tapc --info` (host_caps_print) and by the driver before a run
 * that would load a module here (host_caps_modules_refusal), and meant
 * for choosing a back end: host_caps_bpf_usable() says whether the BPF
 * back end could run here.  Probing reads /proc and /sys and makes a few
 * bpf() calls that create and close objects at once; it changes nothing.
 */
#ifndef TAPC_DRIVER_HOST_CAPS_H
#define TAPC_DRIVER_HOST_CAPS_H

#include <stdbool.h>
#include <stdio.h>

enum host_cap {
	HOST_CAP_MODULES,	/* the kernel loads modules (all of the below) */
	HOST_CAP_MODULE_SIGNING,/* unsigned modules accepted (sig_enforce off) */
	HOST_CAP_LOCKDOWN,	/* lockdown does not forbid modules */
	HOST_CAP_BTF,		/* /sys/kernel/btf/vmlinux */
	HOST_CAP_DEBUGINFO,	/* a debug vmlinux for the running kernel */
	HOST_CAP_HEADERS,	/* /lib/modules/$(uname -r)/build */
	HOST_CAP_TRACEFS,	/* tracefs mounted */
	HOST_CAP_KPROBES,	/* kprobe_events in tracefs */
	HOST_CAP_BPF,		/* bpf() loads a program */
	HOST_CAP_BPF_TRACEPOINT,/* BPF_PROG_TYPE_TRACEPOINT */
	HOST_CAP_BPF_RAW_TRACEPOINT,
	HOST_CAP_BPF_KPROBE,	/* BPF_PROG_TYPE_KPROBE (also uprobes) */
	HOST_CAP_BPF_PERF_EVENT,
	HOST_CAP_BPF_RINGBUF,	/* BPF_MAP_TYPE_RINGBUF */
	HOST_CAP_BPF_PERCPU_ARRAY,
	HOST_CAP_BPF_STACK_TRACE,
	HOST_CAP_COUNT
};

struct host_cap_answer {
	bool yes;
	char detail[200];	/* what was found, or why not */
};

struct host_caps {
	char kernel_release[65];
	struct host_cap_answer cap[HOST_CAP_COUNT];
	/* Where to look (NULL: the real paths); tests point it elsewhere. */
	const char *root;
};

/* Fill `hc` for this machine.  `root` prefixes every /proc and /sys
 * path ("" or NULL for the real ones); the bpf() probes run only when
 * root is unset, since a fixture cannot fake them. */
void host_caps_probe(struct host_caps *hc, const char *root);

/* A short name for --info: "modules", "btf", "bpf.ringbuf"... */
const char *host_cap_name(enum host_cap cap);

/* NULL if a module built for this kernel can be loaded here, else why
 * not ("this kernel has no module support (no /proc/modules)"). */
const char *host_caps_modules_refusal(const struct host_caps *hc);

/* NULL if this kernel loads unsigned modules, else why it does not
 * (module.sig_enforce, lockdown). */
const char *host_caps_signature_required(const struct host_caps *hc);

/* Whether the BPF back end's needs are met: bpf() works and loads
 * tracepoint programs, and ring buffers exist. */
bool host_caps_bpf_usable(const struct host_caps *hc);

/* `tapc --info`: the kernel, then one line per capability. */
void host_caps_print(FILE *out, const struct host_caps *hc);

#endif
