## translator/codegen.mk -- pass 3 (code generation) and passes 4/5 for the
## user-space target, part of translator/libtapc.a. Included from
## translator/local.mk; tapc also links runtime/libtapcore.a (formats are
## compiled at translate time with the runtime core's own engine).

translator_libtapc_a_SOURCES += \
	translator/codegen.c translator/codegen.h translator/codegen_int.h \
	translator/codegen_expr.c translator/codegen_stmt.c \
	translator/codegen_print.c translator/codegen_probe.c \
	translator/codegen_builtin.c translator/codegen_kernel.c \
	translator/codegen_uprobe.c translator/codegen_procfs.c \
	translator/codegen_ucfi.c translator/codegen_ucfi.h \
	translator/codegen_autoprint.c translator/codegen_locks.c \
	translator/cg_writer.c translator/cg_writer.h \
	translator/build_user.c translator/run_user.c translator/build.h
