/* test_btf.c -- Check tests for the BTF reader (translator/debuginfo/btf*).
 *
 * Two kinds of test.  A small BTF blob assembled here exercises the format
 * corner by corner (bitfields, anonymous members, varargs, function
 * pointers, a pointer that points at itself) and is then truncated and
 * corrupted byte by byte: loading must fail cleanly or succeed, and every
 * query on what loads must terminate without a crash.  The real kernel
 * files installed here (/boot/vmlinuz-*, /sys/kernel/btf/vmlinux) check the
 * answers that providers depend on; those tests are skipped with a message
 * when no kernel is installed.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/zfile.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#ifndef TAPC_BUILDDIR
#define TAPC_BUILDDIR "."
#endif
#define TEST_CACHE TAPC_BUILDDIR "/testsuite/unit/btf-cache"

/* ---- a BTF blob built by hand ------------------------------------------- */

struct blob {
	uint32_t types[256];
	size_t ntypes;		/* words */
	char strs[512];
	size_t slen;
	uint32_t str_base;	/* split BTF: the base's string length */
};

static uint32_t
blob_str(struct blob *b, const char *s)
{
	uint32_t off = b->slen;

	if (!*s)
		return 0;
	strcpy(b->strs + b->slen, s);
	b->slen += strlen(s) + 1;
	return b->str_base + off;
}

static size_t
blob_finish(const struct blob *b, unsigned char *out)
{
	uint32_t hdr[6];

	hdr[0] = 0xeB9F | 1u << 16;	/* magic, version 1, flags 0 */
	hdr[1] = 24;			/* hdr_len */
	hdr[2] = 0;			/* type_off */
	hdr[3] = b->ntypes * 4;		/* type_len */
	hdr[4] = hdr[3];		/* str_off */
	hdr[5] = b->slen;		/* str_len */
	memcpy(out, hdr, 24);
	memcpy(out + 24, b->types, b->ntypes * 4);
	memcpy(out + 24 + b->ntypes * 4, b->strs, b->slen);
	return 24 + b->ntypes * 4 + b->slen;
}

static void
blob_word(struct blob *b, uint32_t w)
{
	b->types[b->ntypes++] = w;
}

static void
blob_type(struct blob *b, const char *name, unsigned kind, unsigned vlen,
	  bool kflag, uint32_t size_or_type)
{
	blob_word(b, blob_str(b, name));
	blob_word(b, (uint32_t)kflag << 31 | kind << 24 | vlen);
	blob_word(b, size_or_type);
}

static void
blob_member(struct blob *b, const char *name, uint32_t type, uint32_t off)
{
	blob_word(b, blob_str(b, name));
	blob_word(b, type);
	blob_word(b, off);
}

static void
blob_param(struct blob *b, const char *name, uint32_t type)
{
	blob_word(b, blob_str(b, name));
	blob_word(b, type);
}

/* Type ids as built below. */
enum { T_INT = 1, T_PINT, T_S, T_PROTO, T_F, T_SELFPTR, T_SELFCONST,
       T_ARR, T_TYPEDEF, T_FNPTR, T_ANON, T_OUTER, T_CHAR, T_CSTR, T_ENUM,
       T_F2, T_FWD, T_LAST = T_FWD };

static uint32_t sample_str_len;

static size_t
build_sample(unsigned char *out)
{
	struct blob b = { .slen = 1 };	/* offset 0 is the empty string */

	blob_type(&b, "int", BTF_KIND_INT, 0, false, 4);
	blob_word(&b, 1u << 24 | 32);			/* signed, 32 bits */
	blob_type(&b, "", BTF_KIND_PTR, 0, false, T_INT);
	blob_type(&b, "s", BTF_KIND_STRUCT, 2, true, 16);
	blob_member(&b, "a", T_INT, 3u << 24 | 5);	/* int a:3 at bit 5 */
	blob_member(&b, "p", T_PINT, 64);
	blob_type(&b, "", BTF_KIND_FUNC_PROTO, 2, false, T_INT);
	blob_param(&b, "x", T_INT);
	blob_param(&b, "", 0);				/* ... */
	blob_type(&b, "f", BTF_KIND_FUNC, 0, false, T_PROTO);
	blob_type(&b, "", BTF_KIND_PTR, 0, false, T_SELFPTR);
	blob_type(&b, "", BTF_KIND_CONST, 0, false, T_SELFCONST);
	blob_type(&b, "", BTF_KIND_ARRAY, 0, false, 0);
	blob_word(&b, T_INT);
	blob_word(&b, T_INT);
	blob_word(&b, 4);
	blob_type(&b, "myint", BTF_KIND_TYPEDEF, 0, false, T_INT);
	blob_type(&b, "", BTF_KIND_PTR, 0, false, T_PROTO);
	blob_type(&b, "", BTF_KIND_UNION, 1, false, 4);
	blob_member(&b, "inner", T_INT, 0);
	blob_type(&b, "outer", BTF_KIND_STRUCT, 2, false, 8);
	blob_member(&b, "x", T_INT, 0);
	blob_member(&b, "", T_ANON, 32);
	blob_type(&b, "char", BTF_KIND_INT, 0, false, 1);
	blob_word(&b, 2u << 24 | 8);
	blob_type(&b, "", BTF_KIND_PTR, 0, false, T_CHAR);
	blob_type(&b, "color", BTF_KIND_ENUM, 2, true, 4);
	blob_word(&b, blob_str(&b, "RED"));
	blob_word(&b, (uint32_t)-1);
	blob_word(&b, blob_str(&b, "BLUE"));
	blob_word(&b, 7);
	blob_type(&b, "f", BTF_KIND_FUNC, 0, false, T_PROTO);	/* a second static f */
	blob_type(&b, "fwdonly", BTF_KIND_FWD, 0, false, 0);	/* struct fwdonly; */
	sample_str_len = b.slen;
	return blob_finish(&b, out);
}

/* A module's split BTF on top of the sample: ids and strings continue. */
enum { M_STRUCT = T_LAST + 1, M_PTR, M_FUNC_PROTO, M_FUNC, M_DEF };

static size_t
build_split(unsigned char *out)
{
	struct blob b = { .slen = 1, .str_base = sample_str_len };

	blob_type(&b, "modstruct", BTF_KIND_STRUCT, 2, false, 16);
	blob_member(&b, "x", T_INT, 0);			/* base type */
	blob_member(&b, "", T_OUTER, 64);		/* anonymous */
	blob_type(&b, "", BTF_KIND_PTR, 0, false, M_STRUCT);
	blob_type(&b, "", BTF_KIND_FUNC_PROTO, 1, false, T_TYPEDEF);
	blob_param(&b, "m", M_PTR);
	blob_type(&b, "mod_fn", BTF_KIND_FUNC, 0, false, M_FUNC_PROTO);
	blob_type(&b, "fwdonly", BTF_KIND_STRUCT, 0, false, 0);	/* defined here */
	return blob_finish(&b, out);
}

static struct btf *sample;

static void
sample_setup(void)
{
	unsigned char buf[4096];
	size_t n = build_sample(buf);
	char err[BTF_ERRLEN];

	sample = btf_load_mem(buf, n, err, sizeof(err));
	ck_assert_msg(sample != NULL, "%s", err);
}

static void
sample_teardown(void)
{
	btf_free(sample);
	sample = NULL;
}

static const char *
render(const struct btf *btf, uint32_t id, const char *name)
{
	static char buf[512];

	btf_type_snprint(btf, id, name, buf, sizeof(buf));
	return buf;
}

START_TEST(sample_lookup)
{
	ck_assert_uint_eq(btf__type_cnt(sample), T_LAST + 1);
	ck_assert_uint_eq(btf_find(sample, "f", BTF_KIND_FUNC), T_F);
	ck_assert_uint_eq(btf_find(sample, "int", BTF_KIND_INT), T_INT);
	ck_assert_uint_eq(btf_find(sample, "int", BTF_KIND_STRUCT), BTF_NONE);
	ck_assert_uint_eq(btf_find(sample, "f", BTF_KIND_ANY), T_F);
	ck_assert_uint_eq(btf_find(sample, "nope", BTF_KIND_ANY), BTF_NONE);
	ck_assert_uint_eq(btf_resolve(sample, T_TYPEDEF), T_INT);
	ck_assert_str_eq(btf_name(sample, 9999), "");
	ck_assert_int_eq(btf_kind_of(sample, 9999), BTF_KIND_UNKN);
}
END_TEST

START_TEST(sample_render)
{
	ck_assert_str_eq(render(sample, T_PINT, NULL), "int *");
	ck_assert_str_eq(render(sample, T_PINT, "p"), "int *p");
	ck_assert_str_eq(render(sample, T_ARR, "arr"), "int arr[4]");
	ck_assert_str_eq(render(sample, T_FNPTR, "fp"), "int (*fp)(int x, ...)");
	ck_assert_str_eq(render(sample, T_S, NULL), "struct s");
	ck_assert_str_eq(render(sample, T_ANON, NULL), "union {...}");
	ck_assert_str_eq(render(sample, T_TYPEDEF, "v"), "myint v");
	ck_assert_str_eq(render(sample, T_ENUM, NULL), "enum color");
	ck_assert_str_eq(render(sample, 0, NULL), "void");
}
END_TEST

START_TEST(sample_func)
{
	char buf[256];
	struct btf_param_info p;

	btf_func_snprint(sample, T_F, buf, sizeof(buf));
	ck_assert_str_eq(buf, "int f(int x, ...)");
	ck_assert_int_eq(btf_param_count(sample, T_F), 1);
	ck_assert(btf_is_variadic(sample, T_F));
	ck_assert(btf_param_at(sample, T_F, 0, &p));
	ck_assert_str_eq(p.name, "x");
	ck_assert(!btf_param_at(sample, T_F, 1, &p));
	ck_assert_uint_eq(btf_return_type(sample, T_F), T_INT);
	ck_assert_uint_eq(btf_func_proto(sample, T_FNPTR), T_PROTO);
	ck_assert_int_eq(btf_param_count(sample, T_INT), -1);
}
END_TEST

START_TEST(sample_members)
{
	struct btf_member_info m;

	ck_assert_int_eq(btf_member_count(sample, T_S), 2);
	ck_assert(btf_member_find(sample, T_S, "a", &m));
	ck_assert_uint_eq(m.bit_offset, 5);
	ck_assert_uint_eq(m.bitfield_size, 3);
	ck_assert(btf_member_find(sample, T_S, "p", &m));
	ck_assert_uint_eq(m.bit_offset, 64);
	ck_assert_uint_eq(m.bitfield_size, 0);
	/* Through the anonymous union, offset accumulated. */
	ck_assert(btf_member_find(sample, T_OUTER, "inner", &m));
	ck_assert_uint_eq(m.bit_offset, 32);
	ck_assert(!btf_member_find(sample, T_OUTER, "missing", &m));
	ck_assert(!btf_member_find(sample, T_INT, "x", &m));
	ck_assert_int_eq(btf_sizeof(sample, T_S), 16);
	ck_assert_int_eq(btf_sizeof(sample, T_ARR), 16);
}
END_TEST

START_TEST(sample_ints_and_strings)
{
	struct btf_int_info ii;

	ck_assert(btf_int_info(sample, T_TYPEDEF, &ii));
	ck_assert(ii.is_signed);
	ck_assert_uint_eq(ii.size, 4);
	ck_assert(btf_is_string(sample, T_CSTR));
	ck_assert(!btf_is_string(sample, T_PINT));
	ck_assert(btf_is_pointer(sample, T_PINT));
	ck_assert(!btf_is_pointer(sample, T_INT));
	/* kflag: the enumerators are signed. */
	ck_assert(btf_int_info(sample, T_ENUM, &ii));
	ck_assert(ii.is_signed);
	ck_assert_uint_eq(ii.size, 4);
}
END_TEST

START_TEST(sample_cycles_terminate)
{
	ck_assert_uint_eq(btf_resolve(sample, T_SELFCONST), BTF_NONE);
	ck_assert_int_eq(btf_sizeof(sample, T_SELFCONST), -1);
	ck_assert_int_eq(btf_sizeof(sample, T_SELFPTR), 8);
	ck_assert(strchr(render(sample, T_SELFPTR, NULL), '?') != NULL);
	render(sample, T_SELFCONST, "x");
	ck_assert_uint_eq(btf_func_proto(sample, T_SELFPTR), BTF_NONE);
}
END_TEST

/* Every query on every id: what a provider might do with a bad file. */
static void
query_everything(const struct btf *btf)
{
	uint32_t id, n = btf__type_cnt(btf);
	char buf[256];

	for (id = 0; id <= n; id++) {
		struct btf_member_info m;
		struct btf_param_info p;
		struct btf_int_info ii;

		btf_type_snprint(btf, id, "x", buf, sizeof(buf));
		btf_func_snprint(btf, id, buf, sizeof(buf));
		btf_sizeof(btf, id);
		btf_int_info(btf, id, &ii);
		btf_is_string(btf, id);
		btf_member_find(btf, id, "inner", &m);
		btf_member_at(btf, id, 0, &m);
		btf_param_at(btf, id, 0, &p);
		btf_find(btf, btf_name(btf, id), BTF_KIND_ANY);
	}
}

START_TEST(truncated_blobs_fail_cleanly)
{
	unsigned char buf[4096];
	size_t n = build_sample(buf), len;
	char err[BTF_ERRLEN];

	for (len = 0; len < n; len++) {
		struct btf *btf = btf_load_mem(buf, len, err, sizeof(err));

		/* Cutting into the string section can still leave a valid
		 * blob only if the cut lands after a NUL; either way no
		 * crash, and a message on failure. */
		if (btf) {
			query_everything(btf);
			btf_free(btf);
		} else {
			ck_assert(err[0] != '\0');
		}
	}
}
END_TEST

START_TEST(corrupted_blobs_do_not_crash)
{
	static const unsigned char values[] = { 0x00, 0xff, 0x80, 0x01, 0x13 };
	unsigned char buf[4096], bad[4096];
	size_t n = build_sample(buf), pos, v, loaded = 0;
	char err[BTF_ERRLEN];

	for (pos = 0; pos < n; pos++) {
		for (v = 0; v < sizeof(values); v++) {
			struct btf *btf;

			memcpy(bad, buf, n);
			bad[pos] = values[v];
			if ((btf = btf_load_mem(bad, n, err, sizeof(err)))) {
				query_everything(btf);
				btf_free(btf);
				loaded++;
			}
		}
	}
	ck_assert(loaded > 0);	/* some corruptions are harmless */
}
END_TEST

START_TEST(split_btf)
{
	unsigned char buf[1024], bad[1024];
	size_t n = build_split(buf), pos;
	char err[BTF_ERRLEN], text[256];
	struct btf *mod;
	struct btf_member_info m;

	/* Without its base the blob's references dangle. */
	ck_assert_ptr_null(btf_load_mem(buf, n, err, sizeof(err)));
	mod = btf_load_split_mem(buf, n, sample, err, sizeof(err));
	ck_assert_msg(mod != NULL, "%s", err);
	ck_assert_ptr_eq(btf__base_btf(mod), sample);
	ck_assert_uint_eq(btf_first_id(mod), T_LAST + 1);
	ck_assert_uint_eq(btf__type_cnt(mod), M_DEF + 1);
	/* The base only declares it; the module defines it. */
	ck_assert_uint_eq(btf_find(sample, "fwdonly", BTF_KIND_ANY), T_FWD);
	ck_assert_uint_eq(btf_find(mod, "fwdonly", BTF_KIND_ANY), M_DEF);
	ck_assert_uint_eq(btf_find(mod, "fwdonly", BTF_KIND_FWD), T_FWD);
	ck_assert_uint_eq(btf_find(mod, "int", BTF_KIND_INT), T_INT);
	ck_assert_uint_eq(btf_find(mod, "modstruct", BTF_KIND_STRUCT), M_STRUCT);
	ck_assert_uint_eq(btf_find(sample, "modstruct", BTF_KIND_STRUCT), BTF_NONE);
	ck_assert_str_eq(btf_name(mod, T_TYPEDEF), "myint");
	ck_assert(btf_member_find(mod, M_STRUCT, "inner", &m));
	ck_assert_uint_eq(m.bit_offset, 64 + 32);
	btf_func_snprint(mod, M_FUNC, text, sizeof(text));
	ck_assert_str_eq(text, "myint mod_fn(struct modstruct *m)");
	btf_free(mod);
	for (pos = 0; pos < n; pos++) {
		memcpy(bad, buf, n);
		bad[pos] ^= 0xff;
		if ((mod = btf_load_split_mem(bad, n, sample, err, sizeof(err)))) {
			query_everything(mod);
			btf_free(mod);
		}
	}
	ck_assert(btf_load_module("/nonexistent.ko", sample, err, sizeof(err)) == NULL);
	ck_assert(strstr(err, "/nonexistent.ko") != NULL);
}
END_TEST

START_TEST(not_btf_is_refused)
{
	char err[BTF_ERRLEN] = "";
	static const char junk[64] = "this is not BTF";

	ck_assert_ptr_null(btf_load_mem(junk, sizeof(junk), err, sizeof(err)));
	ck_assert(strstr(err, "magic") != NULL);
	ck_assert_ptr_null(btf_load_raw("/nonexistent/btf", err, sizeof(err)));
	ck_assert(strstr(err, "/nonexistent/btf") != NULL);
}
END_TEST

/* A plain BTF file is mapped, not read (btf_load_raw): the same types as
 * from its bytes; and a plain file that is not BTF is refused by name. */
START_TEST(raw_file_mapped)
{
	unsigned char buf[4096];
	size_t n = build_sample(buf);
	char err[BTF_ERRLEN] = "", path[] = "/tmp/test_btf_raw.XXXXXX";
	int fd = mkstemp(path);
	struct btf *from_file;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
	from_file = btf_load_raw(path, err, sizeof(err));
	ck_assert_msg(from_file != NULL, "%s", err);
	ck_assert_uint_ne(btf_find(from_file, "outer", BTF_KIND_STRUCT), BTF_NONE);
	ck_assert_uint_eq(btf_find(from_file, "outer", BTF_KIND_STRUCT),
			  btf_find(sample, "outer", BTF_KIND_STRUCT));
	ck_assert_uint_eq(btf_find(from_file, "f", BTF_KIND_FUNC),
			  btf_find(sample, "f", BTF_KIND_FUNC));
	btf_free(from_file);

	fd = open(path, O_WRONLY | O_TRUNC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "this is not BTF at all, but plain", 33), 33);
	close(fd);
	ck_assert_ptr_null(btf_load_raw(path, err, sizeof(err)));
	ck_assert_msg(strstr(err, path) && strstr(err, "not valid BTF"), "%s", err);
	unlink(path);
}
END_TEST

/* ---- the installed kernel ------------------------------------------------ */

static char *installed_release;	/* first /boot/vmlinuz-*, or NULL */
static struct btf *kbtf;	/* its BTF */

static void
kernel_setup(void)
{
	struct btf_load_opts opts = { .cache_dir = TEST_CACHE };
	char err[BTF_ERRLEN], *image = NULL;

	ck_assert(installed_release != NULL);
	ck_assert(asprintf(&image, "/boot/vmlinuz-%s", installed_release) > 0);
	kbtf = btf_load_vmlinuz(image, &opts, err, sizeof(err));
	ck_assert_msg(kbtf != NULL, "%s", err);
	free(image);
}

static void
kernel_teardown(void)
{
	btf_free(kbtf);
	kbtf = NULL;
}

START_TEST(kernel_task_struct)
{
	uint32_t ts = btf_find(kbtf, "task_struct", BTF_KIND_STRUCT);
	struct btf_member_info m;
	struct btf_int_info ii;

	ck_assert_uint_ne(ts, BTF_NONE);
	ck_assert(btf_sizeof(kbtf, ts) > 1000);
	ck_assert(btf_member_find(kbtf, ts, "pid", &m));
	ck_assert_uint_eq(m.bit_offset % 32, 0);
	ck_assert_str_eq(render(kbtf, m.type, NULL), "pid_t");
	ck_assert(btf_int_info(kbtf, m.type, &ii));
	ck_assert(ii.is_signed);
	ck_assert_uint_eq(ii.size, 4);
	ck_assert(btf_member_find(kbtf, ts, "comm", &m));
	ck_assert(btf_is_string(kbtf, m.type));
	ck_assert_str_eq(render(kbtf, m.type, "comm"), "char comm[16]");
	ck_assert(btf_member_find(kbtf, ts, "real_parent", &m));
	ck_assert_str_eq(render(kbtf, m.type, NULL), "struct task_struct *");
}
END_TEST

START_TEST(kernel_vfs_read_prototype)
{
	uint32_t f = btf_find(kbtf, "vfs_read", BTF_KIND_FUNC);
	char buf[512];
	struct btf_param_info p;

	ck_assert_uint_ne(f, BTF_NONE);
	btf_func_snprint(kbtf, f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos)");
	ck_assert_int_eq(btf_param_count(kbtf, f), 4);
	ck_assert(btf_param_at(kbtf, f, 2, &p));
	ck_assert_str_eq(p.name, "count");
	ck_assert_int_eq(btf_sizeof(kbtf, p.type), 8);
	ck_assert(btf_param_at(kbtf, f, 1, &p));
	ck_assert(btf_is_string(kbtf, p.type));
}
END_TEST

START_TEST(kernel_render_cases)
{
	uint32_t fops = btf_find(kbtf, "file_operations", BTF_KIND_STRUCT);
	uint32_t printk = btf_find(kbtf, "_printk", BTF_KIND_FUNC);
	struct btf_member_info m;
	char buf[512];

	ck_assert(btf_member_find(kbtf, fops, "read", &m));
	ck_assert_str_eq(render(kbtf, m.type, "read"),
			 "ssize_t (*read)(struct file *, char *, size_t, loff_t *)");
	ck_assert(btf_member_find(kbtf, fops, "owner", &m));
	ck_assert_uint_eq(m.bit_offset, 0);
	ck_assert_uint_ne(printk, BTF_NONE);
	btf_func_snprint(kbtf, printk, buf, sizeof(buf));
	ck_assert_str_eq(buf, "int _printk(const char *fmt, ...)");
}
END_TEST

START_TEST(kernel_anonymous_members)
{
	/* struct page keeps lru inside nested anonymous unions/structs. */
	uint32_t page = btf_find(kbtf, "page", BTF_KIND_STRUCT);
	struct btf_member_info m;

	ck_assert(btf_member_find(kbtf, page, "lru", &m));
	ck_assert_uint_eq(m.bit_offset, 64);
	ck_assert_str_eq(render(kbtf, m.type, NULL), "struct list_head");
}
END_TEST

START_TEST(kernel_cache_roundtrip)
{
	char dir[] = "/tmp/tapc-btf-cacheXXXXXX", *image = NULL, *file = NULL;
	struct btf_load_opts opts = { .cache_dir = dir };
	char err[BTF_ERRLEN];
	struct btf *a, *b;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert(asprintf(&image, "/boot/vmlinuz-%s", installed_release) > 0);
	ck_assert(asprintf(&file, "%s/btf-%s", dir, installed_release) > 0);
	a = btf_load_vmlinuz(image, &opts, err, sizeof(err));
	ck_assert_msg(a != NULL, "%s", err);
	ck_assert_int_eq(stat(file, &st), 0);
	ck_assert(strstr(btf_source(a), "cached") == NULL);
	b = btf_load_vmlinuz(image, &opts, err, sizeof(err));
	ck_assert_msg(b != NULL, "%s", err);
	ck_assert(strstr(btf_source(b), "cached") != NULL);
	ck_assert_uint_eq(btf__type_cnt(a), btf__type_cnt(b));
	btf_free(a);
	btf_free(b);
	unlink(file);
	rmdir(dir);
	free(file);
	free(image);
}
END_TEST

/* A module's split BTF from its file as installed (.ko or .ko.xz) and
 * from the same module recompressed with zstd (other distributions ship
 * .ko.zst). */
START_TEST(kernel_module_compressed)
{
	char *xz = NULL, *image, zst[] = "/tmp/tapc-btf-modXXXXXX";
	char err[BTF_ERRLEN];
	size_t size, cap, n;
	void *packed;
	struct btf *a, *b;
	FILE *f;

	ck_assert(asprintf(&xz, "/lib/modules/%s/kernel/fs/ext4/ext4.ko",
			   installed_release) > 0);
	if (access(xz, R_OK) != 0) {
		free(xz);
		ck_assert(asprintf(&xz, "/lib/modules/%s/kernel/fs/ext4/ext4.ko.xz",
				   installed_release) > 0);
	}
	if (access(xz, R_OK) != 0) {
		printf("test_btf: no %s: skipping the compressed module test\n", xz);
		free(xz);
		return;
	}
	ck_assert_msg(zfile_read(xz, &image, &size, err, sizeof(err)), "%s", err);
	packed = malloc(cap = ZSTD_compressBound(size));
	n = ZSTD_compress(packed, cap, image, size, 1);
	ck_assert(!ZSTD_isError(n));
	f = fdopen(mkstemp(zst), "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(packed, 1, n, f), n);
	fclose(f);
	a = btf_load_module(xz, kbtf, err, sizeof(err));
	ck_assert_msg(a != NULL, "%s", err);
	b = btf_load_module(zst, kbtf, err, sizeof(err));
	ck_assert_msg(b != NULL, "%s", err);
	ck_assert_uint_gt(btf__type_cnt(a), btf_first_id(a));
	ck_assert_uint_eq(btf__type_cnt(a), btf__type_cnt(b));
	ck_assert_uint_ne(btf_find(b, "ext4_file_open", BTF_KIND_FUNC), BTF_NONE);
	ck_assert_str_eq(btf_source(b), zst);
	btf_free(a);
	btf_free(b);
	unlink(zst);
	free(packed);
	free(image);
	free(xz);
}
END_TEST

START_TEST(running_kernel_sysfs)
{
	char err[BTF_ERRLEN];
	struct btf *btf = btf_load_raw("/sys/kernel/btf/vmlinux", err, sizeof(err));
	uint32_t f;
	char buf[512];

	ck_assert_msg(btf != NULL, "%s", err);
	ck_assert_uint_ne(btf_find(btf, "task_struct", BTF_KIND_STRUCT), BTF_NONE);
	f = btf_find(btf, "vfs_read", BTF_KIND_FUNC);
	btf_func_snprint(btf, f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos)");
	btf_free(btf);
}
END_TEST

static Suite *
btf_suite(void)
{
	Suite *s = suite_create("btf");
	TCase *tc = tcase_create("sample");
	char **releases = kernel_installed_releases(NULL, NULL);

	tcase_add_checked_fixture(tc, sample_setup, sample_teardown);
	tcase_add_test(tc, sample_lookup);
	tcase_add_test(tc, sample_render);
	tcase_add_test(tc, sample_func);
	tcase_add_test(tc, sample_members);
	tcase_add_test(tc, sample_ints_and_strings);
	tcase_add_test(tc, sample_cycles_terminate);
	tcase_add_test(tc, split_btf);
	tcase_add_test(tc, raw_file_mapped);
	suite_add_tcase(s, tc);

	tc = tcase_create("robustness");
	tcase_add_test(tc, truncated_blobs_fail_cleanly);
	tcase_add_test(tc, corrupted_blobs_do_not_crash);
	tcase_add_test(tc, not_btf_is_refused);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);

	if (releases && releases[0]) {
		installed_release = strdup(releases[0]);
		tc = tcase_create("installed");
		tcase_add_unchecked_fixture(tc, kernel_setup, kernel_teardown);
		tcase_add_test(tc, kernel_task_struct);
		tcase_add_test(tc, kernel_vfs_read_prototype);
		tcase_add_test(tc, kernel_render_cases);
		tcase_add_test(tc, kernel_anonymous_members);
		tcase_add_test(tc, kernel_cache_roundtrip);
		tcase_add_test(tc, kernel_module_compressed);
		tcase_set_timeout(tc, 60);
		suite_add_tcase(s, tc);
	} else {
		printf("test_btf: no /boot/vmlinuz-*: skipping the installed-kernel tests\n");
	}
	kernel_free_releases(releases);

	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0) {
		tc = tcase_create("running");
		tcase_add_test(tc, running_kernel_sysfs);
		suite_add_tcase(s, tc);
	} else {
		printf("test_btf: no /sys/kernel/btf/vmlinux: skipping the running-kernel test\n");
	}
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(btf_suite());
	int failed;

	mkdir(TEST_CACHE, 0755);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(installed_release);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
