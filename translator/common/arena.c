/*
 * arena.c -- bump allocator in large chunks. Big requests get a chunk of
 * their own so that the current chunk is not wasted. Chunks are mapped
 * with their pages populated: one fault-free mapping per 256 KiB rather
 * than a page fault per 4 KiB as the parser first touches them (a third
 * of `tapc -p1`'s time on a host where faults are dear).
 */
#include "translator/common/arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ARENA_CHUNK (256 * 1024)
#define ARENA_ALIGN 16

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

struct arena {
	struct arena_chunk *head;
};

static void *
xcalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		fprintf(stderr, "tapc: fatal: out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

struct arena *
arena_new(void)
{
	return xcalloc(sizeof(struct arena));
}

void
arena_destroy(struct arena *a)
{
	struct arena_chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		munmap(c, sizeof(*c) + c->size);
	}
	free(a);
}

static struct arena_chunk *
arena_add_chunk(struct arena *a, size_t size, int make_current)
{
	struct arena_chunk *c = mmap(NULL, sizeof(*c) + size, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (c == MAP_FAILED) {
		fprintf(stderr, "tapc: fatal: out of memory (%zu bytes)\n", size);
		exit(2);
	}

	c->size = size;
	if (make_current || !a->head) {
		c->next = a->head;
		a->head = c;
	} else {
		/* Keep the current chunk at the head for further small
		 * allocations. */
		c->next = a->head->next;
		a->head->next = c;
	}
	return c;
}

void *
arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->head;
	size_t rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);

	if (rounded == 0)
		rounded = ARENA_ALIGN;
	if (rounded > ARENA_CHUNK / 4) {
		c = arena_add_chunk(a, rounded, 0);
		c->used = rounded;
		return c->data;
	}
	if (!c || c->size - c->used < rounded)
		c = arena_add_chunk(a, ARENA_CHUNK, 1);
	void *p = c->data + c->used;
	c->used += rounded;
	return p;
}

char *
arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *
arena_vprintf(struct arena *a, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

void *
arena_grow(struct arena *a, void *items, size_t elem, int *cap, int need)
{
	int ncap = *cap ? *cap : 4;

	if (need <= *cap)
		return items;
	while (ncap < need)
		ncap *= 2;
	void *p = arena_alloc(a, elem * (size_t)ncap);
	if (items && *cap)
		memcpy(p, items, elem * (size_t)*cap);
	*cap = ncap;
	return p;
}
