/*
 * test_parse.c -- Check tests for pass 1: the shape of parsed trees
 * (precedence, foreach heads, probe points), the canonical printer and its
 * fixed point, the preprocessor, and diagnostics with their ids.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "translator/parse/parse.h"

struct run {
	struct session s;
	struct file_ast *file;
	char *out, *err;
	size_t out_len, err_len;
};

static void
run_parse(struct run *r, const char *text, const char **args, int nargs)
{
	FILE *err;

	memset(r, 0, sizeof(*r));
	r->s.arena = arena_new();
	err = open_memstream(&r->err, &r->err_len);
	diag_init(&r->s.diag, err);
	r->s.opts.args = args;
	r->s.opts.nargs = nargs;
	r->s.facts.kernel_release = "6.1.0-57-amd64";
	r->s.facts.kernel_version = "6.1.0";
	r->s.facts.arch = "x86_64";
	r->s.facts.runtime = "kernel";
	struct source *src = source_from_text(&r->s, "<t>", text, strlen(text));
	r->file = parse_source(&r->s, src);
	FILE *out = open_memstream(&r->out, &r->out_len);
	print_file(out, r->file);
	fclose(out);
	fclose(err);
}

static void
run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	arena_destroy(r->s.arena);
}

/* The body's first statement's expression of `probe begin { EXPR }`. */
static struct node *
first_expr(struct run *r)
{
	struct node *probe = r->file->items.v[0];
	return probe->u.probe.body->u.block.stmts.v[0]->u.expr_stmt.expr;
}

static void
check_prints(const char *in, const char *want)
{
	struct run r, again;

	run_parse(&r, in, NULL, 0);
	ck_assert_msg(r.s.diag.errors == 0, "%s: %s", in, r.err);
	ck_assert_str_eq(r.out, want);
	run_parse(&again, r.out, NULL, 0);
	ck_assert_str_eq(again.out, r.out);
	run_free(&again);
	run_free(&r);
}

START_TEST(test_precedence)
{
	struct run r;

	run_parse(&r, "probe begin { x = a + b * c . d }", NULL, 0);
	struct node *e = first_expr(&r);
	ck_assert_int_eq(e->kind, N_ASSIGN);
	struct node *cat = e->u.binary.rhs;
	ck_assert_int_eq(cat->u.binary.op, OP_CONCAT);	/* . below + */
	ck_assert_int_eq(cat->u.binary.lhs->u.binary.op, OP_ADD);
	ck_assert_int_eq(cat->u.binary.lhs->u.binary.rhs->u.binary.op, OP_MUL);
	run_free(&r);
	check_prints("probe begin { x = (a + b) * c; y = a - (b - c); z = -(-1) }",
		     "probe begin {\n\tx = (a + b) * c;\n\ty = a - (b - c);\n"
		     "\tz = - -1;\n}\n");
	check_prints("probe begin { x = a ? b : c ? d : e; y = ! ~a }",
		     "probe begin {\n\tx = a ? b : c ? d : e;\n\ty = ! ~a;\n}\n");
}
END_TEST

START_TEST(test_statements_print)
{
	check_prints("probe begin { if (a) b++ else { c-- } while (1) ; "
		     "for (;;) break }",
		     "probe begin {\n\tif (a)\n\t\tb++;\n\telse {\n\t\tc--;\n"
		     "\t}\n\twhile (1)\n\t\t;\n\tfor (; ; )\n\t\tbreak;\n}\n");
	check_prints("global a; probe begin { foreach (v- = [k1, k2] in a limit 5) "
		     "delete a[k1, *] }",
		     "global a\n\nprobe begin {\n\tforeach (v- = [k1, k2] in a limit 5)\n"
		     "\t\tdelete a[k1, *];\n}\n");
}
END_TEST

START_TEST(test_probe_points)
{
	struct run r;

	run_parse(&r, "probe {a,b}.c?, kernel.function(\"x*\").return!, "
		  "timer.ms(5) if (z > 1) {}", NULL, 0);
	ck_assert_int_eq(r.s.diag.errors, 0);
	struct node_list *pts = &r.file->items.v[0]->u.probe.points;
	ck_assert_int_eq(pts->n, 4);
	ck_assert(pts->v[0]->u.point.optional);
	ck_assert(pts->v[2]->u.point.sufficient);
	ck_assert_ptr_nonnull(pts->v[3]->u.point.cond);
	ck_assert_str_eq(pts->v[1]->u.point.comps[0].name, "b");
	run_free(&r);
}
END_TEST

START_TEST(test_preprocessor)
{
	static const char *args[] = { "42", "two words" };
	struct run r;

	run_parse(&r, "@define sq(x) %( (@x * @x) %)\n"
		  "probe begin { a = %( arch == \"x86_*\" && kernel_v >= \"5.4\" "
		  "%? @sq($1) %: 0 %) ; b = @2 . @# }", args, 2);
	ck_assert_msg(r.s.diag.errors == 0, "%s", r.err);
	ck_assert_str_eq(r.out, "probe begin {\n\ta = 42 * 42;\n"
			 "\tb = \"two words\" . \"2\";\n}\n");
	run_free(&r);
}
END_TEST

START_TEST(test_errors_have_ids_and_carets)
{
	static const struct {
		const char *text, *id;
	} cases[] = {
		{ "probe begin { x = }", "E_SYNTAX" },
		{ "probe begin { return 1 }", "E_RETURN_CONTEXT" },
		{ "probe begin { break }", "E_LOOP_CONTEXT" },
		{ "probe begin { x = $3 }", "E_ARG_RANGE" },
		{ "probe begin { %{ foo %} }", "E_EMBEDDED_GURU" },
		{ "probe begin { x = @hist_log(s) }", "E_HIST_VALUE" },
		{ "probe begin { 1 = 2 }", "E_NOT_LVALUE" },
		{ "%( bogus == 1 %? probe begin {} %)", "E_PP_COND" },
		{ "probe begin { printf(x) }", "E_PRINT_ARGS" },
		{ "global a global a", "E_DUP_GLOBAL" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run r;
		run_parse(&r, cases[i].text, NULL, 0);
		ck_assert_msg(r.s.diag.errors > 0, "no error for %s",
			      cases[i].text);
		ck_assert_msg(strstr(r.err, cases[i].id) != NULL,
			      "%s: wanted %s, got %s", cases[i].text,
			      cases[i].id, r.err);
		ck_assert_msg(strstr(r.err, "^\n") != NULL, "no caret: %s",
			      r.err);
		run_free(&r);
	}
}
END_TEST

START_TEST(test_unclosed_brace_points_back)
{
	struct run r;

	run_parse(&r, "probe begin {\n  if (x) {\n    y = 1\n", NULL, 0);
	ck_assert(strstr(r.err, "to close '{' at line 2") != NULL);
	run_free(&r);
}
END_TEST

START_TEST(test_recovery_reports_several)
{
	struct run r;

	run_parse(&r, "probe begin { x = ; }\nprobe end { y = ; }\n", NULL, 0);
	ck_assert_int_ge(r.s.diag.errors, 2);
	run_free(&r);
}
END_TEST

static Suite *
parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_statements_print);
	tcase_add_test(tc, test_probe_points);
	tcase_add_test(tc, test_preprocessor);
	tcase_add_test(tc, test_errors_have_ids_and_carets);
	tcase_add_test(tc, test_unclosed_brace_points_back);
	tcase_add_test(tc, test_recovery_reports_several);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(parse_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
