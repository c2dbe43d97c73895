/*
 * hash.h -- the content hash of cache keys (built modules and programs).
 *
 * SHA-256 (nettle): a module is loaded from the cache by its key alone, so
 * two different inputs must never share one; a non-cryptographic hash let
 * a crafted or unlucky collision load the wrong module.
 */
#ifndef TAPC_COMMON_HASH_H
#define TAPC_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <nettle/sha2.h>

struct hash {
	struct sha256_ctx sha;
};

/* Hex digits of a key, and the size of a buffer for them. */
#define HASH_HEX_LEN (2 * SHA256_DIGEST_SIZE)
#define HASH_HEX_SIZE (HASH_HEX_LEN + 1)

void hash_init(struct hash *h);
void hash_bytes(struct hash *h, const void *data, size_t len);
void hash_str(struct hash *h, const char *s);	/* with its terminator */
void hash_int(struct hash *h, int64_t v);
/* A file's bytes, not its name (a build directory's is new each time);
 * nothing when it cannot be read. */
void hash_contents(struct hash *h, const char *path);
/* A file's name, then its bytes. */
void hash_file(struct hash *h, const char *path);
/* Every regular file under dir (4 levels down at most), in name order,
 * each as hash_file() does: an edited, added or removed file changes the
 * key, with no list of names to keep up to date. */
void hash_tree(struct hash *h, const char *dir);
/* The digest so far as HASH_HEX_LEN hex digits; `h` may go on. */
void hash_hex(const struct hash *h, char out[HASH_HEX_SIZE]);

#endif
