/*
 * hash.c -- SHA-256 content hashes for cache keys (see hash.h), over
 * nettle's implementation.
 */
#include "translator/common/hash.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static void
hash_tree_at(struct hash *h, const char *dir, int depth)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		const char *nm = names[i]->d_name;
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, nm);
		if (nm[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 4)
				hash_tree_at(h, path, depth + 1);
			else if (S_ISREG(st.st_mode))
				hash_file(h, path);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

void
hash_tree(struct hash *h, const char *dir)
{
	hash_tree_at(h, dir, 0);
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
