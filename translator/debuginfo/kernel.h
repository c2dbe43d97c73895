/* kernel.h -- facts about the kernel a script is translated for.
 *
 * The target is the running kernel, or another installed one (`-r KREL`),
 * or a kernel build tree (`-r /path/to/build`).  kernel_target_open() finds
 * its release, build directory (/lib/modules/KREL/build), source directory
 * (Debian splits headers into -amd64 and -common packages: ../source),
 * compressed image (/boot/vmlinuz-KREL), version, architecture and .config.
 * It fails only when nothing at all of the kernel is installed; missing
 * headers are reported when a caller needs them (kernel_require_build_dir),
 * with the Debian package to install.
 *
 * The heavier facts are loaded on first use and kept in the handle:
 * kernel_btf() (types), kernel_tracepoints(), kernel_functions() (names for
 * kprobe wildcards).  Everything is freed by kernel_target_free().
 */
#ifndef TAPC_DEBUGINFO_KERNEL_H
#define TAPC_DEBUGINFO_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct tracepoints;
struct ksym_table;
struct kernel_target;

/* Where to look; every field may be NULL (the defaults are the real
 * system paths; tests point them at fixtures). */
struct kernel_paths {
	const char *modules_dir;	/* "/lib/modules" */
	const char *boot_dir;		/* "/boot" */
	const char *sysfs_btf;		/* "/sys/kernel/btf/vmlinux" */
	const char *kallsyms;		/* "/proc/kallsyms" */
	const char *cache_dir;		/* BTF cache; see btf_load_opts */
	bool no_debug_package;		/* leave the -dbg package's files
					 * (/usr/lib/debug) out: tapc's
					 * TAPC_KERNEL_DEBUGINFO=btf */
};

/* `release`: NULL for the running kernel, a release ("6.1.0-57-amd64"), or
 * a path to a build tree (contains a '/').  `paths` may be NULL. */
struct kernel_target *
kernel_target_open(const char *release, const struct kernel_paths *paths,
		   char *err, size_t errlen);

void
kernel_target_free(struct kernel_target *kt);

/* Releases installed here (those with a vmlinuz in the boot dir), sorted;
 * a NULL-terminated array to free with kernel_free_releases(). */
char **
kernel_installed_releases(const struct kernel_paths *paths, size_t *count);

void
kernel_free_releases(char **releases);

/* "6.1.0-57-amd64". */
const char *
kernel_release(const struct kernel_target *kt);

/* True if the target is the kernel this process runs on. */
bool
kernel_is_running(const struct kernel_target *kt);

/* False when the paths said no_debug_package: callers that look for the
 * debug vmlinux or the debug package's modules must not. */
bool
kernel_uses_debug_package(const struct kernel_target *kt);

/* NULL when not installed. */
const char *
kernel_build_dir(const struct kernel_target *kt);

/* The tree with include/ and arch/ sources; the build dir when there is
 * no separate one; NULL when not installed. */
const char *
kernel_source_dir(const struct kernel_target *kt);

/* /boot/vmlinuz-KREL, or NULL. */
const char *
kernel_image(const struct kernel_target *kt);

/* The build dir, or false with an error naming the package to install. */
bool
kernel_require_build_dir(const struct kernel_target *kt, char *err,
			 size_t errlen);

/* KERNEL_VERSION(a, b, c) of the target: from the build tree's
 * include/generated/uapi/linux/version.h when present (6.1.192: Debian's
 * release string says 6.1.0), else from the release string. */
uint32_t
kernel_version_code(const struct kernel_target *kt);

/* "6.1.192" (as above) and "6.1.0" (the release string's numbers, which
 * SystemTap calls kernel_v). */
const char *
kernel_version(const struct kernel_target *kt);

const char *
kernel_release_version(const struct kernel_target *kt);

/* uname -m style ("x86_64", "aarch64") and kbuild style ("x86", "arm64"). */
const char *
kernel_arch(const struct kernel_target *kt);

const char *
kernel_srcarch(const struct kernel_target *kt);

/* Whether a .config was found (build dir, else /boot/config-KREL). */
bool
kernel_has_config(const struct kernel_target *kt);

/* The value of CONFIG_NAME ("CONFIG_" may be omitted): "y", "m", a number
 * or a quoted string as written in .config; NULL if not set. */
const char *
kernel_config(const struct kernel_target *kt, const char *name);

/* Loaded on first call; NULL with a message when unavailable.  The
 * handle keeps ownership. */
struct btf *
kernel_btf(struct kernel_target *kt, char *err, size_t errlen);

/* A module's BTF (split on kernel_btf()): /sys/kernel/btf/MODULE for the
 * running kernel, else the module file modules.dep names (.ko or .ko.xz).
 * `module` as lsmod spells it; '-' and '_' are the same. */
struct btf *
kernel_module_btf(struct kernel_target *kt, const char *module, char *err,
		  size_t errlen);

/* The same from a module file already found (a .ko or .ko.xz), cached
 * under `module` like kernel_module_btf's. */
struct btf *
kernel_module_btf_file(struct kernel_target *kt, const char *module,
		       const char *file, char *err, size_t errlen);

/* The release's module directory ("/lib/modules/KREL"), malloc'd. */
char *
kernel_modules_dir(const struct kernel_target *kt);

struct tracepoints *
kernel_tracepoints(struct kernel_target *kt, char *err, size_t errlen);

/* Where kernel_tracepoints learns subsystem names (tracefs for the
 * running kernel, the headers), for a module's tracepoints. */
struct tp_sources;
void
kernel_tracepoint_sources(const struct kernel_target *kt,
			  struct tp_sources *src);

/* /proc/kallsyms for the running kernel (BTF if it is unreadable), the
 * BTF's functions for any other. */
struct ksym_table *
kernel_functions(struct kernel_target *kt, char *err, size_t errlen);

#endif /* TAPC_DEBUGINFO_KERNEL_H */
