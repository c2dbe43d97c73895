/*
 * elf_syms.h -- what the uprobe provider needs to know about a user-space
 * ELF file (a program or a shared library), read with libelf: its function
 * symbols (.symtab, else .dynsym), its loadable segments (to turn a
 * link-time address into the file offset uprobes take), and a symbol by
 * name for SDT operands like "counter(%rip)".
 *
 * Takes: a path.  Produces: a read-only struct elf_image allocated in the
 * session's arena; every name is an arena string.
 * Must not: keep the file open after elf_image_load returns.
 */
#ifndef TAPC_DEBUGINFO_ELF_SYMS_H
#define TAPC_DEBUGINFO_ELF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;

struct elf_sym {
	const char *name;
	uint64_t addr;		/* st_value: the link-time address */
	uint64_t size;
	bool global;		/* STB_GLOBAL or STB_WEAK */
};

/* A procedure linkage table stub (elf_plt.c). */
struct elf_plt {
	const char *name;	/* the function it calls ("malloc") */
	uint64_t addr;		/* the stub's link-time address */
};

struct elf_segment {
	uint64_t vaddr, offset, filesz;
};

struct elf_image {
	const char *path;
	bool is_dyn;			/* ET_DYN: PIE or a library */
	/* An i386 file (32-bit programs on x86_64): its probes go by file
	 * offset like any other, but it has no DWARF, PLT stubs or $return
	 * for tapc, whose register views are x86_64's; SDT notes hold
	 * 4-byte addresses. */
	bool is_i386;
	bool has_debug_info;		/* a .debug_info section */
	struct elf_sym *funcs;		/* sorted by address, the preferred
					 * name of an address first */
	size_t nfuncs;
	struct elf_sym *objects;	/* data symbols, for SDT operands */
	size_t nobjects;
	struct elf_plt *plt;		/* PLT stubs, sorted by address */
	size_t nplt;
	struct elf_segment *segs;	/* PT_LOAD */
	size_t nsegs;
	/* SDT notes: raw descriptors, parsed by sdt.c */
	const unsigned char *sdt_notes;
	size_t sdt_notes_size;
	uint64_t sdt_base_addr;		/* .stapsdt.base's sh_addr, or 0 */
	bool has_sdt_base;
	const char *build_id;		/* NT_GNU_BUILD_ID in hex, or NULL */
};

/* path opened as an x86_64 ELF file for libelf: the Elf (elf_end() it,
 * then close *fd), its e_type in *e_type; or NULL with a reason in err
 * and nothing left open.  Shared by the symbol reader and cfi.c. */
struct Elf *elf_open_x86_64(const char *path, int *fd, int *e_type,
			    char *err, size_t errsize);

/* Fill im->plt from an open Elf (elf_plt.c; for elf_image_load). */
void elf_read_plt(struct arena *a, struct Elf *elf, struct elf_image *im);

/* The image of path, or NULL with a reason in err. */
struct elf_image *elf_image_load(struct arena *a, const char *path,
				 char *err, size_t errsize);

/* The same, read once per run (cached by path). */
struct elf_image *elf_image_get(struct arena *a, const char *path,
				char *err, size_t errsize);

/* The file offset of link-time address addr, or false when no loadable
 * segment holds it. */
bool elf_addr_to_offset(const struct elf_image *im, uint64_t addr,
			uint64_t *offset);

/* The function (or data object) named name; NULL if none. */
const struct elf_sym *elf_find_func(const struct elf_image *im,
				    const char *name);
const struct elf_sym *elf_find_object(const struct elf_image *im,
				      const char *name);

/* The function holding addr, or NULL. */
const struct elf_sym *elf_func_at(const struct elf_image *im, uint64_t addr);

/* The shared libraries `ldd path` lists (canonical paths, the dynamic
 * loader included); how many. */
int elf_ldd(struct arena *a, const char *path, const char ***out);

/*
 * Resolve a program name like stap: a path with a '/' is taken as it is
 * (relative to the working directory), a bare name is searched in $PATH;
 * the result is canonical (realpath).  NULL when not found.
 */
const char *elf_resolve_program(struct arena *a, const char *name);

/*
 * A shared library by file name ("libc.so.6"), found as the dynamic
 * linker would: $LD_LIBRARY_PATH, the ld.so cache, the default
 * directories (elf_libpath.c); canonical.  NULL when not found or when
 * name has a '/'.  elf_library_places() says where it looked, for an
 * error message.
 */
const char *elf_resolve_library(struct arena *a, const char *name);
const char *elf_library_places(struct arena *a);

#endif
