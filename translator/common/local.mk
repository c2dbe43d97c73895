## translator/common/local.mk -- what every pass uses: the arena, diagnostics
## (with the table of their ids), content hashes.
## Included from translator/local.mk; part of translator/libtapc.a.

translator_libtapc_a_SOURCES += \
	translator/common/arena.c \
	translator/common/arena.h \
	translator/common/diag.c \
	translator/common/diag.h \
	translator/common/diag_ids.def \
	translator/common/diag_registry.c \
	translator/common/diag_registry.h \
	translator/common/hash.c \
	translator/common/hash.h
