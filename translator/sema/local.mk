## translator/sema/local.mk -- pass 2, elaboration: pulling in what a
## script uses of the tapset library (parsed by pass 1, parse/tapset.h),
## probe aliases and wildcards (elaborate.c, point_glob.c),
## @entry in syscall returns (entry_split.c), names (resolve.c), $target variables (resolve_tvar.c, tvar_*.c),
## types (types.c), the builtin signatures (builtins.c), --privilege
## (privilege.c), checks and
## dropping unused code (checks.c, optimize.c), -p2 (sema_print.c).
## Entry header: sema.h (pass_elaborate(), struct program); elab.h is
## shared with the providers (and the driver's listing.c).  Must not
## include codegen/ or build/: pass 3 reads what this pass leaves in the
## program and the tree; pass 2 does not know how it becomes C.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/sema/builtins.c \
	translator/sema/builtins.h \
	translator/sema/checks.c \
	translator/sema/elab.h \
	translator/sema/elaborate.c \
	translator/sema/entry_split.c \
	translator/sema/optimize.c \
	translator/sema/point_glob.c \
	translator/sema/point_glob.h \
	translator/sema/privilege.c \
	translator/sema/resolve.c \
	translator/sema/resolve_tvar.c \
	translator/sema/resolve_tvar.h \
	translator/sema/sema.h \
	translator/sema/sema_print.c \
	translator/sema/tvar_access.c \
	translator/sema/tvar_access.h \
	translator/sema/tvar_btf.c \
	translator/sema/tvar_btf.h \
	translator/sema/tvar_walk.c \
	translator/sema/tvar_walk.h \
	translator/sema/types.c
