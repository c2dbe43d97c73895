/*
 * build_user.h -- passes 4 and 5 for the user-space target: compile the C pass
 * 3 writes into a program, and run it with the script's options.
 *
 * pass_build() runs pass 3 into FILE.c in a fresh build directory and
 * compiles it with cc against runtime/user and runtime/core (the source
 * tree's when tapc runs from its build tree, else the installed copy under
 * $(pkgdatadir)/runtime), or takes it from the cache ($TAPC_CACHE_DIR/user,
 * keyed by a hash of the C, the runtime's sources and the compiler; -k
 * always rebuilds). pass_run() executes the program, forwarding -o,
 * -c, -x, -T and -G, and returns its exit status; it removes the build
 * directory unless -k was given. Must not: look at the kernel.
 */
#ifndef TAPC_BUILD_BUILD_USER_H
#define TAPC_BUILD_BUILD_USER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "translator/driver/session.h"

bool pass_build(struct session *s);
int pass_run(struct session *s);

/* --runtime=bpf (build_bpf.c): the user program's C, NULL after errors,
 * and its BPF object's plan: link `object`, which the cache had, or which
 * `compile` (clang, run in `scratch`) makes of `source`; then keep it as
 * `cache` ("" for none). build_bpf_finish() keeps a fresh object in the
 * cache after a build and removes the scratch directory (kept with -k,
 * or when clang failed). And -p3's text: the BPF C. */
struct bpf_object_plan {
	char object[PATH_MAX + 32];
	char compile[4 * PATH_MAX];	/* "" when the object is cached */
	char source[PATH_MAX + 32];
	char scratch[PATH_MAX];
	char cache[PATH_MAX + 32];
};
char *build_bpf_translate(struct session *s, const char *rt, size_t *len,
			  struct bpf_object_plan *plan);
/* True when clang was to make the object and did not. */
bool build_bpf_object_failed(const struct bpf_object_plan *plan);
void build_bpf_finish(struct session *s, struct bpf_object_plan *plan,
		      bool built);
bool build_bpf_print(struct session *s, FILE *out);

/* The program pass_build made (what -p4 prints), or NULL. */
const char *build_result(const struct session *s);

/* Remove the build directory (unless -k); pass_run does it itself. */
void build_cleanup(const struct session *s);

#endif
