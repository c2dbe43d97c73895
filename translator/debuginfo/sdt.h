/*
 * sdt.h -- static user-space probes (SDT markers, <sys/sdt.h>'s
 * STAP_PROBEn / DTRACE_PROBEn) read from an ELF file's .note.stapsdt
 * notes: where each marker is and how to find its arguments.
 *
 * An argument is described by the assembler operand gcc chose for it,
 * with its size in front: "-4@%eax" (signed 4 bytes in eax), "8@-16(%rbp)"
 * (8 bytes at rbp-16), "4@$5" (the constant 5), "8@counter(%rip)" (a
 * global).  sdt_parse_arg turns one into a struct sdt_arg that code
 * generation reads.
 */
#ifndef TAPC_DEBUGINFO_SDT_H
#define TAPC_DEBUGINFO_SDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct elf_image;

enum sdt_arg_kind { SDT_ARG_REG, SDT_ARG_MEM, SDT_ARG_IMM };

struct sdt_arg {
	enum sdt_arg_kind kind;
	int size;		/* 1, 2, 4 or 8 bytes */
	bool is_signed;
	const char *reg;	/* SDT_ARG_REG: struct pt_regs member ("ax") */
	int reg_size;		/* bytes of the register as named (%eax: 4) */
	/* SDT_ARG_MEM: disp + base + index * scale; base "ip" with a symbol
	 * means the symbol's own address (rip-relative) */
	int64_t disp;
	const char *base, *index;
	int scale;
	const char *symbol;	/* "counter" in counter(%rip), or NULL */
	int64_t value;		/* SDT_ARG_IMM */
	const char *text;	/* the operand as written, for messages */
};

struct sdt_probe {
	const char *provider, *name;
	uint64_t pc;		/* link-time address of the marker's nop */
	uint64_t semaphore;	/* link-time address, 0 when none */
	int nargs;
	struct sdt_arg *args;
	const char *bad_arg;	/* an operand sdt_parse_arg refused, or NULL */
};

/* Every marker of im, in note order; *n gets how many. */
struct sdt_probe *sdt_probes(struct arena *a, const struct elf_image *im,
			     size_t *n);

/* One "SIZE@OPERAND"; false when the operand has a form not handled. */
bool sdt_parse_arg(struct arena *a, const char *text, struct sdt_arg *out);

#endif
