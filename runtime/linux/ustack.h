/*
 * ustack.h -- the user stack of the current task and the names of user
 * addresses, for ubacktrace(), print_ubacktrace(), usymname() & co.
 *
 * The walk unwinds with the call frame information (CFI) tapc embedded
 * for the probed programs and the files given with -d/--ldd (struct
 * tap_ucfi, from their .eh_frame/.debug_frame), so code built without
 * frame pointers (Debian's libc) is walked through; where no table covers
 * a pc it follows frame pointers (rbp chains).  Reads are no-fault, the
 * walk is at most TAP_UBT_FRAMES deep and stops at the first frame that
 * does not look like one.  Names come from the symbol tables of the same
 * files, matched to the task's mappings by inode.  Never sleeps: mappings
 * are looked up under mmap_read_trylock; when that fails the walk follows
 * frame pointers only and addresses are printed bare.  Built with
 * -D TAP_UBT_NO_CFI, the walk ignores the tables (frame pointers only:
 * for comparing the two, bench/vm-ubt).
 */
#ifndef TAP_LINUX_USTACK_H
#define TAP_LINUX_USTACK_H

#include <linux/types.h>

struct tap_context;

/*
 * The CFI of one user file, made by translator/codegen/codegen_ucfi.c from
 * translator/debuginfo/cfi.h's table: rows sorted by file offset, each
 * lasting up to the next, with the index of its rule (TAP_UCFI_NONE: no
 * CFI there).  Rows are grouped in blocks (at most TAP_UCFI_BLOCK rows,
 * spanning less than 64 KiB) so that a row costs 4 bytes: its offset from
 * the block's start and its rule.  Lookup: binary search of the blocks,
 * then of the block's rows.
 */
enum tap_ucfi_cfa_kind {	/* as cfi.h's enum cfi_cfa_kind */
	TAP_UCFI_CFA_UNKNOWN, TAP_UCFI_CFA_REG, TAP_UCFI_CFA_DEREF,
	TAP_UCFI_CFA_PLT,
};
enum tap_ucfi_reg_kind {	/* as cfi.h's enum cfi_reg_kind */
	TAP_UCFI_UNDEF, TAP_UCFI_SAME, TAP_UCFI_AT_CFA, TAP_UCFI_VAL_CFA,
	TAP_UCFI_AT_REG, TAP_UCFI_VAL_REG, TAP_UCFI_UNKNOWN,
};
#define TAP_UCFI_NONE	0xffff
#define TAP_UCFI_BLOCK	32

struct tap_ucfi_reg {
	u8 kind;		/* enum tap_ucfi_reg_kind */
	u8 reg;			/* DWARF register number */
	s16 off;
};

struct tap_ucfi_rule {
	s32 cfa_off;
	u8 cfa_kind;		/* enum tap_ucfi_cfa_kind */
	u8 cfa_reg;		/* DWARF register; _PLT: the pc & 15 limit */
	u8 signal;		/* a signal frame: the caller's pc is exact */
	u8 pad;
	struct tap_ucfi_reg ra, sp, bp;
};

struct tap_ucfi_block {
	u32 start;		/* file offset of the block's first row */
	u32 first;		/* index of that row */
};

struct tap_ucfi {
	const struct tap_ucfi_block *blocks;
	u32 nblocks;
	u32 nrows;
	const u16 *delta;	/* row start - its block's start */
	const u16 *rule;	/* index into rules, or TAP_UCFI_NONE */
	const struct tap_ucfi_rule *rules;
};

/* How deep a walk goes: SystemTap's -D MAXBACKTRACE=N is honoured (the
 * frames are a local array: keep it to a few hundred at most). */
#ifndef TAP_UBT_FRAMES
#ifdef MAXBACKTRACE
#define TAP_UBT_FRAMES MAXBACKTRACE
#else
#define TAP_UBT_FRAMES 20
#endif
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

/* umodaddr(): addr's offset from its file's base in the current task (the
 * start of the mapping of the file's first page; without one, of the
 * mapping's start less its file offset); false when no file maps addr or
 * the mappings cannot be read now. */
bool tap_umod_offset(unsigned long addr, unsigned long *offset);
/* umodbuildid(): the GNU build id (hex) of the file mapped at addr, when
 * it is one tapc has tables for (probed, -d, --ldd); else NULL. */
const char *tap_umod_build_id(unsigned long addr);

/* " 0x... : sym+0x1d/0x2f [/path]\n" (or less when unknown) into buf. */
int tap_usym_format_frame(char *buf, size_t size, unsigned long addr);
/* The same line straight into the probe's output (print_ustack(): a deep
 * stack with long paths is longer than a MAXSTRINGLEN string). */
void tap_usym_print_frame(struct tap_context *c, unsigned long addr);
/* Those lines for a whole stack, under one mmap lock: into buf (how many
 * bytes), or into the probe's output (print_ubacktrace()). */
size_t tap_ubt_sprint(char *buf, size_t size, const unsigned long *frames,
		      unsigned int n);
void tap_ubt_print(struct tap_context *c, const unsigned long *frames,
		   unsigned int n);
/* "sym+0x1d/0x2f [file]", as usymdata() */
int tap_usym_format_data(char *buf, size_t size, unsigned long addr);

#endif /* TAP_LINUX_USTACK_H */
