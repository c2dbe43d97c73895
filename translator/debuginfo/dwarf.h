/*
 * dwarf.h -- functions, source lines, variables and types from DWARF
 * debug info (elfutils libdw/libdwfl), for probes on kernel modules built
 * with -g, on the kernel's debug vmlinux, and on user ELF binaries.
 *
 * One `struct dw_file` is one ELF file with its DWARF: a relocatable
 * kernel module (.ko, ET_REL: libdwfl applies the relocations of its
 * debug sections), a vmlinux (ET_EXEC) or a user executable or shared
 * library (ET_EXEC / ET_DYN).  Addresses handed out are in the file's own
 * layout; what is stable across loads is `symbol` + `offset` of a site, so
 * kprobes (symbol_name "mod:func", .offset) and uprobes (file offset from
 * the symbol) are placed from that, never from an absolute address.
 *
 * Reading is lazy and cached in the dw_file: the function index (every
 * subprogram of every CU, name -> DIE) is built once on the first lookup
 * (and kept on disk for big files, dwarf_cache.c), the symbol table,
 * named types and each site's variables likewise, so elaborating many
 * probes and variables does not re-read CUs.
 *
 * For user binaries (process("PATH").function): dw_open(PATH), then
 * dw_find_sites / dw_site_vars exactly as for a module; `link_pc` is the
 * site's address in the ELF file's own terms (turn it into a file offset
 * through the program headers).  A variable's location (struct dw_loc)
 * names DWARF registers, which the caller maps to its register set
 * (dw_x86_64_pt_regs_name gives the struct pt_regs field for x86_64, the
 * same layout uprobes hand their handlers); DW_LOC_EXPR is C over `__r`,
 * a struct pt_regs *, that may read memory (see struct dw_piece).
 * providers/dwarf_access.h turns all of it into
 * target_access reads.  Not thread-safe; one process, many files.
 */
#ifndef TAPC_DEBUGINFO_DWARF_H
#define TAPC_DEBUGINFO_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dw_file;

/* Open `path` (or return the already-open one: files are cached by path
 * for the life of the process). NULL with a message in err. */
struct dw_file *dw_open(const char *path, char *err, size_t errlen);
/* Close every file dw_open opened (at exit; sites and vars go too). */
void dw_close_all(void);
const char *dw_path(const struct dw_file *f);
/* Whether the file is a relocatable kernel module. */
bool dw_is_module(const struct dw_file *f);

/* Where Debian and kbuild put things, for kernel release `krel`: the
 * debug vmlinux (/usr/lib/debug/boot/vmlinux-KREL or
 * /usr/lib/debug/lib/modules/KREL/vmlinux), or NULL; and a module by name
 * (an absolute path is taken as is; else /usr/lib/debug/lib/modules/KREL/
 * then /lib/modules/KREL/ via modules.dep and a search of the tree, '-'
 * and '_' alike). Both malloc'd. */
char *dw_kernel_vmlinux(const char *krel);
char *dw_kernel_module(const char *krel, const char *name, char *err,
		       size_t errlen);

/* ---- probe sites ---- */

enum dw_site_kind {
	DW_SITE_FUNCTION,	/* after the prologue of a function */
	DW_SITE_INLINE,		/* the entry of one inlined instance */
	DW_SITE_STATEMENT,	/* the first address of a source line */
	DW_SITE_RETURN,		/* a function, for a return probe */
};

struct dw_site {
	enum dw_site_kind kind;
	const char *function;	/* the source function's name */
	const char *decl_file;	/* where it is declared (full path) */
	int decl_line;
	int line;		/* DW_SITE_STATEMENT: the line probed */
	uint64_t pc;		/* probe address, file layout */
	uint64_t link_pc;	/* the same as the ELF file's own address
				 * (p_vaddr terms: for a user executable or
				 * library, what uprobes turn into a file
				 * offset through the program headers) */
	/* The ELF symbol holding pc (the out-of-line caller for an inline
	 * instance) and pc's offset from it: what a probe registers.  When
	 * several functions of a vmlinux share the name, the symbol is
	 * _stext (or _text) instead, which a name lookup finds uniquely.
	 * Functions in sections kprobes refuse or that are freed after
	 * boot (.init.text, .noinstr.text, ...) have no sites. */
	const char *symbol;
	uint64_t offset;
	bool external;		/* DW_AT_external */
	bool exported;		/* .exported: EXPORT_SYMBOL'd (a
				 * __ksymtab_NAME symbol) in a kernel file;
				 * external in any other ELF file */
	/* private: the DIE whose scope the variables come from */
	uint64_t die_off;
	uint64_t cu_off;
};

/*
 * What to look for: `func` is a wildcard pattern (fnmatch, as in
 * "vfs_*"); `file` NULL or a pattern matched against the end of the
 * declaring file's path ("fs/read_write.c", "*.c"); `line_lo..line_hi`
 * the declaration line range (0 = any), or for DW_SITE_STATEMENT the
 * source lines to probe.  A single line that is not a declaration line
 * matches the function whose code holds it (as SystemTap: a function
 * probe, though a statement probe is what such a line usually wants).
 * With `relative` (FUNC@FILE+N), line_lo is N lines after each matching
 * function's declaration line.
 */
struct dw_query {
	const char *func;
	const char *file;
	int line_lo, line_hi;
	enum dw_site_kind kind;
	bool every_line;	/* DW_SITE_STATEMENT: FUNC@FILE:* */
	bool relative;		/* FUNC@FILE+N: line_lo is N */
};

/* "FUNC[@FILE[:LINE[-LINE2]|:*|+N]]" into q (func, file, lines; kind
 * untouched), cutting `spec` in place: the strings point into it.  False
 * when malformed. */
bool dw_query_parse(char *spec, struct dw_query *q);

/* For a statement query that found no line: the closest lines before
 * and after it that have code in the matching functions (0: none), for a
 * hint.  False when there are none. */
bool dw_nearby_lines(struct dw_file *f, const struct dw_query *q,
		     int *before, int *after);

typedef bool (*dw_site_fn)(const struct dw_site *site, void *ctx);

/* Calls fn for every matching site (fn returns false to stop); returns
 * how many were found, or -1 with a message. Sites point into the file's
 * cache and stay valid while it is open. */
int dw_find_sites(struct dw_file *f, const struct dw_query *q,
		  dw_site_fn fn, void *ctx, char *err, size_t errlen);

/* ---- the sites of a query over many files, kept on disk ----
 * (dwarf_sitecache.c) A module wildcard's sites per module file, under a
 * key naming the query, so that a later run with the same query opens no
 * DWARF until a probe's variables are asked for. */
struct dw_site_cache;

/* The cache of `key` (read from disk if it is there); never NULL. */
struct dw_site_cache *dw_site_cache_open(const char *key);
/* The sites recorded for the DWARF file `path` (its size and mtime must
 * be those recorded): their count with *out pointing at them (valid until
 * dw_site_cache_close), or -1 when there are none. */
int dw_site_cache_get(struct dw_site_cache *c, const char *path,
		      const struct dw_site **out);
/* Record path's sites; `path` and the sites' strings must stay valid
 * until dw_site_cache_close. */
void dw_site_cache_put(struct dw_site_cache *c, const char *path,
		       const struct dw_site *const *sites, int n);
/* Write the cache back when something was put; free it. */
void dw_site_cache_close(struct dw_site_cache *c);

/* ---- variables and their locations ---- */

enum dw_loc_kind {
	DW_LOC_REG,		/* the value is in register `reg` */
	DW_LOC_MEM,		/* the object is in memory at reg + offset */
	DW_LOC_REG_VALUE,	/* the value is reg + offset (no object) */
	DW_LOC_CONST,		/* the value is `value` (no object) */
	DW_LOC_EXPR,		/* `expr`: C arithmetic (uint64_t) over
				 * `__r`, a struct pt_regs * with the x86_64
				 * names (dw_x86_64_pt_regs_name); the value
				 * if `is_value`, else the object's address */
	DW_LOC_SYMBOL,		/* the object is at ELF symbol `symbol` +
				 * offset: a static or global (DW_OP_addr),
				 * placed from the symbol at load time;
				 * `percpu`: the symbol is in per-CPU space
				 * (the object is this CPU's copy) */
	DW_LOC_PIECES,		/* DW_OP_piece: the value is assembled
				 * from `npieces` pieces (registers, memory,
				 * computed values), `size` bytes in all;
				 * an object larger than 8 bytes */
	DW_LOC_UNAVAILABLE,	/* optimized out / not supported: `why` */
};

/*
 * The C of DW_LOC_EXPR and of pieces is uint64_t arithmetic over `__r`
 * (the probe's struct pt_regs *) that may read memory with
 *   tap_loc_load(c, ADDR, SIZE, &__lf)
 * (runtime/linux/target_mem.h: SIZE 1..8 bytes, zero-extended; on a fault
 * it records the script error, sets __lf and gives 0), so whoever emits
 * it declares `bool __lf = false` and raises the error when it is set.
 */
struct dw_piece {
	const char *expr;	/* C: a value (is_value) or an address */
	bool is_value;		/* else `size` bytes at address `expr` */
	uint32_t offset;	/* bytes from the start of the object */
	uint32_t size;		/* bytes (a value: 1..8) */
};

struct dw_loc {
	enum dw_loc_kind kind;
	int reg;		/* DWARF register number */
	int64_t offset;
	int64_t value;
	const char *expr;	/* DW_LOC_EXPR */
	const char *symbol;	/* DW_LOC_SYMBOL (offset: from it) */
	bool is_value;		/* DW_LOC_EXPR */
	bool percpu;		/* DW_LOC_SYMBOL in per-CPU space */
	const struct dw_piece *pieces;	/* DW_LOC_PIECES */
	int npieces;
	uint32_t size;		/* DW_LOC_PIECES: bytes in all */
	const char *why;	/* DW_LOC_UNAVAILABLE: a phrase for errors */
};

struct dw_var {
	const char *name;
	bool is_param;
	uint64_t type;		/* dw_type handle (0: none) */
	struct dw_loc loc;	/* at the site's pc */
};

/* The parameters and locals visible at the site (parameters first, in
 * declaration order; an inner declaration hides an outer one). The array
 * is cached per site; *out stays valid while the file is open. Returns
 * the count, or -1 with a message. */
int dw_site_vars(struct dw_file *f, const struct dw_site *site,
		 const struct dw_var **out, char *err, size_t errlen);
/* The function's return type for a DW_SITE_RETURN site (0: void). */
uint64_t dw_site_return_type(struct dw_file *f, const struct dw_site *site);

/* A file-scope variable `name` of the site's compilation unit (a static
 * or global the function can see): true with *out set. */
bool dw_site_global(struct dw_file *f, const struct dw_site *site,
		    const char *name, struct dw_var *out);
/* @var: top-level variable `name` of the first compilation unit whose
 * path ends with `file` (any unit if NULL) that defines it: 1 with *out
 * set, 0 if there is none, -1 with a message. */
int dw_find_global(struct dw_file *f, const char *name, const char *file,
		   struct dw_var *out, char *err, size_t errlen);

/* struct pt_regs field for DWARF x86_64 register `reg` ("di"), or NULL. */
const char *dw_x86_64_pt_regs_name(int reg);

/* ---- types ----
 * A type is a handle (the DIE's offset in the file); typedefs and
 * const/volatile are peeled by every call below except dw_type_name. */

enum dw_type_kind {
	DW_TYPE_VOID, DW_TYPE_INT, DW_TYPE_BOOL, DW_TYPE_FLOAT, DW_TYPE_ENUM,
	DW_TYPE_POINTER, DW_TYPE_ARRAY, DW_TYPE_STRUCT, DW_TYPE_UNION,
	DW_TYPE_FUNCTION, DW_TYPE_OTHER,
};

struct dw_type_info {
	enum dw_type_kind kind;
	uint64_t size;		/* bytes (array: whole array, 0 if unknown) */
	bool is_signed;
	bool is_char;		/* char / signed char / unsigned char */
	uint64_t target;	/* pointee / element type (0: void) */
	uint64_t nelem;		/* array: first dimension, 0 if unknown */
};

bool dw_type_info(struct dw_file *f, uint64_t type, struct dw_type_info *out);
/* C spelling of the type ("struct file *", "int[4]"), arena-free:
 * written into buf. */
const char *dw_type_name(struct dw_file *f, uint64_t type, char *buf,
			 size_t len);

struct dw_member {
	uint64_t offset;	/* bytes from the start of the aggregate */
	uint64_t type;
	int bit_size;		/* 0 unless a bitfield */
	int bit_offset;		/* from the least significant bit of the
				 * storage unit of `type`'s size at offset */
};

/* A named type: "struct NAME", "union NAME", "enum NAME", or a typedef
 * or base type name; 0 if the file has none.  The first lookup indexes
 * every CU's top-level types (cached). */
uint64_t dw_find_type(struct dw_file *f, const char *name);

/* Member `name` of struct/union `type`, looking into anonymous members.
 * False if there is none. */
bool dw_type_member(struct dw_file *f, uint64_t type, const char *name,
		    struct dw_member *out);
/* Names of the members of an aggregate, for hints: writes "a b c". */
void dw_type_member_names(struct dw_file *f, uint64_t type, char *buf,
			  size_t len);

#endif /* TAPC_DEBUGINFO_DWARF_H */
