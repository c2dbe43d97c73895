## translator/local.mk -- build rules for translator/ (included by the top Makefile.am).
