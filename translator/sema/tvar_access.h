/*
 * tvar_access.h -- "how to read this value": the one description of a
 * $target variable, a member chain, an @cast or a pretty-printed $var$,
 * shared by every debug-info source (BTF today, DWARF/libdw next) and read
 * by one code generator (codegen_tvar.c).
 *
 * A source (the BTF walker tvar_btf.c, the DWARF layer) turns a script's
 * `$var->a->b[2]` into a `struct ta_access`; pass 3 turns that into C that
 * reads the value fault-safely (runtime/linux/memory.h) and raises a script
 * error naming the address on a bad read.  Nothing here names BTF or libdw:
 * types are already reduced to offsets, sizes and signedness.
 *
 * The model is a tiny machine with one 64-bit register, V, and a flag
 * saying what V holds:
 *
 *   in_memory = false   V is the object's value itself (a parameter in
 *                       a register, a tracepoint argument, $return, a
 *                       script expression);
 *   in_memory = true    V is the address of the object (a member of a
 *                       struct, an array element, a variable on the
 *                       stack or in .data).
 *
 * 1. The base sets V (struct ta_base):
 *      TA_BASE_ARG     function argument N by the calling convention
 *                      (x86_64: di si dx cx r8 r9); in_memory = false.
 *      TA_BASE_REG     a struct pt_regs field by name ("ax", "bp", "sp",
 *                      "r12"...); DWARF sources map DWARF register numbers
 *                      to these names.  With in_memory = true and an
 *                      ADD step this is "memory at reg + offset"
 *                      (DW_OP_breg*, a frame-base offset once the frame
 *                      base is reduced to a register + offset).
 *      TA_BASE_RETURN  the function's return value (regs_return_value).
 *      TA_BASE_SLOT    int64 slot N of c->probe_data: what a provider
 *                      copied there (tracepoint arguments, syscall
 *                      arguments).
 *      TA_BASE_SYMBOL  the address of a kernel/module symbol plus `offset`
 *                      (a static or global variable: @var, DWARF
 *                      DW_OP_addr); in_memory = true.  The address is
 *                      found at load time: taprun resolves "symbol" or
 *                      "module:symbol" in /proc/kallsyms (runtime/linux/
 *                      ksyms.h) and refuses to load if it is missing.
 *      TA_BASE_EXPR    the value of a script expression (`expr`, an AST
 *                      node typed long): @cast's operand.
 *                      With `percpu`, the symbol is in per-CPU space
 *                      and V is this CPU's copy (this_cpu_ptr).
 *      TA_BASE_REGS_EXPR  a C expression (`c_expr`, uint64_t arithmetic)
 *                      over `__r`, the probe's struct pt_regs *: a DWARF
 *                      location computed from registers ("(__r->di >> 2)")
 *                      and memory (tap_loc_load(c, ADDR, SIZE, &__lf),
 *                      runtime/linux/target_mem.h); in_memory as the
 *                      source says (a value, or an object's address).
 *      TA_BASE_PIECES  an object of `size` bytes (more than 8) assembled
 *                      from `npieces` values (`pieces`: C as for
 *                      REGS_EXPR, each of 1..8 bytes at a byte offset)
 *                      into a temporary of the handler; V is the
 *                      temporary's address, in_memory = true.  Kernel
 *                      memory: kernel probes only.
 *    base.in_memory is the flag's initial value.
 *
 *    Writes (guru mode, ta_writable()): the object must be in memory
 *    after the steps, or be a register itself (REG/ARG with no steps,
 *    RETURN), and the result an integer (a bitfield included).
 *
 * 2. Steps, in order (struct ta_step):
 *      TA_STEP_DEREF   V holds a pointer: follow it.  If in_memory, load 8
 *                      bytes at V first (the pointer is in memory); either
 *                      way V is now the address of the pointee and
 *                      in_memory = true.  `$p->x` is DEREF, ADD(off x);
 *                      `$p->q->x` is DEREF, ADD(off q), DEREF, ADD(off x).
 *      TA_STEP_ADD     V += offset (bytes); requires in_memory.  Struct
 *                      and union members (offset of the member, anonymous
 *                      members folded in), constant array indexes.
 *                      `hops` names the members among `offset` whose
 *                      offsets a relocating backend may look up again in
 *                      the target's own types (the BPF backend's CO-RE):
 *                      offset = sum of the hops' offsets + a constant
 *                      rest (indexes, members it cannot name).  The
 *                      offset stays the truth for everything else; an
 *                      ADD of 0 is kept only when it has hops.
 *      TA_STEP_INDEX   V += index * stride, index a script expression
 *                      (`index`, typed long); requires in_memory.  A
 *                      pointer indexed `$p[i]` is DEREF then INDEX.
 *    A source never emits a step that reads or adds to a value that is
 *    not in memory except DEREF.
 *
 * 3. The result (struct ta_result), what the expression gives the script:
 *      TA_RES_INT      an integer of `size` bytes (1, 2, 4, 8), sign- or
 *                      zero-extended to int64 per `is_signed`.  If
 *                      in_memory, read from V; else V truncated.  With
 *                      bit_size != 0 a bitfield: `size` (1..8) bytes are
 *                      read at V and bit_offset (0..7 after the source
 *                      folded whole bytes into an ADD) is counted from
 *                      the first, little-endian, as BTF and DWARF's
 *                      DW_AT_data_bit_offset count it.  Pointers and
 *                      enums are TA_RES_INT of size 8 / their size.
 *      TA_RES_ADDRESS  `&$var->member`, and an array's value (char
 *                      arrays too, as in SystemTap: `$t->comm` is a
 *                      long, scripts call kernel_string() on it): V
 *                      itself, must be in_memory.
 *      TA_RES_STRING   the NUL-terminated chars at V, for pretty
 *                      printing only (a char array in memory: `size` is
 *                      the array length, 0 = unknown, reading stops at
 *                      MAXSTRINGLEN too).  char * is a TA_RES_INT (a
 *                      pointer).
 *      TA_RES_PRETTY   `$var$`, `$$parms`...: the text `pretty` describes;
 *                      the access's own base and steps are not used (each
 *                      piece's value is a complete access).
 *
 * 4. Pretty printing (struct ta_pretty) is expanded by the source, which
 *    knows the types: a sequence of literal texts and values, each value
 *    a full ta_access (TA_RES_INT/STRING) with a format.  A struct
 *    `{.a=1, .b=0x0, .c={...}}` is text "{.a=", value a %d, text ", .b=",
 *    value b %#x... Formats follow SystemTap: integers TA_FMT_DEC,
 *    pointers TA_FMT_HEX (0x0 for NULL), char * and char arrays
 *    TA_FMT_QUOTED (the string in double quotes, escaped; a char * that
 *    is NULL prints 0x0 and one that cannot be read, such as a user
 *    pointer, its address in hex, not an error), function
 *    pointers TA_FMT_FUNC ("<function>:0x..."); $$parms/$$vars use
 *    TA_FMT_HEX for everything that is not a string.  A value whose
 *    location is unknown is the literal text "?" instead.  A pointer
 *    that is NULL where the text would follow it prints as 0x0 (the
 *    source emits a TA_FMT_STRUCT_PTR entry: pointer value first, the
 *    struct's pieces only when it is not NULL).
 *
 * All memory is the translator's arena; nothing is freed.  A ta_access is
 * immutable once the source has built it, and may be shared by nodes.
 */
#ifndef TAPC_SEMA_TVAR_ACCESS_H
#define TAPC_SEMA_TVAR_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/common/arena.h"

struct node;

enum ta_base_kind {
	TA_BASE_ARG,
	TA_BASE_REG,
	TA_BASE_RETURN,
	TA_BASE_SLOT,
	TA_BASE_SYMBOL,
	TA_BASE_EXPR,
	TA_BASE_REGS_EXPR,
	TA_BASE_PIECES,
};

/* One piece of a TA_BASE_PIECES object. */
struct ta_bytes {
	const char *c_expr;	/* the value, C over `__r` */
	uint32_t offset;	/* bytes from the object's start */
	uint32_t size;		/* 1..8 */
};

struct ta_base {
	enum ta_base_kind kind;
	bool in_memory;		/* V is the object's address (see above) */
	int index;		/* ARG: argument number; SLOT: slot number */
	const char *reg;	/* REG: a struct pt_regs field name */
	const char *symbol;	/* SYMBOL: the symbol's name */
	const char *module;	/* SYMBOL: its module, NULL = the kernel */
	int64_t offset;		/* SYMBOL: added to the symbol's address */
	struct node *expr;	/* EXPR: the script expression */
	const char *c_expr;	/* REGS_EXPR: C over `__r` */
	bool percpu;		/* SYMBOL: in per-CPU space */
	const struct ta_bytes *pieces;	/* PIECES */
	int npieces;
	uint32_t size;		/* PIECES: bytes in all */
};

enum ta_step_kind {
	TA_STEP_DEREF,
	TA_STEP_ADD,
	TA_STEP_INDEX,
};

/* What a member's type is, as far as matching it by name in another
 * kernel's types needs (libbpf's field compatibility: any struct or union
 * matches any other; else the kinds must agree, integers of any size). */
enum ta_field_kind {
	TA_FIELD_INT,		/* integers, bool; `size` bytes */
	TA_FIELD_ENUM,		/* an enum; `size` bytes */
	TA_FIELD_PTR,		/* any pointer */
	TA_FIELD_COMPOSITE,	/* a struct or union */
};

#define TA_HOP_MAX_DIMS 4

/* One member reached by name (`container.member`) within an ADD step. */
struct ta_hop {
	int64_t offset;		/* bytes, in the types the walk read */
	const char *container;	/* the struct's or union's name (named: a
				 * relocation finds it by name) */
	bool container_union;
	const char *member;	/* as written: anonymous members between
				 * the container and it are not named */
	enum ta_field_kind kind;/* of the member, or of its array's
				 * elements */
	int size;		/* INT, ENUM: bytes */
	int ndims;		/* the member is an array of ... of kind */
	uint64_t dims[TA_HOP_MAX_DIMS];	/* outermost first; 0 unknown */
};

struct ta_step {
	enum ta_step_kind kind;
	int64_t offset;		/* ADD: bytes */
	const struct ta_hop *hops;	/* ADD: relocatable members (above) */
	int nhops;
	struct node *index;	/* INDEX: script expression, long */
	int64_t stride;		/* INDEX: element size in bytes */
};

enum ta_result_kind {
	TA_RES_INT,
	TA_RES_ADDRESS,
	TA_RES_STRING,
	TA_RES_PRETTY,
};

struct ta_pretty;
struct tw_ops;

/* The debug-info type of a value, kept so that the value can be walked
 * later (autocast: `p = $file; p->f_pos`, a function returning
 * `&@cast(...)`).  The source is opaque here (tvar_walk.h's tw_ops and
 * its handle: a BTF, a DWARF file). */
struct ta_vtype {
	const struct tw_ops *ops;	/* NULL: the value has no such type */
	const void *src;
	uint64_t type;		/* the source's type handle */
	bool addr_of;		/* the value is the address of an object of
				 * `type` (&x, a bare @cast), not of `type` */
};

struct ta_result {
	enum ta_result_kind kind;
	int size;		/* INT: 1, 2, 4 or 8; STRING: array length or 0 */
	bool is_signed;		/* INT */
	uint32_t bit_offset;	/* INT bitfield: first bit, from V */
	uint32_t bit_size;	/* INT bitfield: width; 0 = not a bitfield */
	struct ta_pretty *pretty;	/* PRETTY */
};

struct ta_access {
	struct ta_base base;
	struct ta_step *steps;
	int nsteps, cap;
	struct ta_result result;
	const char *type_name;	/* C type of the result, for messages and
				 * -L ("struct file *", "loff_t") */
	struct ta_vtype vtype;	/* of the result (INT, ADDRESS), or none */
};

/* ---- pretty printing ---- */

enum ta_fmt {
	TA_FMT_DEC,		/* %d (signedness from the value) */
	TA_FMT_HEX,		/* %#x, and 0x0 for zero */
	TA_FMT_QUOTED,		/* "text", escaped as string_quoted() does */
	TA_FMT_FUNC,		/* <function>:0x... */
	TA_FMT_STRUCT_PTR,	/* `value` is a pointer: 0x0 when NULL, else
				 * the pieces of `inner` */
};

struct ta_piece {
	const char *text;	/* literal text, or NULL */
	struct ta_access *value;/* a value to format, or NULL */
	enum ta_fmt fmt;
	struct ta_pretty *inner;/* STRUCT_PTR: what follows a non-NULL ptr */
};

struct ta_pretty {
	struct ta_piece *pieces;
	int npieces, cap;
};

/* ---- building (target_access.c) ---- */

/* A fresh access reading `base`, with no steps and an 8-byte unsigned
 * integer result; the source sets `result` when it is done. */
struct ta_access *ta_new(struct arena *a, struct ta_base base);
/* A copy whose steps can be extended without changing `from`. */
struct ta_access *ta_copy(struct arena *a, const struct ta_access *from);
void ta_push_deref(struct arena *a, struct ta_access *t);
/* ADD steps next to each other are merged. */
void ta_push_add(struct arena *a, struct ta_access *t, int64_t offset);
/* An ADD of hop->offset that remembers the member it reaches (an ADD of
 * 0 too: the member may not be at 0 in the target's types). */
void ta_push_member(struct arena *a, struct ta_access *t,
		    const struct ta_hop *hop);
void ta_push_index(struct arena *a, struct ta_access *t, struct node *index,
		   int64_t stride);
/* Whether V is in memory after the steps (base.in_memory, then DEREF). */
bool ta_in_memory(const struct ta_access *t);

struct ta_pretty *ta_pretty_new(struct arena *a);
void ta_pretty_text(struct arena *a, struct ta_pretty *p, const char *text);
void ta_pretty_value(struct arena *a, struct ta_pretty *p,
		     struct ta_access *value, enum ta_fmt fmt);
void ta_pretty_struct_ptr(struct arena *a, struct ta_pretty *p,
			  struct ta_access *ptr, struct ta_pretty *inner);

/* Whether a guru-mode write can store into what `t` reads: true, or
 * false with *why ("a value DWARF computes, not an object"). */
bool ta_writable(const struct ta_access *t, const char **why);

/* Whether two values have the same debug-info type (both none: false). */
bool ta_vtype_same(const struct ta_vtype *a, const struct ta_vtype *b);

/* A one-line description for -p2 and tests:
 * "arg0 deref +16 deref +40 -> s64" */
const char *ta_describe(struct arena *a, const struct ta_access *t);

#endif /* TAPC_SEMA_TVAR_ACCESS_H */
