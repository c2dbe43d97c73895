/* test_cache.c -- Check tests for the cache's trust rules
 * (translator/debuginfo/cache_dir.c) and its key hash
 * (translator/common/hash.c): root loads modules from the cache, so a
 * directory or file another user could write, or a symbolic link, is
 * never used; a store never follows a link planted at its target; keys
 * are SHA-256.  Each test runs in its own process (Check's fork mode), so
 * the root cache_root() remembers is the one that test sets.
 */
#include "translator/common/hash.h"
#include "translator/debuginfo/cache_dir.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static char root[PATH_MAX];

/* A fresh root of the given mode, named by TAPC_CACHE_DIR. */
static void
make_root(mode_t mode)
{
	char tmpl[] = "/tmp/tapc-test-cache-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(root, sizeof(root), "%s", tmpl);
	ck_assert_int_eq(chmod(root, mode), 0);
	setenv("TAPC_CACHE_DIR", root, 1);
}

static void
write_text(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(chmod(path, mode), 0);
}

/* ROOT/REL; four buffers in turn, so one call may take two of these. */
static char *
path_in(const char *rel)
{
	static char buf[4][PATH_MAX + 64];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, PATH_MAX + 64, "%s/%s", root, rel);
	return p;
}

START_TEST(root_writable_by_others_is_refused)
{
	make_root(0777);
	ck_assert_ptr_null(cache_root());
}
END_TEST

START_TEST(root_symlink_is_refused)
{
	char link[PATH_MAX + 8];

	make_root(0700);
	snprintf(link, sizeof(link), "%s.lnk", root);
	ck_assert_int_eq(symlink(root, link), 0);
	setenv("TAPC_CACHE_DIR", link, 1);
	ck_assert_ptr_null(cache_root());
	unlink(link);
}
END_TEST

START_TEST(own_file_is_trusted_others_are_not)
{
	make_root(0755);
	ck_assert_str_eq(cache_root(), root);
	ck_assert(cache_mkdir_p(path_in("modules/k")));
	write_text(path_in("modules/k/m.ko"), "module", 0600);
	ck_assert(cache_trusted(path_in("modules/k/m.ko")));

	/* a group-writable file, or one in a world-writable directory */
	ck_assert_int_eq(chmod(path_in("modules/k/m.ko"), 0620), 0);
	ck_assert(!cache_trusted(path_in("modules/k/m.ko")));
	ck_assert_int_eq(chmod(path_in("modules/k/m.ko"), 0600), 0);
	ck_assert_int_eq(chmod(path_in("modules/k"), 0777), 0);
	ck_assert(!cache_trusted(path_in("modules/k/m.ko")));
	ck_assert_int_eq(chmod(path_in("modules/k"), 0700), 0);

	/* a link to a file elsewhere */
	write_text(path_in("elsewhere.ko"), "planted", 0600);
	ck_assert_int_eq(symlink(path_in("elsewhere.ko"),
				 path_in("modules/k/l.ko")), 0);
	ck_assert(!cache_trusted(path_in("modules/k/l.ko")));

	/* outside the root: never */
	ck_assert(!cache_trusted("/etc/passwd"));
}
END_TEST

START_TEST(store_replaces_a_planted_link)
{
	char victim[PATH_MAX + 64], buf[64] = "";
	int fd;

	make_root(0700);
	ck_assert_str_eq(cache_root(), root);
	snprintf(victim, sizeof(victim), "%s", path_in("victim"));
	write_text(victim, "precious", 0600);
	write_text(path_in("new.ko"), "module", 0600);
	ck_assert_int_eq(symlink(victim, path_in("target.ko")), 0);
	ck_assert(cache_store(path_in("new.ko"), path_in("target.ko"), 0600));

	fd = open(victim, O_RDONLY);
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	ck_assert_str_eq(buf, "precious");
	ck_assert(cache_trusted(path_in("target.ko")));
}
END_TEST

START_TEST(keys_are_sha256)
{
	char hex[HASH_HEX_SIZE];
	struct hash h;

	hash_init(&h);
	hash_bytes(&h, "abc", 3);
	hash_hex(&h, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* hash_hex does not end the hash */
	hash_bytes(&h, "", 0);
	hash_hex(&h, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
END_TEST

static Suite *
cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("trust");

	tcase_add_test(tc, root_writable_by_others_is_refused);
	tcase_add_test(tc, root_symlink_is_refused);
	tcase_add_test(tc, own_file_is_trusted_others_are_not);
	tcase_add_test(tc, store_replaces_a_planted_link);
	tcase_add_test(tc, keys_are_sha256);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cache_suite());
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
