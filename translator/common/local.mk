## translator/common/local.mk -- what every pass uses: the arena (arena.h),
## diagnostics with the table of their ids (diag.h, diag_ids.def),
## content hashes for cache keys (hash.h), name lookups (name_index.h).
## Each header is an entry point of its own.  Must not include anything of
## the translator outside common/: every other folder depends on it, so it
## depends on none.
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
	translator/common/hash.h \
	translator/common/name_index.c \
	translator/common/name_index.h
