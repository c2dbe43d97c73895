/*
 * dwarf_access.c -- the DWARF source of `struct ta_access`
 * (dwarf_access.h): where a variable is (its DWARF location reduced by
 * debuginfo/dwarf_vars.c to a register, memory at register + offset, or a
 * constant) becomes the access's base; member chains, indexes, & and
 * pretty printing are the shared walk (tvar_walk.c) over the DWARF
 * types (debuginfo/dwarf_types.c), which this file gives it as tw_ops.
 *
 * A script reads the same whichever debug info the kernel has: -> and .
 * follow any number of pointers; an array (a char array too) is its
 * address and char * a pointer, both read with kernel_string() or
 * user_string().  Unlike BTF, a struct passed by value in a register (at most
 * 8 bytes) gives its members as bits of the register.  Must not: emit
 * C, or read memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/debuginfo/header_types.h"
#include "translator/sema/elab.h"
#include "translator/providers/dwarf_access.h"
#include "translator/sema/tvar_walk.h"

/* ---- the type operations ---- */

static enum tw_kind
tw_kind_of(enum dw_type_kind k)
{
	switch (k) {
	case DW_TYPE_INT: case DW_TYPE_BOOL: case DW_TYPE_ENUM:
		return TW_INT;
	case DW_TYPE_POINTER:
		return TW_POINTER;
	case DW_TYPE_ARRAY:
		return TW_ARRAY;
	case DW_TYPE_STRUCT:
		return TW_STRUCT;
	case DW_TYPE_UNION:
		return TW_UNION;
	case DW_TYPE_FUNCTION:
		return TW_FUNC;
	case DW_TYPE_FLOAT:
		return TW_FLOAT;
	case DW_TYPE_VOID: case DW_TYPE_OTHER:
		return TW_OTHER;
	}
	return TW_OTHER;
}

/* The ops' handle is the DWARF file; libdw's calls take it non-const. */
static struct dw_file *
F(const void *src)
{
	return (struct dw_file *)src;
}

static void
dwacc_type(const void *src, uint64_t type, struct tw_type *out)
{
	struct dw_type_info ti, to;

	if (!dw_type_info(F(src), type, &ti)) {
		out->kind = TW_OTHER;
		return;
	}
	out->kind = tw_kind_of(ti.kind);
	out->size = (int64_t)ti.size;
	out->is_signed = ti.is_signed;
	out->target = ti.target;
	out->nelem = ti.nelem;
	if (ti.kind == DW_TYPE_POINTER || ti.kind == DW_TYPE_ARRAY)
		out->is_string = dw_type_info(F(src), ti.target, &to) &&
				 to.is_char;
}

static const char *
dwacc_name(const void *src, uint64_t type, char *buf, size_t len)
{
	return dw_type_name(F(src), type, buf, len);
}

static bool
dwacc_member(const void *src, uint64_t type, const char *name,
	     struct tw_member *out)
{
	struct dw_member m;

	if (!dw_type_member(F(src), type, name, &m))
		return false;
	out->name = name;
	out->type = m.type;
	out->bit_offset = m.offset * 8 + (uint64_t)m.bit_offset;
	out->bit_size = (uint32_t)m.bit_size;
	return true;
}

/* The named direct members, in order (anonymous ones are not shown by a
 * DWARF $var$). */
static int
dwacc_members(const void *src, uint64_t type, struct arena *a,
	      struct tw_member **out)
{
	char names[2048], *save = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	dw_type_member_names(F(src), type, names, sizeof(names));
	for (char *name = strtok_r(names, " ", &save); name;
	     name = strtok_r(NULL, " ", &save)) {
		struct tw_member m;
		if (!dwacc_member(src, type, name, &m))
			continue;
		*out = arena_grow(a, *out, sizeof(**out), &cap, n + 1);
		m.name = arena_strdup(a, name);
		(*out)[n++] = m;
	}
	return n;
}

/* After "has no member": the members there are. */
static void
dwacc_member_hint(const void *src, uint64_t type, struct diag *d)
{
	char names[512];

	dw_type_member_names(F(src), type, names, sizeof(names));
	if (*names)
		diag_hint(d, "its members: %s", names);
}

static const struct tw_ops dwacc_ops = {
	.type = dwacc_type,
	.name = dwacc_name,
	.member = dwacc_member,
	.members = dwacc_members,
	.member_hint = dwacc_member_hint,
	.round_bitfield_bytes = true,
	.members_in_registers = true,
	.plain_vars_by_kind = true,
};

static struct tw_source
source(struct dw_file *f)
{
	return (struct tw_source){ .ops = &dwacc_ops, .src = f };
}

/* ---- bases ---- */

/* The kernel's name for module file `f` ("tap-kmod.ko" -> "tap_kmod"),
 * NULL for the kernel itself. */
static const char *
module_name(struct arena *a, struct dw_file *f)
{
	const char *base, *dot;
	char *name;

	if (!dw_is_module(f))
		return NULL;
	base = strrchr(dw_path(f), '/');
	base = base ? base + 1 : dw_path(f);
	dot = strstr(base, ".ko");
	name = arena_strndup(a, base, dot ? (size_t)(dot - base) : strlen(base));
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static struct ta_access *
base_of(struct elab *e, struct dw_file *f, const struct dw_loc *l,
	const char **why)
{
	struct arena *a = e->s->arena;
	const char *reg = dw_x86_64_pt_regs_name(l->reg);
	struct ta_access *t;

	switch (l->kind) {
	case DW_LOC_REG:
		if (!reg)
			break;
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg });
	case DW_LOC_MEM:
		if (!reg)
			break;
		t = ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg,
						.in_memory = true });
		ta_push_add(a, t, l->offset);
		return t;
	case DW_LOC_REG_VALUE:
		if (!reg)
			break;
		if (l->offset)
			return ta_new(a, (struct ta_base){
				.kind = TA_BASE_REGS_EXPR,
				.c_expr = arena_printf(a, "(__r->%s + 0x%llxULL)", reg,
						       (unsigned long long)l->offset) });
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REG, .reg = reg });
	case DW_LOC_CONST: {
		struct node *n = ast_new(a, N_NUMBER, (struct loc){ 0 });
		n->type = TY_LONG;
		n->u.number.value = (uint64_t)l->value;
		n->u.number.text = arena_printf(a, "%lld", (long long)l->value);
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_EXPR, .expr = n });
	}
	case DW_LOC_EXPR:
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_REGS_EXPR,
						   .c_expr = arena_strdup(a, l->expr),
						   .in_memory = !l->is_value });
	case DW_LOC_SYMBOL:
		t = ta_new(a, (struct ta_base){ .kind = TA_BASE_SYMBOL,
						.in_memory = true,
						.symbol = arena_strdup(a, l->symbol),
						.module = module_name(a, f),
						.offset = l->offset,
						.percpu = l->percpu });
		return t;
	case DW_LOC_PIECES: {
		struct ta_bytes *p = arena_alloc(a, sizeof(*p) * (size_t)l->npieces);
		for (int i = 0; i < l->npieces; i++)
			p[i] = (struct ta_bytes){
				.c_expr = arena_strdup(a, l->pieces[i].expr),
				.offset = l->pieces[i].offset,
				.size = l->pieces[i].size };
		return ta_new(a, (struct ta_base){ .kind = TA_BASE_PIECES,
						   .in_memory = true,
						   .pieces = p,
						   .npieces = l->npieces,
						   .size = l->size });
	}
	case DW_LOC_UNAVAILABLE:
		*why = l->why;
		return NULL;
	}
	*why = "in a register tapc does not know";
	return NULL;
}

struct ta_access *
dwacc_var(struct elab *e, struct dw_file *f, const struct dw_var *v,
	  const char **why)
{
	struct ta_access *t = base_of(e, f, &v->loc, why);
	char buf[256];

	if (!t)
		return NULL;
	tw_set_scalar_result(source(f), v->type, t);
	t->type_name = arena_strdup(e->s->arena,
				    dw_type_name(f, v->type, buf, sizeof(buf)));
	return t;
}

struct context_var *
dwacc_context_var(struct elab *e, struct dw_file *f, const struct dw_var *v,
		  int arg_index, bool user)
{
	const char *why = NULL;
	struct ta_access *t = dwacc_var(e, f, v, &why);
	struct dw_type_info ti;
	char tn[256];
	struct context_var *cv = elab_new_context_var(
		e, v->name, TY_LONG,
		arena_strdup(e->s->arena, dw_type_name(f, v->type, tn, sizeof(tn))));

	if (t && user && t->base.kind == TA_BASE_PIECES) {
		/* assembled in kernel memory, which a uprobe's reads do
		 * not reach */
		t = NULL;
		why = "split into pieces larger than 8 bytes (DW_OP_piece), which tapc assembles for kernel probes only";
	}
	cv->arg_index = arg_index;
	cv->dwarf = f;
	cv->dwarf_type = v->type;
	cv->access = t;
	cv->unavailable = why;
	/* with -g; in a uprobe handler a write goes to the user registers
	 * or the probed task's memory (runtime/linux/target_mem.h) */
	cv->writable = true;
	if (dw_type_info(f, v->type, &ti)) {
		cv->is_pointer = ti.kind == DW_TYPE_POINTER;
		cv->is_signed = ti.is_signed;
		cv->size = (int)ti.size;
	}
	return cv;
}


struct ta_access *
dwacc_return(struct elab *e, struct dw_file *f, uint64_t type)
{
	struct ta_access *t = ta_new(e->s->arena,
				     (struct ta_base){ .kind = TA_BASE_RETURN });
	char buf[256];

	tw_set_scalar_result(source(f), type, t);
	t->type_name = arena_strdup(e->s->arena,
				    dw_type_name(f, type, buf, sizeof(buf)));
	return t;
}

/* ---- paths ---- */

struct ta_access *
dwacc_walk(struct elab *e, struct dw_file *f, uint64_t type,
	   const struct ta_access *base, const struct target_path *path,
	   const char *what, struct loc loc)
{
	return tw_walk(e, source(f), type, base, path, what, loc);
}

struct ta_access *
dwacc_target(struct elab *e, struct context_var *cv,
	     const struct target_path *path, const char *what, struct loc loc)
{
	if (!cv->access) {
		diag_error(&e->s->diag, loc, "E_TARGET_UNAVAILABLE",
			   "'%s' cannot be read at this probe point: %s", what,
			   cv->unavailable ? cv->unavailable : "no location");
		diag_hint(&e->s->diag, "@defined(%s) tests for it; a .statement probe at a later line may see it",
			  what);
		return NULL;
	}
	return dwacc_walk(e, cv->dwarf, cv->dwarf_type, cv->access, path, what,
			  loc);
}

static bool
dwarf_source_of(const struct context_var *cv, struct tw_source *s,
		uint64_t *type)
{
	if (!cv->dwarf)
		return false;
	*s = source(cv->dwarf);
	*type = cv->dwarf_type;
	return true;
}

struct ta_access *
dwacc_parms(struct elab *e, struct context_var **vars, int nvars, int pretty)
{
	return tw_parms(e, vars, nvars, pretty, dwarf_source_of);
}

bool
dwacc_atvar_spec(struct elab *e, const struct node *n, const char **name,
		 const char **file)
{
	const char *spec = n->u.atvar.name, *at = strchr(spec, '@');

	*name = at ? arena_strndup(e->s->arena, spec, (size_t)(at - spec)) : spec;
	*file = at && at[1] ? at + 1 : NULL;
	if (**name)
		return true;
	diag_error(&e->s->diag, n->loc, "E_ATVAR",
		   "@var needs a variable name: \"name\" or \"name@file.c\"");
	return false;
}

bool
dwacc_atvar_find(struct elab *e, struct dw_file *f, const struct node *n,
		 const char *name, const char *file, struct dw_var *v)
{
	char err[512];
	int got = dw_find_global(f, name, file, v, err, sizeof(err));

	if (got < 0)
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO", "%s", err);
	else if (!got)
		diag_error(&e->s->diag, n->loc, "E_UNRESOLVED_TARGET",
			   "@var: no static or global variable '%s'%s%s in the DWARF of %s",
			   name, file ? " in a file matching " : "",
			   file ? file : "", dw_path(f));
	return got > 0;
}

/* ---- @cast ---- */

/* "sockaddr_un" as SystemTap finds it: a typedef or base type of that
 * name, else the struct, union or enum. */
static uint64_t
find_cast_type(struct dw_file *f, const char *name)
{
	static const char *const tags[] = { "", "struct ", "union ", "enum " };
	char buf[300];
	uint64_t type = 0;

	for (size_t i = 0; !type && i < sizeof(tags) / sizeof(tags[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", tags[i], name);
		type = dw_find_type(f, buf);
		if (strchr(name, ' '))
			break;	/* "struct x" is tagged already */
	}
	return type;
}

struct ta_access *
dwacc_cast_in(struct elab *e, struct dw_file *f, struct node *n,
	      const char *where)
{
	char name[256];
	size_t len;
	int pointers = 0;

	snprintf(name, sizeof(name), "%s", n->u.cast.type_name);
	for (len = strlen(name); len && (name[len - 1] == '*' || name[len - 1] == ' '); len--)
		pointers += name[len - 1] == '*';
	name[len] = '\0';
	uint64_t type = find_cast_type(f, name);
	if (!type) {
		diag_error(&e->s->diag, n->loc, "E_CAST_TYPE",
			   "@cast: type '%s' is not in the DWARF of %s",
			   name, where ? where : dw_path(f));
		return NULL;
	}
	return tw_walk_cast_node(e, source(f), type, pointers, n);
}

bool
dwacc_header_cast(struct elab *e, struct node *n, struct ta_access **out)
{
	const char *module = n->u.cast.module;
	char err[512];
	struct dw_file *f;
	char *obj;

	*out = NULL;
	if (!hdr_is_header_list(module))
		return false;
	if (!(obj = hdr_types_object(module, err, sizeof(err)))) {
		diag_error(&e->s->diag, n->loc, "E_CAST_HEADER",
			   "@cast: the headers %s do not compile: %s", module,
			   err);
		return true;
	}
	f = dw_open(obj, err, sizeof(err));
	free(obj);
	if (!f) {
		diag_error(&e->s->diag, n->loc, "E_CAST_HEADER",
			   "@cast: the types of %s cannot be read: %s", module,
			   err);
		return true;
	}
	*out = dwacc_cast_in(e, f, n, module);
	return true;
}
