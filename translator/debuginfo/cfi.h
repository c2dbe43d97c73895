/*
 * cfi.h -- the call frame information (CFI) of a user-space ELF file,
 * reduced to what a user stack walk needs: for every address range, how
 * to find the canonical frame address (CFA), the return address, and the
 * caller's rsp and rbp.  ubacktrace() & co. unwind code built without
 * frame pointers (Debian's libc) with it.
 *
 * Takes: the path of an x86_64 program or shared library.  Reads its
 * .eh_frame (what the file itself carries, stripped or not) and fills
 * the ranges .eh_frame does not describe from .debug_frame, the file's
 * own or its separate debug file's (/usr/lib/debug/.build-id/...), with
 * elfutils libdw (dwarf_next_cfi to list the FDEs, dwarf_cfi_addrframe
 * for the rules at each address).
 * Produces: a struct cfi_table in the session's arena -- rows sorted by
 * link-time address, adjacent rows with the same rules merged, rules
 * deduplicated.  The runtime's compact form is made from it by
 * translator/codegen/codegen_ucfi.c.
 * Must not: keep files open after cfi_table_build returns.
 *
 * DWARF expressions are reduced to the few shapes compilers and linkers
 * emit on x86_64 (register + offset, *(register + offset) for stack
 * realignment, the PLT's "rsp + 8, + 8 past the push"); any other rule is
 * CFI_CFA_UNKNOWN / CFI_REG_UNKNOWN, where the runtime falls back to
 * frame pointers.
 */
#ifndef TAPC_DEBUGINFO_CFI_H
#define TAPC_DEBUGINFO_CFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;

/* DWARF register numbers of x86_64 (System V psABI) that matter here. */
enum {
	CFI_X86_RBP = 6,
	CFI_X86_RSP = 7,
	CFI_X86_RA = 16,	/* the return address column */
};

enum cfi_cfa_kind {
	CFI_CFA_UNKNOWN,	/* an expression not understood */
	CFI_CFA_REG,		/* reg + off */
	CFI_CFA_DEREF,		/* *(reg + off) (stack realignment, DRAP) */
	CFI_CFA_PLT,		/* rsp + off, + 8 when (pc & 15) >= reg */
};

enum cfi_reg_kind {
	CFI_REG_UNDEF,		/* not recoverable (the end of the stack for
				 * the return address) */
	CFI_REG_SAME,		/* unchanged by this frame */
	CFI_REG_AT_CFA,		/* *(CFA + off) */
	CFI_REG_VAL_CFA,	/* CFA + off */
	CFI_REG_AT_REG,		/* *(reg + off) */
	CFI_REG_VAL_REG,	/* reg + off (off 0: a copy in reg) */
	CFI_REG_UNKNOWN,	/* an expression not understood */
};

struct cfi_reg_rule {
	uint8_t kind;		/* enum cfi_reg_kind */
	uint8_t reg;		/* DWARF register, for _AT_REG/_VAL_REG */
	int64_t off;
};

struct cfi_rule {
	uint8_t cfa_kind;	/* enum cfi_cfa_kind */
	uint8_t cfa_reg;
	int64_t cfa_off;
	struct cfi_reg_rule ra, sp, bp;
	bool signal;		/* a signal frame: the caller's pc is exact */
};

struct cfi_row {
	uint64_t start;		/* link-time address; the row lasts up to
				 * the next row's start */
	int rule;		/* into rules, or -1: no CFI here */
};

struct cfi_table {
	struct cfi_rule *rules;
	size_t nrules;
	struct cfi_row *rows;	/* sorted; the last one is always -1 */
	size_t nrows;
	/* what it was made from, for -v and the table's comment */
	size_t n_eh_fdes, n_debug_fdes;	/* FDEs used from each section */
	size_t n_raw_rows;		/* rows before merging */
	const char *debug_file;		/* where .debug_frame came from */
};

/* The CFI of path, or NULL with a reason in err (not an ELF file, or no
 * CFI at all). */
struct cfi_table *cfi_table_build(struct arena *a, const char *path,
				  char *err, size_t errlen);

/* The rule for link-time address addr, or NULL when none covers it. */
const struct cfi_rule *cfi_rule_at(const struct cfi_table *t, uint64_t addr);

#endif
