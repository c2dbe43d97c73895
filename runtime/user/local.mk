## runtime/user/local.mk -- the user-space platform. It is not built here:
## every program tapc makes for --target=user includes runtime/user/runtime.c
## whole (with the core), so it is installed as source beside the core.

TAP_USER_FILES = \
	runtime/user/runtime.h \
	runtime/user/runtime.c \
	runtime/user/context.c \
	runtime/user/main.c \
	runtime/user/command.h \
	runtime/user/timing.h \
	runtime/user/timing.c

nobase_dist_pkgdata_DATA += $(TAP_USER_FILES)
EXTRA_DIST += runtime/user/README.md
