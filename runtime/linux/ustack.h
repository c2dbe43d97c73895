/*
 * ustack.h -- the user stack of the current task and the names of user
 * addresses, for ubacktrace(), print_ubacktrace(), usymname() & co.
 *
 * The walk follows frame pointers (rbp chains) with no-fault reads, at
 * most TAP_UBT_FRAMES deep, stopping at the first frame that does not look
 * like one; code built without frame pointers (Debian's libc) ends the
 * walk early.  Names come from the symbol tables tapc embedded for the
 * probed programs and the files given with -d/--ldd, matched to the task's
 * mappings by inode.  Never sleeps: the mapping is looked up under
 * mmap_read_trylock, and when that fails the address is printed bare.
 */
#ifndef TAP_LINUX_USTACK_H
#define TAP_LINUX_USTACK_H

#include <linux/types.h>

struct tap_context;

#ifndef TAP_UBT_FRAMES
#define TAP_UBT_FRAMES 20
#endif

/* The user pc of the probe (the probed instruction for a uprobe, the
 * interrupted user pc for a kernel probe), or 0. */
unsigned long tap_uaddr(struct tap_context *c);

/* Fill frames (TAP_UBT_FRAMES) with the user stack; how many. */
unsigned int tap_ubt_save(struct tap_context *c, unsigned long *frames);

/* What an address is: its file, symbol and offset in it.  Fields are
 * NULL/0 when unknown. */
struct tap_usym_info {
	const char *path;	/* the file mapped there */
	const char *name;	/* the symbol */
	unsigned long offset;	/* addr - symbol start */
	unsigned long size;	/* symbol size */
	unsigned long file_offset;
};
bool tap_usym_lookup(unsigned long addr, struct tap_usym_info *info);

/* " 0x... : sym+0x1d/0x2f [/path]\n" (or less when unknown) into buf. */
int tap_usym_format_frame(char *buf, size_t size, unsigned long addr);
/* "sym+0x1d/0x2f [file]", as usymdata() */
int tap_usym_format_data(char *buf, size_t size, unsigned long addr);

#endif /* TAP_LINUX_USTACK_H */
