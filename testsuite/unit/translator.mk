## testsuite/unit/translator.mk -- Check unit tests for the translator's
## pass 1: the lexer, and the parser with its printer and preprocessor;
## the BTF walker of $target paths (sema/tvar_btf.c); and the builtin
## table pass 2 types and pass 3 writes (sema/builtins.c with
## codegen/codegen_builtin.c); and pass 3 translating one program twice
## (test_codegen_state).

if HAVE_CHECK
check_PROGRAMS += testsuite/unit/test_lex testsuite/unit/test_parse \
	testsuite/unit/test_target_btf testsuite/unit/test_builtins \
	testsuite/unit/test_codegen_state
TESTS += testsuite/unit/test_lex testsuite/unit/test_parse \
	testsuite/unit/test_target_btf testsuite/unit/test_builtins \
	testsuite/unit/test_codegen_state

testsuite_unit_test_lex_SOURCES = testsuite/unit/test_lex.c
testsuite_unit_test_lex_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_lex_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)

testsuite_unit_test_parse_SOURCES = testsuite/unit/test_parse.c
testsuite_unit_test_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_parse_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)

testsuite_unit_test_target_btf_SOURCES = testsuite/unit/test_target_btf.c
testsuite_unit_test_target_btf_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_target_btf_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)

testsuite_unit_test_builtins_SOURCES = testsuite/unit/test_builtins.c
testsuite_unit_test_builtins_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_builtins_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)

testsuite_unit_test_codegen_state_SOURCES = testsuite/unit/test_codegen_state.c
testsuite_unit_test_codegen_state_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
testsuite_unit_test_codegen_state_LDADD = $(TAPC_LIBS) $(CHECK_LIBS)
endif
