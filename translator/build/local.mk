## translator/build/local.mk -- passes 4 and 5: kbuild or cc, then taprun or the program.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/build/build_user.c \
	translator/build/build_user.h \
	translator/build/kbuild.c \
	translator/build/kbuild.h \
	translator/build/run_kernel.c \
	translator/build/run_kernel.h \
	translator/build/run_user.c
