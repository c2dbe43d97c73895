## translator/local.mk -- tapc, the translator. Pass 1 (lexer, preprocessor,
## grammar, printer) is built into a library shared by tapc, the unit tests
## and the fuzz target.

include translator/debuginfo/local.mk

noinst_LIBRARIES += translator/libtapc.a
translator_libtapc_a_SOURCES = \
	translator/arena.c translator/arena.h \
	translator/diag.c translator/diag.h \
	translator/session.h \
	translator/options.c translator/options.h \
	translator/ast.c translator/ast.h \
	translator/lex.l translator/lex.h \
	translator/grammar.y \
	translator/preproc.c translator/preproc.h \
	translator/pp_cond.c translator/pp_cond.h \
	translator/parse.c translator/parse.h \
	translator/parse_build.c translator/parse_expr.c \
	translator/parse_at.c translator/parse_build.h \
	translator/print.c \
	translator/target.c translator/target.h \
	translator/ast_clone.c \
	translator/tapset.c translator/tapset.h \
	translator/sema.h translator/elab.h \
	translator/elaborate.c translator/resolve.c translator/types.c \
	translator/pp_glob.c translator/pp_glob.h \
	translator/optimize.c translator/sema_print.c translator/checks.c \
	translator/strlit.c translator/strlit.h \
	translator/listing.c translator/listing.h \
	translator/target_access.c translator/target_access.h \
	translator/target_btf.c translator/target_btf.h \
	translator/target_walk.c translator/target_walk.h \
	translator/resolve_target.c translator/resolve_target.h \
	translator/codegen_target.c translator/codegen_target.h \
	translator/providers/provider.h translator/providers/registry.c \
	translator/providers/begin_end.c translator/providers/timer.c \
	translator/providers/tracepoint.c translator/providers/kprobe.c \
	translator/providers/unsupported.c \
	translator/providers/shapes.c translator/providers/shapes.h \
	translator/providers/syscall.c translator/providers/syscall_table.c \
	translator/providers/kfunc.c translator/providers/kfunc.h \
	translator/providers/dwarf.c \
	translator/providers/dwarf_access.c \
	translator/providers/dwarf_access.h \
	translator/providers/process.c translator/providers/procfs.c \
	translator/providers/process_dwarf.c translator/providers/process_dwarf.h \
	translator/providers/syscall_table.h \
	translator/hash.c translator/hash.h \
	translator/paths.c translator/paths.h \
	translator/spawn.c translator/spawn.h \
	translator/kbuild.c translator/kbuild.h \
	translator/run_kernel.c translator/run_kernel.h
## Pass 3 and the user target's passes 4-5 go into the same library.
include translator/codegen.mk

## What a program linking the translator adds to its LDADD.
TAPC_LIBS = translator/libtapc.a runtime/libtapcore.a $(DEBUGINFO_LIBS)

## The generated lexer and parser silence the few warnings flex's and
## bison's own code gives (pragmas at their top), not ours.
AM_YFLAGS = -d -Wall -Wno-yacc

BUILT_SOURCES += translator/grammar.h


bin_PROGRAMS += tapc
tapc_SOURCES = translator/main.c
tapc_LDADD = $(TAPC_LIBS)
