/* test_usym.c -- Check tests for what user-space probes read from ELF
 * files (translator/debuginfo/elf_syms.c, sdt.c): SDT operand strings as
 * gcc writes them, and a small program compiled here with SDT markers:
 * its functions by name and by address (aliases named the readable way),
 * link-time addresses to file offsets, and its .note.stapsdt markers with
 * their operands; the PLT stubs of programs linked three ways, checked
 * against objdump's names for them (elf_plt.c); an i386 file's notes and
 * symbols.  The program parts are
 * skipped without cc, objdump or <sys/sdt.h>.
 */
#define _GNU_SOURCE	/* asprintf */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/elf_syms.h"
#include "translator/debuginfo/sdt.h"

static struct arena *a;

static void
setup(void)
{
	a = arena_new();
}

static void
teardown(void)
{
	arena_destroy(a);
}

START_TEST(arg_register)
{
	struct sdt_arg x;

	ck_assert(sdt_parse_arg(a, "-4@%eax", &x));
	ck_assert_int_eq(x.kind, SDT_ARG_REG);
	ck_assert_int_eq(x.size, 4);
	ck_assert(x.is_signed);
	ck_assert_str_eq(x.reg, "ax");
	ck_assert_int_eq(x.reg_size, 4);
	ck_assert(sdt_parse_arg(a, "8@%r12", &x));
	ck_assert_str_eq(x.reg, "r12");
	ck_assert(!x.is_signed);
	ck_assert(sdt_parse_arg(a, "1@%sil", &x));
	ck_assert_str_eq(x.reg, "si");
	ck_assert(!sdt_parse_arg(a, "4@%xmm0", &x));
}
END_TEST

START_TEST(arg_memory)
{
	struct sdt_arg x;

	ck_assert(sdt_parse_arg(a, "8@-16(%rbp)", &x));
	ck_assert_int_eq(x.kind, SDT_ARG_MEM);
	ck_assert_str_eq(x.base, "bp");
	ck_assert_int_eq(x.disp, -16);
	ck_assert(x.index == NULL && x.symbol == NULL);
	ck_assert(sdt_parse_arg(a, "-4@8(%rax,%rbx,4)", &x));
	ck_assert_str_eq(x.base, "ax");
	ck_assert_str_eq(x.index, "bx");
	ck_assert_int_eq(x.scale, 4);
	ck_assert(sdt_parse_arg(a, "4@counter+8(%rip)", &x));
	ck_assert_str_eq(x.symbol, "counter");
	ck_assert_str_eq(x.base, "ip");
	ck_assert_int_eq(x.disp, 8);
	ck_assert(!sdt_parse_arg(a, "4@(%rax", &x));
}
END_TEST

START_TEST(arg_constant)
{
	struct sdt_arg x;

	ck_assert(sdt_parse_arg(a, "-2@$-2", &x));
	ck_assert_int_eq(x.kind, SDT_ARG_IMM);
	ck_assert_int_eq(x.value, -2);
	ck_assert_int_eq(x.size, 2);
	ck_assert(!sdt_parse_arg(a, "3@$1", &x));	/* no 3-byte values */
}
END_TEST

static const char fixture[] =
	"#include <stdlib.h>\n"
	"#include <sys/sdt.h>\n"
	"long counter = 7;\n"
	"__attribute__((noinline)) int twice(int x) { STAP_PROBE1(fix, in_twice, x); return 2 * x; }\n"
	"int main(int argc, char **argv) { (void)argv; STAP_PROBE2(fix, start, argc, counter); return twice(argc) - 2; }\n";

/* The fixture program built in a fresh directory, or NULL (skip). */
static char *
build_fixture(void)
{
	static char dir[] = "/tmp/tapc-test-usym-XXXXXX";
	char *src, *exe, *cmd;
	FILE *f;

	if (!mkdtemp(dir) || asprintf(&src, "%s/fix.c", dir) < 0 ||
	    asprintf(&exe, "%s/fix", dir) < 0)
		return NULL;
	f = fopen(src, "w");
	fputs(fixture, f);
	fclose(f);
	if (asprintf(&cmd, "cc -O1 -o %s %s 2>/dev/null", exe, src) < 0 ||
	    system(cmd) != 0)
		return NULL;
	return exe;
}

START_TEST(program)
{
	char err[256], *exe = build_fixture();
	struct elf_image *im;
	const struct elf_sym *s;
	struct sdt_probe *p;
	size_t n;
	uint64_t off;

	if (!exe) {
		printf("SKIP: test_usym: no cc or <sys/sdt.h> for the fixture\n");
		return;
	}
	im = elf_image_load(a, exe, err, sizeof(err));
	ck_assert_msg(im != NULL, "%s", err);
	s = elf_find_func(im, "twice");
	ck_assert(s != NULL);
	ck_assert(elf_func_at(im, s->addr + 1) == s);
	ck_assert(elf_addr_to_offset(im, s->addr, &off));
	ck_assert(elf_find_object(im, "counter") != NULL);
	p = sdt_probes(a, im, &n);
	ck_assert_int_eq(n, 2);
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(p[i].provider, "fix");
		ck_assert(p[i].bad_arg == NULL);
		ck_assert(elf_addr_to_offset(im, p[i].pc, &off));
		if (!strcmp(p[i].name, "in_twice")) {
			ck_assert_int_eq(p[i].nargs, 1);
			ck_assert(p[i].pc >= s->addr && p[i].pc < s->addr + s->size);
		} else {
			ck_assert_str_eq(p[i].name, "start");
			ck_assert_int_eq(p[i].nargs, 2);
		}
	}
	/* libc's malloc is named malloc, not __libc_malloc */
	im = elf_image_load(a, "/lib/x86_64-linux-gnu/libc.so.6", err,
			    sizeof(err));
	if (im && (s = elf_find_func(im, "malloc")))
		ck_assert_str_eq(elf_func_at(im, s->addr)->name, "malloc");
}
END_TEST

/* An i386 file's notes hold 4-byte addresses: one note written by hand
 * (this host may have no i386 program with markers), then the i386 libc
 * when the host has one, as process("/lib*\/libc.so.6") finds it. */
START_TEST(i386_image)
{
	static const char strs[] = "prov\0mk\0-4@%eax 4@8(%esp)";
	unsigned char note[12 + 8 + 12 + sizeof(strs) + 3] = { 0 };
	uint32_t namesz = 8, descsz = 12 + sizeof(strs), type = 3;
	uint32_t pc = 0x1234, base = 0, sem = 0x2000;
	struct elf_image fake = { .is_i386 = true };
	struct sdt_probe *p;
	const struct elf_sym *s;
	struct elf_image *im;
	char err[256];
	size_t n;

	memcpy(note, &namesz, 4);
	memcpy(note + 4, &descsz, 4);
	memcpy(note + 8, &type, 4);
	memcpy(note + 12, "stapsdt", 8);
	memcpy(note + 20, &pc, 4);
	memcpy(note + 24, &base, 4);
	memcpy(note + 28, &sem, 4);
	memcpy(note + 32, strs, sizeof(strs));
	fake.sdt_notes = note;
	fake.sdt_notes_size = sizeof(note);
	p = sdt_probes(a, &fake, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(p[0].provider, "prov");
	ck_assert_str_eq(p[0].name, "mk");
	ck_assert_uint_eq(p[0].pc, 0x1234);
	ck_assert_uint_eq(p[0].semaphore, 0x2000);
	ck_assert_int_eq(p[0].nargs, 2);
	ck_assert(p[0].bad_arg == NULL);

	im = elf_image_load(a, "/usr/lib32/libc.so.6", err, sizeof(err));
	if (access("/usr/lib32/libc.so.6", R_OK) != 0)
		return;
	ck_assert_msg(im != NULL, "%s", err);
	ck_assert(im->is_i386);
	ck_assert_int_eq(im->nplt, 0);
	s = elf_find_func(im, "free");
	ck_assert(s != NULL && s->addr < 0x100000000ull);
	ck_assert(elf_addr_to_offset(im, s->addr, &(uint64_t){ 0 }));
}
END_TEST

/* getpid, strlen and getppid are called through .plt (or .plt.sec);
 * in a PIE the C runtime's __cxa_finalize through .plt.got (its GOT
 * slot has a GLOB_DAT relocation, not a JUMP_SLOT one). */
static const char plt_fixture[] =
	"#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
	"pid_t (*volatile fp)(void) = getppid;\n"
	"int main(int argc, char **argv) { (void)argc; return getpid() + (int)strlen(argv[0]) + getppid() + fp(); }\n";

/* Every stub objdump names NAME@plt is one elf_plt.c found, at the same
 * address, and getpid, strlen and getppid all have one. */
static void
check_plt(const char *flags)
{
	static int seq;
	char dir[] = "/tmp/tapc-test-plt-XXXXXX", err[256], line[512];
	char *src, *exe, *cmd, *names;
	struct elf_image *im;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	ck_assert(asprintf(&src, "%s/plt%d.c", dir, seq) >= 0);
	ck_assert(asprintf(&exe, "%s/plt%d", dir, seq++) >= 0);
	f = fopen(src, "w");
	fputs(plt_fixture, f);
	fclose(f);
	if (asprintf(&cmd, "cc -O0 %s -o %s %s 2>/dev/null", flags, exe, src) < 0 ||
	    system(cmd) != 0) {
		printf("SKIP: test_usym: cc %s failed\n", flags);
		return;
	}
	im = elf_image_load(a, exe, err, sizeof(err));
	ck_assert_msg(im != NULL, "%s", err);
	names = calloc(1, 1);
	for (size_t i = 0; i < im->nplt; i++) {
		char *more;
		ck_assert(asprintf(&more, "%s %016llx <%s@plt>:", names,
				   (unsigned long long)im->plt[i].addr,
				   im->plt[i].name) >= 0);
		free(names);
		names = more;
	}
	ck_assert_msg(strstr(names, "<getpid@plt>") && strstr(names, "<strlen@plt>") &&
		      strstr(names, "<getppid@plt>"), "%s: stubs %s", flags, names);
	ck_assert(asprintf(&cmd, "objdump -d %s 2>/dev/null", exe) >= 0);
	f = popen(cmd, "r");
	if (!f)
		return;
	/* objdump's "ADDR <NAME@plt>:" lines must each be among ours */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "@plt>:") && line[0] != ' ' && !strstr(line, "-0x"))
			ck_assert_msg(strstr(names, line), "%s: objdump has '%s', tapc %s",
				      flags, line, names);
	}
	pclose(f);
}

START_TEST(plt_stubs)
{
	if (system("command -v cc >/dev/null && command -v objdump >/dev/null") != 0) {
		printf("SKIP: test_usym: no cc or objdump for the PLT fixtures\n");
		return;
	}
	check_plt("");				/* lazy binding: .plt */
	check_plt("-Wl,-z,now");		/* bound at load: still .plt */
	check_plt("-fcf-protection=full -Wl,-z,ibtplt");	/* .plt.sec */
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("usym");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, arg_register);
	tcase_add_test(tc, arg_memory);
	tcase_add_test(tc, arg_constant);
	tcase_add_test(tc, program);
	tcase_add_test(tc, plt_stubs);
	tcase_add_test(tc, i386_image);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
