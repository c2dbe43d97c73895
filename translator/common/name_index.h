/*
 * name_index.h -- find declarations by name in constant time.
 *
 * Pass 1 and pass 2 look names up in lists that grow with the script and
 * the library (functions, globals, their symbols).  Scanning the list for
 * each lookup made a script of 20,000 functions take seconds; an index
 * keeps lookups O(1) while each name's entries stay in the order they
 * were added, which is the order the language's rules walk them in (the
 * first visible definition wins).
 */
#ifndef TAPC_COMMON_NAME_INDEX_H
#define TAPC_COMMON_NAME_INDEX_H

struct arena;
struct name_index;

/* One item filed under a name; `next` is the next item of the same name,
 * in the order they were added. */
struct name_entry {
	void *item;
	struct name_entry *next;
};

/* An empty index whose memory lives in `a` (never freed on its own). */
struct name_index *name_index_new(struct arena *a);
/* File `item` under `name` (not copied: it must outlive the index), after
 * the items already there. */
void name_index_add(struct name_index *ix, const char *name, void *item);
/* The first item filed under `name`, or NULL. */
const struct name_entry *name_index_find(const struct name_index *ix,
					 const char *name);

#endif
