/*
 * test_codegen_state.c -- Check tests that pass 3 keeps no state between
 * translations: the same elaborated program, translated twice in one
 * process (as a build for several kernels would), gives the same C.
 * codegen_tvar.c used to keep its @entry layouts, the kernel symbols it
 * had declared and whether it had included target_mem.h in file-static
 * variables keyed by the program's address, so a second translation left
 * out the entry handler's frame struct.
 *
 * The program is elaborated for the running kernel (kprobes by name, no
 * headers needed); without one the test is skipped with a message.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen.h"
#include "translator/driver/kernel_facts.h"
#include "translator/driver/options.h"
#include "translator/parse/parse.h"
#include "translator/sema/sema.h"

/* The C of one translation of s->program (malloc'd). */
static char *
translate(struct session *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert(pass_translate(s, f));
	fclose(f);
	return text;
}

START_TEST(translate_twice)
{
	char *argv[] = {
		"tapc", "-p3", "-e",
		"probe kprobe.function(\"vfs_read\").return "
		"{ println(@entry(gettimeofday_ns())) }",
		NULL
	};
	struct session s = { 0 };
	int status;

	setenv("TAPC_TAPSET_DIR", TAPC_SRCDIR "/tapsets", 1);
	s.arena = arena_new();
	diag_init(&s.diag, stderr);
	ck_assert(options_parse(&s, 4, argv, &status));
	kernel_facts_fill(&s);
	if (!s.kernel) {
		fprintf(stderr, "test_codegen_state: no kernel to elaborate for (%s): skipped\n",
			s.kernel_error ? s.kernel_error : "?");
		arena_destroy(s.arena);
		return;
	}
	ck_assert(pass_parse(&s));
	ck_assert(pass_elaborate(&s));

	char *first = translate(&s);
	char *second = translate(&s);

	ck_assert_ptr_nonnull(strstr(first, "probe_0_entry(struct tap_context *c)"));
	ck_assert_ptr_nonnull(strstr(first, "struct probe_0_entry_tmp {"));
	size_t at = 0;
	while (first[at] && first[at] == second[at])
		at++;
	ck_assert_msg(first[at] == second[at],
		      "the second translation differs at byte %zu: \"%.60s\" vs \"%.60s\"",
		      at, first + at, second + at);
	free(first);
	free(second);
	kernel_facts_release(&s);
	arena_destroy(s.arena);
}
END_TEST

int
main(void)
{
	Suite *su = suite_create("codegen_state");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, translate_twice);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
