/*
 * test_diag.c -- Check tests for diagnostics: the id table (diag_ids.def)
 * and `tapc --explain`, holding and releasing what speculative work
 * reports, and hints that follow only a diagnostic that was printed.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/diag.h"
#include "translator/common/diag_registry.h"

static const char script[] = "probe begin { x = 1 }\n";
static const struct source src = { "t.stp", script, sizeof(script) - 1,
				   false };
static const struct source lib = { "lib.stp", script, sizeof(script) - 1,
				   true };

struct out {
	char *text;
	size_t len;
	FILE *f;
	struct diag d;
};

static void
out_open(struct out *o)
{
	o->text = NULL;
	o->len = 0;
	o->f = open_memstream(&o->text, &o->len);
	diag_init(&o->d, o->f);
}

/* What was printed so far. */
static const char *
out_text(struct out *o)
{
	fflush(o->f);
	return o->text ? o->text : "";
}

static void
out_close(struct out *o)
{
	fclose(o->f);
	free(o->text);
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static struct loc
at(const struct source *s, int col)
{
	return (struct loc){ s, 1, col };
}

/* ---- the table ---- */

START_TEST(test_table_entries_are_complete)
{
	size_t n = diag_id_count();

	ck_assert_uint_gt(n, 50);
	for (size_t i = 0; i < n; i++) {
		const struct diag_id_info *e = diag_id_at(i);
		char want = e->level == DIAG_ERROR ? 'E' : 'W';
		ck_assert_msg(e->id[0] == want && e->id[1] == '_',
			      "%s: an id's letter is its level", e->id);
		ck_assert_msg(e->meaning[0] && e->cause[0] && e->fix[0],
			      "%s: meaning, cause and fix must be written", e->id);
		ck_assert_msg(!strchr(e->meaning, '\n'),
			      "%s: the meaning is one line", e->id);
		ck_assert_ptr_eq(diag_id_find(e->id), e);
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(diag_id_at(j)->id, e->id);
	}
	ck_assert_ptr_null(diag_id_at(n));
	ck_assert_ptr_null(diag_id_find("E_NO_SUCH_ID"));
	ck_assert_ptr_null(diag_id_find("e_no_match"));	/* exact for call sites */
}
END_TEST

START_TEST(test_explain)
{
	struct out o;
	const struct diag_id_info *e = diag_id_find("E_NO_MATCH");

	out_open(&o);
	ck_assert(diag_explain(o.f, "E_NO_MATCH"));
	ck_assert(diag_explain(o.f, "e_no_match"));	/* users may type it so */
	const char *t = out_text(&o);
	ck_assert_int_eq(count(t, "E_NO_MATCH (error)\n"), 2);
	ck_assert_int_eq(count(t, "Meaning: a probe point matches nothing."), 2);
	ck_assert_int_eq(count(t, "Typical cause: "), 2);
	ck_assert_int_eq(count(t, "Fix: "), 2);
	ck_assert_ptr_nonnull(strstr(t, "tapc -l PATTERN"));	/* from e->fix */
	ck_assert_ptr_nonnull(e);
	for (const char *line = t; *line; line = strchr(line, '\n') + 1)
		ck_assert_int_le(strcspn(line, "\n"), 72);
	out_close(&o);

	out_open(&o);
	ck_assert(!diag_explain(o.f, "E_NO_SUCH_ID"));
	ck_assert_str_eq(out_text(&o), "");
	out_close(&o);
}
END_TEST

/* An id that is not in the table says so on stderr, past any hold. */
START_TEST(test_unknown_id_is_an_internal_error)
{
	struct out o;
	FILE *err = tmpfile();
	int saved = dup(2);
	char buf[512] = "";

	out_open(&o);
	fflush(stderr);
	dup2(fileno(err), 2);
	diag_error(&o.d, at(&src, 1), "E_NOT_IN_THE_TABLE", "boom");
	diag_warning(&o.d, at(&src, 1), "E_NO_MATCH", "wrong level");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(err);
	buf[fread(buf, 1, sizeof(buf) - 1, err)] = '\0';
	fclose(err);
	ck_assert_ptr_nonnull(strstr(buf, "internal error: diagnostic id 'E_NOT_IN_THE_TABLE' is not in"));
	ck_assert_ptr_nonnull(strstr(buf, "'E_NO_MATCH' is reported at another level"));
	ck_assert_ptr_nonnull(strstr(out_text(&o), "boom [E_NOT_IN_THE_TABLE]"));
	out_close(&o);
}
END_TEST

/* ---- hold and release ---- */

START_TEST(test_release_drop_forgets)
{
	struct out o;
	struct diag_mark m;

	out_open(&o);
	diag_hold(&o.d, &m);
	diag_error(&o.d, at(&src, 7), "E_NO_MATCH", "held %d", 1);
	diag_hint(&o.d, "held hint");
	diag_warning(&o.d, at(&src, 15), "W_DEAD_STORE", "held too");
	ck_assert_int_eq(diag_held_errors(&o.d, &m), 1);
	ck_assert_ptr_nonnull(strstr(diag_held_text(&m), "held 1 [E_NO_MATCH]"));
	ck_assert_ptr_nonnull(strstr(diag_held_text(&m), "hint: held hint"));
	ck_assert_str_eq(out_text(&o), "");
	diag_release(&o.d, &m, false);
	ck_assert_int_eq(o.d.errors, 0);
	ck_assert_int_eq(o.d.warnings, 0);
	ck_assert_ptr_eq(o.d.out, o.f);
	ck_assert_str_eq(out_text(&o), "");
	/* forgotten, so the same error is new, not a repeat */
	diag_error(&o.d, at(&src, 7), "E_NO_MATCH", "now");
	ck_assert_int_eq(o.d.errors, 1);
	ck_assert_ptr_nonnull(strstr(out_text(&o), "now [E_NO_MATCH]"));
	out_close(&o);
}
END_TEST

START_TEST(test_release_keep_prints_as_if_not_held)
{
	struct out held, plain;
	struct diag_mark m;

	out_open(&held);
	out_open(&plain);
	diag_hold(&held.d, &m);
	diag_error(&held.d, at(&src, 7), "E_NO_MATCH", "kept");
	diag_hint(&held.d, "its hint");
	diag_release(&held.d, &m, true);
	diag_error(&plain.d, at(&src, 7), "E_NO_MATCH", "kept");
	diag_hint(&plain.d, "its hint");
	ck_assert_str_eq(out_text(&held), out_text(&plain));
	ck_assert_int_eq(held.d.errors, 1);
	out_close(&held);
	out_close(&plain);
}
END_TEST

START_TEST(test_holds_nest)
{
	struct out o;
	struct diag_mark outer, inner;

	out_open(&o);
	diag_hold(&o.d, &outer);
	diag_warning(&o.d, at(&src, 1), "W_DEAD_STORE", "outer");
	diag_hold(&o.d, &inner);
	diag_error(&o.d, at(&src, 7), "E_NO_MATCH", "inner dropped");
	diag_release(&o.d, &inner, false);
	diag_hold(&o.d, &inner);
	diag_error(&o.d, at(&src, 9), "E_NO_MATCH", "inner kept");
	diag_release(&o.d, &inner, true);
	ck_assert_int_eq(diag_held_errors(&o.d, &outer), 1);
	ck_assert_str_eq(out_text(&o), "");
	diag_release(&o.d, &outer, true);
	const char *t = out_text(&o);
	ck_assert_ptr_nonnull(strstr(t, "outer [W_DEAD_STORE]"));
	ck_assert_ptr_nonnull(strstr(t, "inner kept"));
	ck_assert_ptr_null(strstr(t, "inner dropped"));
	ck_assert(strstr(t, "outer") < strstr(t, "inner kept"));
	out_close(&o);
}
END_TEST

START_TEST(test_replay)
{
	struct out o;
	struct diag_mark m;

	out_open(&o);
	diag_hold(&o.d, &m);
	diag_error(&o.d, at(&src, 7), "E_NO_MATCH", "the reason");
	char *why = strdup(diag_held_text(&m));
	int errors = diag_held_errors(&o.d, &m);
	diag_release(&o.d, &m, false);
	diag_replay(&o.d, why, errors);
	ck_assert_int_eq(o.d.errors, 1);
	ck_assert_ptr_nonnull(strstr(out_text(&o), "the reason"));
	free(why);
	out_close(&o);
}
END_TEST

/* Without an output (the fuzz target) everything is counted, nothing
 * printed, and holding needs no stream. */
START_TEST(test_no_output)
{
	struct diag d;
	struct diag_mark m;

	diag_init(&d, NULL);
	diag_hold(&d, &m);
	diag_error(&d, at(&src, 7), "E_NO_MATCH", "x");
	diag_hint(&d, "y");
	ck_assert_int_eq(diag_held_errors(&d, &m), 1);
	ck_assert_str_eq(diag_held_text(&m), "");
	diag_release(&d, &m, true);
	ck_assert_int_eq(d.errors, 1);
}
END_TEST

/* ---- hints follow only what was printed ---- */

START_TEST(test_hint_after_repeated_error)
{
	struct out o;

	out_open(&o);
	for (int i = 0; i < 3; i++) {	/* one body, three derived probes */
		diag_error(&o.d, at(&src, 15), "E_UNRESOLVED_FUNC",
			   "unresolved function 'f'");
		diag_hint(&o.d, "did you mean 'g'?");
	}
	ck_assert_int_eq(count(out_text(&o), "[E_UNRESOLVED_FUNC]"), 1);
	ck_assert_int_eq(count(out_text(&o), "hint: did you mean 'g'?"), 1);
	ck_assert_int_eq(o.d.errors, 1);
	out_close(&o);
}
END_TEST

START_TEST(test_hint_after_suppressed_warning)
{
	struct out o;

	out_open(&o);
	o.d.no_warnings = true;		/* -w */
	diag_warning(&o.d, at(&src, 15), "W_DEAD_STORE", "w");
	diag_hint(&o.d, "after -w");
	o.d.no_warnings = false;
	diag_warning(&o.d, at(&lib, 15), "W_DEAD_STORE", "library's");
	diag_hint(&o.d, "after the library's");
	ck_assert_str_eq(out_text(&o), "");
	ck_assert_int_eq(o.d.warnings, 2);
	diag_warning(&o.d, at(&src, 15), "W_DEAD_STORE", "shown");
	diag_hint(&o.d, "after a shown one");
	ck_assert_int_eq(count(out_text(&o), "hint: "), 1);
	out_close(&o);
}
END_TEST

START_TEST(test_hint_after_too_many_errors)
{
	struct out o;

	out_open(&o);
	o.d.max_errors = 1;
	diag_error(&o.d, at(&src, 1), "E_SYNTAX", "first");
	diag_hint(&o.d, "first's");
	diag_error(&o.d, at(&src, 7), "E_SYNTAX", "second");
	diag_hint(&o.d, "second's");
	const char *t = out_text(&o);
	ck_assert_ptr_nonnull(strstr(t, "hint: first's"));
	ck_assert_ptr_null(strstr(t, "second"));
	out_close(&o);
}
END_TEST

/* A hint whose error was held and dropped goes with it; the error before
 * the hold does not get it either. */
START_TEST(test_hint_after_dropped_hold)
{
	struct out o;
	struct diag_mark m;

	out_open(&o);
	diag_error(&o.d, at(&src, 1), "E_SYNTAX", "before");
	diag_hold(&o.d, &m);
	diag_error(&o.d, at(&src, 7), "E_NO_MATCH", "held");
	diag_hint(&o.d, "held hint");
	diag_release(&o.d, &m, false);
	ck_assert_int_eq(count(out_text(&o), "hint: "), 0);
	out_close(&o);
}
END_TEST

static Suite *
diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *table = tcase_create("table");
	TCase *hold = tcase_create("hold");
	TCase *hint = tcase_create("hint");

	tcase_add_test(table, test_table_entries_are_complete);
	tcase_add_test(table, test_explain);
	tcase_add_test(table, test_unknown_id_is_an_internal_error);
	tcase_add_test(hold, test_release_drop_forgets);
	tcase_add_test(hold, test_release_keep_prints_as_if_not_held);
	tcase_add_test(hold, test_holds_nest);
	tcase_add_test(hold, test_replay);
	tcase_add_test(hold, test_no_output);
	tcase_add_test(hint, test_hint_after_repeated_error);
	tcase_add_test(hint, test_hint_after_suppressed_warning);
	tcase_add_test(hint, test_hint_after_too_many_errors);
	tcase_add_test(hint, test_hint_after_dropped_hold);
	suite_add_tcase(s, table);
	suite_add_tcase(s, hold);
	suite_add_tcase(s, hint);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(diag_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
