/* kernel.c -- find the target kernel's files and read its small facts.
 *
 * Takes a release, a build-tree path or nothing (the running kernel) and
 * produces a `struct kernel_target`: paths of the build and source trees
 * and of the image, the version (from version.h, else the release), the
 * architecture and the parsed .config; BTF, tracepoints and function names
 * are loaded lazily through it.  Never hard-codes a release; every path is
 * derived from the ones in `struct kernel_paths`.  Must not print or exit:
 * problems come back as messages that name what to install.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/errbuf.h"
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/tracepoints.h"
#include "translator/debuginfo/zfile.h"

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

struct kernel_config_entry {
	const char *name;	/* "CONFIG_SMP", into config_text */
	const char *value;
};

struct kernel_module_btf {
	char *name;
	struct btf *btf;
};

struct kernel_target {
	char *release;
	char *build_dir, *source_dir, *image, *vmlinux;
	char *arch, *srcarch;
	char version[32], release_version[32];
	uint32_t version_code;
	bool running;

	struct kernel_config_entry *config;
	size_t nconfig;
	char *config_text;

	struct kernel_paths paths;	/* strings below are owned copies */
	char *owned_paths[5];

	struct btf *btf;
	struct kernel_module_btf *modules;	/* loaded module BTF */
	size_t nmodules;
	struct tracepoints *tracepoints;
	struct ksym_table *functions;
};

static char *
kernel_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
kernel_path(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static bool
kernel_is_dir(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
kernel_is_file(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* `path` if it is a directory (resolved), else NULL; frees `path`. */
static char *
kernel_keep_dir(char *path)
{
	char *real = kernel_is_dir(path) ? realpath(path, NULL) : NULL;

	free(path);
	return real;
}

static char *
kernel_keep_file(char *path)
{
	if (kernel_is_file(path))
		return path;
	free(path);
	return NULL;
}

static void
kernel_set_paths(struct kernel_target *kt, const struct kernel_paths *p)
{
	const char *in[5] = {
		p && p->modules_dir ? p->modules_dir : "/lib/modules",
		p && p->boot_dir ? p->boot_dir : "/boot",
		p && p->sysfs_btf ? p->sysfs_btf : "/sys/kernel/btf/vmlinux",
		p && p->kallsyms ? p->kallsyms : "/proc/kallsyms",
		p ? p->cache_dir : NULL,
	};
	int i;

	for (i = 0; i < 5; i++)
		kt->owned_paths[i] = in[i] ? strdup(in[i]) : NULL;
	kt->paths.modules_dir = kt->owned_paths[0];
	kt->paths.boot_dir = kt->owned_paths[1];
	kt->paths.sysfs_btf = kt->owned_paths[2];
	kt->paths.kallsyms = kt->owned_paths[3];
	kt->paths.cache_dir = kt->owned_paths[4];
	kt->paths.no_debug_package = p && p->no_debug_package;
}

/* The text of the first `#define NAME value` in a header, value copied
 * into buf without quotes. */
static bool
kernel_header_define(const char *path, const char *name, char *buf,
		     size_t size)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	char line[512];
	size_t n = strlen(name);
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		if (strncmp(p, "#define ", 8) != 0 || strncmp(p + 8, name, n) != 0 ||
		    (p[8 + n] != ' ' && p[8 + n] != '\t'))
			continue;
		p += 8 + n;
		p += strspn(p, " \t\"");
		end = p + strcspn(p, "\"\n");
		*end = '\0';
		snprintf(buf, size, "%s", p);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* "6.1.0-57-amd64" -> 6, 1, 0. */
static void
kernel_parse_release(const char *release, unsigned v[3])
{
	v[0] = v[1] = v[2] = 0;
	sscanf(release, "%u.%u.%u", &v[0], &v[1], &v[2]);
}

static void
kernel_read_version(struct kernel_target *kt)
{
	unsigned v[3], rv[3];
	char buf[32];
	char *vh = kt->build_dir
		? kernel_path("%s/include/generated/uapi/linux/version.h", kt->build_dir)
		: NULL;

	kernel_parse_release(kt->release, rv);
	memcpy(v, rv, sizeof(v));
	if (kernel_header_define(vh, "LINUX_VERSION_MAJOR", buf, sizeof(buf)))
		v[0] = strtoul(buf, NULL, 10);
	if (kernel_header_define(vh, "LINUX_VERSION_PATCHLEVEL", buf, sizeof(buf)))
		v[1] = strtoul(buf, NULL, 10);
	if (kernel_header_define(vh, "LINUX_VERSION_SUBLEVEL", buf, sizeof(buf)))
		v[2] = strtoul(buf, NULL, 10);
	else if (kernel_header_define(vh, "LINUX_VERSION_CODE", buf, sizeof(buf))) {
		/* Before 5.x headers carried only the code. */
		unsigned long code = strtoul(buf, NULL, 10);

		v[0] = code >> 16;
		v[1] = (code >> 8) & 0xff;
		v[2] = code & 0xff;
	}
	free(vh);
	kt->version_code = (v[0] << 16) + (v[1] << 8) + (v[2] > 255 ? 255 : v[2]);
	snprintf(kt->version, sizeof(kt->version), "%u.%u.%u", v[0], v[1], v[2]);
	snprintf(kt->release_version, sizeof(kt->release_version), "%u.%u.%u",
		 rv[0], rv[1], rv[2]);
}

static int
kernel_cmp_config(const void *a, const void *b)
{
	return strcmp(((const struct kernel_config_entry *)a)->name,
		      ((const struct kernel_config_entry *)b)->name);
}

/* Keep `CONFIG_X=value` lines; `# CONFIG_X is not set` means absent.
 * The running kernel's /proc/config.gz is gzip'ed: zfile_read() sees
 * that by its magic and inflates it. */
static void
kernel_read_config(struct kernel_target *kt, const char *path)
{
	size_t size, cap = 0;
	char *line, *next;

	if (!zfile_read(path, &kt->config_text, &size, NULL, 0))
		return;
	for (line = kt->config_text; *line; line = next) {
		char *eq, *nl = strchr(line, '\n');
		struct kernel_config_entry *bigger;

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		if (strncmp(line, "CONFIG_", 7) != 0 || !(eq = strchr(line, '=')))
			continue;
		if (kt->nconfig == cap) {
			cap = cap ? 2 * cap : 4096;
			if (!(bigger = realloc(kt->config, cap * sizeof(*bigger))))
				return;
			kt->config = bigger;
		}
		*eq = '\0';
		kt->config[kt->nconfig].name = line;
		kt->config[kt->nconfig++].value = eq + 1;
	}
	qsort(kt->config, kt->nconfig, sizeof(*kt->config), kernel_cmp_config);
}

static void
kernel_find_config(struct kernel_target *kt)
{
	char *path = kt->build_dir ? kernel_path("%s/.config", kt->build_dir) : NULL;

	if (!kernel_is_file(path)) {
		free(path);
		path = kernel_path("%s/config-%s", kt->paths.boot_dir, kt->release);
	}
	if (!kernel_is_file(path) && kt->running) {
		free(path);
		path = strdup("/proc/config.gz");
	}
	if (kernel_is_file(path) && !strchr(path, '\''))
		kernel_read_config(kt, path);
	free(path);
}

/* Architecture from .config when we have one (the target may differ
 * from the host), else the host's. */
static void
kernel_find_arch(struct kernel_target *kt, const char *machine)
{
	static const struct { const char *config, *arch, *srcarch; } map[] = {
		{ "CONFIG_X86_64", "x86_64", "x86" },
		{ "CONFIG_X86_32", "i686", "x86" },
		{ "CONFIG_ARM64", "aarch64", "arm64" },
		{ "CONFIG_PPC64", "ppc64le", "powerpc" },
		{ "CONFIG_S390", "s390x", "s390" },
		{ "CONFIG_RISCV", "riscv64", "riscv" },
		{ "CONFIG_ARM", "armv7l", "arm" },
	};
	size_t i;
	const char *arch = machine, *srcarch = machine;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (kernel_config(kt, map[i].config)) {
			arch = map[i].arch;
			srcarch = map[i].srcarch;
			break;
		}
	}
	if (i == sizeof(map) / sizeof(map[0])) {
		if (strcmp(machine, "x86_64") == 0 || strcmp(machine, "i686") == 0)
			srcarch = "x86";
		else if (strcmp(machine, "aarch64") == 0)
			srcarch = "arm64";
	}
	kt->arch = strdup(arch);
	kt->srcarch = strdup(srcarch);
}

/* For -r PATH: the release is in the tree's utsrelease.h. */
static bool
kernel_open_tree(struct kernel_target *kt, const char *tree, char *err,
		 size_t errlen)
{
	char rel[256];
	char *uts;

	if (!(kt->build_dir = kernel_keep_dir(strdup(tree)))) {
		errbuf_printf(err, errlen, "%s: no such kernel build directory", tree);
		return false;
	}
	uts = kernel_path("%s/include/generated/utsrelease.h", kt->build_dir);
	if (!kernel_header_define(uts, "UTS_RELEASE", rel, sizeof(rel))) {
		errbuf_printf(err, errlen, "%s: not a configured kernel build tree (no include/generated/utsrelease.h)", tree);
		free(uts);
		return false;
	}
	free(uts);
	kt->release = strdup(rel);
	return kt->release != NULL;
}

static int
kernel_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
kernel_installed_releases(const struct kernel_paths *paths, size_t *count)
{
	const char *boot = paths && paths->boot_dir ? paths->boot_dir : "/boot";
	DIR *d = opendir(boot);
	struct dirent *de;
	char **list = calloc(1, sizeof(*list)), **bigger;
	size_t n = 0;

	while (list && d && (de = readdir(d))) {
		if (strncmp(de->d_name, "vmlinuz-", 8) != 0 || !de->d_name[8] ||
		    !(bigger = realloc(list, (n + 2) * sizeof(*list))))
			continue;
		list = bigger;
		if ((list[n] = strdup(de->d_name + 8)))
			list[++n] = NULL;
	}
	if (d)
		closedir(d);
	if (list)
		qsort(list, n, sizeof(*list), kernel_cmp_str);
	if (count)
		*count = n;
	return list;
}

void
kernel_free_releases(char **releases)
{
	char **p;

	for (p = releases; p && *p; p++)
		free(*p);
	free(releases);
}

/* "6.1.0-57-amd64, 6.12.0-1-amd64": what -r could name instead. */
static void
kernel_list_installed(const struct kernel_target *kt, char *buf, size_t size)
{
	char **list = kernel_installed_releases(&kt->paths, NULL), **p;
	size_t len = 0;

	snprintf(buf, size, "none");
	for (p = list; p && *p && len + 3 < size; p++) {
		len += snprintf(buf + len, size - len, "%s%s", len ? ", " : "", *p);
		if (len >= size)
			len = size - 1;
	}
	kernel_free_releases(list);
}

static bool
kernel_find_files(struct kernel_target *kt, char *err, size_t errlen)
{
	const char *rel = kt->release;
	char installed[512];

	if (!kt->build_dir)
		kt->build_dir = kernel_keep_dir(kernel_path("%s/%s/build", kt->paths.modules_dir, rel));
	if (kt->build_dir)
		kt->source_dir = kernel_keep_dir(kernel_path("%s/source", kt->build_dir));
	if (!kt->source_dir)
		kt->source_dir = kernel_keep_dir(kernel_path("%s/%s/source", kt->paths.modules_dir, rel));
	if (!kt->source_dir && kt->build_dir)
		kt->source_dir = strdup(kt->build_dir);
	kt->image = kernel_keep_file(kernel_path("%s/vmlinuz-%s", kt->paths.boot_dir, rel));
	kt->vmlinux = kernel_keep_file(kernel_path("/usr/lib/debug/boot/vmlinux-%s", rel));
	if (!kt->vmlinux)
		kt->vmlinux = kernel_keep_file(kernel_path("/usr/lib/debug/lib/modules/%s/vmlinux", rel));
	if (!kt->vmlinux && kt->build_dir)
		kt->vmlinux = kernel_keep_file(kernel_path("%s/vmlinux", kt->build_dir));
	if (kt->running || kt->build_dir || kt->image)
		return true;
	kernel_list_installed(kt, installed, sizeof(installed));
	errbuf_printf(err, errlen, "kernel %s is not installed (no %s/%s/build, no %s/vmlinuz-%s; installed: %s): install linux-headers-%s and linux-image-%s",
		     rel, kt->paths.modules_dir, rel, kt->paths.boot_dir, rel,
		     installed, rel, rel);
	return false;
}

struct kernel_target *
kernel_target_open(const char *release, const struct kernel_paths *paths,
		   char *err, size_t errlen)
{
	struct kernel_target *kt = calloc(1, sizeof(*kt));
	struct utsname uts;

	if (!kt || uname(&uts) != 0) {
		errbuf_printf(err, errlen, "kernel: out of memory");
		free(kt);
		return NULL;
	}
	kernel_set_paths(kt, paths);
	if (release && strchr(release, '/')) {
		if (!kernel_open_tree(kt, release, err, errlen))
			goto fail;
	} else {
		kt->release = strdup(release && *release ? release : uts.release);
	}
	kt->running = kt->release && strcmp(kt->release, uts.release) == 0;
	if (!kt->release || !kernel_find_files(kt, err, errlen))
		goto fail;
	kernel_find_config(kt);
	kernel_find_arch(kt, uts.machine);
	kernel_read_version(kt);
	return kt;
fail:
	kernel_target_free(kt);
	return NULL;
}

void
kernel_target_free(struct kernel_target *kt)
{
	int i;

	if (!kt)
		return;
	tracepoints_free(kt->tracepoints);	/* borrows kt->btf */
	ksym_free(kt->functions);
	for (i = 0; i < (int)kt->nmodules; i++) {	/* split on kt->btf */
		btf_free(kt->modules[i].btf);
		free(kt->modules[i].name);
	}
	free(kt->modules);
	btf_free(kt->btf);
	free(kt->config);
	free(kt->config_text);
	for (i = 0; i < 5; i++)
		free(kt->owned_paths[i]);
	free(kt->release);
	free(kt->build_dir);
	free(kt->source_dir);
	free(kt->image);
	free(kt->vmlinux);
	free(kt->arch);
	free(kt->srcarch);
	free(kt);
}

const char *
kernel_release(const struct kernel_target *kt)
{
	return kt->release;
}

bool
kernel_is_running(const struct kernel_target *kt)
{
	return kt->running;
}

bool
kernel_uses_debug_package(const struct kernel_target *kt)
{
	return !kt->paths.no_debug_package;
}

const char *
kernel_build_dir(const struct kernel_target *kt)
{
	return kt->build_dir;
}

const char *
kernel_source_dir(const struct kernel_target *kt)
{
	return kt->source_dir;
}

const char *
kernel_image(const struct kernel_target *kt)
{
	return kt->image;
}

bool
kernel_require_build_dir(const struct kernel_target *kt, char *err,
			 size_t errlen)
{
	if (kt->build_dir)
		return true;
	errbuf_printf(err, errlen, "no kernel headers for %s (looked for %s/%s/build): install linux-headers-%s",
		     kt->release, kt->paths.modules_dir, kt->release, kt->release);
	return false;
}

uint32_t
kernel_version_code(const struct kernel_target *kt)
{
	return kt->version_code;
}

const char *
kernel_version(const struct kernel_target *kt)
{
	return kt->version;
}

const char *
kernel_release_version(const struct kernel_target *kt)
{
	return kt->release_version;
}

const char *
kernel_arch(const struct kernel_target *kt)
{
	return kt->arch;
}

const char *
kernel_srcarch(const struct kernel_target *kt)
{
	return kt->srcarch;
}

bool
kernel_has_config(const struct kernel_target *kt)
{
	return kt->nconfig > 0;
}

const char *
kernel_config(const struct kernel_target *kt, const char *name)
{
	char full[256];
	struct kernel_config_entry key = { .name = full }, *hit;

	if (!kt->nconfig || !name)
		return NULL;
	snprintf(full, sizeof(full), "%s%s",
		 strncmp(name, "CONFIG_", 7) == 0 ? "" : "CONFIG_", name);
	hit = bsearch(&key, kt->config, kt->nconfig, sizeof(*kt->config),
		      kernel_cmp_config);
	return hit ? hit->value : NULL;
}

/* ---- lazily loaded facts ------------------------------------------------ */

struct btf *
kernel_btf(struct kernel_target *kt, char *err, size_t errlen)
{
	struct btf_load_opts opts = { .cache_dir = kt->paths.cache_dir };

	if (kt->btf)
		return kt->btf;
	if (kt->running && access(kt->paths.sysfs_btf, R_OK) == 0 &&
	    (kt->btf = btf_load_raw(kt->paths.sysfs_btf, err, errlen)))
		return kt->btf;
	if (kt->vmlinux && (kt->btf = btf_load_elf(kt->vmlinux, err, errlen)))
		return kt->btf;
	if (kt->image)
		return kt->btf = btf_load_vmlinuz(kt->image, &opts, err, errlen);
	errbuf_printf(err, errlen, "no BTF for kernel %s: neither %s nor %s/vmlinuz-%s is readable (install linux-image-%s)",
		     kt->release, kt->paths.sysfs_btf, kt->paths.boot_dir,
		     kt->release, kt->release);
	return NULL;
}

/* Module names compare with '-' and '_' equal, as modprobe does. */
static bool
kernel_same_module(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen; i++, a++) {
		char x = *a == '-' ? '_' : *a, y = b[i] == '-' ? '_' : b[i];

		if (x != y || !*a)
			return false;
	}
	return *a == '\0';
}

/* "kernel/fs/xfs/xfs.ko.xz: dep..." -> the path of the module called
 * `module`, from modules.dep. */
static char *
kernel_module_path(const struct kernel_target *kt, const char *module)
{
	char *dep = kernel_path("%s/%s/modules.dep", kt->paths.modules_dir, kt->release);
	FILE *f = dep ? fopen(dep, "r") : NULL;
	char line[4096], *found = NULL;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, *ko;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if ((ko = strstr(base, ".ko")) &&
		    kernel_same_module(module, base, ko - base))
			found = kernel_path("%s/%s/%s", kt->paths.modules_dir,
					    kt->release, line);
	}
	if (f)
		fclose(f);
	free(dep);
	return found;
}

char *
kernel_modules_dir(const struct kernel_target *kt)
{
	return kernel_path("%s/%s", kt->paths.modules_dir, kt->release);
}

struct btf *
kernel_module_btf(struct kernel_target *kt, const char *module, char *err,
		  size_t errlen)
{
	return kernel_module_btf_file(kt, module, NULL, err, errlen);
}

struct btf *
kernel_module_btf_file(struct kernel_target *kt, const char *module,
		       const char *file, char *err, size_t errlen)
{
	struct btf *base = kernel_btf(kt, err, errlen), *btf;
	struct kernel_module_btf *bigger;
	char *path = NULL;
	size_t i;

	if (!base)
		return NULL;
	for (i = 0; i < kt->nmodules; i++)
		if (kt->modules[i].name &&
		    kernel_same_module(module, kt->modules[i].name, strlen(kt->modules[i].name)))
			return kt->modules[i].btf;
	if (file)
		path = strdup(file);
	if (!path && kt->running && base == kt->btf && strstr(btf_source(base), "/sys/"))
		path = kernel_keep_file(kernel_path("/sys/kernel/btf/%s", module));
	if (!path && !(path = kernel_module_path(kt, module))) {
		errbuf_printf(err, errlen, "module %s: not found for kernel %s (not in %s/%s/modules.dep)",
			     module, kt->release, kt->paths.modules_dir, kt->release);
		return NULL;
	}
	btf = btf_load_module(path, base, err, errlen);
	free(path);
	if (!btf || !(bigger = realloc(kt->modules, (kt->nmodules + 1) * sizeof(*bigger)))) {
		btf_free(btf);
		return NULL;
	}
	kt->modules = bigger;
	kt->modules[kt->nmodules].name = strdup(module);
	kt->modules[kt->nmodules++].btf = btf;
	return btf;
}

/* tracefs is mounted in one of two places, if at all; an empty events
 * directory (not mounted) counts as absent. */
static const char *
kernel_tracefs_events(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *probe = kernel_path("%s/sched", dirs[i]);
		bool ok = kernel_is_dir(probe);

		free(probe);
		if (ok)
			return dirs[i];
	}
	return NULL;
}

/*
 * The running kernel with neither tracefs mounted nor its headers
 * installed (a build host, a container) still has tracepoints in its BTF
 * but no subsystem names for them. Those names hardly ever change between
 * releases, so the newest installed kernel's headers stand in. Returns a
 * malloc'd directory or NULL.
 */
static char *
kernel_fallback_source_dir(const struct kernel_target *kt)
{
	size_t n = 0;
	char **rels = kernel_installed_releases(&kt->paths, &n);
	char *dir = NULL;

	for (size_t i = n; rels && i > 0 && !dir; i--) {
		dir = kernel_keep_dir(kernel_path("%s/%s/source",
						  kt->paths.modules_dir,
						  rels[i - 1]));
		if (!dir)
			dir = kernel_keep_dir(kernel_path("%s/%s/build",
							  kt->paths.modules_dir,
							  rels[i - 1]));
	}
	kernel_free_releases(rels);
	return dir;
}

void
kernel_tracepoint_sources(const struct kernel_target *kt,
			  struct tp_sources *src)
{
	src->tracefs_events = kt->running ? kernel_tracefs_events() : NULL;
	src->source_dir = kt->source_dir;
	src->srcarch = kt->srcarch;
}

struct tracepoints *
kernel_tracepoints(struct kernel_target *kt, char *err, size_t errlen)
{
	struct tp_sources src;
	struct btf *btf;
	char *fallback = NULL;

	if (kt->tracepoints)
		return kt->tracepoints;
	kernel_tracepoint_sources(kt, &src);
	if (!(btf = kernel_btf(kt, err, errlen)))
		return NULL;
	if (kt->running && !src.tracefs_events && !src.source_dir)
		src.source_dir = fallback = kernel_fallback_source_dir(kt);
	kt->tracepoints = tracepoints_load(btf, &src, err, errlen);
	free(fallback);
	return kt->tracepoints;
}

struct ksym_table *
kernel_functions(struct kernel_target *kt, char *err, size_t errlen)
{
	struct btf *btf;

	if (kt->functions)
		return kt->functions;
	if (kt->running &&
	    (kt->functions = ksym_load_kallsyms(kt->paths.kallsyms,
						"/sys/kernel/debug/kprobes/blacklist",
						err, errlen)))
		return kt->functions;
	/* another kernel: its System.map has every text symbol, aliases
	 * such as __x64_sys_getppid (of __do_sys_getppid) included, which
	 * BTF (one name a function) lacks.  Debian's /boot one is a stub
	 * (no function symbols: skipped); the debug package has the real,
	 * unless the paths leave it out (as providers/dwarf.c does for
	 * DWARF). */
	bool debug_pkg = !kt->paths.no_debug_package;

	for (int i = debug_pkg ? 0 : 1; !kt->running && i < 2 && !kt->functions; i++) {
		char *map = kernel_keep_file(kernel_path("%s/System.map-%s",
			i == 0 ? "/usr/lib/debug/boot" : kt->paths.boot_dir,
			kt->release));

		if (map)
			kt->functions = ksym_load_kallsyms(map, NULL, err, errlen);
		free(map);
	}
	if (kt->functions)
		return kt->functions;
	if (!(btf = kernel_btf(kt, err, errlen)))
		return NULL;
	return kt->functions = ksym_load_btf(btf, err, errlen);
}
