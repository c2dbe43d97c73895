## testsuite/unit/local.mk -- build rules for testsuite/unit/ (included by the top Makefile.am).
