/*
 * tvar_walk.h -- the one walk of a $var's path (->member, [index], &,
 * $/$$ pretty printing) into a `struct ta_access` (tvar_access.h),
 * whatever debug info typed the variable.
 *
 * A debug-info source (tvar_btf.c for BTF, providers/dwarf_access.c for
 * DWARF) implements only `struct tw_ops`: what kind a type is, its size,
 * signedness and C spelling, its members, its pointee or element.  The
 * walk itself -- pointers followed by ->, byte offsets and bitfields,
 * index bounds, the diagnostics with their hints, the SystemTap format of
 * $var$ and $$parms and its limits -- lives in tvar_walk.c, so a script
 * reads and prints the same whichever debug info the kernel has.
 *
 * Types are opaque 64-bit handles of the source (a BTF id, a DWARF DIE
 * offset); 0 is void.  Must not: name BTF or libdw here.
 */
#ifndef TAPC_SEMA_TVAR_WALK_H
#define TAPC_SEMA_TVAR_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "translator/parse/ast.h"
#include "translator/sema/tvar_access.h"

struct elab;
struct diag;
struct context_var;

enum tw_kind {
	TW_INT,		/* integers, enums, bool */
	TW_POINTER,
	TW_ARRAY,
	TW_STRUCT,
	TW_UNION,
	TW_FWD,		/* a struct or union only declared */
	TW_FUNC,	/* a function type (what a function pointer points to) */
	TW_FLOAT,
	TW_OTHER,	/* void, unknown, anything without a value */
};

/* A type with typedefs and const/volatile peeled. */
struct tw_type {
	enum tw_kind kind;
	int64_t size;		/* bytes; <= 0 unknown (INT: 0 = unusable) */
	bool is_signed;		/* INT */
	bool is_string;		/* POINTER, ARRAY: the pointee/element is a
				 * char */
	uint64_t target;	/* POINTER: pointee; ARRAY: element */
	uint64_t nelem;		/* ARRAY: elements, 0 if unknown */
	bool is_enum;		/* INT: an enum */
	const char *tag;	/* STRUCT, UNION: its own name; NULL or ""
				 * when anonymous or the source does not
				 * say (then its members' offsets are not
				 * relocatable: ta_hop) */
};

struct tw_member {
	const char *name;	/* "" for an anonymous struct/union member */
	uint64_t type;
	uint64_t bit_offset;	/* from the start of the aggregate */
	uint32_t bit_size;	/* 0 unless a bitfield */
};

struct tw_ops {
	/* `type` peeled (TW_OTHER when the source cannot say). */
	void (*type)(const void *src, uint64_t type, struct tw_type *out);
	/* The C spelling, not peeled ("struct file *", "loff_t"). */
	const char *(*name)(const void *src, uint64_t type, char *buf,
			    size_t len);
	/* Member `name` of struct/union `type`, anonymous members looked
	 * into, as C does. */
	bool (*member)(const void *src, uint64_t type, const char *name,
		       struct tw_member *out);
	/* The members of struct/union `type` in order, into an arena
	 * array; returns the count. */
	int (*members)(const void *src, uint64_t type, struct arena *a,
		       struct tw_member **out);
	/* A hint after "has no member"; NULL: the walker suggests the
	 * closest member names ("did you mean 'a' or 'b'?"). */
	void (*member_hint)(const void *src, uint64_t type, struct diag *d);
	/* The ways the sources still differ (each keeps its output):
	 * bitfield reads rounded up to 1, 2, 4 or 8 bytes; members of a
	 * small struct passed by value in a register read as bits of it;
	 * plain $$vars quoting strings and eliding aggregates. */
	bool round_bitfield_bytes;
	bool members_in_registers;
	bool plain_vars_by_kind;
};

struct tw_source {
	const struct tw_ops *ops;
	const void *src;	/* the ops' own handle (BTF, DWARF file) */
};

/* `base` of `type` followed by `path`; `what` is the expression as
 * written, for messages ("$file").  NULL after a diagnostic. */
struct ta_access *tw_walk(struct elab *e, struct tw_source s, uint64_t type,
			  const struct ta_access *base,
			  const struct target_path *path, const char *what,
			  struct loc loc);

/* The type `type` of source `s` as a value keeps it (tvar_access.h);
 * `addr_of`: the value is the address of an object of that type. */
struct ta_vtype tw_vtype(struct tw_source s, uint64_t type, bool addr_of);

/* Autocast: the value of script expression `expr`, whose debug-info type
 * is `vt`, followed by `path` (`p->f_pos` after `p = $file`).  NULL
 * after a diagnostic. */
struct ta_access *tw_walk_value(struct elab *e, const struct ta_vtype *vt,
				struct node *expr,
				const struct target_path *path,
				const char *what, struct loc loc);

/* @cast(operand, "T")->path with T `type` of `s`: the operand is the
 * address of a T (alone, the address with its type kept); a first [i]
 * indexes it as a T * (SystemTap's @cast(p, "T")[i]).  NULL after a
 * diagnostic. */
struct ta_access *tw_walk_cast(struct elab *e, struct tw_source s,
			       uint64_t type, struct node *operand,
			       const struct target_path *path,
			       const char *what, struct loc loc);

/* The @cast node `n` whose type name named `type` of `s` with
 * `pointers` trailing '*': refused (not supported yet) when pointers,
 * else tw_walk_cast() of its operand and path.  NULL after a diagnostic. */
struct ta_access *tw_walk_cast_node(struct elab *e, struct tw_source s,
				    uint64_t type, int pointers,
				    struct node *n);

/* t->result for a value of `type`: an integer of its size and
 * signedness, an array's address (an array in memory), or 8 bytes when
 * it has none a script can use. */
void tw_set_scalar_result(struct tw_source s, uint64_t type,
			  struct ta_access *t);

/* How $$parms/$$vars finds a context variable's source and type; false:
 * the variable has none (printed in hex). */
typedef bool tw_source_of_fn(const struct context_var *cv,
			     struct tw_source *s, uint64_t *type);

/* The pretty text of $$parms/$$vars/$$locals ("a=0x1 b=0x2"; pretty 1
 * or 2: each variable as $var$ / $var$$ print it). */
struct ta_access *tw_parms(struct elab *e, struct context_var **vars,
			   int nvars, int pretty, tw_source_of_fn *source_of);

#endif /* TAPC_SEMA_TVAR_WALK_H */
