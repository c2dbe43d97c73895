/*
 * test_builtins.c -- Check tests for the builtin table split between the
 * passes: every id of sema/builtins.h has its signature row, at its own
 * index, found by name, and a C template in pass 3 (codegen_builtin.c),
 * so adding a builtin to one side only fails here, not in a user's build.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/builtins.h"

START_TEST(test_rows_by_id)
{
	for (int i = 0; i < BUILTIN_COUNT; i++) {
		const struct builtin *b = builtin_at(i);

		ck_assert_msg(b != NULL, "builtin id %d has no row", i);
		ck_assert_int_eq(b->id, i);
		ck_assert_ptr_eq(builtin_lookup(b->name), b);
		ck_assert_int_le(b->nparams, BUILTIN_MAX_PARAMS);
		ck_assert(b->ret == TY_LONG || b->ret == TY_STRING ||
			  b->ret == TY_VOID);
		for (int p = 0; p < b->nparams; p++)
			ck_assert(b->params[p] == TY_LONG ||
				  b->params[p] == TY_STRING);
	}
	ck_assert_ptr_null(builtin_at(BUILTIN_COUNT));
	ck_assert_ptr_null(builtin_at(-1));
	ck_assert_ptr_null(builtin_lookup("no_such_builtin"));
}
END_TEST

START_TEST(test_signatures)
{
	const struct builtin *b = builtin_lookup("substr");

	ck_assert_int_eq(b->ret, TY_STRING);
	ck_assert_int_eq(b->nparams, 3);
	ck_assert_int_eq(b->params[0], TY_STRING);
	ck_assert_int_eq(b->params[2], TY_LONG);
	ck_assert_int_eq(builtin_lookup("exit")->ret, TY_VOID);
	ck_assert_int_eq(builtin_lookup("pid")->nparams, 0);
}
END_TEST

START_TEST(test_every_id_has_c)
{
	for (int i = 0; i < BUILTIN_COUNT; i++)
		ck_assert_msg(cg_builtin_template(i) != NULL,
			      "builtin '%s' has no C template",
			      builtin_at(i)->name);
	ck_assert_ptr_null(cg_builtin_template(BUILTIN_COUNT));
}
END_TEST

static Suite *
builtins_suite(void)
{
	Suite *s = suite_create("builtins");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rows_by_id);
	tcase_add_test(tc, test_signatures);
	tcase_add_test(tc, test_every_id_has_c);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(builtins_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
