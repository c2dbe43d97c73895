/*
 * host_caps.c -- probing what this machine offers a tracer (host_caps.h).
 *
 * Every answer comes from the place the kernel itself publishes it: files
 * under /proc and /sys for modules, lockdown, signing, BTF, tracefs and
 * kprobes; the file system for debuginfo and headers; and for BPF, a
 * bpf() call that loads the smallest program of each type (r0 = 0; exit)
 * or creates the smallest map of each kind and closes it again, which is
 * the only way to know what the verifier and this kernel's configuration
 * accept.  A "no" always carries the reason and, where there is one, the
 * way out.
 */
#include "translator/driver/host_caps.h"

#include <dirent.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *const cap_names[HOST_CAP_COUNT] = {
	[HOST_CAP_MODULES] = "modules",
	[HOST_CAP_MODULE_SIGNING] = "modules.unsigned",
	[HOST_CAP_LOCKDOWN] = "modules.lockdown",
	[HOST_CAP_BTF] = "btf",
	[HOST_CAP_DEBUGINFO] = "debuginfo",
	[HOST_CAP_HEADERS] = "headers",
	[HOST_CAP_TRACEFS] = "tracefs",
	[HOST_CAP_KPROBES] = "kprobes",
	[HOST_CAP_BPF] = "bpf",
	[HOST_CAP_BPF_TRACEPOINT] = "bpf.tracepoint",
	[HOST_CAP_BPF_RAW_TRACEPOINT] = "bpf.raw_tracepoint",
	[HOST_CAP_BPF_KPROBE] = "bpf.kprobe",
	[HOST_CAP_BPF_PERF_EVENT] = "bpf.perf_event",
	[HOST_CAP_BPF_RINGBUF] = "bpf.ringbuf",
	[HOST_CAP_BPF_PERCPU_ARRAY] = "bpf.percpu_array",
	[HOST_CAP_BPF_STACK_TRACE] = "bpf.stack_trace",
};

const char *
host_cap_name(enum host_cap cap)
{
	return cap < HOST_CAP_COUNT ? cap_names[cap] : "?";
}

static void
answer(struct host_caps *hc, enum host_cap cap, bool yes, const char *fmt,
       ...)
{
	va_list ap;

	hc->cap[cap].yes = yes;
	va_start(ap, fmt);
	vsnprintf(hc->cap[cap].detail, sizeof(hc->cap[cap].detail), fmt, ap);
	va_end(ap);
}

/* `path` under the probe's root. */
static const char *
rooted(const struct host_caps *hc, const char *path, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", hc->root ? hc->root : "", path);
	return buf;
}

static bool
exists(const struct host_caps *hc, const char *path)
{
	char buf[4096];

	return access(rooted(hc, path, buf, sizeof(buf)), F_OK) == 0;
}

/* The first line of a small file, without its newline; false if unread. */
static bool
read_line(const struct host_caps *hc, const char *path, char *out,
	  size_t size)
{
	char buf[4096];
	FILE *f = fopen(rooted(hc, path, buf, sizeof(buf)), "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(out, (int)size, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

/* ---- kernel modules ---- */

/* "none [integrity] confidentiality": the bracketed word is in force. */
static void
probe_lockdown(struct host_caps *hc)
{
	char line[256], mode[64] = "";
	const char *open, *close;

	if (!read_line(hc, "/sys/kernel/security/lockdown", line,
		       sizeof(line))) {
		answer(hc, HOST_CAP_LOCKDOWN, true, "no lockdown (/sys/kernel/security/lockdown absent)");
		return;
	}
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(mode, sizeof(mode), "%.*s", (int)(close - open - 1),
			 open + 1);
	if (!*mode || strcmp(mode, "none") == 0)
		answer(hc, HOST_CAP_LOCKDOWN, true, "lockdown: none");
	else
		answer(hc, HOST_CAP_LOCKDOWN, false, "lockdown is '%s': the kernel loads only modules signed by a key it trusts", mode);
}

static void
probe_modules(struct host_caps *hc)
{
	char line[64];

	probe_lockdown(hc);
	if (read_line(hc, "/sys/module/module/parameters/sig_enforce", line,
		      sizeof(line)) && line[0] == 'Y')
		answer(hc, HOST_CAP_MODULE_SIGNING, false, "module.sig_enforce is on: the kernel loads only modules signed by a key it trusts");
	else
		answer(hc, HOST_CAP_MODULE_SIGNING, true, "module signatures not enforced");

	if (!exists(hc, "/proc/modules") && exists(hc, "/proc/self")) {
		answer(hc, HOST_CAP_MODULES, false, "this kernel has no module support (no /proc/modules: built without CONFIG_MODULES)");
		return;
	}
	if (read_line(hc, "/proc/sys/kernel/modules_disabled", line,
		      sizeof(line)) && strcmp(line, "1") == 0) {
		answer(hc, HOST_CAP_MODULES, false, "module loading is switched off until reboot (kernel.modules_disabled = 1)");
		return;
	}
	if (!hc->cap[HOST_CAP_LOCKDOWN].yes ||
	    !hc->cap[HOST_CAP_MODULE_SIGNING].yes)
		answer(hc, HOST_CAP_MODULES, true, "yes, signed modules only (see below)");
	else
		answer(hc, HOST_CAP_MODULES, true, "yes");
}

/* ---- kernel files: BTF, debuginfo, headers ---- */

static void
probe_kernel_files(struct host_caps *hc)
{
	static const char *const debug_vmlinux[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
	};
	const char *krel = hc->kernel_release;
	char path[512];

	if (exists(hc, "/sys/kernel/btf/vmlinux"))
		answer(hc, HOST_CAP_BTF, true, "/sys/kernel/btf/vmlinux");
	else
		answer(hc, HOST_CAP_BTF, false, "no /sys/kernel/btf/vmlinux (a kernel built without CONFIG_DEBUG_INFO_BTF)");

	answer(hc, HOST_CAP_DEBUGINFO, false, "no debug vmlinux for %s (Debian: install linux-image-%s-dbg)", krel, krel);
	for (size_t i = 0; i < sizeof(debug_vmlinux) / sizeof(*debug_vmlinux); i++) {
		snprintf(path, sizeof(path), debug_vmlinux[i], krel);
		if (exists(hc, path)) {
			answer(hc, HOST_CAP_DEBUGINFO, true, "%s", path);
			break;
		}
	}

	snprintf(path, sizeof(path), "/lib/modules/%s/build", krel);
	if (exists(hc, path)) {
		answer(hc, HOST_CAP_HEADERS, true, "%s", path);
		return;
	}
	/* Headers of other kernels are what -r builds for. */
	char others[160] = "", buf[4096];
	DIR *d = opendir(rooted(hc, "/lib/modules", buf, sizeof(buf)));
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/lib/modules/%s/build", e->d_name);
		if (exists(hc, path) && strlen(others) + strlen(e->d_name) + 3 < sizeof(others))
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%s", *others ? ", " : "", e->d_name);
	}
	if (d)
		closedir(d);
	if (*others)
		answer(hc, HOST_CAP_HEADERS, false, "none for %s; installed for %s (build for it with -r KREL)", krel, others);
	else
		answer(hc, HOST_CAP_HEADERS, false, "none for %s (Debian: install linux-headers-%s)", krel, krel);
}

/* ---- tracefs and kprobes ---- */

static void
probe_tracing(struct host_caps *hc)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	const char *dir = NULL;
	char path[256];

	for (size_t i = 0; i < 2 && !dir; i++) {
		snprintf(path, sizeof(path), "%s/trace", dirs[i]);
		if (exists(hc, path))
			dir = dirs[i];
	}
	if (dir)
		answer(hc, HOST_CAP_TRACEFS, true, "%s", dir);
	else if (exists(hc, "/sys/kernel/tracing"))
		answer(hc, HOST_CAP_TRACEFS, false, "not mounted (mount -t tracefs none /sys/kernel/tracing)");
	else
		answer(hc, HOST_CAP_TRACEFS, false, "this kernel has no tracefs (no /sys/kernel/tracing)");

	if (dir) {
		snprintf(path, sizeof(path), "%s/kprobe_events", dir);
		if (exists(hc, path))
			answer(hc, HOST_CAP_KPROBES, true, "%s", path);
		else
			answer(hc, HOST_CAP_KPROBES, false, "no %s (a kernel built without CONFIG_KPROBE_EVENTS)", path);
		return;
	}
	/* Without tracefs the kernel's own symbols still tell. */
	char buf[4096], line[512];
	FILE *f = fopen(rooted(hc, "/proc/kallsyms", buf, sizeof(buf)), "r");
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *name = strrchr(line, ' ');
		found = name && strcmp(name + 1, "register_kprobe\n") == 0;
	}
	if (f)
		fclose(f);
	if (found)
		answer(hc, HOST_CAP_KPROBES, true, "register_kprobe in /proc/kallsyms");
	else
		answer(hc, HOST_CAP_KPROBES, false, f ? "no register_kprobe in /proc/kallsyms (a kernel built without CONFIG_KPROBES)" : "unknown: no tracefs and no /proc/kallsyms");
}

/* ---- BPF ---- */

static long
sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static const char *
bpf_error(int err)
{
	switch (err) {
	case ENOSYS: return "this kernel has no bpf() (CONFIG_BPF_SYSCALL)";
	case EPERM: return "not permitted (needs root or CAP_BPF and CAP_PERFMON)";
	case EINVAL: return "this kernel does not know it";
	case E2BIG: return "this kernel does not know it";
	default: return strerror(err);
	}
}

/* Load "r0 = 0; exit" as a program of `type`; 0 or an errno. */
static int
try_prog(enum bpf_prog_type type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static int
try_map(enum bpf_map_type type, unsigned key, unsigned value,
	unsigned entries)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key;
	attr.value_size = value;
	attr.max_entries = entries;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static void
answer_bpf(struct host_caps *hc, enum host_cap cap, int err)
{
	if (err)
		answer(hc, cap, false, "%s", bpf_error(err));
	else
		answer(hc, cap, true, "%s", "");
}

static void
probe_bpf(struct host_caps *hc)
{
	static const struct { enum host_cap cap; enum bpf_prog_type type; } progs[] = {
		{ HOST_CAP_BPF_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT },
		{ HOST_CAP_BPF_RAW_TRACEPOINT, BPF_PROG_TYPE_RAW_TRACEPOINT },
		{ HOST_CAP_BPF_KPROBE, BPF_PROG_TYPE_KPROBE },
		{ HOST_CAP_BPF_PERF_EVENT, BPF_PROG_TYPE_PERF_EVENT },
	};
	/* Kernels before 5.11 charge BPF objects to RLIMIT_MEMLOCK. */
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_MEMLOCK, &unlimited);

	int err = try_prog(BPF_PROG_TYPE_SOCKET_FILTER);
	answer_bpf(hc, HOST_CAP_BPF, err);
	for (size_t i = 0; i < sizeof(progs) / sizeof(*progs); i++) {
		if (err)
			answer(hc, progs[i].cap, false, "no bpf()");
		else
			answer_bpf(hc, progs[i].cap, try_prog(progs[i].type));
	}
	if (err) {
		answer(hc, HOST_CAP_BPF_RINGBUF, false, "no bpf()");
		answer(hc, HOST_CAP_BPF_PERCPU_ARRAY, false, "no bpf()");
		answer(hc, HOST_CAP_BPF_STACK_TRACE, false, "no bpf()");
		return;
	}
	answer_bpf(hc, HOST_CAP_BPF_RINGBUF,
		   try_map(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096));
	answer_bpf(hc, HOST_CAP_BPF_PERCPU_ARRAY,
		   try_map(BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1));
	answer_bpf(hc, HOST_CAP_BPF_STACK_TRACE,
		   try_map(BPF_MAP_TYPE_STACK_TRACE, 4, 8 * 127, 1));
}

/* ---- the whole probe ---- */

void
host_caps_probe(struct host_caps *hc, const char *root)
{
	struct utsname u;

	memset(hc, 0, sizeof(*hc));
	hc->root = root && *root ? root : NULL;
	if (hc->root) {
		if (!read_line(hc, "/proc/sys/kernel/osrelease",
			       hc->kernel_release, sizeof(hc->kernel_release)))
			snprintf(hc->kernel_release, sizeof(hc->kernel_release), "unknown");
	} else if (uname(&u) == 0) {
		snprintf(hc->kernel_release, sizeof(hc->kernel_release), "%s", u.release);
	}
	probe_modules(hc);
	probe_kernel_files(hc);
	probe_tracing(hc);
	if (hc->root)
		for (int c = HOST_CAP_BPF; c <= HOST_CAP_BPF_STACK_TRACE; c++)
			answer(hc, c, false, "not probed (a fixture root)");
	else
		probe_bpf(hc);
	/* bpf.kprobe is the program type, as bpftool probes it: say that
	 * such a program has nothing to attach to here */
	if (hc->cap[HOST_CAP_BPF_KPROBE].yes && !hc->cap[HOST_CAP_KPROBES].yes)
		answer(hc, HOST_CAP_BPF_KPROBE, true,
		       "the program type loads, but without kprobes (above) it cannot be attached");
}

const char *
host_caps_modules_refusal(const struct host_caps *hc)
{
	return hc->cap[HOST_CAP_MODULES].yes ? NULL
					     : hc->cap[HOST_CAP_MODULES].detail;
}

const char *
host_caps_signature_required(const struct host_caps *hc)
{
	if (!hc->cap[HOST_CAP_MODULE_SIGNING].yes)
		return hc->cap[HOST_CAP_MODULE_SIGNING].detail;
	if (!hc->cap[HOST_CAP_LOCKDOWN].yes)
		return hc->cap[HOST_CAP_LOCKDOWN].detail;
	return NULL;
}

bool
host_caps_bpf_usable(const struct host_caps *hc)
{
	return hc->cap[HOST_CAP_BPF_TRACEPOINT].yes &&
	       hc->cap[HOST_CAP_BPF_RINGBUF].yes;
}

static void
print_group(FILE *out, const struct host_caps *hc, const char *title,
	    enum host_cap first, enum host_cap last)
{
	fprintf(out, "%s\n", title);
	for (enum host_cap c = first; c <= last; c++)
		fprintf(out, "  %-20s %-4s %s\n", host_cap_name(c),
			hc->cap[c].yes ? "yes" : "no", hc->cap[c].detail);
}

void
host_caps_print(FILE *out, const struct host_caps *hc)
{
	struct utsname u;

	fprintf(out, "Kernel: %s", hc->kernel_release);
	if (!hc->root && uname(&u) == 0)
		fprintf(out, " %s (%s)", u.version, u.machine);
	fputc('\n', out);
	print_group(out, hc, "Kernel modules:", HOST_CAP_MODULES,
		    HOST_CAP_LOCKDOWN);
	print_group(out, hc, "Kernel information:", HOST_CAP_BTF,
		    HOST_CAP_HEADERS);
	print_group(out, hc, "Tracing:", HOST_CAP_TRACEFS, HOST_CAP_KPROBES);
	print_group(out, hc, "BPF:", HOST_CAP_BPF, HOST_CAP_BPF_STACK_TRACE);
}
