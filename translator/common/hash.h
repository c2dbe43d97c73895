/*
 * hash.h -- a 128-bit content hash for cache keys (built modules). Not
 * cryptographic: it only has to tell different inputs apart.
 */
#ifndef TAPC_COMMON_HASH_H
#define TAPC_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

struct hash {
	uint64_t a, b;
	uint64_t len;
};

void hash_init(struct hash *h);
void hash_bytes(struct hash *h, const void *data, size_t len);
void hash_str(struct hash *h, const char *s);	/* with its terminator */
void hash_int(struct hash *h, int64_t v);
/* 32 hex digits into out[33]. */
void hash_hex(const struct hash *h, char out[33]);

#endif
