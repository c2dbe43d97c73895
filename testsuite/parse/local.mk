## testsuite/parse/local.mk -- build rules for testsuite/parse/ (included by the top Makefile.am).
