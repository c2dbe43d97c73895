## testsuite/vm/local.mk -- build rules for testsuite/vm/ (included by the top Makefile.am).
