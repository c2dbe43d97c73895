/*
 * main.c -- tapc's driver: parse the options, then run the passes in
 * order, stopping after the one -p names or at the first that fails.
 * Each pass is a function of the session; nothing else happens here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "translator/listing.h"
#include "translator/options.h"
#include "translator/parse.h"
#include "translator/sema.h"
#include "translator/session.h"
#include "translator/target.h"

static int
run_passes(struct session *s)
{
	target_facts_fill(s);
	if (s->opts.list_pattern)
		return pass_list(s) ? 0 : 1;
	if (s->opts.dump_functions || s->opts.dump_probe_types ||
	    s->opts.dump_probe_aliases)
		return pass_dump(s) ? 0 : 1;
	if (!pass_parse(s))
		return 1;
	if (s->opts.last_pass == 1) {
		print_file(stdout, s->user_file);
		return 0;
	}
	if (!pass_elaborate(s))
		return 1;
	if (s->opts.last_pass == 2) {
		sema_print_program(stdout, s);
		return 0;
	}
	/* Later passes arrive with their issues; options_check_supported()
	 * has already refused -p3 and beyond. */
	return 1;
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
	if (!options_check_supported(&s)) {
		status = 1;
		goto out;
	}
	status = run_passes(&s);
	if (s.diag.errors)
		status = 1;
	target_facts_release(&s);
out:
	fflush(stdout);
	arena_destroy(s.arena);
	return status;
}
