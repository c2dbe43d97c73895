/*
 * hash.c -- SHA-256 content hashes for cache keys (see hash.h), over
 * nettle's implementation.
 */
#include "translator/common/hash.h"

#include <stdio.h>
#include <string.h>

void
hash_init(struct hash *h)
{
	sha256_init(&h->sha);
}

void
hash_bytes(struct hash *h, const void *data, size_t len)
{
	sha256_update(&h->sha, len, data);
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

void
hash_contents(struct hash *h, const char *path)
{
	char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		hash_bytes(h, buf, n);
	fclose(f);
}

void
hash_file(struct hash *h, const char *path)
{
	hash_str(h, path);
	hash_contents(h, path);
}

void
hash_hex(const struct hash *h, char out[HASH_HEX_SIZE])
{
	struct sha256_ctx copy = h->sha;	/* sha256_digest resets it */
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256_digest(&copy, sizeof(digest), digest);
	for (size_t i = 0; i < sizeof(digest); i++)
		snprintf(out + 2 * i, 3, "%02x", digest[i]);
}
