## tapsets/local.mk -- build rules for tapsets/ (included by the top Makefile.am).
