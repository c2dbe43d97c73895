## translator/codegen/local.mk -- pass 3: the C of a script
## (formats are compiled at translate time with runtime/core's own engine, so tapc links runtime/libtapcore.a).
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/codegen/cg_writer.c \
	translator/codegen/cg_writer.h \
	translator/codegen/codegen.c \
	translator/codegen/codegen.h \
	translator/codegen/codegen_autoprint.c \
	translator/codegen/codegen_builtin.c \
	translator/codegen/codegen_expr.c \
	translator/codegen/codegen_int.h \
	translator/codegen/codegen_locks.c \
	translator/codegen/codegen_print.c \
	translator/codegen/codegen_probe.c \
	translator/codegen/codegen_stmt.c \
	translator/codegen/codegen_tvar.c \
	translator/codegen/codegen_tvar.h \
	translator/codegen/codegen_ucfi.c \
	translator/codegen/codegen_ucfi.h
