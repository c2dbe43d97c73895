## runtime/local.mk -- build rules for runtime/ (included by the top Makefile.am).
##
## runtime/core/ is built here as a user-space static library for the unit
## tests, the benchmarks and the user-space target.  The same sources are
## installed under $(pkgdatadir)/runtime/core so that the kernel target can
## include them into each module it builds.

TAP_CORE_H_FILES = \
	runtime/core/abi.h \
	runtime/core/platform.h \
	runtime/core/error.h \
	runtime/core/buf.h \
	runtime/core/value.h \
	runtime/core/arith.h \
	runtime/core/stat.h \
	runtime/core/map.h \
	runtime/core/format.h \
	runtime/core/tapstring.h \
	runtime/core/json.h \
	runtime/core/merge.h \
	runtime/core/timing.h \
	runtime/core/fp.h \
	runtime/core/match.h \
	runtime/core/limits.h \
	runtime/core/handler.h \
	runtime/core/core.h

TAP_CORE_C_FILES = \
	runtime/core/platform.c \
	runtime/core/error.c \
	runtime/core/buf.c \
	runtime/core/stat.c \
	runtime/core/hist.c \
	runtime/core/map.c \
	runtime/core/pmap.c \
	runtime/core/cmap.c \
	runtime/core/format.c \
	runtime/core/tapstring.c \
	runtime/core/json.c \
	runtime/core/merge.c \
	runtime/core/timing.c \
	runtime/core/fp.c \
	runtime/core/match.c

noinst_LIBRARIES += runtime/libtapcore.a
runtime_libtapcore_a_SOURCES = $(TAP_CORE_C_FILES) $(TAP_CORE_H_FILES)

## all.c includes every core source, for the kernel build only.
## sysfmt.c and sysstruct.c are the syscall tapsets'
## (runtime/linux/tapset_sysfmt.c).
nobase_dist_pkgdata_DATA += $(TAP_CORE_C_FILES) $(TAP_CORE_H_FILES) \
	runtime/core/all.c runtime/core/sysfmt.c runtime/core/sysfmt.h \
	runtime/core/sysstruct.c runtime/core/sysstruct.h

EXTRA_DIST += runtime/core/README.md
include runtime/user/local.mk
include runtime/bpf/local.mk
