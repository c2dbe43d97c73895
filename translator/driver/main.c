/*
 * main.c -- tapc's driver: parse the options, check that a run which
 * would load its module here can (preflight.c), then run the passes in
 * order, stopping after the one -p names or at the first that fails.
 * Each pass is a function of the session; what happens here besides is
 * the order: -v's line after each pass (pass_report.c), and the module's
 * deployable copy (deploy_module.c) between passes 4 and 5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/build/build_user.h"
#include "translator/codegen/codegen.h"
#include "translator/build/kbuild.h"
#include "translator/driver/listing.h"
#include "translator/driver/options.h"
#include "translator/parse/parse.h"
#include "translator/build/run_kernel.h"
#include "translator/sema/sema.h"
#include "translator/driver/session.h"
#include "translator/driver/kernel_facts.h"
#include "translator/driver/preflight.h"
#include "translator/driver/deploy_module.h"
#include "translator/driver/pass_report.h"
#include "translator/driver/remote.h"

/* -p3: the C on stdout, for either target. */
static int
translate_to_stdout(struct session *s, const struct pass_clock *clock)
{
	if (!pass_translate(s, stdout))
		return 1;
	pass_report(s, 3, clock, true, "translated to C");
	return 0;
}

/* Passes 3-5 for --target=user: an executable built with cc. */
static int
run_user_target(struct session *s)
{
	struct pass_clock clock;

	pass_clock_start(&clock);
	if (s->opts.last_pass == 3)
		return translate_to_stdout(s, &clock);
	if (!pass_build(s))
		return 1;
	pass_report(s, 4, &clock, false, "compiled C into \"%s\"",
		    build_result(s));
	if (s->opts.last_pass == 4) {
		printf("%s\n", build_result(s));
		return 0;
	}
	pass_say(s, 5, "starting run.");
	pass_clock_start(&clock);
	int rc = pass_run(s);
	pass_report(s, 5, &clock, false, "run completed");
	build_cleanup(s);
	return rc;
}

/* Passes 3-5 for --runtime=bpf: the BPF C compiled with clang and
 * embedded in a user program (build_bpf.c), built and run as the user
 * target's.  The one entry point of the BPF backend. */
static int
run_bpf_target(struct session *s)
{
	if (s->opts.last_pass == 3)
		return build_bpf_print(s, stdout) ? 0 : 1;
	return run_user_target(s);
}

/* The generated C as one string, for kbuild. */
static char *
translate_to_text(struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok = pass_translate(s, f);

	fclose(f);
	if (!ok) {
		free(text);
		return NULL;
	}
	char *copy = arena_strdup(s->arena, text);
	free(text);
	return copy;
}

/*
 * The module pass 5 loads, and what a user takes elsewhere.  -m leaves
 * NAME.ko in the current directory, as stap's -m does (at -p4 and -p5;
 * without -m, -p4 only prints the cache's path, as stap does), without
 * debug sections (the cache keeps the full module); --sign-module signs
 * that copy, or, for a run without -m, a copy next to the cached one.
 * Otherwise pass 5 loads the cached module itself.
 */
static const char *
deployable_copy(struct session *s, const char *ko, const char *name)
{
	const char *dest;

	if (s->opts.module_name) {
		char cwd[4096];
		if (!getcwd(cwd, sizeof(cwd))) {
			diag_fatal_noloc(&s->diag, "cannot write %s.ko here: the current directory is gone", name);
			return NULL;
		}
		dest = arena_printf(s->arena, "%s/%s.ko", cwd, name);
	} else if (s->opts.sign_module) {
		dest = arena_printf(s->arena, "%.*s.signed.ko",
				    (int)(strlen(ko) - 3), ko);
	} else {
		return ko;
	}
	return deploy_module_write(s, ko, dest) ? dest : NULL;
}

/* --stage-build=DIR: pass 3, then the kbuild directory in DIR without
 * running make; prints the path the module will have once a kbuild run
 * over DIR (or a directory naming it) has built it. */
static int
stage_kernel_build(struct session *s, const char *name)
{
	struct pass_clock clock;

	pass_clock_start(&clock);
	char *text = translate_to_text(s);
	if (!text)
		return 1;
	pass_report(s, 3, &clock, true, "translated to C");
	const char *ko = kbuild_stage_module(s, text, name, s->opts.stage_dir);
	if (!ko)
		return 1;
	printf("%s\n", ko);
	return 0;
}

/* Passes 3-5 for the kernel target. The cache key is known after pass 2,
 * so a cached module skips passes 3 and 4. */
static int
run_kernel_target(struct session *s)
{
	struct pass_clock clock;

	pass_clock_start(&clock);
	if (s->opts.last_pass == 3)
		return translate_to_stdout(s, &clock);
	const char *key = kbuild_cache_key(s);
	const char *name = kbuild_module_name(s, key);
	if (s->opts.stage_dir)
		return stage_kernel_build(s, name);
	const char *ko = kbuild_cached_module(s, key, name);
	if (s->opts.verbose > 1)
		fprintf(stderr, "tapc: module cache %s: %s\n",
			ko ? "hit" : "miss", ko ? ko : key);
	if (ko) {
		pass_say(s, 3, "using cached %s", ko);
		pass_say(s, 4, "using cached %s", ko);
	} else {
		char *text = translate_to_text(s);
		if (!text)
			return 1;
		pass_report(s, 3, &clock, true, "translated to C");
		pass_clock_start(&clock);
		ko = kbuild_build_module(s, text, name, key);
		if (!ko)
			return 1;
		pass_report(s, 4, &clock, false, "compiled C into \"%s.ko\"",
			    name);
	}
	const char *run_ko = deployable_copy(s, ko, name);
	if (!run_ko)
		return 1;
	if (s->opts.last_pass == 4) {
		printf("%s\n", ko);	/* the cache's, as stap prints */
		return 0;
	}
	pass_say(s, 5, "starting run.");
	pass_clock_start(&clock);
	int rc = run_kernel_module(s, run_ko);
	pass_report(s, 5, &clock, false, "run completed");
	return rc;
}

static int
run_passes(struct session *s)
{
	kernel_facts_fill(s);
	if (s->opts.list_pattern)
		return pass_list(s) ? 0 : 1;
	if (s->opts.dump_functions || s->opts.dump_probe_types ||
	    s->opts.dump_probe_aliases)
		return pass_dump(s) ? 0 : 1;
	struct pass_clock clock;
	pass_clock_start(&clock);
	if (!pass_parse(s))
		return 1;
	pass_report(s, 1, &clock, true,
		    "parsed user script and %d library scripts", s->nlibrary);
	if (s->opts.last_pass == 1) {
		print_file(stdout, s->user_file);
		return 0;
	}
	pass_clock_start(&clock);
	if (!pass_elaborate(s))
		return 1;
	const struct program *p = s->program;
	pass_report(s, 2, &clock, true,
		    "analyzed script: %d probe%s, %d function%s, %d embed%s, %d global%s",
		    p->nprobes, p->nprobes == 1 ? "" : "s",
		    p->nfunctions, p->nfunctions == 1 ? "" : "s",
		    p->nembeds, p->nembeds == 1 ? "" : "s",
		    p->nglobals, p->nglobals == 1 ? "" : "s");
	if (s->opts.last_pass == 2) {
		sema_print_program(stdout, s);
		return 0;
	}
	/* --remote-merge's end probes (remote.c builds them with -p4): a
	 * user-space program over the program elaborated for the hosts */
	if (s->opts.target == TARGET_USER || s->opts.merge_part == MERGE_LOCAL)
		return run_user_target(s);
	if (s->opts.target == TARGET_BPF)
		return run_bpf_target(s);
	return run_kernel_target(s);
}

int
main(int argc, char **argv)
{
	struct session s = { 0 };
	int status = 1;

	s.arena = arena_new();
	diag_init(&s.diag, stderr);
	if (!options_parse(&s, argc, argv, &status))
		goto out;
	/* -v is for the pass lines, as in stap; the library's own warnings
	 * are for those who look into it (-vv). */
	s.diag.library_warnings = s.opts.verbose > 1;
	if (!options_check_supported(&s)) {
		status = 1;
		goto out;
	}
	/* --remote: the hosts' kernels are probed, built for and run
	 * on by remote.c; nothing loads here. */
	if (s.opts.nremotes > 0) {
		status = remote_check_options(&s) ? remote_run(&s, argc, argv) : 1;
		goto out;
	}
	/* Before any pass: a module that cannot be loaded here is not
	 * worth building. */
	if (!preflight_check(&s)) {
		status = 1;
		goto out;
	}
	status = run_passes(&s);
	if (s.diag.errors)
		status = 1;
	kernel_facts_release(&s);
out:
	fflush(stdout);
	arena_destroy(s.arena);
	return status;
}
