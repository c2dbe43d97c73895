## loader/local.mk -- taprun, the module loader (plain C, libc only; see
## loader/taprun.c), and loader/taprun-static, the same program linked
## statically for the VM's initramfs (installed in pkglibexecdir, where
## `tapc --vm` looks for it).

TAPRUN_SOURCES = \
	loader/taprun.c \
	loader/taprun.h \
	loader/ctl.c \
	loader/relay.c \
	loader/module.c \
	loader/session_lock.c \
	loader/modinfo.c \
	loader/privilege.c \
	loader/owner.c \
	loader/ksyms.c \
	loader/timezone.c \
	loader/target.c \
	loader/system.c \
	loader/stdin.c \
	runtime/linux/tap_protocol.h

bin_PROGRAMS += taprun
taprun_SOURCES = $(TAPRUN_SOURCES)

pkglibexec_PROGRAMS = loader/taprun-static
loader_taprun_static_SOURCES = $(TAPRUN_SOURCES)
loader_taprun_static_LDFLAGS = -static
