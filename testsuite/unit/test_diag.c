/*
 * test_diag.c -- Check tests for diagnostics: the id table (diag_ids.def)
 * and `tapc --explain`.
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

static Suite *
diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *table = tcase_create("table");

	tcase_add_test(table, test_table_entries_are_complete);
	tcase_add_test(table, test_explain);
	tcase_add_test(table, test_unknown_id_is_an_internal_error);
	suite_add_tcase(s, table);
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
