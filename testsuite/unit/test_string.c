/*
 * test_string.c - Check tests for the string tapset functions
 * (runtime/core/tapstring.c).  Cases come from SystemTap's own string
 * tests (substr, strpos, strtol, tokenize, text_str, string_quoted,
 * str_replace, isinstr) with the expected values its testsuite checks,
 * plus truncation at MAXSTRINGLEN and aliasing of destinations.
 */
#include <check.h>
#include <string.h>

#include "runtime/core/tapstring.h"
#include "runtime/core/format.h"
#include "runtime/core/error.h"

static const char exp_text_str[] =
	"a=1234567890\n"
	"b=12345678901234567890\n"
	"c=123456789012345678901234567890\n"
	"----- Using text_str -----\n"
	"a=1234567890\n"
	"b=12345678901234567890\n"
	"c=123456789012345678901234567890\n"
	"----- Using text_strn -----\n"
	"a=1234567890\n"
	"b=12345678901234567890\n"
	"c=123456789012345678901234567890\n"
	"----- Using text_strn len = 10 -----\n"
	"a=1234567890\n"
	"b=1234567890\n"
	"c=1234567890\n"
	"----- Using text_strn quoted -----\n"
	"a=\"1234567890\"\n"
	"b=\"12345678901234567890\"\n"
	"c=\"123456789012345678901234567890\"\n"
	"----- Using text_strn len=10, quoted -----\n"
	"a=\"12345\"...\n"
	"b=\"12345\"...\n"
	"c=\"12345\"...\n"
	"----- Using text_strn len=12, quoted -----\n"
	"a=\"1234567890\"\n"
	"b=\"1234567\"...\n"
	"c=\"1234567\"...\n"
	"----- Using text_str -----\n"
	"a=\\n\\nXYZZY\\031\n"
	"b=?\\231\\a\\n\\n\\r\\n\n"
	"c=\\n\\nXYZZY\\031?\\231\\a\\n\\n\\r\\n\n"
	"----- Using text_strn -----\n"
	"a=\\n\\nXYZZY\\031\n"
	"b=?\\231\\a\\n\\n\\r\\n\n"
	"c=\\n\\nXYZZY\\031?\\231\\a\\n\\n\\r\\n\n"
	"----- Using text_strn len = 10 -----\n"
	"a=\\n\\nXYZZY\n"
	"b=?\\231\\a\\n\n"
	"c=\\n\\nXYZZY\n"
	"----- Using text_strn len = 12 -----\n"
	"a=\\n\\nXYZZY\n"
	"b=?\\231\\a\\n\\n\n"
	"c=\\n\\nXYZZY\n"
	"----- Using text_strn quoted -----\n"
	"a=\"\\n\\nXYZZY\\031\"\n"
	"b=\"?\\231\\a\\n\\n\\r\\n\"\n"
	"c=\"\\n\\nXYZZY\\031?\\231\\a\\n\\n\\r\\n\"\n"
	"----- Using text_strn len=10, quoted -----\n"
	"a=\"\\n\\nX\"...\n"
	"b=\"?\\231\"...\n"
	"c=\"\\n\\nX\"...\n"
	"----- Using text_strn len=15, quoted -----\n"
	"a=\"\\n\\nXYZZY\\031\"\n"
	"b=\"?\\231\\a\\n\"...\n"
	"c=\"\\n\\nXYZZY\"...";
static const char exp_tokenize[] =
	"-\n"
	"one\n"
	"two\n"
	"three\n"
	"four\n"
	"five\n"
	"six\n"
	"seven\n"
	"eight\n"
	"nine\n"
	"ten\n"
	"-\n"
	"one|two|three|four|five|six|seven|eight|nine|ten\n"
	"-\n"
	"a\n"
	"b\n"
	"c\n"
	"d\n"
	"e\n"
	"f\n"
	"g\n"
	"-\n"
	"1\n"
	"2\n"
	"3\n"
	" \n"
	"4\n"
	"-\n"
	"-\n"
	"this is a string with no delimiters\n"
	"-\n"
	"this\n"
	"is\n"
	"a\n"
	"string\n"
	"which\n"
	"has\n"
	"two\n"
	"delimiters";

static char dst[MAXSTRINGLEN];

START_TEST(copy_concat)
{
	static char big[2 * MAXSTRINGLEN];
	char s[MAXSTRINGLEN];

	tap_str_copy(s, "hello");
	ck_assert_str_eq(s, "hello");
	tap_str_concat(dst, s, "world");
	ck_assert_str_eq(dst, "helloworld");
	/* s = s . s and s = "x" . s: the destination is an input. */
	tap_str_concat(s, s, s);
	ck_assert_str_eq(s, "hellohello");
	tap_str_concat(s, "x", s);
	ck_assert_str_eq(s, "xhellohello");
	tap_str_append(s, "!");
	ck_assert_str_eq(s, "xhellohello!");
	memset(big, 'a', sizeof(big) - 1);
	tap_str_copy(s, big);
	ck_assert_uint_eq(strlen(s), MAXSTRINGLEN - 1);
	tap_str_concat(dst, "bc", big);
	ck_assert_uint_eq(strlen(dst), MAXSTRINGLEN - 1);
	ck_assert(dst[0] == 'b' && dst[2] == 'a');
	tap_str_append(dst, "zzz");
	ck_assert_uint_eq(strlen(dst), MAXSTRINGLEN - 1);
	ck_assert_int_eq(tap_str_len(dst), MAXSTRINGLEN - 1);
	ck_assert_int_eq(tap_str_len(""), 0);
}
END_TEST

START_TEST(substrings)
{
	static const struct { int64_t start, len; const char *want; } c[] = {
		{ 0, 0, "" }, { -1, 10, "" }, { 10, 0, "" }, { 0, 1, "H" },
		{ 1, 1, "e" }, { 2, 1, "l" }, { 2, 5, "llo W" },
		{ 6, 1, "W" }, { 11, 1, "!" }, { 11, 100, "!" },
		{ 12, 1, "" }, { 0, 10, "Hello Worl" },
		{ 0, 100, "Hello World!" }, { 0, 100000, "Hello World!" },
		{ 0, INT64_MAX, "Hello World!" }, { 3, -5, "" },
		{ INT64_MIN, 3, "" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(*c); i++) {
		tap_str_substr(dst, "Hello World!", c[i].start, c[i].len);
		ck_assert_str_eq(dst, c[i].want);
	}
	/* s = substr(s, 6, 5), in place. */
	tap_str_copy(dst, "Hello World!");
	tap_str_substr(dst, dst, 6, 5);
	ck_assert_str_eq(dst, "World");
	tap_str_toupper(dst, dst);
	ck_assert_str_eq(dst, "WORLD");
}
END_TEST

START_TEST(search)
{
	ck_assert_int_eq(tap_str_pos("foo", "abcfoobad"), -1);
	ck_assert_int_eq(tap_str_pos("abcfoobad", "foo"), 3);
	ck_assert_int_eq(tap_str_pos("foo", "foo"), 0);
	ck_assert_int_eq(tap_str_pos("foo", ""), 0);
	ck_assert_int_eq(tap_str_pos("", "foo"), -1);
	ck_assert_int_eq(tap_str_pos("", ""), 0);
	ck_assert_int_eq(tap_str_pos("aaab", "aab"), 1);
	ck_assert(tap_str_isinstr("abcfoobad", "foo"));
	ck_assert(!tap_str_isinstr("abcdefg", "foo"));
	ck_assert(tap_str_isinstr("", ""));
}
END_TEST

START_TEST(stringat)
{
	int64_t c;

	ck_assert_int_eq(tap_str_at("ok", 0, &c), TAP_OK);
	ck_assert_int_eq(c, 'o');
	ck_assert_int_eq(tap_str_at("ok", 1, &c), TAP_OK);
	ck_assert_int_eq(c, 'k');
	ck_assert_int_eq(tap_str_at("ok", 2, &c), TAP_EINVAL);
	ck_assert_int_eq(c, 0);
	ck_assert_int_eq(tap_str_at("ok", -1, &c), TAP_EINVAL);
	/* A C char, signed on the machines stap runs on. */
	ck_assert_int_eq(tap_str_at("\xe9", 0, &c), TAP_OK);
	ck_assert_int_eq(c, -23);
}
END_TEST

START_TEST(string_to_long)
{
	ck_assert_int_eq(tap_str_strtol("1", 10), 1);
	ck_assert_int_eq(tap_str_strtol("-1", 10), -1);
	ck_assert_int_eq(tap_str_strtol("123456789", 10), 123456789);
	ck_assert_int_eq(tap_str_strtol("-123456789", 10), -123456789);
	ck_assert_int_eq(tap_str_strtol("abcdef", 10), 0);
	ck_assert_int_eq(tap_str_strtol("1a2b3c4d5e6f7g8h9", 10), 1);
	ck_assert_int_eq(tap_str_strtol(" 1 2 3 4", 10), 0);
	ck_assert_int_eq(tap_str_strtol("", 10), 0);
	ck_assert_int_eq(tap_str_strtol("1000", 10), 1000);
	ck_assert_int_eq(tap_str_strtol("1000", 16), 4096);
	ck_assert_int_eq(tap_str_strtol("1000", 8), 512);
	ck_assert_int_eq(tap_str_strtol("1000", 2), 8);
	ck_assert_int_eq(tap_str_strtol("0x1F", 16), 31);
	ck_assert_int_eq(tap_str_strtol("0x1f", 0), 31);
	ck_assert_int_eq(tap_str_strtol("017", 0), 15);
	ck_assert_int_eq(tap_str_strtol("17", 0), 17);
	ck_assert_int_eq(tap_str_strtol("zz", 36), 35 * 36 + 35);
	ck_assert_int_eq(tap_str_strtol("12", 1), 0);
	ck_assert_int_eq(tap_str_strtol("12", 37), 0);
	ck_assert_int_eq(tap_str_strtol("-9223372036854775808", 10),
			 INT64_MIN);
	ck_assert_int_eq(tap_str_isdigit("7up"), 1);
	ck_assert_int_eq(tap_str_isdigit("up7"), 0);
	ck_assert_int_eq(tap_str_isdigit(""), 0);
}
END_TEST

START_TEST(replace)
{
	static const char road[] = "Here I am, on the road again. there I "
		"am, up on the stage, Here I go, playing star again. There I "
		"go, turn the page.- Bob Seger";
	static char big[MAXSTRINGLEN + 10];

	tap_str_replace(dst, "hello system tap", "system", "pointer");
	ck_assert_str_eq(dst, "hello pointer tap");
	tap_str_replace(dst, "hello system tap", "hello", "pointer");
	ck_assert_str_eq(dst, "pointer system tap");
	tap_str_replace(dst, "hello system tap", "tap", "pointer");
	ck_assert_str_eq(dst, "hello system pointer");
	tap_str_replace(dst, road, "Here", "here");
	ck_assert_str_eq(dst, "here I am, on the road again. there I am, up "
			 "on the stage, here I go, playing star again. There "
			 "I go, turn the page.- Bob Seger");
	tap_str_replace(dst, "hello system tap", "system", "");
	ck_assert_str_eq(dst, "hello  tap");
	tap_str_replace(dst, "hello system tap", "", "pointer");
	ck_assert_str_eq(dst, "hello system tap");
	tap_str_replace(dst, "", "", "pointer");
	ck_assert_str_eq(dst, "");
	tap_str_replace(dst, "aaaa", "aa", "b");
	ck_assert_str_eq(dst, "bb");
	/* Growing past MAXSTRINGLEN truncates. */
	memset(big, 'a', MAXSTRINGLEN - 2);
	tap_str_replace(dst, big, "a", "xy");
	ck_assert_uint_eq(strlen(dst), MAXSTRINGLEN - 1);
	ck_assert(dst[MAXSTRINGLEN - 2] == 'x');
}
END_TEST

START_TEST(cases)
{
	tap_str_toupper(dst, "Hello, World 1!");
	ck_assert_str_eq(dst, "HELLO, WORLD 1!");
	tap_str_tolower(dst, "Hello, World 1!");
	ck_assert_str_eq(dst, "hello, world 1!");
	tap_str_reverse(dst, "abc d");
	ck_assert_str_eq(dst, "d cba");
	tap_str_reverse(dst, "");
	ck_assert_str_eq(dst, "");
}
END_TEST

static char out_text[8192];
static struct tap_buf out;

/* stap's testsuite compares without the final newline. */
static void
ck_out(const char *want)
{
	size_t n = strlen(out_text);

	while (n && out_text[n - 1] == '\n')
		out_text[--n] = '\0';
	ck_assert_str_eq(out_text, want);
}

static void
line(const char *label, const char *s)
{
	struct tap_fmt_piece pieces[4];
	struct tap_fmt f;
	struct tap_value args[2] = { TAP_STR(label), TAP_STR(s) };

	ck_assert_int_eq(tap_fmt_compile(&f, "%s=%s\n", pieces, 4, NULL),
			 TAP_OK);
	ck_assert_int_eq(tap_fmt_apply(&f, args, 2, &out, NULL), TAP_OK);
}

/* One block of text_str.stp: a, b, c through one transformation. */
static void
block(const char *title, const char *const *v, int mode, int64_t len)
{
	static const char *const names[] = { "a", "b", "c" };
	int i;

	tap_buf_puts(&out, title);
	for (i = 0; i < 3; i++) {
		if (mode == 0)
			tap_str_copy(dst, v[i]);
		else if (mode == 1)
			tap_str_text(dst, v[i]);
		else
			tap_str_textn(dst, v[i], len, mode == 3);
		line(names[i], dst);
	}
}

START_TEST(text_str_script)
{
	const char *v[3];
	char b[64], c[96];

	tap_buf_init(&out, out_text, sizeof(out_text));
	v[0] = "1234567890";
	tap_str_concat(b, v[0], v[0]);
	tap_str_concat(c, v[0], b);
	v[1] = b;
	v[2] = c;
	block("", v, 0, 0);
	block("----- Using text_str -----\n", v, 1, 0);
	block("----- Using text_strn -----\n", v, 2, 0);
	block("----- Using text_strn len = 10 -----\n", v, 2, 10);
	block("----- Using text_strn quoted -----\n", v, 3, 0);
	block("----- Using text_strn len=10, quoted -----\n", v, 3, 10);
	block("----- Using text_strn len=12, quoted -----\n", v, 3, 12);
	v[0] = "\n\nXYZZY\031";
	v[1] = "\077\231\a\n\n\r\n";
	tap_str_concat(c, v[0], v[1]);
	v[2] = c;
	block("----- Using text_str -----\n", v, 1, 0);
	block("----- Using text_strn -----\n", v, 2, 0);
	block("----- Using text_strn len = 10 -----\n", v, 2, 10);
	block("----- Using text_strn len = 12 -----\n", v, 2, 12);
	block("----- Using text_strn quoted -----\n", v, 3, 0);
	block("----- Using text_strn len=10, quoted -----\n", v, 3, 10);
	block("----- Using text_strn len=15, quoted -----\n", v, 3, 15);
	ck_out(exp_text_str);
}
END_TEST

START_TEST(text_utf8_and_quoted)
{
	static char big[MAXSTRINGLEN + 10];

	tap_str_quoted(dst, "");
	ck_assert_str_eq(dst, "\"\"");
	tap_str_quoted(dst, "hello world");
	ck_assert_str_eq(dst, "\"hello world\"");
	tap_str_quoted(dst, "hello\nworld");
	ck_assert_str_eq(dst, "\"hello\\nworld\"");
	tap_str_quoted(dst, "\"hello\nworld\"");
	ck_assert_str_eq(dst, "\"\\\"hello\\nworld\\\"\"");
	/* UTF-8 becomes \u / \U escapes; broken sequences are bytes. */
	tap_str_text(dst, "caf\xc3\xa9 \xf0\x9f\x98\x80");
	ck_assert_str_eq(dst, "caf\\u00E9 \\U0001F600");
	tap_str_text(dst, "\xc3(");
	ck_assert_str_eq(dst, "\\303(");
	tap_str_text(dst, "\xc0\x80");	/* overlong NUL */
	ck_assert_str_eq(dst, "\\300\\200");
	tap_str_text(dst, "\xed\xa0\x80");	/* surrogate */
	ck_assert_str_eq(dst, "\\355\\240\\200");
	/* A cut never splits an escape sequence. */
	tap_str_textn(dst, "ab\xc3\xa9zzzz", 9, true);
	ck_assert_str_eq(dst, "\"ab\"...");
	/* Long input: quoted output fits MAXSTRINGLEN with its marker. */
	memset(big, 'q', sizeof(big) - 1);
	tap_str_quoted(dst, big);
	ck_assert_uint_eq(strlen(dst), MAXSTRINGLEN - 1);
	ck_assert_str_eq(dst + MAXSTRINGLEN - 5, "\"...");
	tap_str_text(dst, big);
	ck_assert_uint_eq(strlen(dst), MAXSTRINGLEN - 1);
}
END_TEST

/* tokenize.stp's tokprint(), replayed. */
static void
tokprint(struct tap_tokenizer *t, const char *str, const char *delim)
{
	char tok[MAXSTRINGLEN];

	tap_buf_puts(&out, "-\n");
	tap_str_tokenize(t, tok, str, delim);
	while (tok[0]) {
		tap_buf_puts(&out, tok);
		tap_buf_putc(&out, '\n');
		tap_str_tokenize(t, tok, "", delim);
	}
}

START_TEST(tokenizing)
{
	static const char s1[] =
		"one|two|three|four|five|six|seven|eight|nine|ten";
	struct tap_tokenizer t;
	char tok[MAXSTRINGLEN];

	memset(&t, 0, sizeof(t));
	/* Nothing tokenized yet: no token. */
	tap_str_tokenize(&t, tok, "", ",");
	ck_assert_str_eq(tok, "");
	tap_buf_init(&out, out_text, sizeof(out_text));
	tokprint(&t, s1, "|");
	tokprint(&t, s1, ",");
	tokprint(&t, "a,b,c,d,e,f,g", ",");
	tokprint(&t, "1,,2,3, ,4", ",");
	tokprint(&t, "", ",");
	tokprint(&t, "this is a string with no delimiters", ",");
	tokprint(&t, "this is a string, which has two delimiters", ", ");
	ck_out(exp_tokenize);
	/* State lives in the caller's struct: two tokenizers interleave. */
	{
		struct tap_tokenizer u;

		memset(&u, 0, sizeof(u));
		tap_str_tokenize(&t, tok, "a b", " ");
		tap_str_tokenize(&u, tok, "x y", " ");
		tap_str_tokenize(&t, tok, "", " ");
		ck_assert_str_eq(tok, "b");
		tap_str_tokenize(&u, tok, "", " ");
		ck_assert_str_eq(tok, "y");
		tap_str_tokenize(&u, tok, "", " ");
		ck_assert_str_eq(tok, "");
	}
	/* Empty delimiter set: the whole input is one token. */
	tap_str_tokenize(&t, tok, "a b", "");
	ck_assert_str_eq(tok, "a b");
	tap_str_tokenize(&t, tok, "", "");
	ck_assert_str_eq(tok, "");
}
END_TEST

static Suite *
string_suite(void)
{
	Suite *s = suite_create("string");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, copy_concat);
	tcase_add_test(tc, substrings);
	tcase_add_test(tc, search);
	tcase_add_test(tc, stringat);
	tcase_add_test(tc, string_to_long);
	tcase_add_test(tc, replace);
	tcase_add_test(tc, cases);
	tcase_add_test(tc, text_str_script);
	tcase_add_test(tc, text_utf8_and_quoted);
	tcase_add_test(tc, tokenizing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(string_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
