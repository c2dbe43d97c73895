## bench/local.mk -- build rules for bench/ (included by the top Makefile.am).
