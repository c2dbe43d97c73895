/* test_kmod_index.c -- Check tests for what module() wildcards and
 * FUNC@FILE+N stand on: the per-release index of module files and their
 * function names (translator/debuginfo/kmod_index.c) over a modules
 * directory made here from small objects compiled with cc (one with -g,
 * one without and with an __init-style function, one xz-compressed when
 * xz is installed), its disk cache, and the spec parser and relative
 * lines of the DWARF sites (dw_query_parse, dw_find_sites, the
 * dw_nearby_lines hint), and the site cache of module wildcards.  Skipped (77)
 * when there is no cc.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/dwarf.h"
#include "translator/debuginfo/kmod_index.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/tapc-test-kmodix-XXXXXX";
static char *mods, *one;
static bool have_xz;

static const char fixture_one[] =
	"long sink;\n"
	"__attribute__((noinline)) int use(int k)\n"	/* line 2 */
	"{\n"
	"\tint r = k * 3;\n"
	"\tsink += r;\n"				/* line 5: +3 */
	"\treturn r + 1;\n"
	"}\n"
	"__attribute__((noinline)) int one_open(int k) { return use(k) + 1; }\n";

static const char fixture_two[] =
	"__attribute__((section(\".init.text\"))) int two_init(void) { return 0; }\n"
	"int two_open(int k) { return k + 2; }\n"
	/* DEFINE_TRACE's object, as a module that defines tracepoints has */
	"long __tracepoint_two_event[8] = { 1 };\n";

static void
run(const char *fmt, ...)
{
	char *cmd;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&cmd, fmt, ap);
	va_end(ap);
	if (rc < 0)
		abort();
	if (system(cmd) != 0) {
		printf("SKIP: test_kmod_index: cannot run: %s\n", cmd);
		exit(77);
	}
	free(cmd);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

static void
setup(void)
{
	char *path;

	if (!mkdtemp(dir))
		ck_abort_msg("mkdtemp");
	if (asprintf(&mods, "%s/lib/modules/9.9.9-test", dir) < 0 ||
	    asprintf(&one, "%s/kernel/a/tap-one.ko", mods) < 0)
		abort();
	run("mkdir -p %s/kernel/a %s/kernel/b %s/cache", mods, mods, dir);
	if (asprintf(&path, "%s/one.c", dir) < 0)
		abort();
	write_file(path, fixture_one);
	run("cc -g -O2 -c -o %s %s", one, path);
	run("cp %s %s/kernel/b/three.ko", one, mods);
	free(path);
	if (asprintf(&path, "%s/two.c", dir) < 0)
		abort();
	write_file(path, fixture_two);
	run("cc -O2 -c -o %s/kernel/b/two.ko %s", mods, path);
	free(path);
	have_xz = system("command -v xz > /dev/null 2>&1") == 0;
	if (have_xz)
		run("xz %s/kernel/b/three.ko", mods);
	if (asprintf(&path, "%s/modules.dep", mods) < 0)
		abort();
	write_file(path, "kernel/a/tap-one.ko:\nkernel/b/two.ko:\n");
	free(path);
	if (asprintf(&path, "%s/cache", dir) < 0)
		abort();
	setenv("XDG_CACHE_HOME", path, 1);
	unsetenv("TAPC_CACHE_DIR");	/* it would win (the sanitizer run sets it) */
	free(path);
}

static void
teardown(void)
{
	dw_close_all();
	run("rm -rf %s", dir);
	free(mods);
	free(one);
}

static const struct kmod_entry *
entry(const struct kmod_index *ix, const char *name)
{
	for (size_t i = 0; i < kmod_index_count(ix); i++)
		if (strcmp(kmod_index_at(ix, i)->name, name) == 0)
			return kmod_index_at(ix, i);
	return NULL;
}

START_TEST(spec_parse)
{
	struct dw_query q;
	char s1[] = "vfs_read@fs/read_write.c+3", s2[] = "f@a.c:4-6",
	     s3[] = "f@a.c:*", s4[] = "f*", b1[] = "f@a.c+", b2[] = "f@a.c:0",
	     b3[] = "f@a.c:5-2", b4[] = "@a.c", b5[] = "f@a.c+x";

	memset(&q, 0, sizeof(q));
	ck_assert(dw_query_parse(s1, &q));
	ck_assert_str_eq(q.func, "vfs_read");
	ck_assert_str_eq(q.file, "fs/read_write.c");
	ck_assert(q.relative);
	ck_assert_int_eq(q.line_lo, 3);
	memset(&q, 0, sizeof(q));
	ck_assert(dw_query_parse(s2, &q));
	ck_assert(!q.relative);
	ck_assert_int_eq(q.line_lo, 4);
	ck_assert_int_eq(q.line_hi, 6);
	memset(&q, 0, sizeof(q));
	ck_assert(dw_query_parse(s3, &q) && q.every_line);
	memset(&q, 0, sizeof(q));
	ck_assert(dw_query_parse(s4, &q) && !q.file);
	ck_assert(!dw_query_parse(b1, &q));
	ck_assert(!dw_query_parse(b2, &q));
	ck_assert(!dw_query_parse(b3, &q));
	ck_assert(!dw_query_parse(b4, &q));
	ck_assert(!dw_query_parse(b5, &q));
}
END_TEST

START_TEST(index_of_modules)
{
	char err[256] = "";
	const struct kmod_index *ix = kmod_index_get(mods, err, sizeof(err));
	const struct kmod_entry *m1, *m2, *m3;

	ck_assert_msg(ix != NULL, "%s", err);
	ck_assert_int_eq(kmod_index_count(ix), 3);
	m1 = entry(ix, "tap_one");	/* kallsyms' spelling */
	m2 = entry(ix, "two");
	m3 = entry(ix, "three");
	ck_assert(m1 && m2 && m3);
	ck_assert(m1->has_dwarf);
	ck_assert(!m2->has_dwarf);
	ck_assert(kmod_entry_has_func(m1, "use"));
	ck_assert(kmod_entry_has_func(m1, "*_open"));
	ck_assert(!kmod_entry_has_func(m1, "two_*"));
	ck_assert(kmod_entry_has_func(m2, "two_open"));
	ck_assert(!kmod_entry_has_func(m2, "two_init"));	/* init text */
	ck_assert(kmod_entry_has_func(m3, "one_open"));	/* .ko.xz or .ko */
	ck_assert_int_eq(m2->ntracepoints, 1);
	ck_assert_str_eq(m2->tracepoints[0], "two_event");
	ck_assert(kmod_entry_has_tracepoint(m2, "two_*"));
	ck_assert(!kmod_entry_has_tracepoint(m2, "two_open"));
	ck_assert(!kmod_entry_has_tracepoint(m1, "*"));
	ck_assert(!kmod_entry_has_func(m2, "__tracepoint_two_event"));
	ck_assert(strstr(m3->path, have_xz ? "three.ko.xz" : "three.ko"));
	ck_assert(kmod_name_matches("tap-*", "tap_one"));
	ck_assert(kmod_name_matches("t[v-x]o", "two"));
	ck_assert(!kmod_name_matches("tap", "tap_one"));
	/* the cache was written: one index file */
	run("test \"$(ls %s/cache/tapc/kmods | grep -c '\\.idx$')\" = 1", dir);
	run("head -n 1 %s/cache/tapc/kmods/*.idx | grep -qx TAPCKMI2", dir);
	run("grep -qx 'T two_event' %s/cache/tapc/kmods/*.idx", dir);
}
END_TEST

static bool
first_site(const struct dw_site *s, void *ctx)
{
	*(const struct dw_site **)ctx = s;
	return false;
}

START_TEST(relative_lines)
{
	char err[256] = "", stmt[] = "use@one.c+3", func[] = "use@one.c+2";
	struct dw_file *f = dw_open(one, err, sizeof(err));
	struct dw_query q = { .kind = DW_SITE_STATEMENT };
	const struct dw_site *s = NULL;

	ck_assert_msg(f != NULL, "%s", err);
	ck_assert(dw_query_parse(stmt, &q));
	ck_assert_int_eq(dw_find_sites(f, &q, first_site, &s, err, sizeof(err)), 1);
	ck_assert_int_eq(s->decl_line, 2);
	ck_assert_int_eq(s->line, 5);
	ck_assert_str_eq(s->symbol, "use");
	/* a .function with +N is the function that holds the line */
	memset(&q, 0, sizeof(q));
	q.kind = DW_SITE_FUNCTION;
	ck_assert(dw_query_parse(func, &q));
	s = NULL;
	ck_assert_int_eq(dw_find_sites(f, &q, first_site, &s, err, sizeof(err)), 1);
	ck_assert_str_eq(s->function, "use");
	/* +40 is past the function: nothing */
	char far[] = "use@one.c+40";
	memset(&q, 0, sizeof(q));
	q.kind = DW_SITE_FUNCTION;
	ck_assert(dw_query_parse(far, &q));
	ck_assert_int_eq(dw_find_sites(f, &q, NULL, NULL, err, sizeof(err)), 0);
	/* a statement there has no rows: the hint names the closest line */
	char none[] = "use@one.c+40";
	int before, after;
	memset(&q, 0, sizeof(q));
	q.kind = DW_SITE_STATEMENT;
	ck_assert(dw_query_parse(none, &q));
	ck_assert_int_eq(dw_find_sites(f, &q, NULL, NULL, err, sizeof(err)), 0);
	ck_assert(dw_nearby_lines(f, &q, &before, &after));
	ck_assert_int_ge(before, 5);
	ck_assert_int_le(before, 7);
	ck_assert_int_eq(after, 0);
}
END_TEST

static bool
keep_sites(const struct dw_site *s, void *ctx)
{
	struct { const struct dw_site *s[16]; int n; } *k = ctx;

	if (k->n < 16)
		k->s[k->n++] = s;
	return true;
}

START_TEST(site_cache)
{
	char err[256] = "", pat[] = "*";
	struct dw_file *f = dw_open(one, err, sizeof(err));
	struct dw_query q = { .kind = DW_SITE_FUNCTION };
	struct { const struct dw_site *s[16]; int n; } k = { .n = 0 };
	struct dw_site_cache *c;
	const struct dw_site *got;

	ck_assert_msg(f != NULL, "%s", err);
	ck_assert(dw_query_parse(pat, &q));
	ck_assert_int_ge(dw_find_sites(f, &q, keep_sites, &k, err, sizeof(err)), 2);
	c = dw_site_cache_open("test query");
	ck_assert_int_eq(dw_site_cache_get(c, one, &got), -1);
	dw_site_cache_put(c, one, k.s, k.n);
	dw_site_cache_close(c);
	/* read back: the same sites, field for field */
	c = dw_site_cache_open("test query");
	ck_assert_int_eq(dw_site_cache_get(c, one, &got), k.n);
	for (int i = 0; i < k.n; i++) {
		ck_assert_str_eq(got[i].function, k.s[i]->function);
		ck_assert_str_eq(got[i].symbol, k.s[i]->symbol);
		ck_assert_str_eq(got[i].decl_file, k.s[i]->decl_file);
		ck_assert_int_eq(got[i].decl_line, k.s[i]->decl_line);
		ck_assert(got[i].pc == k.s[i]->pc && got[i].offset == k.s[i]->offset);
		ck_assert(got[i].die_off == k.s[i]->die_off &&
			  got[i].cu_off == k.s[i]->cu_off);
		ck_assert_int_eq(got[i].kind, k.s[i]->kind);
	}
	dw_site_cache_close(c);
	/* another query has its own; a changed file has none */
	c = dw_site_cache_open("another query");
	ck_assert_int_eq(dw_site_cache_get(c, one, &got), -1);
	dw_site_cache_close(c);
	run("touch -d '2001-01-01' %s", one);
	c = dw_site_cache_open("test query");
	ck_assert_int_eq(dw_site_cache_get(c, one, &got), -1);
	dw_site_cache_close(c);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kmod_index");
	TCase *tc = tcase_create("fixture");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, spec_parse);
	tcase_add_test(tc, index_of_modules);
	tcase_add_test(tc, relative_lines);
	tcase_add_test(tc, site_cache);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
