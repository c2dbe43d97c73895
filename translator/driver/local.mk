## translator/driver/local.mk -- the command line, the session, paths, spawning programs, -l/-L.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/driver/kernel_facts.c \
	translator/driver/kernel_facts.h \
	translator/driver/listing.c \
	translator/driver/listing.h \
	translator/driver/options.c \
	translator/driver/options.h \
	translator/driver/paths.c \
	translator/driver/paths.h \
	translator/driver/session.h \
	translator/driver/spawn.c \
	translator/driver/spawn.h
