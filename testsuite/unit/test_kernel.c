/* test_kernel.c -- Check tests for target-kernel facts and function names
 * (translator/debuginfo/kernel.c, kallsyms.c).
 *
 * A kallsyms file written here checks what kprobe wildcards may expand to
 * (labels, .cold parts, forbidden text, the blacklist, clones, duplicate
 * names, module symbols).  The installed kernel (first /boot/vmlinuz-*)
 * checks release, version, arch, .config and the build tree; the running
 * kernel checks the uname facts and the missing-headers message.  Tests
 * needing an installed kernel are skipped with a message when there is none.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef TAPC_BUILDDIR
#define TAPC_BUILDDIR "."
#endif
#define TEST_CACHE TAPC_BUILDDIR "/testsuite/unit/btf-cache"

/* ---- function names from a kallsyms file ----------------------------------- */

static const char fake_kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000010 T __entry_text_start\n"
	"ffffffff81000020 T entry_SYSCALL_64\n"
	"ffffffff81001000 T __entry_text_end\n"
	"ffffffff81001800 T __noinstr_text_start\n"
	"ffffffff81001900 T exc_page_fault\n"
	"ffffffff81001a00 T __noinstr_text_end\n"
	"ffffffff81002000 T vfs_read\n"
	"ffffffff81002100 t vfs_read.cold\n"
	"ffffffff81002200 t foo.isra.0\n"
	"ffffffff81002300 t dup_name\n"
	"ffffffff81002400 t dup_name\n"
	"ffffffff81002500 t __pfx_vfs_read\n"
	"ffffffff81002600 T mod_fn\t[mymod]\n"
	"ffffffff81002700 D some_data\n"
	"ffffffff81002800 T blacklisted_fn\n"
	"ffffffff81002900 W weak_fn\n"
	"ffffffff81002a00 T vfs_write";	/* no final newline */

static const char fake_blacklist[] =
	"0xffffffff81002800-0xffffffff81002810\tblacklisted_fn\n";

static struct ksym_table *fake;

static void
write_file(const char *tmpdir, const char *name, const char *text)
{
	char *path = NULL;
	FILE *f;

	ck_assert(asprintf(&path, "%s/%s", tmpdir, name) > 0);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	free(path);
}

static void
fake_setup(void)
{
	char err[BTF_ERRLEN], *ks = NULL, *bl = NULL;
	char tmpdir[] = "/tmp/tapc-kernelXXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	write_file(tmpdir, "kallsyms", fake_kallsyms);
	write_file(tmpdir, "blacklist", fake_blacklist);
	ck_assert(asprintf(&ks, "%s/kallsyms", tmpdir) > 0);
	ck_assert(asprintf(&bl, "%s/blacklist", tmpdir) > 0);
	fake = ksym_load_kallsyms(ks, bl, err, sizeof(err));
	ck_assert_msg(fake != NULL, "%s", err);
	unlink(ks);
	unlink(bl);
	rmdir(tmpdir);
	free(ks);
	free(bl);
}

static void
fake_teardown(void)
{
	ksym_free(fake);
}

static enum ksym_probeable
check_name(const char *name)
{
	const struct ksym *s = ksym_find(fake, name);

	ck_assert_msg(s != NULL, "%s not in table", name);
	return ksym_check(fake, s, NULL);
}

START_TEST(kallsyms_probeable)
{
	const char *why;

	ck_assert(ksym_has_addresses(fake));
	ck_assert_str_eq(ksym_source(fake), "kallsyms");
	ck_assert_int_eq(check_name("vfs_read"), KSYM_PROBEABLE);
	ck_assert_int_eq(check_name("vfs_write"), KSYM_PROBEABLE);
	ck_assert_int_eq(check_name("weak_fn"), KSYM_PROBEABLE);
	ck_assert_int_eq(check_name("vfs_read.cold"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("entry_SYSCALL_64"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("exc_page_fault"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("blacklisted_fn"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("_stext"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("__pfx_vfs_read"), KSYM_REFUSED);
	ck_assert_int_eq(check_name("foo.isra.0"), KSYM_CLONE);
	ck_assert_ptr_null(ksym_find(fake, "some_data"));	/* not text */
	ck_assert_ptr_null(ksym_find(fake, "mod_fn"));		/* a module's */
	ksym_check(fake, ksym_find(fake, "blacklisted_fn"), &why);
	ck_assert(strstr(why, "blacklist") != NULL);
	ck_assert_uint_eq(ksym_find(fake, "dup_name")->copies, 2);
	ck_assert_uint_eq(ksym_find(fake, "vfs_read")->addr, 0xffffffff81002000ull);
}
END_TEST

static bool
collect(const struct ksym *sym, void *ctx)
{
	char *buf = ctx;

	strcat(buf, sym->name);
	strcat(buf, " ");
	return true;
}

START_TEST(kallsyms_wildcards)
{
	char buf[512] = "";

	ksym_foreach(fake, "vfs_*", 0, collect, buf);
	ck_assert_str_eq(buf, "vfs_read vfs_write ");
	buf[0] = '\0';
	ksym_foreach(fake, "vfs_*", KSYM_WITH_REFUSED, collect, buf);
	ck_assert_str_eq(buf, "vfs_read vfs_read.cold vfs_write ");
	buf[0] = '\0';
	ksym_foreach(fake, "foo*", 0, collect, buf);
	ck_assert_str_eq(buf, "");		/* clones need a '.' */
	ksym_foreach(fake, "foo.*", 0, collect, buf);
	ck_assert_str_eq(buf, "foo.isra.0 ");
	buf[0] = '\0';
	ksym_foreach(fake, "mod_*", KSYM_WITH_MODULES, collect, buf);
	ck_assert_str_eq(buf, "mod_fn ");
	ck_assert_uint_eq(ksym_foreach(fake, "dup_name", 0, NULL, NULL), 1);
}
END_TEST

/* ---- the running kernel ------------------------------------------------------ */

static bool
count_refused(const struct ksym *sym, void *ctx)
{
	const struct ksym_table *t = ((const struct ksym_table **)ctx)[0];

	if (ksym_check(t, sym, NULL) == KSYM_REFUSED)
		++*((size_t **)ctx)[1];
	return true;
}

START_TEST(running_kallsyms)
{
	char err[BTF_ERRLEN];
	struct ksym_table *t = ksym_load_kallsyms("/proc/kallsyms", NULL, err, sizeof(err));
	const struct ksym *s;
	size_t refused = 0;
	void *ctx[2];

	ck_assert_msg(t != NULL, "%s", err);
	ck_assert_uint_gt(ksym_count(t), 1000);
	ck_assert_ptr_nonnull(s = ksym_find(t, "vfs_read"));
	ck_assert_int_eq(ksym_check(t, s, NULL), KSYM_PROBEABLE);
	ck_assert_uint_gt(ksym_foreach(t, "vfs_*", 0, NULL, NULL), 10);
	/* Wildcards never hand out what is refused... */
	ctx[0] = t;
	ctx[1] = &refused;
	ksym_foreach(t, "*", 0, count_refused, ctx);
	ck_assert_uint_eq(refused, 0);
	/* ...and with addresses (root), the entry code is refused. */
	if (ksym_has_addresses(t) && (s = ksym_find(t, "entry_SYSCALL_64")))
		ck_assert_int_eq(ksym_check(t, s, NULL), KSYM_REFUSED);
	ksym_free(t);
}
END_TEST

START_TEST(running_kernel)
{
	struct utsname uts;
	char err[BTF_ERRLEN];
	struct kernel_target *kt = kernel_target_open(NULL, NULL, err, sizeof(err));

	ck_assert_msg(kt != NULL, "%s", err);
	ck_assert_int_eq(uname(&uts), 0);
	ck_assert_str_eq(kernel_release(kt), uts.release);
	ck_assert(kernel_is_running(kt));
	ck_assert_str_eq(kernel_arch(kt), uts.machine);
	ck_assert_uint_gt(kernel_version_code(kt), 0);
	kernel_target_free(kt);
}
END_TEST

/* The paths say whether the -dbg package may be used (tapc sets it from
 * TAPC_KERNEL_DEBUGINFO=btf); the handle keeps it for every caller. */
START_TEST(debug_package_switch)
{
	char err[BTF_ERRLEN];
	struct kernel_paths paths = { .no_debug_package = true };
	struct kernel_target *kt = kernel_target_open(NULL, NULL, err, sizeof(err));

	ck_assert_msg(kt != NULL, "%s", err);
	ck_assert(kernel_uses_debug_package(kt));
	kernel_target_free(kt);
	kt = kernel_target_open(NULL, &paths, err, sizeof(err));
	ck_assert_msg(kt != NULL, "%s", err);
	ck_assert(!kernel_uses_debug_package(kt));
	kernel_target_free(kt);
}
END_TEST

START_TEST(missing_headers_names_the_package)
{
	char dir[] = "/tmp/tapc-nomodXXXXXX", err[BTF_ERRLEN], *want = NULL;
	struct kernel_paths paths = { .modules_dir = dir };
	struct kernel_target *kt;
	struct utsname uts;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(uname(&uts), 0);
	kt = kernel_target_open(NULL, &paths, err, sizeof(err));
	ck_assert_msg(kt != NULL, "%s", err);
	ck_assert_ptr_null(kernel_build_dir(kt));
	ck_assert(!kernel_require_build_dir(kt, err, sizeof(err)));
	ck_assert(asprintf(&want, "install linux-headers-%s", uts.release) > 0);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	kernel_target_free(kt);
	rmdir(dir);
	free(want);
}
END_TEST

START_TEST(unknown_release_is_an_error)
{
	char err[BTF_ERRLEN];
	struct kernel_target *kt = kernel_target_open("0.0.0-not-a-kernel", NULL,
						      err, sizeof(err));

	ck_assert_ptr_null(kt);
	ck_assert_msg(strstr(err, "linux-headers-0.0.0-not-a-kernel") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "installed:") != NULL, "%s", err);
	kt = kernel_target_open("/nonexistent/build", NULL, err, sizeof(err));
	ck_assert_ptr_null(kt);
	ck_assert(strstr(err, "/nonexistent/build") != NULL);
}
END_TEST

/* ---- the installed kernel ----------------------------------------------------- */

static char *installed_release;
static struct kernel_target *kt;

static void
installed_setup(void)
{
	struct kernel_paths paths = { .cache_dir = TEST_CACHE };
	char err[BTF_ERRLEN];

	kt = kernel_target_open(installed_release, &paths, err, sizeof(err));
	ck_assert_msg(kt != NULL, "%s", err);
}

static void
installed_teardown(void)
{
	kernel_target_free(kt);
}

START_TEST(installed_facts)
{
	unsigned a = 0, b = 0, c = 0;
	char *image = NULL;

	ck_assert_str_eq(kernel_release(kt), installed_release);
	ck_assert(asprintf(&image, "/boot/vmlinuz-%s", installed_release) > 0);
	ck_assert_str_eq(kernel_image(kt), image);
	free(image);
	/* The release's numbers agree with the version code's first two. */
	ck_assert_int_eq(sscanf(kernel_release_version(kt), "%u.%u.%u", &a, &b, &c), 3);
	ck_assert_uint_eq(kernel_version_code(kt) >> 16, a);
	ck_assert_uint_eq((kernel_version_code(kt) >> 8) & 0xff, b);
	ck_assert_ptr_nonnull(kernel_arch(kt));
	ck_assert_ptr_nonnull(kernel_srcarch(kt));
}
END_TEST

START_TEST(installed_config)
{
	ck_assert(kernel_has_config(kt));
	ck_assert_str_eq(kernel_config(kt, "CONFIG_MODULES"), "y");
	ck_assert_str_eq(kernel_config(kt, "MODULES"), "y");
	ck_assert_ptr_null(kernel_config(kt, "CONFIG_NOT_A_REAL_OPTION"));
	ck_assert(kernel_config(kt, "CONFIG_LOCALVERSION")[0] == '"');
	if (strcmp(kernel_srcarch(kt), "x86") == 0)
		ck_assert_str_eq(kernel_config(kt, "CONFIG_X86_64"), "y");
}
END_TEST

START_TEST(installed_build_tree)
{
	char err[BTF_ERRLEN];
	struct kernel_target *tree;
	char *version_h = NULL;

	if (!kernel_build_dir(kt)) {
		printf("test_kernel: no headers for %s: skipping the build-tree test\n",
		       installed_release);
		return;
	}
	ck_assert(kernel_require_build_dir(kt, err, sizeof(err)));
	ck_assert_ptr_nonnull(kernel_source_dir(kt));
	ck_assert(asprintf(&version_h, "%s/include/generated/uapi/linux/version.h",
			   kernel_build_dir(kt)) > 0);
	if (access(version_h, R_OK) == 0)
		ck_assert_str_ne(kernel_version(kt), "0.0.0");
	free(version_h);
	tree = kernel_target_open(kernel_build_dir(kt), NULL, err, sizeof(err));
	ck_assert_msg(tree != NULL, "%s", err);
	ck_assert_str_eq(kernel_release(tree), installed_release);
	ck_assert_str_eq(kernel_version(tree), kernel_version(kt));
	kernel_target_free(tree);
}
END_TEST

/* Another kernel's functions: from the debug package's System.map when
 * it is installed (every text symbol, aliases included), else from BTF. */
START_TEST(installed_functions_from_btf)
{
	char err[BTF_ERRLEN];
	struct ksym_table *fns;
	char *map;
	bool have_map;

	if (kernel_is_running(kt))
		return;	/* kallsyms, tested above */
	if (asprintf(&map, "/usr/lib/debug/boot/System.map-%s",
		     kernel_release(kt)) < 0)
		ck_abort();
	have_map = access(map, R_OK) == 0;
	free(map);
	fns = kernel_functions(kt, err, sizeof(err));
	ck_assert_msg(fns != NULL, "%s", err);
	ck_assert_str_eq(ksym_source(fns), have_map ? "kallsyms" : "btf");
	ck_assert(ksym_has_addresses(fns) == have_map);
	if (have_map)	/* an alias BTF does not name */
		ck_assert_ptr_nonnull(ksym_find(fns, "__x64_sys_getppid"));
	ck_assert_ptr_nonnull(ksym_find(fns, "vfs_read"));
	ck_assert_int_eq(ksym_check(fns, ksym_find(fns, "vfs_read"), NULL),
			 KSYM_PROBEABLE);
	ck_assert_uint_gt(ksym_foreach(fns, "vfs_*", 0, NULL, NULL), 10);
	ck_assert_ptr_eq(kernel_functions(kt, err, sizeof(err)), fns);
}
END_TEST

/* The first module modules.dep lists, as a module name ("af_key"). */
static bool
first_module(const char *release, char *name, size_t size)
{
	char *dep = NULL, line[4096], *colon, *base, *ko;
	FILE *f;
	bool ok = false;

	if (asprintf(&dep, "/lib/modules/%s/modules.dep", release) < 0)
		return false;
	if ((f = fopen(dep, "r")) && fgets(line, sizeof(line), f) &&
	    (colon = strchr(line, ':'))) {
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if ((ko = strstr(base, ".ko"))) {
			*ko = '\0';
			snprintf(name, size, "%.200s", base);
			ok = true;
		}
	}
	if (f)
		fclose(f);
	free(dep);
	return ok;
}

START_TEST(installed_module_btf)
{
	char err[BTF_ERRLEN], name[256];
	struct btf *base, *mod;
	uint32_t id, funcs = 0;

	if (!first_module(installed_release, name, sizeof(name))) {
		printf("test_kernel: no modules.dep for %s: skipping the module BTF test\n",
		       installed_release);
		return;
	}
	base = kernel_btf(kt, err, sizeof(err));
	ck_assert_msg(base != NULL, "%s", err);
	mod = kernel_module_btf(kt, name, err, sizeof(err));
	ck_assert_msg(mod != NULL, "%s: %s", name, err);
	ck_assert_ptr_eq(btf__base_btf(mod), base);
	ck_assert_uint_eq(btf_first_id(mod), btf__type_cnt(base));
	ck_assert_uint_gt(btf__type_cnt(mod), btf_first_id(mod));
	/* Base types are reachable through the module's handle. */
	ck_assert_uint_eq(btf_find(mod, "task_struct", BTF_KIND_STRUCT),
			  btf_find(base, "task_struct", BTF_KIND_STRUCT));
	for (id = btf_first_id(mod); id < btf__type_cnt(mod); id++)
		funcs += btf_kind_of(mod, id) == BTF_KIND_FUNC;
	ck_assert_uint_gt(funcs, 0);
	ck_assert_ptr_eq(kernel_module_btf(kt, name, err, sizeof(err)), mod);
	ck_assert_ptr_null(kernel_module_btf(kt, "no_such_module_xyz", err, sizeof(err)));
	ck_assert(strstr(err, "modules.dep") != NULL);
}
END_TEST

static Suite *
kernel_suite(void)
{
	Suite *s = suite_create("kernel");
	TCase *tc = tcase_create("kallsyms");
	char **releases = kernel_installed_releases(NULL, NULL);

	tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
	tcase_add_test(tc, kallsyms_probeable);
	tcase_add_test(tc, kallsyms_wildcards);
	suite_add_tcase(s, tc);

	tc = tcase_create("running");
	tcase_add_test(tc, running_kernel);
	tcase_add_test(tc, debug_package_switch);
	tcase_add_test(tc, missing_headers_names_the_package);
	tcase_add_test(tc, unknown_release_is_an_error);
	if (access("/proc/kallsyms", R_OK) == 0)
		tcase_add_test(tc, running_kallsyms);
	suite_add_tcase(s, tc);

	if (releases && releases[0]) {
		installed_release = strdup(releases[0]);
		tc = tcase_create("installed");
		tcase_add_checked_fixture(tc, installed_setup, installed_teardown);
		tcase_add_test(tc, installed_facts);
		tcase_add_test(tc, installed_config);
		tcase_add_test(tc, installed_build_tree);
		tcase_add_test(tc, installed_functions_from_btf);
		tcase_add_test(tc, installed_module_btf);
		tcase_set_timeout(tc, 60);
		suite_add_tcase(s, tc);
	} else {
		printf("test_kernel: no /boot/vmlinuz-*: skipping the installed-kernel tests\n");
	}
	kernel_free_releases(releases);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kernel_suite());
	int failed;

	mkdir(TEST_CACHE, 0755);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	free(installed_release);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
