/*
 * run_kernel.c -- pass 5 for the kernel target.
 *
 * On this machine: exec taprun with the run options (-o -S -b -c -x -T -G
 * -s -v), wait, and give its exit status. With --vm: write a one-test batch
 * for the VM tools (testsuite/vm, installed under libexec/vm): the module,
 * and a taprun command line that runs in the guest (so -c runs there too);
 * boot the target kernel (-r, default the newest installed with headers)
 * in QEMU, then print what the script printed (to -o FILE, if given,
 * on this machine) and say if the kernel log
 * shows a problem (a BUG, Oops, WARNING, stall...: run-batch's pattern,
 * over the script's klog and what the kernel said after it).  The guest
 * is busybox, its /tmp on a scratch disk (write_spec): the -c
 * program, when this host has it as an ELF file, is brought along so that
 * -c 'cat FILE' runs the host's cat (which read()s) and not busybox's
 * (which sendfile()s), as the command would on this host.
 */
#include "translator/build/run_kernel.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/debuginfo/elf_syms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/driver/paths.h"
#include "translator/providers/provider.h"
#include "translator/driver/spawn.h"

#define TAPRUN_MAX_ARGS 64

/* taprun's options, shared by both ways of running. */
static int
taprun_options(struct session *s, const char **argv, int n, bool in_vm)
{
	const struct options *o = &s->opts;

	for (int i = 0; i < o->verbose && n < TAPRUN_MAX_ARGS - 20; i++)
		argv[n++] = "-v";
	if (o->flight_recorder)	/* checked by options.c: never in_vm */
		argv[n++] = "-F";
	if (o->output_file && !in_vm) {
		argv[n++] = "-o";
		argv[n++] = o->output_file;
		if (o->cpu_spec) {	/* -S SIZE[,N], checked by options.c */
			argv[n++] = "-S";
			argv[n++] = o->cpu_spec;
		}
	}
	if (o->bulk_mode)
		argv[n++] = "-b";
	if (o->target_command) {
		argv[n++] = "-c";
		argv[n++] = o->target_command;
	}
	if (o->target_pid) {
		argv[n++] = "-x";
		argv[n++] = arena_printf(s->arena, "%d", o->target_pid);
	}
	if (o->time_limit) {
		argv[n++] = "-T";
		argv[n++] = arena_printf(s->arena, "%d", o->time_limit);
	}
	if (o->buffer_mb) {
		argv[n++] = "-s";
		argv[n++] = arena_printf(s->arena, "%d", o->buffer_mb);
	}
	for (int i = 0; i < o->nglobals && n < TAPRUN_MAX_ARGS - 3; i++) {
		argv[n++] = "-G";
		argv[n++] = arena_printf(s->arena, "%s=%s", o->globals[i].name,
					 o->globals[i].value);
	}
	return n;
}

static int
run_here(struct session *s, const char *ko)
{
	const char *argv[TAPRUN_MAX_ARGS];
	int n = 0;

	argv[n++] = paths_taprun();
	n = taprun_options(s, argv, n, false);
	argv[n++] = ko;
	argv[n] = NULL;
	int rc = spawn_wait((char *const *)argv, NULL);
	if (rc < 0) {
		diag_fatal_noloc(&s->diag, "cannot run %s: %s", argv[0],
				 strerror(errno));
		return 1;
	}
	return rc;
}

/* Quote for the guest's shell: 'it'\''s'. */
static const char *
shell_quote(struct session *s, const char *arg)
{
	size_t n = 2;

	for (const char *p = arg; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *out = arena_alloc(s->arena, n + 1), *q = out;
	*q++ = '\'';
	for (const char *p = arg; *p; p++) {
		if (*p == '\'') {
			memcpy(q, "'\\''", 4);
			q += 4;
		} else {
			*q++ = *p;
		}
	}
	*q++ = '\'';
	return out;
}

/* Files user-space probes name, in the guest at their host paths (the
 * VM tools copy a dynamic program's libraries along); a path the guest
 * has already is left alone. */
static void
write_guest_files(struct session *s, FILE *f)
{
	const char **files;
	int n = provider_guest_files(s, &files);

	for (int i = 0; i < n; i++) {
		const char *base = strrchr(files[i], '/') + 1;
		const char *q = shell_quote(s, files[i]);
		fprintf(f, "file %s\n", files[i]);
		fprintf(f, "run [ -e %s ] || { mkdir -p \"$(dirname %s)\" && cp /tap/files/%s %s; } &&\n",
			q, q, shell_quote(s, base), q);
	}
}

static bool
is_elf_file(const char *path)
{
	unsigned char magic[4] = { 0 };
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	size_t n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	return n == 4 && memcmp(magic, "\177ELF", 4) == 0;
}

/* The -c command's program, found on this host's PATH as the shell would,
 * goes into the guest under /tap/files, which is first on the guest's PATH
 * (with its libraries, by the VM tools).  A program the probes already
 * brought (a path in -c) is left to write_guest_files. */
static void
write_command_program(struct session *s, FILE *f)
{
	const char *cmd = s->opts.target_command;

	if (!cmd)
		return;
	cmd += strspn(cmd, " \t");
	const char *name = arena_strndup(s->arena, cmd, strcspn(cmd, " \t;|&<>()$`'\""));
	/* sh is the guest's own shell; a path was brought by the probes */
	if (!*name || strchr(name, '/') || strchr(name, '=') ||
	    strcmp(name, "sh") == 0)
		return;
	const char *path = elf_resolve_program(s->arena, name);
	if (!path || !is_elf_file(path))
		return;
	const char *base = strrchr(path, '/') + 1;
	fprintf(f, "file %s\n", path);
	if (strcmp(base, name) != 0)	/* python3 -> python3.11 */
		fprintf(f, "run ln -sf %s /tap/files/%s &&\n",
			shell_quote(s, base), shell_quote(s, name));
}

static bool
write_spec(struct session *s, const char *spec, const char *ko)
{
	const char *argv[TAPRUN_MAX_ARGS];
	FILE *f = fopen(spec, "w");
	const char *base = strrchr(ko, '/') ? strrchr(ko, '/') + 1 : ko;
	int n;

	if (!f)
		return false;
	n = taprun_options(s, argv, 0, true);
	fprintf(f, "test script\nmodule %s\ntimeout %d\n", ko,
		s->opts.time_limit ? s->opts.time_limit + 60 : 600);
	/* The guest's /tmp on the VM tools' scratch disk (an ext2 /dev/vda,
	 * testsuite/vm/boot), when there is one: files written there, as by
	 * -c 'dd of=/tmp/f oflag=direct', make block I/O, as on this host;
	 * tmpfs makes none.  Should the mount fail, the run goes on in tmpfs. */
	fprintf(f, "run [ ! -b /dev/vda ] || mount -t ext2 /dev/vda /tmp\n");
	write_guest_files(s, f);
	write_command_program(s, f);
	fprintf(f, "run taprun");
	for (int i = 0; i < n; i++)
		fprintf(f, " %s", shell_quote(s, argv[i]));
	fprintf(f, " /tap/mod/%s\n", base);
	return fclose(f) == 0;
}

static void
print_file(const char *path, FILE *to)
{
	char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, to);
	fclose(f);
}

static int
read_rc(const char *path)
{
	FILE *f = fopen(path, "r");
	int rc = 1;

	if (f) {
		if (fscanf(f, "%d", &rc) != 1)
			rc = 1;
		fclose(f);
	}
	return rc;
}

/* The guest kernel's problems as run-batch found them (its klog-problems
 * and kernel-problems files: one pattern list, run-batch's bad_klog),
 * printed; true if there were any. */
static bool
kernel_log_bad(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	bool any = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		fprintf(stderr, "tapc: guest kernel: %s", line);
		any = true;
	}
	fclose(f);
	return any;
}

static int
run_in_vm(struct session *s, const char *ko)
{
	char tmpl[] = "/tmp/tapc-vmXXXXXX";
	const char *dir = mkdtemp(tmpl), *tools = paths_vm_tools();

	if (!dir) {
		diag_fatal_noloc(&s->diag, "cannot make a directory for the VM: %s",
				 strerror(errno));
		return 1;
	}
	dir = arena_strdup(s->arena, dir);
	const char *spec = arena_printf(s->arena, "%s/run.vmtest", dir);
	const char *log = arena_printf(s->arena, "%s/vm.log", dir);
	const char *results = arena_printf(s->arena, "%s/results", dir);
	if (!write_spec(s, spec, ko))
		return 1;
	const char *argv[] = {
		"sh", arena_printf(s->arena, "%s/run-batch", tools),
		"-k", kernel_release(s->kernel), "-t", paths_taprun_static(),
		"-o", results, spec, NULL,
	};
	if (s->opts.verbose)
		fprintf(stderr, "tapc: booting %s in QEMU (TCG) from %s\n",
			kernel_release(s->kernel), dir);
	/* run-batch judges tests; here only two things matter: whether the
	 * guest got to report (its rc file), and its kernel log. */
	spawn_wait((char *const *)argv, log);
	const char *out = arena_printf(s->arena, "%s/script", results);
	const char *rc_path = arena_printf(s->arena, "%s/rc", out);
	/* -o FILE: taprun in the guest wrote to its stdout (write_spec
	 * leaves -o out), which is the script's output: it goes to FILE
	 * here, where the user asked for it. */
	if (s->opts.output_file) {
		FILE *f = fopen(s->opts.output_file, "w");
		if (!f) {
			diag_fatal_noloc(&s->diag, "cannot write %s: %s",
					 s->opts.output_file, strerror(errno));
			return 1;
		}
		print_file(arena_printf(s->arena, "%s/stdout", out), f);
		if (fclose(f) != 0) {
			diag_fatal_noloc(&s->diag, "cannot write %s: %s",
					 s->opts.output_file, strerror(errno));
			return 1;
		}
	} else {
		print_file(arena_printf(s->arena, "%s/stdout", out), stdout);
	}
	fflush(stdout);
	print_file(arena_printf(s->arena, "%s/stderr", out), stderr);
	if (access(rc_path, R_OK) != 0) {
		fprintf(stderr, "tapc: the VM did not finish the run; its log (%s) ends:\n", log);
		spawn_show_log_tail(log, 15);
		return 1;
	}
	/* both: the script's klog, and what came after it (klog-tail) */
	bool bad = kernel_log_bad(arena_printf(s->arena, "%s/klog-problems", out));
	if (kernel_log_bad(arena_printf(s->arena, "%s/kernel-problems", results)) || bad) {
		fprintf(stderr, "tapc: the guest kernel reported a problem (%s/klog, %s/klog-tail)\n",
			out, results);
		return 1;
	}
	int rc = read_rc(rc_path);	/* before the directory goes */
	if (!s->opts.keep_build) {
		const char *rm[] = { "rm", "-rf", dir, NULL };
		spawn_wait((char *const *)rm, NULL);
	}
	return rc;
}

int
run_kernel_module(struct session *s, const char *ko)
{
	if (s->opts.vm)
		return run_in_vm(s, ko);
	return run_here(s, ko);
}
