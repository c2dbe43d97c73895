/*
 * preflight.c -- can a module this run builds be loaded here, and if not,
 * what works instead (preflight.h).
 *
 * A kernel that loads only signed modules needs --sign-module (and tapc's
 * key enrolled, which cannot be seen from here).
 *
 * The ways that work are one table, ways[], each with the test of this
 * machine that says whether it applies: the one place to add a way.
 *
 * Where modules cannot load but BPF works (lockdown, a kernel without
 * CONFIG_MODULES, like the hosts tapc is built on), a run that named no
 * back end (--runtime, --target) gets the BPF back end, as DESIGN.md §5b
 * says; -v says which and why.  A run that asked for module-only things
 * (-b, -s, -B, -m, -r, --sign-module) is refused instead, with the ways.
 */
#include "translator/driver/preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "translator/driver/host_caps.h"

/* Whether a QEMU binary is on PATH (or $QEMU names one): what --vm
 * needs besides an installed kernel. */
static bool
qemu_available(const struct host_caps *hc)
{
	const char *qemu = getenv("QEMU");
	const char *path = getenv("PATH");
	char file[4096];

	(void)hc;
	if (qemu && *qemu)
		return strchr(qemu, '/') ? access(qemu, X_OK) == 0 : true;
	if (!path)
		return false;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(file, sizeof(file), "%.*s/qemu-system-x86_64", (int)n, p);
		if (n && access(file, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

static bool
always(const struct host_caps *hc)
{
	(void)hc;
	return true;
}

/* The ways to run a script when this machine cannot load modules. */
static const struct way {
	const char *how;
	bool (*works_here)(const struct host_caps *hc);
} ways[] = {
	{ "--vm: run the module in a QEMU virtual machine that boots an installed kernel (-r KREL, default the newest with headers)", qemu_available },
	{ "--runtime=bpf: run the script as BPF programs, no module (a subset of the language: runtime/bpf/README.md)", host_caps_bpf_usable },
	{ "-p4 -m NAME [-r KREL]: build NAME.ko here, then run it with `taprun NAME.ko` on a machine that loads modules", always },
};

/* Whether this run may be given the BPF back end instead: it named none,
 * asked for nothing only a module has, and BPF works here. */
static bool
bpf_instead(const struct session *s, const struct host_caps *hc)
{
	const struct options *o = &s->opts;

	return !o->target_given && !o->bulk_mode && o->buffer_mb <= 0 &&
	       !o->make_options && !o->sign_module && !o->module_name &&
	       !o->kernel_release && !o->flight_recorder &&
	       host_caps_bpf_usable(hc);
}

static void
print_ways(FILE *out, const struct host_caps *hc, const char *indent)
{
	for (size_t i = 0; i < sizeof(ways) / sizeof(*ways); i++)
		if (ways[i].works_here(hc))
			fprintf(out, "%s%s\n", indent, ways[i].how);
}

/* Whether this run would load the module into the running kernel. */
static bool
loads_here(const struct session *s)
{
	const struct options *o = &s->opts;
	struct utsname u;

	if (o->last_pass < 5 || o->vm || o->target != TARGET_KERNEL ||
	    o->list_pattern || o->dump_functions || o->dump_probe_types ||
	    o->dump_probe_aliases)
		return false;
	if (!o->kernel_release)
		return true;
	/* -r naming the running kernel still loads here; another release
	 * or a build tree cannot be run here by taprun anyway. */
	return uname(&u) == 0 && strcmp(o->kernel_release, u.release) == 0;
}

bool
preflight_check(struct session *s)
{
	struct host_caps hc;
	const char *why;

	if (!loads_here(s))
		return true;
	host_caps_probe(&hc, getenv("TAPC_HOST_ROOT"));
	why = host_caps_modules_refusal(&hc);
	if (!why) {
		why = host_caps_signature_required(&hc);
		if (!why || s->opts.sign_module)
			return true;
		diag_fatal_noloc(&s->diag, "%s; build it with --sign-module, and enrol tapc's key on this machine once (tapc prints the mokutil step)", why);
		return false;
	}
	if (bpf_instead(s, &hc)) {
		s->opts.target = TARGET_BPF;
		if (s->opts.verbose && s->diag.out)
			fprintf(s->diag.out, "tapc: using the BPF back end (--runtime=bpf): %s\n", why);
		return true;
	}
	diag_fatal_noloc(&s->diag, "this machine cannot load the module this run would build: %s", why);
	if (s->diag.out) {
		fputs("tapc: what works here instead:\n", s->diag.out);
		print_ways(s->diag.out, &hc, "  ");
		fputs("tapc: `tapc --info` shows what this machine offers\n", s->diag.out);
	}
	return false;
}

int
preflight_print_info(FILE *out)
{
	struct host_caps hc;
	const char *why;

	host_caps_probe(&hc, getenv("TAPC_HOST_ROOT"));
	host_caps_print(out, &hc);
	why = host_caps_modules_refusal(&hc);
	if (!why) {
		fputs("Runs here: kernel modules (tapc SCRIPT)\n", out);
		return 0;
	}
	fputs("Runs here: not kernel modules; instead:\n", out);
	print_ways(out, &hc, "  ");
	return 0;
}
