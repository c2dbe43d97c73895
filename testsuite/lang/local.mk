## testsuite/lang/local.mk -- build rules for testsuite/lang/ (included by the top Makefile.am).
