## runtime/local.mk -- build rules for runtime/ (included by the top Makefile.am).
