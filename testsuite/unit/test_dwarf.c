/* test_dwarf.c -- Check tests for the DWARF reader (translator/debuginfo/
 * dwarf*): a small C file written here is compiled with `cc -g -O2`, once
 * as a relocatable object (like a kernel module: libdwfl must apply its
 * debug relocations) and once as an executable (user binaries), and the
 * answers the providers depend on are checked: functions by pattern and
 * file:line, the site after the prologue as symbol+offset, inlined
 * instances, a statement line, parameters in registers, struct members
 * with bitfields, type spellings, location expressions (pieces, memory
 * reads, entry values) as the C they become.  Skipped (77) when there is no cc.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/dwarf.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/tapc-test-dwarf-XXXXXX";
static char *obj, *exe;
static int call_line;		/* the line of the FIXTURE's marker */

static const char fixture[] =
	"struct flags { unsigned a:1; unsigned b:3; int c:5; };\n"
	"struct item { int id; char name[12]; struct flags f; struct item *next; };\n"
	"long sink;\n"
	"static inline int sq(int x) { int y = x * x; sink += y; return y; }\n"
	"__attribute__((noinline)) int use(struct item *it, int k)\n"
	"{\n"
	"\tint r = sq(k) + sq(it->id);\n"
	"\tsink += r; /* marker */\n"
	"\treturn r + it->f.b;\n"
	"}\n"
	"int main(int argc, char **argv) { struct item i = { argc }; (void)argv; return use(&i, 3); }\n"
	"static struct item second = { 2, \"two\" };\n"
	"struct item *keep = &second;\n"
	/* location expressions: pieces, a memory read, an entry value */
	"struct pair { long lo; long hi; };\n"
	"__attribute__((noinline)) long pieces(struct pair p) { sink += p.lo * 3 + p.hi; return p.lo; }\n"
	"__attribute__((noinline)) void store(int *s, int v) { *s = v; }\n"
	"__attribute__((noinline)) void observe(int *s) { sink += *s; }\n"
	"__attribute__((noinline)) void deref(int seed)\n"
	"{\n"
	"\tint slot, next;\n"
	"\tstore(&slot, seed * 2);\n"
	"\tnext = slot + 1;\n"
	"\tobserve(&slot); /* deref */\n"
	"}\n";
#define DEREF_LINE 23	/* the fixture's line "observe(&slot)" */

static void
setup(void)
{
	char *src, *cmd;
	FILE *f;

	if (!mkdtemp(dir))
		ck_abort_msg("mkdtemp");
	if (asprintf(&src, "%s/fix.c", dir) < 0 || asprintf(&obj, "%s/fix.o", dir) < 0 ||
	    asprintf(&exe, "%s/fix", dir) < 0)
		abort();
	f = fopen(src, "w");
	fputs(fixture, f);
	fclose(f);
	call_line = 8;
	if (asprintf(&cmd, "cc -g -O2 -c -o %s %s && cc -g -O2 -o %s %s",
		     obj, src, exe, src) < 0)
		abort();
	if (system(cmd) != 0) {
		printf("SKIP: test_dwarf: cannot compile the fixture with cc\n");
		exit(77);
	}
	free(cmd);
	free(src);
}

static void
teardown(void)
{
	char *cmd = NULL;

	dw_close_all();
	if (asprintf(&cmd, "rm -rf %s", dir) >= 0 && system(cmd) != 0)
		fprintf(stderr, "test_dwarf: could not remove %s\n", dir);
	free(cmd);
	free(obj);
	free(exe);
}

struct found {
	const struct dw_site *s[8];
	int n;
};

static bool
collect(const struct dw_site *s, void *ctx)
{
	struct found *f = ctx;

	if (f->n < 8)
		f->s[f->n++] = s;
	return true;
}

static struct found
sites(const char *path, const char *func, const char *file, int line,
      enum dw_site_kind kind)
{
	char err[256];
	struct dw_file *f = dw_open(path, err, sizeof(err));
	struct dw_query q = { .func = func, .file = file, .line_lo = line,
			      .kind = kind };
	struct found out = { 0 };

	ck_assert_msg(f != NULL, "%s", err);
	ck_assert_int_ge(dw_find_sites(f, &q, collect, &out, err, sizeof(err)), 0);
	return out;
}

START_TEST(function_after_prologue)
{
	const char *paths[] = { obj, exe };

	for (int i = 0; i < 2; i++) {
		struct found f = sites(paths[i], "us*", "fix.c", 0, DW_SITE_FUNCTION);
		ck_assert_int_eq(f.n, 1);
		ck_assert_str_eq(f.s[0]->function, "use");
		ck_assert_str_eq(f.s[0]->symbol, "use");
		ck_assert_int_eq(f.s[0]->decl_line, 5);
		ck_assert(f.s[0]->external);
		f = sites(paths[i], "use", "nope.c", 0, DW_SITE_FUNCTION);
		ck_assert_int_eq(f.n, 0);
		f = sites(paths[i], "use", NULL, 5, DW_SITE_RETURN);
		ck_assert_int_eq(f.n, 1);
		ck_assert_int_eq(f.s[0]->offset, 0);
	}
}
END_TEST

START_TEST(inline_instances_and_statement)
{
	struct found f = sites(obj, "sq", NULL, 0, DW_SITE_INLINE);

	ck_assert_int_ge(f.n, 2);
	for (int i = 0; i < f.n; i++) {
		ck_assert_str_eq(f.s[i]->function, "sq");
		/* inlined into use() (or main after inlining use) */
		ck_assert(strcmp(f.s[i]->symbol, "use") == 0 ||
			  strcmp(f.s[i]->symbol, "main") == 0);
	}
	f = sites(obj, "use", "fix.c", call_line, DW_SITE_STATEMENT);
	ck_assert_int_eq(f.n, 1);
	ck_assert_int_eq(f.s[0]->line, call_line);
	ck_assert_str_eq(f.s[0]->symbol, "use");
}
END_TEST

START_TEST(parameters_and_types)
{
	char err[256], name[128];
	struct dw_file *f = dw_open(obj, err, sizeof(err));
	struct found s = sites(obj, "use", NULL, 0, DW_SITE_FUNCTION);
	const struct dw_var *v;
	struct dw_type_info ti;
	struct dw_member m;
	int n = dw_site_vars(f, s.s[0], &v, err, sizeof(err));

	ck_assert_int_ge(n, 2);
	ck_assert_str_eq(v[0].name, "it");
	ck_assert(v[0].is_param);
	ck_assert_int_eq(v[0].loc.kind, DW_LOC_REG);
	ck_assert_str_eq(dw_x86_64_pt_regs_name(v[0].loc.reg), "di");
	ck_assert_str_eq(dw_type_name(f, v[0].type, name, sizeof(name)),
			 "struct item *");
	ck_assert(dw_type_info(f, v[0].type, &ti));
	ck_assert_int_eq(ti.kind, DW_TYPE_POINTER);
	ck_assert(dw_type_member(f, ti.target, "name", &m));
	ck_assert_int_eq(m.offset, 4);
	ck_assert(dw_type_info(f, m.type, &ti));
	ck_assert_int_eq(ti.kind, DW_TYPE_ARRAY);
	ck_assert_int_eq(ti.nelem, 12);
	dw_type_info(f, v[0].type, &ti);
	ck_assert(dw_type_member(f, ti.target, "f", &m));
	ck_assert_int_eq(m.offset, 16);
	uint64_t flags = m.type;
	ck_assert(dw_type_member(f, flags, "c", &m));
	ck_assert_int_eq(m.bit_size, 5);
	ck_assert_int_eq(m.offset * 8 + (uint64_t)m.bit_offset, 4);
	ck_assert(dw_type_info(f, m.type, &ti));
	ck_assert(ti.is_signed);
	ck_assert(!dw_type_member(f, flags, "zz", &m));
	ck_assert_str_eq(v[1].name, "k");
	/* the same answers a second time come from the cache */
	const struct dw_var *again;
	ck_assert_int_eq(dw_site_vars(f, s.s[0], &again, err, sizeof(err)), n);
	ck_assert_ptr_eq(again, v);
}
END_TEST

START_TEST(executable_addresses)
{
	struct found f = sites(exe, "use", NULL, 0, DW_SITE_FUNCTION);
	char cmd[512], line[256];
	unsigned long long addr = 0;

	ck_assert_int_eq(f.n, 1);
	snprintf(cmd, sizeof(cmd), "nm %s | grep ' T use$'", exe);
	FILE *p = popen(cmd, "r");
	if (p && fgets(line, sizeof(line), p))
		addr = strtoull(line, NULL, 16);
	if (p)
		pclose(p);
	if (!addr)
		return;	/* no nm: nothing to compare with */
	ck_assert_uint_eq(f.s[0]->link_pc, addr + f.s[0]->offset);
}
END_TEST

/* A static and a global (DW_OP_addr) are "symbol + offset", in the
 * relocatable object (libdwfl placed its sections) and the executable. */
START_TEST(statics_as_symbols)
{
	const char *paths[] = { obj, exe };
	char err[256], name[128];

	for (int i = 0; i < 2; i++) {
		struct dw_file *f = dw_open(paths[i], err, sizeof(err));
		struct dw_var v;

		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(dw_find_global(f, "second", "fix.c", &v, err, sizeof(err)), 1);
		ck_assert_int_eq(v.loc.kind, DW_LOC_SYMBOL);
		ck_assert_str_eq(v.loc.symbol, "second");
		ck_assert_int_eq(v.loc.offset, 0);
		ck_assert_str_eq(dw_type_name(f, v.type, name, sizeof(name)),
				 "struct item");
		ck_assert_int_eq(dw_find_global(f, "sink", NULL, &v, err, sizeof(err)), 1);
		ck_assert_int_eq(v.loc.kind, DW_LOC_SYMBOL);
		ck_assert_str_eq(v.loc.symbol, "sink");
		ck_assert_int_eq(dw_find_global(f, "second", "other.c", &v, err, sizeof(err)), 0);
		ck_assert_int_eq(dw_find_global(f, "nothere", NULL, &v, err, sizeof(err)), 0);
		/* $sink at a probe in use(): a file-scope variable it sees */
		struct found s = sites(paths[i], "use", NULL, 0, DW_SITE_FUNCTION);
		ck_assert_int_ge(s.n, 1);
		ck_assert(dw_site_global(f, s.s[0], "sink", &v));
		ck_assert_str_eq(v.loc.symbol, "sink");
		ck_assert(!dw_site_global(f, s.s[0], "nothere", &v));
	}
}
END_TEST

/* A var of site s by name. */
static const struct dw_var *
var_named(struct dw_file *f, const struct dw_site *s, const char *name)
{
	char err[256];
	const struct dw_var *v;
	int n = dw_site_vars(f, s, &v, err, sizeof(err));

	for (int i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	ck_abort_msg("no variable %s", name);
	return NULL;
}

START_TEST(location_expressions)
{
	char err[256];
	struct dw_file *f = dw_open(obj, err, sizeof(err));
	struct found s = sites(obj, "pieces", NULL, 0, DW_SITE_FUNCTION);
	const struct dw_var *v;

	/* a 16-byte struct in rdi:rsi: two 8-byte register pieces */
	ck_assert_int_eq(s.n, 1);
	v = var_named(f, s.s[0], "p");
	ck_assert_int_eq(v->loc.kind, DW_LOC_PIECES);
	ck_assert_int_eq(v->loc.size, 16);
	ck_assert_int_eq(v->loc.npieces, 2);
	ck_assert_str_eq(v->loc.pieces[0].expr, "(uint64_t)__r->di");
	ck_assert_int_eq(v->loc.pieces[1].offset, 8);
	ck_assert_str_eq(v->loc.pieces[1].expr, "(uint64_t)__r->si");
	/* next = slot + 1, slot on the stack: a load in the expression */
	s = sites(obj, "deref", "fix.c", DEREF_LINE, DW_SITE_STATEMENT);
	ck_assert_int_eq(s.n, 1);
	v = var_named(f, s.s[0], "next");
	ck_assert_int_eq(v->loc.kind, DW_LOC_EXPR);
	ck_assert(v->loc.is_value);
	ck_assert_msg(strstr(v->loc.expr, "tap_loc_load(c, ") &&
		      strstr(v->loc.expr, ", 4, &__lf) + 0x1ULL)"), "%s",
		      v->loc.expr);
	/* seed is dead after the first call: only its entry value is
	 * known, which is not read away from the entry */
	v = var_named(f, s.s[0], "seed");
	ck_assert_int_eq(v->loc.kind, DW_LOC_UNAVAILABLE);
	ck_assert_msg(strstr(v->loc.why, "DW_OP_entry_value"), "%s", v->loc.why);
}
END_TEST

START_TEST(missing_file)
{
	char err[256];

	ck_assert_ptr_null(dw_open("/nonexistent/x.ko", err, sizeof(err)));
	ck_assert(strstr(err, "/nonexistent/x.ko") != NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dwarf");
	TCase *tc = tcase_create("fixture");
	SRunner *sr;
	int failed;

	setup();
	tcase_add_test(tc, function_after_prologue);
	tcase_add_test(tc, inline_instances_and_statement);
	tcase_add_test(tc, parameters_and_types);
	tcase_add_test(tc, executable_addresses);
	tcase_add_test(tc, statics_as_symbols);
	tcase_add_test(tc, location_expressions);
	tcase_add_test(tc, missing_file);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	teardown();
	return failed ? 1 : 0;
}
