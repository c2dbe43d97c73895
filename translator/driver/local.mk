## translator/driver/local.mk -- the driver: the command line (options.c),
## the session every pass shares (session.h), where tapc's files are
## (paths.c), what this machine offers (host_caps.c) and whether a run
## can load its module here (preflight.c), the stripped and signed copy
## of a module that leaves the cache (deploy_module.c, sign_key.c), -v's
## per-pass lines (pass_report.c), what --compatible changes (compat.c), the kernel facts
## %( %) conditions test (kernel_facts.c), child processes (spawn.c), -l/-L and --dump-* (listing.c), and main.c,
## which runs the passes in order through each pass's entry header
## (parse/parse.h, sema/sema.h, codegen/codegen.h, build/*.h).  Entry
## header for the passes: session.h.  The driver is the only folder that
## may include every pass; it must not include a pass's private headers
## (codegen/codegen_int.h), and only listing.c, which elaborates a probe
## point itself, includes sema/elab.h.
## Included from translator/local.mk; all but main.c (tapc_SOURCES there)
## go into translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/driver/compat.c \
	translator/driver/compat.h \
	translator/driver/deploy_module.c \
	translator/driver/deploy_module.h \
	translator/driver/host_caps.c \
	translator/driver/host_caps.h \
	translator/driver/kernel_facts.c \
	translator/driver/kernel_facts.h \
	translator/driver/listing.c \
	translator/driver/listing.h \
	translator/driver/options.c \
	translator/driver/options.h \
	translator/driver/paths.c \
	translator/driver/paths.h \
	translator/driver/pass_report.c \
	translator/driver/pass_report.h \
	translator/driver/preflight.c \
	translator/driver/preflight.h \
	translator/driver/remote.c \
	translator/driver/remote.h \
	translator/driver/session.h \
	translator/driver/sign_key.c \
	translator/driver/sign_key.h \
	translator/driver/spawn.c \
	translator/driver/spawn.h
