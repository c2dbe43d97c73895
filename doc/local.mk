## doc/local.mk -- build rules for doc/ (included by the top Makefile.am).
## The man pages are written by hand in roff and installed as they are.
dist_man_MANS += doc/tapc.1 doc/taprun.8
