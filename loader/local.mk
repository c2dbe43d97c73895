## loader/local.mk -- build rules for loader/ (included by the top Makefile.am).
