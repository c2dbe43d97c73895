## runtime/bpf/local.mk -- the BPF backend's runtime (--runtime=bpf).  Not
## built here: tap_bpf.h is included by the BPF C clang compiles for each
## script, user_bpf.c by the user program built with it (runtime/user), so
## both are installed as source beside runtime/user and runtime/core.

TAP_BPF_FILES = \
	runtime/bpf/tap_bpf.h \
	runtime/bpf/tap_bpf_abi.h \
	runtime/bpf/user_bpf.c

nobase_dist_pkgdata_DATA += $(TAP_BPF_FILES)
EXTRA_DIST += runtime/bpf/README.md
