/*
 * test_lex.c -- Check tests for the lexer: token kinds, spellings and
 * positions, and the diagnostics bad input gets.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/grammar.h"
#include "translator/parse/lex.h"
#include "translator/parse/parse.h"

struct fixture {
	struct session s;
	char *diag_text;
	size_t diag_len;
	FILE *diag_out;
};

static void
setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->s.arena = arena_new();
	f->diag_out = open_memstream(&f->diag_text, &f->diag_len);
	diag_init(&f->s.diag, f->diag_out);
}

static void
teardown(struct fixture *f)
{
	fclose(f->diag_out);
	free(f->diag_text);
	arena_destroy(f->s.arena);
}

/* Lex `text` into at most `max` tokens; returns the count. */
static int
lex_all(struct fixture *f, const char *text, struct token *toks, int max)
{
	struct source *src = source_from_text(&f->s, "<t>", text, strlen(text));
	struct lexer *lx = lexer_new(&f->s, src);
	int n = 0;

	for (;;) {
		struct token t;
		lexer_next(lx, &t);
		if (t.kind == 0 || n == max)
			break;
		toks[n++] = t;
	}
	lexer_free(lx);
	fflush(f->diag_out);
	return n;
}

START_TEST(test_kinds_and_spellings)
{
	struct fixture f;
	struct token t[32];

	setup(&f);
	int n = lex_all(&f, "probe foo $bar $$vars @cast @1 $2 $# @# 0x1F "
			"\"a\\n\" <<< .= -> %( %? %: %)", t, 32);
	ck_assert_int_eq(n, 18);
	ck_assert_int_eq(t[0].kind, PROBE);
	ck_assert_int_eq(t[1].kind, IDENT);
	ck_assert_str_eq(t[1].text, "foo");
	ck_assert_int_eq(t[2].kind, TVAR);
	ck_assert_str_eq(t[2].text, "$bar");
	ck_assert_int_eq(t[3].kind, TVAR);
	ck_assert_str_eq(t[3].text, "$$vars");
	ck_assert_int_eq(t[4].kind, ATNAME);
	ck_assert_int_eq(t[5].kind, ARGSTR);
	ck_assert_int_eq(t[6].kind, ARGREF);
	ck_assert_int_eq(t[7].kind, ARGC);
	ck_assert_int_eq(t[8].kind, ARGCS);
	ck_assert_int_eq(t[9].kind, NUMBER);
	ck_assert_str_eq(t[9].text, "0x1F");
	ck_assert_int_eq(t[10].kind, STRING);
	ck_assert_str_eq(t[10].text, "a\\n");	/* escapes kept as written */
	ck_assert_int_eq(t[11].kind, STAT_ADD);
	ck_assert_int_eq(t[12].kind, CONCAT_ASSIGN);
	ck_assert_int_eq(t[13].kind, ARROW);
	ck_assert_int_eq(t[14].kind, PP_IF);
	ck_assert_int_eq(t[16].kind, PP_ELSE);
	ck_assert_int_eq(f.s.diag.errors, 0);
	teardown(&f);
}
END_TEST

START_TEST(test_positions_and_comments)
{
	struct fixture f;
	struct token t[8];

	setup(&f);
	int n = lex_all(&f, "#! shebang\n// c++\n  /* multi\nline */ x\n\ty # z",
			t, 8);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(t[0].loc.line, 4);
	ck_assert_int_eq(t[0].loc.col, 9);
	ck_assert_int_eq(t[1].loc.line, 5);
	ck_assert_int_eq(t[1].loc.col, 2);
	ck_assert(t[1].space_before);
	teardown(&f);
}
END_TEST

START_TEST(test_bad_input)
{
	static const struct {
		const char *text, *id;
	} cases[] = {
		{ "\"abc", "E_UNTERMINATED_STRING" },
		{ "/* abc", "E_UNTERMINATED_COMMENT" },
		{ "%{ abc", "E_UNTERMINATED_EMBEDDED" },
		{ "x ` y", "E_BAD_CHAR" },
		{ "12abc", "E_BAD_NUMBER" },
		{ "\x01", "E_BAD_CHAR" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		struct token t[8];
		setup(&f);
		lex_all(&f, cases[i].text, t, 8);
		ck_assert_int_eq(f.s.diag.errors, 1);
		ck_assert_msg(strstr(f.diag_text, cases[i].id) != NULL,
			      "%s: got %s", cases[i].id, f.diag_text);
		ck_assert_msg(strstr(f.diag_text, "<t>:1:") != NULL,
			      "no location in %s", f.diag_text);
		teardown(&f);
	}
}
END_TEST

START_TEST(test_keywords)
{
	ck_assert_int_eq(lex_keyword("foreach", 7), FOREACH);
	ck_assert_int_eq(lex_keyword("limit", 5), LIMIT);
	ck_assert_int_eq(lex_keyword("string", 6), 0);
	ck_assert_int_eq(lex_keyword("probes", 6), 0);
}
END_TEST

static Suite *
lex_suite(void)
{
	Suite *s = suite_create("lex");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kinds_and_spellings);
	tcase_add_test(tc, test_positions_and_comments);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_keywords);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(lex_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
