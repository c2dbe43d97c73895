/*
 * hash.c -- two independent 64-bit FNV-1a streams with a final avalanche
 * mix, giving 128 bits.
 */
#include "translator/common/hash.h"

#include <stdio.h>
#include <string.h>

#define FNV_PRIME 0x100000001b3ull

void
hash_init(struct hash *h)
{
	h->a = 0xcbf29ce484222325ull;
	h->b = 0x84222325cbf29ce4ull;
	h->len = 0;
}

void
hash_bytes(struct hash *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h->a = (h->a ^ p[i]) * FNV_PRIME;
		h->b = (h->b ^ (unsigned char)(p[i] + 0x5b)) * FNV_PRIME;
		h->b ^= h->b >> 29;
	}
	h->len += len;
}

void
hash_str(struct hash *h, const char *s)
{
	hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

void
hash_int(struct hash *h, int64_t v)
{
	hash_bytes(h, &v, sizeof(v));
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

void
hash_hex(const struct hash *h, char out[33])
{
	snprintf(out, 33, "%016llx%016llx",
		 (unsigned long long)mix(h->a ^ h->len),
		 (unsigned long long)mix(h->b + h->len));
}
