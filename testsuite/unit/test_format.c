/*
 * test_format.c - Check tests for the printf engine (runtime/core/format.c).
 * Where SystemTap's testsuite has a script for a directive (int1, ptr-1.3,
 * char2, bin6, print, printd), the script's printf calls are replayed and
 * the whole output compared with what that testsuite expects; the other
 * cases follow stap's runtime formatter rules as documented in format.h.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "runtime/core/format.h"
#include "runtime/core/error.h"

static const char exp_int1[] =
	"1,10,9000000000000,-1,-1024\n"
	" 1,10,9000000000000,-1,-1024\n"
	"               1,              10,   9000000000000,              -1,           -1024\n"
	"0000000000000001,0000000000000010,0009000000000000,-000000000000001,-000000000001024\n"
	"1,10,9000000000000,-1,-1024\n"
	"1,10,9000000000000,-1,-1024\n"
	"1,10,9000000000000,-1,-1024\n"
	"\n"
	"1,10,9000000000000,18446744073709551615,18446744073709550592\n"
	" 1,10,9000000000000,18446744073709551615,18446744073709550592\n"
	"               1,              10,   9000000000000,18446744073709551615,18446744073709550592\n"
	"0000000000000001,0000000000000010,0009000000000000,18446744073709551615,18446744073709550592\n"
	"1,10,9000000000000,18446744073709551615,18446744073709550592\n"
	"1,10,9000000000000,18446744073709551615,18446744073709550592\n"
	"1,10,9000000000000,18446744073709551615,18446744073709550592\n"
	"\n"
	"1,a,82f79cd9000,ffffffffffffffff,fffffffffffffc00\n"
	" 1, a,82f79cd9000,ffffffffffffffff,fffffffffffffc00\n"
	"               1,               a,     82f79cd9000,ffffffffffffffff,fffffffffffffc00\n"
	"0000000000000001,000000000000000a,0000082f79cd9000,ffffffffffffffff,fffffffffffffc00\n"
	"               1,               A,     82F79CD9000,FFFFFFFFFFFFFFFF,FFFFFFFFFFFFFC00\n"
	"0000000000000001,000000000000000A,0000082F79CD9000,FFFFFFFFFFFFFFFF,FFFFFFFFFFFFFC00\n"
	"1,a,82f79cd9000,ffffffffffffffff,fffffffffffffc00\n"
	"0x1,0xa,0x82f79cd9000,0xffffffffffffffff,0xfffffffffffffc00\n"
	"0x1,0xa,0x82f79cd9000,0xffffffffffffffff,0xfffffffffffffc00\n"
	"\n"
	"1,12,202757163310000,1777777777777777777777,1777777777777777776000\n"
	" 1,12,202757163310000,1777777777777777777777,1777777777777777776000\n"
	"               1,              12, 202757163310000,1777777777777777777777,1777777777777777776000\n"
	"0000000000000001,0000000000000012,0202757163310000,1777777777777777777777,1777777777777777776000\n"
	"1,12,202757163310000,1777777777777777777777,1777777777777777776000\n"
	"01,012,0202757163310000,01777777777777777777777,01777777777777777776000\n"
	"01,012,0202757163310000,01777777777777777777777,01777777777777777776000";
static const char *const fmts_int1[] = {
	"%d,%d,%d,%d,%d\n",
	"%2d,%2d,%2d,%2d,%2d\n",
	"%16d,%16d,%16d,%16d,%16d\n",
	"%016d,%016d,%016d,%016d,%016d\n",
	"%ld,%ld,%ld,%ld,%ld\n",
	"%#d,%#d,%#d,%#d,%#d\n",
	"%#ld,%#ld,%#ld,%#ld,%#ld\n",
	"\n",
	"%u,%u,%u,%u,%u\n",
	"%2u,%2u,%2u,%2u,%2u\n",
	"%16u,%16u,%16u,%16u,%16u\n",
	"%016u,%016u,%016u,%016u,%016u\n",
	"%lu,%lu,%lu,%lu,%lu\n",
	"%#u,%#u,%#u,%#u,%#u\n",
	"%#lu,%#lu,%#lu,%#lu,%#lu\n",
	"\n",
	"%x,%x,%x,%x,%x\n",
	"%2x,%2x,%2x,%2x,%2x\n",
	"%16x,%16x,%16x,%16x,%16x\n",
	"%016x,%016x,%016x,%016x,%016x\n",
	"%16X,%16X,%16X,%16X,%16X\n",
	"%016X,%016X,%016X,%016X,%016X\n",
	"%lx,%lx,%lx,%lx,%lx\n",
	"%#x,%#x,%#x,%#x,%#x\n",
	"%#lx,%#lx,%#lx,%#lx,%#lx\n",
	"\n",
	"%o,%o,%o,%o,%o\n",
	"%2o,%2o,%2o,%2o,%2o\n",
	"%16o,%16o,%16o,%16o,%16o\n",
	"%016o,%016o,%016o,%016o,%016o\n",
	"%lo,%lo,%lo,%lo,%lo\n",
	"%#o,%#o,%#o,%#o,%#o\n",
	"%#lo,%#lo,%#lo,%#lo,%#lo\n",
};
static const char exp_ptr13[] =
	"0x0\n"
	"0x1\n"
	"0x12345678\n"
	"0x12345678abcdef00\n"
	"0x12345678\n"
	"\n"
	"                 0x0X\n"
	"                 0x1X\n"
	"          0x12345678X\n"
	"  0x12345678abcdef00X\n"
	"          0x12345678X\n"
	"\n"
	"0x0                 X\n"
	"0x1                 X\n"
	"0x12345678          X\n"
	"0x12345678abcdef00  X\n"
	"0x12345678          X\n"
	"\n"
	"0x00000000000000000000X\n"
	"0x00000000000000000001X\n"
	"0x00000000000012345678X\n"
	"0x000012345678abcdef00X\n"
	"0x00000000000012345678X\n"
	"\n"
	"          0x00000000X\n"
	"          0x00000001X\n"
	"          0x12345678X\n"
	"  0x12345678abcdef00X\n"
	"          0x12345678X\n"
	"\n"
	"0x00000000          X\n"
	"0x00000001          X\n"
	"0x12345678          X\n"
	"0x12345678abcdef00  X\n"
	"0x12345678          X\n"
	"\n"
	"     0x0\n"
	"     0x1\n"
	"0x12345678\n"
	"0x12345678abcdef00\n"
	"0x12345678\n"
	"\n"
	"0x0     X\n"
	"0x1     X\n"
	"0x12345678X\n"
	"0x12345678abcdef00X\n"
	"0x12345678X\n"
	"\n"
	"0x00000000\n"
	"0x00000001\n"
	"0x12345678\n"
	"0x12345678abcdef00\n"
	"0x12345678\n"
	"\n"
	"0x00000000000000000000\n"
	"0x00000000000000000001\n"
	"0x00000000000012345678\n"
	"0x000012345678abcdef00\n"
	"0x00000000000012345678\n"
	"\n"
	"0x00000000000000000000X\n"
	"0x00000000000000000001X\n"
	"0x00000000000012345678X\n"
	"0x000012345678abcdef00X\n"
	"0x00000000000012345678X";
static const char *const fmts_ptr13[] = {
	"%p\n",
	"%p\n",
	"%p\n",
	"%p\n",
	"%p\n",
	"\n",
	"%20pX\n",
	"%20pX\n",
	"%20pX\n",
	"%20pX\n",
	"%20pX\n",
	"\n",
	"%-20pX\n",
	"%-20pX\n",
	"%-20pX\n",
	"%-20pX\n",
	"%-20pX\n",
	"\n",
	"%.20pX\n",
	"%.20pX\n",
	"%.20pX\n",
	"%.20pX\n",
	"%.20pX\n",
	"\n",
	"%20.8pX\n",
	"%20.8pX\n",
	"%20.8pX\n",
	"%20.8pX\n",
	"%20.8pX\n",
	"\n",
	"%-20.8pX\n",
	"%-20.8pX\n",
	"%-20.8pX\n",
	"%-20.8pX\n",
	"%-20.8pX\n",
	"\n",
	"%8p\n",
	"%8p\n",
	"%8p\n",
	"%8p\n",
	"%8p\n",
	"\n",
	"%-8pX\n",
	"%-8pX\n",
	"%-8pX\n",
	"%-8pX\n",
	"%-8pX\n",
	"\n",
	"%.8p\n",
	"%.8p\n",
	"%.8p\n",
	"%.8p\n",
	"%.8p\n",
	"\n",
	"%8.20p\n",
	"%8.20p\n",
	"%8.20p\n",
	"%8.20p\n",
	"%8.20p\n",
	"\n",
	"%-8.20pX\n",
	"%-8.20pX\n",
	"%-8.20pX\n",
	"%-8.20pX\n",
	"%-8.20pX\n",
};
static const char exp_char2[] =
	"abc-ABC 123!\n"
	"\\a\\b\\f\\n\\r\\t\\v\\'\\\\\n"
	"\\000\\033\\177\\222\\333\\377";
static const char exp_bin6[] =
	"Binary default width default precision\t:deadbeef:\n"
	"Binary static width default precision\t:d:\n"
	"Binary static width default precision\t:de:\n"
	"Binary static width default precision\t:dead:\n"
	"Binary static width default precision\t:deadbeef:\n"
	"Binary dynamic width default precision\t:d:\n"
	"Binary dynamic width default precision\t:de:\n"
	"Binary dynamic width default precision\t:dead:\n"
	"Binary dynamic width default precision\t:deadbeef:\n"
	"Binary default width static precision\t:deadbeef:\n"
	"Binary default width static precision\t:dead:\n"
	"Binary default width static precision\t:de:\n"
	"Binary default width static precision\t:d:\n"
	"Binary default width dynamic precision\t:deadbeef:\n"
	"Binary default width dynamic precision\t:dead:\n"
	"Binary default width dynamic precision\t:de:\n"
	"Binary default width dynamic precision\t:d:\n"
	"Binary static width static precision\t:deadbeef:\n"
	"Binary static width static precision\t:dead:\n"
	"Binary static width static precision\t:\000\000de:\n"
	"Binary static width static precision\t:\000\000\000\000\000\000\000d:\n"
	"Binary dynamic width dynamic precision\t:deadbeef:\n"
	"Binary dynamic width dynamic precision\t:dead:\n"
	"Binary dynamic width dynamic precision\t:\000\000de:\n"
	"Binary dynamic width dynamic precision\t:\000\000\000\000\000\000\000d:";
static const char *const fmts_bin6[] = {
	"Binary default width default precision\t:%b:\n",
	"Binary static width default precision\t:%1b:\n",
	"Binary static width default precision\t:%2b:\n",
	"Binary static width default precision\t:%4b:\n",
	"Binary static width default precision\t:%8b:\n",
	"Binary dynamic width default precision\t:%*b:\n",
	"Binary dynamic width default precision\t:%*b:\n",
	"Binary dynamic width default precision\t:%*b:\n",
	"Binary dynamic width default precision\t:%*b:\n",
	"Binary default width static precision\t:%.8b:\n",
	"Binary default width static precision\t:%.4b:\n",
	"Binary default width static precision\t:%.2b:\n",
	"Binary default width static precision\t:%.1b:\n",
	"Binary default width dynamic precision\t:%.*b:\n",
	"Binary default width dynamic precision\t:%.*b:\n",
	"Binary default width dynamic precision\t:%.*b:\n",
	"Binary default width dynamic precision\t:%.*b:\n",
	"Binary static width static precision\t:%1.8b:\n",
	"Binary static width static precision\t:%2.4b:\n",
	"Binary static width static precision\t:%4.2b:\n",
	"Binary static width static precision\t:%8.1b:\n",
	"Binary dynamic width dynamic precision\t:%*.*b:\n",
	"Binary dynamic width dynamic precision\t:%*.*b:\n",
	"Binary dynamic width dynamic precision\t:%*.*b:\n",
	"Binary dynamic width dynamic precision\t:%*.*b:\n",
};

#define NARGS(...) (sizeof((struct tap_value[]){ __VA_ARGS__ }) / \
		    sizeof(struct tap_value))

static char text[1 << 16];
static struct tap_buf out;

static int
render(const char *fmt, const struct tap_value *args, unsigned int n)
{
	struct tap_fmt_piece pieces[64];
	struct tap_fmt f;

	ck_assert_uint_le(tap_fmt_count_pieces(fmt), 64);
	ck_assert_int_eq(tap_fmt_compile(&f, fmt, pieces, 64, NULL), TAP_OK);
	return tap_fmt_apply(&f, args, n, &out, NULL);
}

/* Render fmt with the given values into a fresh buffer and compare. */
#define CK_FMT(want, fmt, ...)						\
	do {								\
		tap_buf_init(&out, text, sizeof(text));			\
		ck_assert_int_eq(render(fmt,				\
			(struct tap_value[]){ __VA_ARGS__ },		\
			NARGS(__VA_ARGS__)), TAP_OK);			\
		ck_assert_str_eq(text, want);				\
	} while (0)

#define CK_FMT0(want, fmt)						\
	do {								\
		tap_buf_init(&out, text, sizeof(text));			\
		ck_assert_int_eq(render(fmt, NULL, 0), TAP_OK);		\
		ck_assert_str_eq(text, want);				\
	} while (0)

#define L(v)	TAP_LONG(v)
#define S(v)	TAP_STR(v)

/* Compare the output with want, ignoring trailing newlines as stap's
 * testsuite does; both may contain NULs. */
static void
ck_bytes(const char *want, size_t wl)
{
	size_t gl = out.len;

	while (wl && want[wl - 1] == '\n')
		wl--;
	while (gl && out.data[gl - 1] == '\n')
		gl--;
	if (gl != wl || memcmp(out.data, want, wl) != 0)
		ck_abort_msg("output differs\n--- got ---\n%.*s\n"
			     "--- want ---\n%.*s\n", (int)gl, out.data,
			     (int)wl, want);
}

/* Replay a script whose printf calls all take the same argument list,
 * except printf("\n"). */
static void
replay(const char *const *fmts, size_t nfmts, const struct tap_value *args,
       unsigned int nargs, bool cycle)
{
	size_t i;
	unsigned int k = 0;

	tap_buf_init(&out, text, sizeof(text));
	for (i = 0; i < nfmts; i++) {
		if (strcmp(fmts[i], "\n") == 0) {
			ck_assert_int_eq(render(fmts[i], NULL, 0), TAP_OK);
			continue;
		}
		if (cycle) {
			ck_assert_int_eq(render(fmts[i], &args[k], 1),
					 TAP_OK);
			k = (k + 1) % nargs;
		} else {
			ck_assert_int_eq(render(fmts[i], args, nargs),
					 TAP_OK);
		}
	}
}

START_TEST(stap_int1)
{
	static const struct tap_value args[] = {
		L(1), L(10), L(9000000000000), L(-1), L(-1024)
	};

	replay(fmts_int1, sizeof(fmts_int1) / sizeof(*fmts_int1), args, 5,
	       false);
	ck_bytes(exp_int1, strlen(exp_int1));
}
END_TEST

START_TEST(stap_ptr13)
{
	static const struct tap_value args[] = {
		L(0), L(1), L(0x12345678), L(0x12345678abcdef00),
		L(0x0000000012345678)
	};

	replay(fmts_ptr13, sizeof(fmts_ptr13) / sizeof(*fmts_ptr13), args, 5,
	       true);
	ck_bytes(exp_ptr13, strlen(exp_ptr13));
}
END_TEST

/* One %p directive as --compatible=1.2 renders it: the translator turns
 * the compiled TAP_FMT_POINTER into TAP_FMT_POINTER_V12 (format.h). */
static void
ck_ptr12(const char *want, const char *fmt, int64_t v)
{
	struct tap_fmt_piece pieces[8];
	struct tap_value arg = L(v);
	struct tap_fmt f;
	unsigned int i;

	ck_assert_int_eq(tap_fmt_compile(&f, fmt, pieces, 8, NULL), TAP_OK);
	for (i = 0; i < f.npieces; i++)
		if (pieces[i].conv == TAP_FMT_POINTER)
			pieces[i].conv = TAP_FMT_POINTER_V12;
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(tap_fmt_apply(&f, &arg, 1, &out, NULL), TAP_OK);
	ck_assert_str_eq(text, want);
}

/* Lines of SystemTap's ptr-1.2 expectations (64-bit), one per rule. */
START_TEST(stap_ptr12)
{
	ck_ptr12("0x0000000000000000", "%p", 0);
	ck_ptr12("0x12345678abcdef00", "%p", 0x12345678abcdef00);
	ck_ptr12("  0x0000000000000001X", "%20pX", 1);
	ck_ptr12("0x000000000012345678X", "%-20pX", 0x12345678);
	ck_ptr12("0x000001", "%8p", 1);
	ck_ptr12("0x12345678", "%8p", 0x12345678);
	ck_ptr12("0x000000X", "%-8pX", 0);
	ck_ptr12("0x0000000000000001", "%.1p", 1);
}
END_TEST

START_TEST(stap_char2)
{
	static const char line1[] = "abc-ABC 123!";
	static const char line2[] = "\a\b\f\n\r\t\v\'\\";
	static const int line3[] = { 0, 033, 0177, 0222, 0333, 0377 };
	size_t i;

	tap_buf_init(&out, text, sizeof(text));
	for (i = 0; i < strlen(line1); i++)
		render("%#c", &L(line1[i]), 1);
	tap_buf_putc(&out, '\n');
	for (i = 0; i < strlen(line2); i++)
		render("%#c", &L(line2[i]), 1);
	tap_buf_putc(&out, '\n');
	for (i = 0; i < 6; i++)
		render("%#c", &L(line3[i]), 1);
	ck_bytes(exp_char2, strlen(exp_char2));
}
END_TEST

/* bin6.stp: %b of the bytes "deadbeef" (little-endian) with every static
 * and dynamic width and precision. */
START_TEST(stap_bin6)
{
	static const int64_t dyn[][2] = {
		{ 1, 0 }, { 2, 0 }, { 4, 0 }, { 8, 0 },
		{ 8, 0 }, { 4, 0 }, { 2, 0 }, { 1, 0 },
		{ 1, 8 }, { 2, 4 }, { 4, 2 }, { 8, 1 },
	};
	int64_t deadbeef;
	size_t i, d = 0;

	memcpy(&deadbeef, "deadbeef", 8);
	tap_buf_init(&out, text, sizeof(text));
	for (i = 0; i < sizeof(fmts_bin6) / sizeof(*fmts_bin6); i++) {
		const char *f = fmts_bin6[i];
		struct tap_value args[3];
		unsigned int n = 0;

		if (strstr(f, "*.*")) {
			args[n++] = L(dyn[d][0]);
			args[n++] = L(dyn[d][1]);
			d++;
		} else if (strchr(f, '*')) {
			args[n++] = L(dyn[d][0]);
			d++;
		}
		args[n++] = L(deadbeef);
		ck_assert_int_eq(render(f, args, n), TAP_OK);
	}
	ck_bytes(exp_bin6, sizeof(exp_bin6) - 1);
}
END_TEST

START_TEST(binary_sizes)
{
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%1b%2b%4b", (struct tap_value[]){
		L(0x142), L(0x5678), L(0x01020304) }, 3), TAP_OK);
	ck_bytes("\x42\x78\x56\x04\x03\x02\x01", 7);
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%-4.1b|", &L(7), 1), TAP_OK);
	ck_bytes("\x07\0\0\0|", 5);
	/* Only 1, 2, 4 and 8 are sizes; anything else means 8. */
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%3b", &L(1), 1), TAP_OK);
	ck_assert_uint_eq(out.len, 8);
}
END_TEST

START_TEST(integers)
{
	CK_FMT("+5  5 -5", "%+d % d %+d", L(5), L(5), L(-5));
	CK_FMT("-5   |", "%-5d|", L(-5));
	CK_FMT("-0042", "%05d", L(-42));
	CK_FMT("007", "%.3d", L(7));
	/* stap zero-pads to the width even with a precision. */
	CK_FMT("00000007", "%08.3d", L(7));
	CK_FMT("     007", "%8.3d", L(7));
	CK_FMT("0x0 00 0XFF 0xff", "%#x %#o %#X %#x", L(0), L(0), L(255),
	       L(255));
	CK_FMT("-9223372036854775808", "%d", L(INT64_MIN));
	CK_FMT("9223372036854775808", "%u", L(INT64_MIN));
	CK_FMT("1000000000000000000000", "%o", L(INT64_MIN));
	CK_FMT("ffffffffffffffff", "%x", L(-1));
	CK_FMT("42 42 42 2a 2A", "%ld %lld %hd %Lx %zX", L(42), L(42), L(42),
	       L(42), L(42));
	CK_FMT("42", "%i", L(42));
	/* Precision 0 still prints a zero, unlike C. */
	CK_FMT("0", "%.0d", L(0));
	CK_FMT("0x00ff", "%#.4x", L(255));
	CK_FMT("  0x00ff", "%#8.4x", L(255));
	CK_FMT("0x000000ff", "%#010x", L(255));
}
END_TEST

START_TEST(stars)
{
	CK_FMT("   42", "%*d", L(5), L(42));
	CK_FMT("42   |", "%*d|", L(-5), L(42));
	CK_FMT("00042", "%.*d", L(5), L(42));
	CK_FMT("42", "%.*d", L(-3), L(42));
	CK_FMT("  hel|", "%*.*s|", L(5), L(3), S("hello"));
}
END_TEST

START_TEST(strings)
{
	CK_FMT("The string is <Foobar!>", "The string is <%s>", S("Foobar!"));
	CK_FMT("  abc|abc  |ab|", "%5s|%-5s|%.2s|", S("abc"), S("abc"),
	       S("abc"));
	CK_FMT("|", "%.0s|", S("abc"));
	CK_FMT("<NULL>", "%s", S(NULL));
	CK_FMT("Hello%World", "Hello%%World", L(0));
	CK_FMT0("100%", "100%%");
	/* '0' with %s appends a NUL byte after the string. */
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%0s|", &S("ab"), 1), TAP_OK);
	ck_bytes("ab\0|", 4);
}
END_TEST

START_TEST(chars)
{
	CK_FMT("A", "%c", L(65));
	CK_FMT("  A|A  |", "%3c|%-3c|", L('A'), L('A'));
	CK_FMT("\\n", "%#c", L('\n'));
	CK_FMT(" \\000", "%#5c", L(0));
	CK_FMT("A", "%c", L(0x141));
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%c", &L(0), 1), TAP_OK);
	ck_bytes("\0", 1);
}
END_TEST

/* memory1.stp's expectations: %m copies `precision` bytes, %M hex. */
START_TEST(memory)
{
	static const char s[] = "abcdefghij";

	CK_FMT("a", "%m", S(s));
	CK_FMT("abcde", "%.5m", S(s));
	CK_FMT("abcde", "%.*m", L(5), S(s));
	CK_FMT("    a", "%5m", S(s));
	CK_FMT("abcde", "%4.5m", S(s));
	CK_FMT("          abcde", "%15.5m", S(s));
	CK_FMT("     abcdefghij", "%15.*m", L(10), S(s));
	CK_FMT("  616263646566", "%*.*M", L(14), L(6), S(s));
	CK_FMT("6162    |", "%-8.2M|", S(s));
	CK_FMT("61", "%M", S(s));
	/* The address form, for the user-space target. */
	CK_FMT("abc", "%.3m", L((int64_t)(uintptr_t)s));
}
END_TEST

struct fake_mem {
	const char *base;
	uint64_t addr;
	size_t size;
	bool last_user;
};

static int
fake_read(void *dst, uint64_t addr, size_t n, bool user, void *priv)
{
	struct fake_mem *m = priv;

	m->last_user = user;
	if (addr < m->addr || addr + n > m->addr + m->size)
		return TAP_EFAULT;
	memcpy(dst, m->base + (addr - m->addr), n);
	return TAP_OK;
}

START_TEST(memory_reader)
{
	static const char data[200] = "0123456789";
	struct fake_mem m = { data, 0x1000, sizeof(data), false };
	struct tap_fmt_env env = { fake_read, &m };
	struct tap_fmt_piece pieces[8];
	struct tap_fmt f;

	ck_assert_int_eq(tap_fmt_compile(&f, "%.4m|%#.2M|%.150m", pieces, 8,
					 NULL), TAP_OK);
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(tap_fmt_apply(&f, (struct tap_value[]){
		L(0x1000), L(0x1002), L(0x1000) }, 3, &out, &env), TAP_OK);
	ck_assert_uint_eq(out.len, 4 + 1 + 4 + 1 + 150);
	ck_assert(memcmp(text, "0123|3233|0123456789", 20) == 0);
	ck_assert(m.last_user == false);
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(tap_fmt_apply(&f, (struct tap_value[]){
		L(0x1000), L(0x1002), L(0x2000) }, 3, &out, &env), TAP_EFAULT);
	/* '#' asks for user memory. */
	ck_assert_int_eq(tap_fmt_compile(&f, "%#.2M", pieces, 8, NULL),
			 TAP_OK);
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(tap_fmt_apply(&f, &L(0x1000), 1, &out, &env),
			 TAP_OK);
	ck_assert(m.last_user == true);
}
END_TEST

START_TEST(compile_errors)
{
	struct tap_fmt_piece pieces[8];
	struct tap_fmt f;
	unsigned int off = 99;

	ck_assert_int_eq(tap_fmt_compile(&f, "ab%yc", pieces, 8, &off),
			 TAP_EINVAL);
	ck_assert_uint_eq(off, 2);
	ck_assert_int_eq(tap_fmt_compile(&f, "abc%", pieces, 8, &off),
			 TAP_EINVAL);
	ck_assert_uint_eq(off, 3);
	ck_assert_int_eq(tap_fmt_compile(&f, "%d%d%d%d%d", pieces, 4, &off),
			 TAP_EINVAL);
	ck_assert_int_eq(tap_fmt_compile(&f, "", pieces, 8, &off), TAP_OK);
	ck_assert_uint_eq(f.npieces, 0);
}
END_TEST

START_TEST(arg_types)
{
	struct tap_fmt_piece pieces[16];
	struct tap_fmt f;

	ck_assert_int_eq(tap_fmt_compile(&f, "a%*.*s %d%% %m %c %.*b",
					 pieces, 16, NULL), TAP_OK);
	ck_assert_uint_eq(f.nargs, 8);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 0), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 1), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 2), TAP_T_STRING);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 3), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 4), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 5), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 7), TAP_T_LONG);
	ck_assert_int_eq(tap_fmt_arg_type(&f, 8), TAP_T_NONE);
}
END_TEST

START_TEST(missing_args)
{
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("x=%d y=%d", &L(1), 1), TAP_EINVAL);
	ck_assert_str_eq(text, "x=1 y=");
	tap_buf_init(&out, text, sizeof(text));
	ck_assert_int_eq(render("%*d", &L(1), 1), TAP_EINVAL);
}
END_TEST

START_TEST(truncation)
{
	char small[8];

	tap_buf_init(&out, small, sizeof(small));
	ck_assert_int_eq(render("%s", &S("hello world"), 1), TAP_ETRUNC);
	ck_assert_str_eq(small, "hello w");
	/* Widths are clamped to the buffer, as stap clamps them, so a
	 * huge one costs nothing and still fits. */
	tap_buf_init(&out, small, sizeof(small));
	ck_assert_int_eq(render("%100d", &L(1), 1), TAP_OK);
	ck_assert_str_eq(small, "      1");
	tap_buf_init(&out, small, sizeof(small));
	ck_assert_int_eq(render("%999999999d", &L(1), 1), TAP_OK);
	tap_buf_init(&out, small, sizeof(small));
	ck_assert_int_eq(render("%*s|", (struct tap_value[]){
		L(INT64_MIN + 1), S("x") }, 2), TAP_ETRUNC);
	ck_assert_str_eq(small, "x      ");
	/* So are %m lengths: no more is read than can be shown. */
	tap_buf_init(&out, small, sizeof(small));
	ck_assert_int_eq(render("%.*m", (struct tap_value[]){
		L(1000000), S("0123456789") }, 2), TAP_OK);
	ck_assert_str_eq(small, "0123456");
	/* A zero-sized buffer takes nothing and says so. */
	tap_buf_init(&out, NULL, 0);
	ck_assert_int_eq(render("x", NULL, 0), TAP_ETRUNC);
}
END_TEST

/* print.stp / printd.stp: longs in decimal, strings as is. */
START_TEST(print_family)
{
	static const enum tap_type ssl[] = { TAP_T_STRING, TAP_T_STRING,
					     TAP_T_LONG };
	static const enum tap_type ls[] = { TAP_T_LONG, TAP_T_STRING };
	struct tap_value hw[] = { S("hello"), S("world"), L(777) };
	struct tap_value n[] = { L(-99), S("foo") };

	tap_buf_init(&out, text, sizeof(text));
	tap_print_values(&out, hw, ssl, 3, NULL, false);
	ck_assert_str_eq(text, "helloworld777");
	tap_buf_init(&out, text, sizeof(text));
	tap_print_values(&out, hw, ssl, 3, "<-->", false);
	ck_assert_str_eq(text, "hello<-->world<-->777");
	tap_buf_init(&out, text, sizeof(text));
	tap_print_values(&out, n, ls, 2, ",", true);
	ck_assert_str_eq(text, "-99,foo\n");
	tap_buf_init(&out, text, sizeof(text));
	tap_print_values(&out, n, ls, 2, NULL, true);
	ck_assert_str_eq(text, "-99foo\n");
	tap_buf_init(&out, text, sizeof(text));
	tap_print_values(&out, NULL, NULL, 0, NULL, true);
	ck_assert_str_eq(text, "\n");
	tap_buf_init(&out, text, sizeof(text));
	tap_print_long(&out, INT64_MIN);
	ck_assert_str_eq(text, "-9223372036854775808");
}
END_TEST

/* Random integer directives against the C library where SystemTap's
 * rules and C's agree: no '#', no '0' together with a precision, and no
 * zero printed with precision 0 (stap prints "0", C prints nothing). */
START_TEST(integers_against_libc)
{
	static const char convs[] = "diuxXo";
	static const int64_t specials[] = { 0, 1, -1, INT64_MIN, INT64_MAX,
					    255, -256, 1000000007 };
	uint64_t rng = 42;
	int n;

	for (n = 0; n < 20000; n++) {
		char fmt[32], cfmt[40], want[512], *p = fmt;
		int flags, width, prec;
		char conv;
		int64_t v;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		flags = (rng >> 20) & 15;
		width = (rng >> 24) % 3 ? (int)((rng >> 28) % 30) : -1;
		prec = (rng >> 34) % 3 ? -1 : (int)((rng >> 38) % 25);
		conv = convs[(rng >> 44) % 6];
		v = (rng >> 50) % 4 ? specials[(rng >> 53) % 8] :
				      (int64_t)(rng * 0x9e3779b97f4a7c15ULL);
		if ((flags & 8) && prec >= 0)
			flags &= ~8;
		if (prec == 0 && v == 0)
			prec = 1;
		*p++ = '%';
		if (flags & 1)
			*p++ = '-';
		if (flags & 2)
			*p++ = '+';
		if (flags & 4)
			*p++ = ' ';
		if (flags & 8)
			*p++ = '0';
		if (width >= 0)
			p += sprintf(p, "%d", width);
		if (prec >= 0)
			p += sprintf(p, ".%d", prec);
		*p = '\0';
		snprintf(cfmt, sizeof(cfmt), "%sll%c", fmt, conv);
		p[0] = conv;
		p[1] = '\0';
		snprintf(want, sizeof(want), cfmt, (long long)v);
		tap_buf_init(&out, text, sizeof(text));
		ck_assert_int_eq(render(fmt, &L(v), 1), TAP_OK);
		if (strcmp(text, want) != 0)
			ck_abort_msg("%s of %lld: got '%s', C gives '%s'", fmt,
				     (long long)v, text, want);
	}
}
END_TEST

/* Strings likewise: flags '-', width and precision behave as in C. */
START_TEST(strings_against_libc)
{
	static const char *const strs[] = { "", "a", "hello", "tracing is fun",
					    "0123456789012345678901234567890" };
	uint64_t rng = 7;
	int n;

	for (n = 0; n < 5000; n++) {
		char fmt[32], want[256], *p = fmt;
		const char *str;
		int width, prec;

		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		/* Width 1..39: a width of "0" would read as the '0' flag,
		 * which with %s appends a NUL in stap. */
		width = (rng >> 24) % 3 ? (int)((rng >> 28) % 39) + 1 : -1;
		prec = (rng >> 34) % 2 ? -1 : (int)((rng >> 38) % 40);
		str = strs[(rng >> 44) % 5];
		*p++ = '%';
		if ((rng >> 20) & 1)
			*p++ = '-';
		if (width >= 0)
			p += sprintf(p, "%d", width);
		if (prec >= 0)
			p += sprintf(p, ".%d", prec);
		strcpy(p, "s|%c");
		snprintf(want, sizeof(want), fmt, str, 'x');
		tap_buf_init(&out, text, sizeof(text));
		ck_assert_int_eq(render(fmt, (struct tap_value[]){ S(str),
			L('x') }, 2), TAP_OK);
		if (strcmp(text, want) != 0)
			ck_abort_msg("%s of '%s': got '%s', C gives '%s'", fmt,
				     str, text, want);
	}
}
END_TEST

static Suite *
format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, stap_int1);
	tcase_add_test(tc, stap_ptr13);
	tcase_add_test(tc, stap_ptr12);
	tcase_add_test(tc, stap_char2);
	tcase_add_test(tc, stap_bin6);
	tcase_add_test(tc, binary_sizes);
	tcase_add_test(tc, integers);
	tcase_add_test(tc, stars);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, chars);
	tcase_add_test(tc, memory);
	tcase_add_test(tc, memory_reader);
	tcase_add_test(tc, compile_errors);
	tcase_add_test(tc, arg_types);
	tcase_add_test(tc, missing_args);
	tcase_add_test(tc, truncation);
	tcase_add_test(tc, print_family);
	tcase_add_test(tc, integers_against_libc);
	tcase_add_test(tc, strings_against_libc);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(format_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
