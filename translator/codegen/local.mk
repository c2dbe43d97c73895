## translator/codegen/local.mk -- pass 3: the C of a script, written
## through the indenting writer (cg_writer.c); formats are compiled at
## translate time with runtime/core's own engine, so tapc links
## runtime/libtapcore.a.  Entry header: codegen.h (pass_translate());
## codegen_int.h is private to this folder.  Must not include build/;
## reads the program and the bindings pass 2 left in the tree
## (sema/sema.h) rather than deciding again what a name means.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/codegen/bpf_call.c \
	translator/codegen/bpf_callback.c \
	translator/codegen/bpf_effect.c \
	translator/codegen/bpf_emit.c \
	translator/codegen/bpf_expr.c \
	translator/codegen/bpf_foreach.c \
	translator/codegen/bpf_int.h \
	translator/codegen/bpf_loop.c \
	translator/codegen/bpf_pass.c \
	translator/codegen/bpf_sprintf.c \
	translator/codegen/bpf_try.c \
	translator/codegen/bpf_user.c \
	translator/codegen/cg_writer.c \
	translator/codegen/cg_writer.h \
	translator/codegen/codegen.c \
	translator/codegen/codegen.h \
	translator/codegen/codegen_autoprint.c \
	translator/codegen/codegen_merge.c \
	translator/codegen/codegen_builtin.c \
	translator/codegen/codegen_expr.c \
	translator/codegen/codegen_int.h \
	translator/codegen/codegen_locks.c \
	translator/codegen/codegen_counters.c \
	translator/codegen/codegen_print.c \
	translator/codegen/codegen_probe.c \
	translator/codegen/codegen_stmt.c \
	translator/codegen/codegen_tvar.c \
	translator/codegen/codegen_tvar.h \
	translator/codegen/codegen_ucfi.c \
	translator/codegen/codegen_ucfi.h
