## translator/local.mk -- tapc, the translator, one folder per pass:
##   driver/    the command line and the order of the passes (main.c), -l/-L
##   common/    the arena, diagnostics and content hashes every pass uses
##   parse/     pass 1: preprocessor, lexer, grammar, syntax trees, -p1
##   sema/      pass 2: tapsets, elaboration, symbols, types, $target vars
##   providers/ the probe families, each whole (matching, context, C)
##   debuginfo/ where kernel and program facts come from (BTF, DWARF, ELF)
##   codegen/   pass 3: the C of a script
##   build/     passes 4 and 5: kbuild or cc, then taprun or the program
## Each folder's local.mk opens with what it is, its entry header and what
## it must not include.  The passes depend downwards only: parse <- sema
## <- codegen <- build, providers beside sema, debuginfo and common under
## all, the driver above all; no pass includes a later pass's header.
## Everything but main.c goes into libtapc.a, which tapc, the unit tests
## and the fuzz target link.

noinst_LIBRARIES += translator/libtapc.a
translator_libtapc_a_SOURCES =

include translator/debuginfo/local.mk
include translator/common/local.mk
include translator/driver/local.mk
include translator/parse/local.mk
include translator/sema/local.mk
include translator/providers/local.mk
include translator/codegen/local.mk
include translator/build/local.mk

## What a program linking the translator adds to its LDADD.
TAPC_LIBS = translator/libtapc.a runtime/libtapcore.a $(DEBUGINFO_LIBS) \
	$(NETTLE_LIBS)

bin_PROGRAMS += tapc
tapc_SOURCES = translator/driver/main.c
tapc_LDADD = $(TAPC_LIBS)
