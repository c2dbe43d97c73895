## translator/sema/local.mk -- pass 2: tapsets, elaboration, symbols, types, $target variables.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/sema/builtins.c \
	translator/sema/builtins.h \
	translator/sema/checks.c \
	translator/sema/elab.h \
	translator/sema/elaborate.c \
	translator/sema/optimize.c \
	translator/sema/point_glob.c \
	translator/sema/point_glob.h \
	translator/sema/resolve.c \
	translator/sema/resolve_tvar.c \
	translator/sema/resolve_tvar.h \
	translator/sema/sema.h \
	translator/sema/sema_print.c \
	translator/sema/tapset.c \
	translator/sema/tapset.h \
	translator/sema/tvar_access.c \
	translator/sema/tvar_access.h \
	translator/sema/tvar_btf.c \
	translator/sema/tvar_btf.h \
	translator/sema/tvar_walk.c \
	translator/sema/tvar_walk.h \
	translator/sema/types.c
