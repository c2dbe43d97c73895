/* test_cfi.c -- Check tests for the unwind rules tapc reads from a user
 * file's call frame information (translator/debuginfo/cfi.c).  This test
 * program carries its own functions written in assembly with known CFI
 * (a frame-pointer prologue, stack realignment's *(rbp - 8), GNU ld's PLT
 * expression, a register saved by expression, the end of the stack, and
 * code with no CFI at all), reads its own file and checks the rule at
 * each instruction; then the C library's, when it is where Debian puts it,
 * and a program whose CFI is only in .debug_frame of a separate debug file
 * found by its .gnu_debuglink (made here with cc and objcopy; skipped
 * without them).
 */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/common/arena.h"
#include "translator/debuginfo/cfi.h"
#include "translator/debuginfo/elf_syms.h"

/* Offsets in the comments: each instruction's size, so the tests can
 * name addresses.  Never called. */
__asm__(
	".text\n"
	".globl tcfi_frame\n.type tcfi_frame, @function\n"
	"tcfi_frame:\n"
	".cfi_startproc\n"
	"	push %rbp\n"			/* +0, 1 byte */
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"	mov %rsp, %rbp\n"		/* +1, 3 bytes */
	".cfi_def_cfa_register %rbp\n"
	"	nop\n"				/* +4 */
	"	pop %rbp\n"			/* +5 */
	".cfi_def_cfa %rsp, 8\n"
	".cfi_restore %rbp\n"
	"	ret\n"				/* +6 */
	".cfi_endproc\n"
	".size tcfi_frame, .-tcfi_frame\n"
	/* no CFI: more than padding long */
	".globl tcfi_bare\n.type tcfi_bare, @function\n"
	"tcfi_bare:\n"
	"	.fill 40, 1, 0x90\n"
	"	ret\n"
	".size tcfi_bare, .-tcfi_bare\n"
	".globl tcfi_expr\n.type tcfi_expr, @function\n"
	"tcfi_expr:\n"
	".cfi_startproc\n"
	"	nop\n"				/* +0 */
	/* DW_CFA_def_cfa_expression: DW_OP_breg6 -8; DW_OP_deref */
	".cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06\n"
	/* DW_CFA_expression rbp: DW_OP_breg6 0 */
	".cfi_escape 0x10, 0x06, 0x02, 0x76, 0x00\n"
	"	nop\n"				/* +1 */
	/* the PLT's: breg7 8; breg16 0; lit15; and; lit11; ge; lit3;
	 * shl; plus */
	".cfi_escape 0x0f, 0x0b, 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22\n"
	"	nop\n"				/* +2 */
	".cfi_undefined %rip\n"
	"	nop\n"				/* +3 */
	/* an expression cfi.c does not know: DW_OP_breg7 0; DW_OP_dup;
	 * DW_OP_plus */
	".cfi_escape 0x0f, 0x04, 0x77, 0x00, 0x12, 0x22\n"
	"	ret\n"				/* +4 */
	".cfi_endproc\n"
	".size tcfi_expr, .-tcfi_expr\n");

static struct arena *a;
static struct cfi_table *self;
static struct elf_image *self_image;

static void
setup(void)
{
	char path[PATH_MAX], err[512];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	a = arena_new();
	ck_assert(n > 0);
	path[n] = '\0';
	self_image = elf_image_load(a, path, err, sizeof(err));
	ck_assert_msg(self_image != NULL, "%s", err);
	self = cfi_table_build(a, path, err, sizeof(err));
	ck_assert_msg(self != NULL, "%s", err);
}

static void
teardown(void)
{
	arena_destroy(a);
}

/* The rule at symbol + off in this program. */
static const struct cfi_rule *
at(const char *symbol, uint64_t off)
{
	const struct elf_sym *s = elf_find_func(self_image, symbol);

	ck_assert_msg(s != NULL, "no symbol %s", symbol);
	return cfi_rule_at(self, s->addr + off);
}

static void
check_cfa(const struct cfi_rule *r, int kind, int reg, int64_t off)
{
	ck_assert(r != NULL);
	ck_assert_int_eq(r->cfa_kind, kind);
	ck_assert_int_eq(r->cfa_reg, reg);
	ck_assert_int_eq(r->cfa_off, off);
}

static void
check_reg(const struct cfi_reg_rule *r, int kind, int reg, int64_t off)
{
	ck_assert_int_eq(r->kind, kind);
	if (kind != CFI_REG_SAME && kind != CFI_REG_UNDEF &&
	    kind != CFI_REG_UNKNOWN) {
		ck_assert_int_eq(r->reg, reg);
		ck_assert_int_eq(r->off, off);
	}
}

START_TEST(frame_pointer_prologue)
{
	const struct cfi_rule *r;

	r = at("tcfi_frame", 0);	/* entry: the return address on top */
	check_cfa(r, CFI_CFA_REG, CFI_X86_RSP, 8);
	check_reg(&r->ra, CFI_REG_AT_CFA, 0, -8);
	check_reg(&r->sp, CFI_REG_VAL_CFA, 0, 0);
	check_reg(&r->bp, CFI_REG_SAME, 0, 0);
	r = at("tcfi_frame", 1);	/* after push %rbp */
	check_cfa(r, CFI_CFA_REG, CFI_X86_RSP, 16);
	check_reg(&r->bp, CFI_REG_AT_CFA, 0, -16);
	r = at("tcfi_frame", 4);	/* the body: CFA from rbp */
	check_cfa(r, CFI_CFA_REG, CFI_X86_RBP, 16);
	check_reg(&r->bp, CFI_REG_AT_CFA, 0, -16);
	check_reg(&r->ra, CFI_REG_AT_CFA, 0, -8);
	r = at("tcfi_frame", 6);	/* after pop %rbp */
	check_cfa(r, CFI_CFA_REG, CFI_X86_RSP, 8);
	check_reg(&r->bp, CFI_REG_SAME, 0, 0);
}
END_TEST

START_TEST(no_cfi)
{
	ck_assert(at("tcfi_bare", 0) == NULL);
	ck_assert(at("tcfi_bare", 20) == NULL);
	ck_assert(at("tcfi_bare", 40) == NULL);
}
END_TEST

START_TEST(expressions)
{
	const struct cfi_rule *r;

	r = at("tcfi_expr", 1);		/* stack realignment (DRAP) */
	check_cfa(r, CFI_CFA_DEREF, CFI_X86_RBP, -8);
	check_reg(&r->bp, CFI_REG_AT_REG, CFI_X86_RBP, 0);
	r = at("tcfi_expr", 2);		/* a PLT entry */
	check_cfa(r, CFI_CFA_PLT, 11, 8);
	r = at("tcfi_expr", 3);		/* the outermost frame */
	ck_assert(r != NULL);
	check_reg(&r->ra, CFI_REG_UNDEF, 0, 0);
	r = at("tcfi_expr", 4);		/* not understood: unknown, not wrong */
	ck_assert(r != NULL);
	ck_assert_int_eq(r->cfa_kind, CFI_CFA_UNKNOWN);
}
END_TEST

START_TEST(merged_and_sorted)
{
	for (size_t i = 1; i < self->nrows; i++) {
		ck_assert(self->rows[i - 1].start < self->rows[i].start);
		ck_assert(self->rows[i - 1].rule != self->rows[i].rule ||
			  self->rows[i].rule < 0);
	}
	ck_assert_int_eq(self->rows[self->nrows - 1].rule, -1);
	ck_assert(self->n_eh_fdes > 0);
}
END_TEST

/* Debian's libc: stripped, with its .eh_frame; qsort_r starts like any
 * function.  Skipped elsewhere. */
START_TEST(libc)
{
	static const char path[] = "/lib/x86_64-linux-gnu/libc.so.6";
	char err[512];
	struct elf_image *im;
	struct cfi_table *t;
	const struct elf_sym *s;
	const struct cfi_rule *r;

	if (access(path, R_OK) != 0)
		return;
	im = elf_image_load(a, path, err, sizeof(err));
	t = cfi_table_build(a, path, err, sizeof(err));
	ck_assert_msg(im && t, "%s", err);
	ck_assert(t->n_eh_fdes > 1000);
	s = elf_find_func(im, "qsort_r");
	ck_assert(s != NULL);
	r = cfi_rule_at(t, s->addr);
	check_cfa(r, CFI_CFA_REG, CFI_X86_RSP, 8);
	check_reg(&r->ra, CFI_REG_AT_CFA, 0, -8);
}
END_TEST

/* A program built with its CFI in .debug_frame only, the debug sections
 * then moved to prog.debug beside it (objcopy --only-keep-debug, strip
 * --strip-debug, --add-gnu-debuglink).  Skipped without the tools. */
START_TEST(separate_debug_file)
{
	char dir[] = "/tmp/test_cfi.XXXXXX", cmd[1024], path[256], err[512];
	struct cfi_table *t;
	struct elf_image *im;
	const struct elf_sym *s;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/leaf.c", dir);
	f = fopen(path, "w");
	ck_assert(f != NULL);
	fputs("__attribute__((noipa)) long leaf(long x) { volatile long v[4] = { x }; return v[0] + 1; }\n"
	      "int main(void) { return (int)leaf(1) - 2; }\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cc -O2 -g -fomit-frame-pointer -fno-asynchronous-unwind-tables -o prog leaf.c 2>/dev/null && "
		 "objcopy --only-keep-debug prog prog.debug && strip --strip-debug prog && "
		 "objcopy --add-gnu-debuglink=prog.debug prog", dir);
	if (system(cmd) != 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		(void)system(cmd);
		return;	/* no cc or binutils here */
	}
	snprintf(path, sizeof(path), "%s/prog", dir);
	t = cfi_table_build(a, path, err, sizeof(err));
	im = elf_image_load(a, path, err, sizeof(err));
	ck_assert_msg(t && im, "%s", err);
	ck_assert(t->n_debug_fdes > 0);
	ck_assert(t->debug_file && strstr(t->debug_file, "/prog.debug"));
	s = elf_find_func(im, "leaf");
	ck_assert(s != NULL);
	check_cfa(cfi_rule_at(t, s->addr), CFI_CFA_REG, CFI_X86_RSP, 8);
	check_reg(&cfi_rule_at(t, s->addr)->ra, CFI_REG_AT_CFA, 0, -8);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
}
END_TEST

static Suite *
cfi_suite(void)
{
	Suite *s = suite_create("cfi");
	TCase *tc = tcase_create("rules");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, frame_pointer_prologue);
	tcase_add_test(tc, no_cfi);
	tcase_add_test(tc, expressions);
	tcase_add_test(tc, merged_and_sorted);
	tcase_add_test(tc, libc);
	tcase_add_test(tc, separate_debug_file);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cfi_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
