/*
 * codegen.h -- pass 3, translation: the elaborated program (sema.h) in,
 * one C file out, for the user-space or the kernel platform.
 *
 * The file includes "runtime.h" (runtime/user or runtime/linux, chosen by
 * the build's -I), defines the handlers, the script functions, the globals
 * and `struct tap_module_desc tap_module`, and ends by including
 * "runtime.c". Conventions the platforms rely on are listed at the top of
 * codegen.c.
 */
#ifndef TAPC_CODEGEN_CODEGEN_H
#define TAPC_CODEGEN_CODEGEN_H

#include <stdbool.h>
#include <stdio.h>

#include "translator/parse/ast.h"
#include "translator/driver/session.h"

/* Pass 3: write s->program as C to `out`; false after errors. */
bool pass_translate(struct session *s, FILE *out);

/* --runtime=bpf (bpf_pass.c): the BPF C of the kernel-side probes to
 * bpf_out, or NULL after errors; then the user program's C, which links
 * with the object clang makes of that C (tap_bpf_object[] to
 * tap_bpf_object_end[]), object_key naming it in a comment. */
struct bpf_translation;
struct bpf_translation *pass_translate_bpf(struct session *s, FILE *bpf_out);
bool pass_translate_bpf_user(struct bpf_translation *t, FILE *out,
			     const char *object_key);

/* The print family: printf sprintf print println printd printdln sprint
 * sprintln. */
bool cg_is_print_family(const char *name);

#endif
