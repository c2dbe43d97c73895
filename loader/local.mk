## loader/local.mk -- taprun, the module loader (plain C, libc only; see
## loader/taprun.c), and loader/taprun-static, the same program linked
## statically for the VM's initramfs (installed in pkglibexecdir, where
## `tapc --vm` looks for it, and as bindir's taprun-static for copying to
## the machines a module is built for).

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
	loader/flight.c \
	loader/daemon.c \
	runtime/linux/tap_protocol.h

bin_PROGRAMS += taprun
taprun_SOURCES = $(TAPRUN_SOURCES)

pkglibexec_PROGRAMS = loader/taprun-static
loader_taprun_static_SOURCES = $(TAPRUN_SOURCES)
loader_taprun_static_LDFLAGS = -static

# The static loader a server needs, under a name a user finds: bindir's
# taprun-static is the same file as pkglibexecdir's (tapc --vm's), for
# copying to a machine that has no tapc (build there with `tapc -p4 -r
# KREL -m NAME`, copy NAME.ko and taprun-static, run).
install-exec-local: loader/taprun-static
	$(MKDIR_P) '$(DESTDIR)$(bindir)'
	$(INSTALL_PROGRAM) loader/taprun-static '$(DESTDIR)$(bindir)/taprun-static'

uninstall-local:
	rm -f '$(DESTDIR)$(bindir)/taprun-static'
