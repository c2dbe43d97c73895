/*
 * test_target_btf.c -- Check tests of tvar_access.c and of the BTF walker
 * (tvar_btf.c) on a small BTF blob built here: how a $var->member path
 * becomes base + steps + result (offsets, dereferences, bitfields, char
 * arrays, '&'), and the diagnostics for a wrong path.  The descriptions
 * compared are ta_describe()'s.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/sema/elab.h"
#include "translator/sema/tvar_btf.h"

/* ---- a BTF blob: header, types, strings ---- */

struct mini_btf {
	uint32_t types[256];
	int ntypes;
	char strs[512];
	int nstrs;
};

static uint32_t
str_of(struct mini_btf *m, const char *s)
{
	uint32_t off = (uint32_t)m->nstrs;

	if (!*s)
		return 0;
	strcpy(m->strs + m->nstrs, s);
	m->nstrs += (int)strlen(s) + 1;
	return off;
}

static void
word(struct mini_btf *m, uint32_t w)
{
	m->types[m->ntypes++] = w;
}

static void
type_head(struct mini_btf *m, const char *name, unsigned kind, unsigned vlen,
	  bool kflag, uint32_t size_or_type)
{
	word(m, str_of(m, name));
	word(m, (kflag ? 1u << 31 : 0) | kind << 24 | vlen);
	word(m, size_or_type);
}

static void
member(struct mini_btf *m, const char *name, uint32_t type, uint32_t bit_off,
       uint32_t bits)
{
	word(m, str_of(m, name));
	word(m, type);
	word(m, bits << 24 | bit_off);
}

/*
 * 1 int, 2 long long, 3 char, 4 unsigned int, 5 char[8],
 * 6 struct inner { int a; char name[8]; }                     (12 bytes)
 * 7 struct outer { long long x; struct inner in; unsigned f:3;
 *                  unsigned g:6; struct outer *next; }        (40 bytes)
 * 8 struct outer *, 9 int[4]
 */
static struct btf *
build(void)
{
	struct mini_btf m = { .nstrs = 1 };
	unsigned char blob[4096];
	char err[BTF_ERRLEN];

	type_head(&m, "int", BTF_KIND_INT, 0, false, 4);
	word(&m, 1u << 24 | 32);			/* signed */
	type_head(&m, "long long", BTF_KIND_INT, 0, false, 8);
	word(&m, 1u << 24 | 64);
	type_head(&m, "char", BTF_KIND_INT, 0, false, 1);
	word(&m, 1u << 24 | 8);
	type_head(&m, "unsigned int", BTF_KIND_INT, 0, false, 4);
	word(&m, 32);
	type_head(&m, "", BTF_KIND_ARRAY, 0, false, 0);
	word(&m, 3); word(&m, 1); word(&m, 8);
	type_head(&m, "inner", BTF_KIND_STRUCT, 2, false, 12);
	member(&m, "a", 1, 0, 0);
	member(&m, "name", 5, 32, 0);
	type_head(&m, "outer", BTF_KIND_STRUCT, 5, true, 40);
	member(&m, "x", 2, 0, 0);
	member(&m, "in", 6, 64, 0);
	member(&m, "f", 4, 160, 3);
	member(&m, "g", 4, 163, 6);
	member(&m, "next", 8, 256, 0);
	type_head(&m, "", BTF_KIND_PTR, 0, false, 7);
	type_head(&m, "", BTF_KIND_ARRAY, 0, false, 0);
	word(&m, 1); word(&m, 1); word(&m, 4);

	uint32_t tlen = (uint32_t)m.ntypes * 4, slen = (uint32_t)m.nstrs;
	uint32_t hdr[6] = { 0x0001eB9F, 24, 0, tlen, tlen, slen };
	memcpy(blob, hdr, sizeof(hdr));
	memcpy(blob + 24, m.types, tlen);
	memcpy(blob + 24 + tlen, m.strs, slen);
	struct btf *btf = btf_load_mem(blob, 24 + tlen + slen, err, sizeof(err));
	ck_assert_msg(btf, "%s", err);
	return btf;
}

/* ---- walking ---- */

struct run {
	struct session s;
	struct elab e;
	struct btf *btf;
	char *err;
	size_t err_len;
	FILE *errf;
};

static void
run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->s.arena = arena_new();
	r->errf = open_memstream(&r->err, &r->err_len);
	diag_init(&r->s.diag, r->errf);
	r->e.s = &r->s;
	r->btf = build();
}

static void
run_done(struct run *r)
{
	fclose(r->errf);
	free(r->err);
	btf_free(r->btf);
	arena_destroy(r->s.arena);
}

/* "->a->b[2]" or "&->x" or "->in$": a path of members and constant
 * indexes, then the description of what $p (an argument of type `type`)
 * reaches, or NULL after an error. */
static const char *
walk(struct run *r, uint32_t type, const char *spec)
{
	struct target_path path = { 0 };
	const char *p = spec;

	if (*p == '&') {
		path.addr_of = true;
		p++;
	}
	while (*p == '-' || *p == '[') {
		struct target_step st = { 0 };
		if (*p == '-') {
			size_t n = strcspn(p + 2, "-[$");
			st.kind = STEP_MEMBER;
			st.member = arena_strndup(r->s.arena, p + 2, n);
			p += 2 + n;
		} else {
			st.kind = STEP_INDEX;
			st.index = ast_new(r->s.arena, N_NUMBER, (struct loc){ 0 });
			st.index->u.number.value = strtoull(p + 1, (char **)&p, 10);
			p++;	/* ] */
		}
		ast_path_push(r->s.arena, &path, st);
	}
	while (*p == '$') {
		path.pretty++;
		p++;
	}
	struct ta_access *base = ta_new(r->s.arena, (struct ta_base){
		.kind = TA_BASE_ARG, .index = 0 });
	tbtf_set_scalar_result(r->btf, type, base);
	struct ta_access *t = tbtf_walk(&r->e, r->btf, type, base, &path, "$p",
					(struct loc){ 0 });
	fflush(r->errf);
	return t ? ta_describe(r->s.arena, t) : NULL;
}

START_TEST(test_members)
{
	struct run r;

	run_init(&r);
	ck_assert_str_eq(walk(&r, 8, ""), "arg0 -> u64");
	ck_assert_str_eq(walk(&r, 8, "->x"), "arg0 deref -> s64");
	ck_assert_str_eq(walk(&r, 8, "->in->a"), "arg0 deref +8 -> s32");
	/* a char array is its address, as in SystemTap */
	ck_assert_str_eq(walk(&r, 8, "->in->name"),
			 "arg0 deref +12 -> address");
	ck_assert_str_eq(walk(&r, 8, "->in->name[3]"),
			 "arg0 deref +15 -> s8");
	ck_assert_str_eq(walk(&r, 8, "->next->next->in->a"),
			 "arg0 deref +32 deref +32 deref +8 -> s32");
	ck_assert_str_eq(walk(&r, 8, "&->in->a"),
			 "arg0 deref +8 -> address");
	ck_assert_str_eq(walk(&r, 8, "[1]->x"), "arg0 deref +40 -> s64");
	ck_assert_str_eq(walk(&r, 2, ""), "arg0 -> s64");
	ck_assert_uint_eq(r.s.diag.errors, 0);
	run_done(&r);
}
END_TEST

START_TEST(test_bitfields)
{
	struct run r;

	run_init(&r);
	/* f: bits 160..162, g: bits 163..168, so g spans two bytes */
	ck_assert_str_eq(walk(&r, 8, "->f"), "arg0 deref +20 -> u8:3@0");
	ck_assert_str_eq(walk(&r, 8, "->g"), "arg0 deref +20 -> u16:6@3");
	ck_assert_ptr_null(walk(&r, 8, "&->g"));
	ck_assert_ptr_nonnull(strstr(r.err, "E_TARGET_ADDR"));
	run_done(&r);
}
END_TEST

START_TEST(test_errors)
{
	struct run r;

	run_init(&r);
	ck_assert_ptr_null(walk(&r, 8, "->nxt"));
	ck_assert_ptr_nonnull(strstr(r.err, "'$p' (struct outer) has no member 'nxt'"));
	ck_assert_ptr_nonnull(strstr(r.err, "did you mean 'next'"));
	ck_assert_ptr_null(walk(&r, 8, "->x->y"));
	ck_assert_ptr_nonnull(strstr(r.err, "not a struct or union"));
	ck_assert_ptr_null(walk(&r, 8, "->in"));
	ck_assert_ptr_nonnull(strstr(r.err, "'$p->in' has type 'struct inner'"));
	ck_assert_ptr_null(walk(&r, 8, "->in->name[8]"));
	ck_assert_ptr_nonnull(strstr(r.err, "index 8 is out of bounds"));
	ck_assert_ptr_null(walk(&r, 8, "&"));
	ck_assert_ptr_nonnull(strstr(r.err, "its value is not in memory"));
	ck_assert_uint_eq(r.s.diag.errors, 5);
	run_done(&r);
}
END_TEST

/* Pretty printing: pieces of text and values, as SystemTap formats them. */
static const char *
pieces(struct run *r, const struct ta_pretty *p)
{
	const char *s = "";

	for (int i = 0; i < p->npieces; i++) {
		const struct ta_piece *pc = &p->pieces[i];
		if (pc->text)
			s = arena_printf(r->s.arena, "%s%s", s, pc->text);
		if (pc->value)
			s = arena_printf(r->s.arena, "%s<%d:%s>", s, pc->fmt,
					 pc->fmt == TA_FMT_STRUCT_PTR ?
					 pieces(r, pc->inner) :
					 ta_describe(r->s.arena, pc->value));
	}
	return s;
}

START_TEST(test_pretty)
{
	struct run r;
	struct target_path path = { .pretty = 1 };

	run_init(&r);
	struct ta_access *base = ta_new(r.s.arena, (struct ta_base){
		.kind = TA_BASE_ARG, .index = 0 });
	struct ta_access *t = tbtf_walk(&r.e, r.btf, 8, base, &path, "$p",
					(struct loc){ 0 });
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->result.kind, TA_RES_PRETTY);
	ck_assert_str_eq(pieces(&r, t->result.pretty),
		"<4:{.x=<0:arg0 deref -> s64>, .in={...}, "
		".f=<0:arg0 deref +20 -> u8:3@0>, .g=<0:arg0 deref +20 -> u16:6@3>, "
		".next=<1:arg0 deref +32 -> u64>}>");

	/* $p->in$: a char array, whose value is its address, prints as
	 * its text in quotes */
	struct target_path in = { .pretty = 1 };
	ast_path_push(r.s.arena, &in, (struct target_step){
		.kind = STEP_MEMBER, .member = "in" });
	t = tbtf_walk(&r.e, r.btf, 8, base, &in, "$p", (struct loc){ 0 });
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(pieces(&r, t->result.pretty),
		"{.a=<0:arg0 deref +8 -> s32>, .name=<2:arg0 deref +12 -> string[8]>}");
	run_done(&r);
}
END_TEST

START_TEST(test_builder)
{
	struct arena *a = arena_new();
	struct ta_access *t = ta_new(a, (struct ta_base){ .kind = TA_BASE_SLOT,
							   .index = 2 });

	ta_push_add(a, t, 8);		/* adjacent ADDs merge */
	ta_push_add(a, t, 4);
	ta_push_add(a, t, 0);		/* and +0 is no step */
	ck_assert_int_eq(t->nsteps, 1);
	ck_assert(!ta_in_memory(t));
	ta_push_deref(a, t);
	ck_assert(ta_in_memory(t));
	struct ta_access *c = ta_copy(a, t);
	ta_push_add(a, c, 16);
	ck_assert_int_eq(t->nsteps, 2);
	ck_assert_str_eq(ta_describe(a, c), "slot2 +12 deref +16 -> u64");
	arena_destroy(a);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("target_btf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_builder);
	tcase_add_test(tc, test_members);
	tcase_add_test(tc, test_bitfields);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_pretty);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
