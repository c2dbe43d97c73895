/*
 * arena.h -- the translator's memory: one arena per session, zeroed
 * allocations, fatal on exhaustion, freed once at exit. Passes never call
 * free(); anything that must outlive a pass lives in the session arena.
 */
#ifndef TAPC_COMMON_ARENA_H
#define TAPC_COMMON_ARENA_H

#include <stdarg.h>
#include <stddef.h>

struct arena;

struct arena *arena_new(void);
void arena_destroy(struct arena *a);

/* Zeroed memory aligned for any object; never returns NULL. */
void *arena_alloc(struct arena *a, size_t size);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t len);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *arena_vprintf(struct arena *a, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Grow an arena-owned array of `elem` bytes per item to hold at least
 * `need` items; *cap is updated. The old block is simply abandoned. */
void *arena_grow(struct arena *a, void *items, size_t elem, int *cap,
		 int need);

#endif
