/* bench_btf.c -- how long the translator waits for kernel facts.
 *
 * Times, for every source present on this machine: loading and indexing
 * BTF from /sys/kernel/btf/vmlinux; from each /boot/vmlinuz-* without a
 * cache (xz decompression included) and from the cache; building the
 * tracepoint table (with subsystems from the headers); loading function
 * names from /proc/kallsyms and from BTF.  Prints the best and mean of a
 * few runs; never asserts on a time.  Uses a private temporary cache
 * directory and removes it.
 */
#define _GNU_SOURCE	/* asprintf */
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/tracepoints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RUNS 5

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
report(const char *what, const double *t, int n, const char *extra)
{
	double best = t[0], sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		best = t[i] < best ? t[i] : best;
		sum += t[i];
	}
	printf("%-52s best %8.1f ms  mean %8.1f ms  (%d runs)  %s\n", what,
	       best * 1e3, sum / n * 1e3, n, extra);
}

static void
bench_raw(void)
{
	double t[RUNS];
	char err[BTF_ERRLEN], extra[64] = "";
	int i;

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		printf("%-52s (not present)\n", "raw /sys/kernel/btf/vmlinux");
		return;
	}
	for (i = 0; i < RUNS; i++) {
		double t0 = now();
		struct btf *btf = btf_load_raw("/sys/kernel/btf/vmlinux", err, sizeof(err));

		t[i] = now() - t0;
		if (!btf) {
			printf("raw: %s\n", err);
			return;
		}
		snprintf(extra, sizeof(extra), "%u types", btf__type_cnt(btf));
		btf_free(btf);
	}
	report("raw /sys/kernel/btf/vmlinux", t, RUNS, extra);
}

static void
bench_vmlinuz(const char *release, const char *cache)
{
	struct btf_load_opts nocache = { .cache_dir = "" }, cached = { .cache_dir = cache };
	char err[BTF_ERRLEN], *image = NULL, what[128];
	double t[RUNS];
	struct btf *btf;
	int i;

	if (asprintf(&image, "/boot/vmlinuz-%s", release) < 0)
		return;
	for (i = 0; i < 2; i++) {	/* decompression is slow: two runs */
		double t0 = now();

		btf = btf_load_vmlinuz(image, &nocache, err, sizeof(err));
		t[i] = now() - t0;
		if (!btf) {
			printf("%s: %s\n", image, err);
			free(image);
			return;
		}
		btf_free(btf);
	}
	snprintf(what, sizeof(what), "vmlinuz %s, no cache", release);
	report(what, t, 2, "(xz + ELF + index)");
	btf_free(btf_load_vmlinuz(image, &cached, err, sizeof(err)));	/* fill */
	for (i = 0; i < RUNS; i++) {
		double t0 = now();

		btf = btf_load_vmlinuz(image, &cached, err, sizeof(err));
		t[i] = now() - t0;
		btf_free(btf);
	}
	snprintf(what, sizeof(what), "vmlinuz %s, cached", release);
	report(what, t, RUNS, "");
	free(image);
}

static void
bench_target(const char *release, const char *cache)
{
	struct kernel_paths paths = { .cache_dir = cache };
	char err[BTF_ERRLEN], what[128], extra[128];
	double t[RUNS];
	int i;

	for (i = 0; i < RUNS; i++) {
		struct kernel_target *kt = kernel_target_open(release, &paths, err, sizeof(err));
		struct btf *btf = kt ? kernel_btf(kt, err, sizeof(err)) : NULL;
		struct tracepoints *tps;
		double t0;
		size_t tracefs, headers, unknown;

		if (!btf) {
			printf("%s: %s\n", release ? release : "running", err);
			kernel_target_free(kt);
			return;
		}
		t0 = now();
		tps = kernel_tracepoints(kt, err, sizeof(err));
		t[i] = now() - t0;
		if (tps) {
			tracepoints_system_stats(tps, &tracefs, &headers, &unknown);
			snprintf(extra, sizeof(extra), "%zu tracepoints (systems: tracefs %zu, headers %zu, unknown %zu)",
				 tracepoints_count(tps), tracefs, headers, unknown);
		}
		kernel_target_free(kt);
	}
	snprintf(what, sizeof(what), "tracepoints %s", release ? release : "(running)");
	report(what, t, RUNS, extra);
}

static void
bench_functions(const char *release, const char *cache)
{
	struct kernel_paths paths = { .cache_dir = cache };
	char err[BTF_ERRLEN], what[128], extra[64] = "";
	double t[RUNS];
	int i;

	for (i = 0; i < RUNS; i++) {
		struct kernel_target *kt = kernel_target_open(release, &paths, err, sizeof(err));
		struct ksym_table *fns;
		double t0;

		if (!kt || !kernel_btf(kt, err, sizeof(err))) {
			kernel_target_free(kt);
			return;
		}
		t0 = now();
		fns = kernel_functions(kt, err, sizeof(err));
		t[i] = now() - t0;
		if (fns)
			snprintf(extra, sizeof(extra), "%zu names from %s",
				 ksym_count(fns), ksym_source(fns));
		kernel_target_free(kt);
	}
	snprintf(what, sizeof(what), "functions %s", release ? release : "(running)");
	report(what, t, RUNS, extra);
}

int
main(void)
{
	char cache[] = "/tmp/tapc-bench-btfXXXXXX";
	char **releases = kernel_installed_releases(NULL, NULL), **r;
	char *cmd = NULL;

	if (!mkdtemp(cache)) {
		perror("mkdtemp");
		return 1;
	}
	bench_raw();
	for (r = releases; r && *r; r++)
		bench_vmlinuz(*r, cache);
	bench_target(NULL, cache);
	bench_functions(NULL, cache);
	for (r = releases; r && *r; r++) {
		bench_target(*r, cache);
		bench_functions(*r, cache);
	}
	kernel_free_releases(releases);
	if (asprintf(&cmd, "rm -rf '%s'", cache) > 0 && system(cmd) != 0)
		fprintf(stderr, "bench_btf: could not remove %s\n", cache);
	free(cmd);
	return 0;
}
