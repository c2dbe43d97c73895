## translator/build/local.mk -- passes 4 and 5: the module built with the
## target kernel's kbuild and kept in a cache (kbuild.c), run by taprun
## here or in a VM (run_kernel.c); or a user-space program built with cc
## (build_user.c) and run (run_user.c).  Entry headers: kbuild.h,
## run_kernel.h, build_user.h.  Must not include codegen/codegen_int.h or
## any pass's private header: it takes pass 3's C text (build_user.c runs
## pass_translate() into its build directory itself).
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/build/build_bpf.c \
	translator/build/build_user.c \
	translator/build/build_user.h \
	translator/build/kbuild.c \
	translator/build/kbuild.h \
	translator/build/kbuild_replay.c \
	translator/build/kbuild_replay.h \
	translator/build/run_kernel.c \
	translator/build/run_kernel.h \
	translator/build/runtime_split.c \
	translator/build/runtime_split.h \
	translator/build/run_user.c
