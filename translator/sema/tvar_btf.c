/*
 * tvar_btf.c -- the BTF source of `struct ta_access` (tvar_btf.h):
 * the kernel's BTF types as the operations the shared walk of a $var's
 * path needs (tvar_walk.h: kind, size, signedness, C spelling,
 * members, pointee, array element), and @cast's lookup of a type by name
 * in the BTF of the kernel or a module.
 *
 * The walk itself (->member, [index], &, $/$$ pretty printing, its
 * errors and hints) is tvar_walk.c's.  Must not: emit C
 * (codegen_tvar.c does), or know where the base value lives (the
 * provider filled the base).
 */
#include <stdio.h>
#include <string.h>

#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/sema/tvar_btf.h"
#include "translator/sema/tvar_walk.h"

/* ---- the type operations ---- */

static enum tw_kind
tw_kind_of(int k)
{
	switch (k) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		return TW_INT;
	case BTF_KIND_PTR:
		return TW_POINTER;
	case BTF_KIND_ARRAY:
		return TW_ARRAY;
	case BTF_KIND_STRUCT:
		return TW_STRUCT;
	case BTF_KIND_UNION:
		return TW_UNION;
	case BTF_KIND_FWD:
		return TW_FWD;
	case BTF_KIND_FUNC_PROTO:
		return TW_FUNC;
	case BTF_KIND_FLOAT:
		return TW_FLOAT;
	default:
		return TW_OTHER;
	}
}

static void
tbtf_type(const void *src, uint64_t type, struct tw_type *out)
{
	const struct btf *btf = src;
	uint32_t t = btf_resolve(btf, (uint32_t)type);
	struct btf_int_info ii;
	struct btf_array_info ai;

	out->kind = tw_kind_of(btf_kind_of(btf, t));
	out->size = btf_sizeof(btf, t);
	switch (out->kind) {
	case TW_INT:
		if (!btf_int_info(btf, t, &ii)) {
			out->size = 0;
			break;
		}
		out->size = ii.size;
		out->is_signed = ii.is_signed;
		out->is_enum = btf_kind_of(btf, t) != BTF_KIND_INT;
		break;
	case TW_STRUCT: case TW_UNION:
		out->tag = btf_name(btf, t);
		break;
	case TW_POINTER:
		out->target = btf_ref(btf, t);
		out->is_string = btf_is_string(btf, t);
		break;
	case TW_ARRAY:
		if (!btf_array_info(btf, t, &ai)) {
			out->kind = TW_OTHER;
			break;
		}
		out->target = ai.elem_type;
		out->nelem = ai.nelems;
		out->is_string = btf_is_string(btf, t);
		break;
	default:
		break;
	}
}

static const char *
tbtf_name(const void *src, uint64_t type, char *buf, size_t len)
{
	btf_type_snprint(src, (uint32_t)type, NULL, buf, len);
	return buf;
}

static void
member_from_btf(const struct btf_member_info *bm, struct tw_member *out)
{
	out->name = bm->name;
	out->type = bm->type;
	out->bit_offset = bm->bit_offset;
	out->bit_size = bm->bitfield_size;
}

static bool
tbtf_member(const void *src, uint64_t type, const char *name,
	    struct tw_member *out)
{
	const struct btf *btf = src;
	struct btf_member_info m;

	if (!btf_member_find(btf, btf_resolve(btf, (uint32_t)type), name, &m))
		return false;
	member_from_btf(&m, out);
	return true;
}

static int
tbtf_members(const void *src, uint64_t type, struct arena *a,
	     struct tw_member **out)
{
	const struct btf *btf = src;
	uint32_t t = btf_resolve(btf, (uint32_t)type);
	int n = btf_member_count(btf, t), got = 0;

	*out = n > 0 ? arena_alloc(a, (size_t)n * sizeof(**out)) : NULL;
	for (int i = 0; i < n; i++) {
		struct btf_member_info m;
		if (btf_member_at(btf, t, i, &m))
			member_from_btf(&m, &(*out)[got++]);
	}
	return got;
}

static const struct tw_ops tbtf_ops = {
	.type = tbtf_type,
	.name = tbtf_name,
	.member = tbtf_member,
	.members = tbtf_members,
};

static struct tw_source
source(const struct btf *btf)
{
	return (struct tw_source){ .ops = &tbtf_ops, .src = btf };
}

void
tbtf_set_scalar_result(const struct btf *btf, uint32_t type,
		       struct ta_access *t)
{
	tw_set_scalar_result(source(btf), type, t);
}

struct ta_access *
tbtf_walk(struct elab *e, const struct btf *btf, uint32_t type,
	  const struct ta_access *base, const struct target_path *path,
	  const char *what, struct loc loc)
{
	return tw_walk(e, source(btf), type, base, path, what, loc);
}

/* ---- @cast ---- */

/* "struct file", "union u", "task_struct" (a struct, union or typedef
 * name): the BTF type, or BTF_NONE. */
static uint32_t
find_cast_type(const struct btf *btf, const char *name, int *pointers)
{
	char buf[256];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", name);
	*pointers = 0;
	for (n = strlen(buf); n && (buf[n - 1] == '*' || buf[n - 1] == ' '); n--)
		if (buf[n - 1] == '*')
			++*pointers;
	buf[n] = '\0';
	if (strncmp(buf, "struct ", 7) == 0)
		return btf_find(btf, buf + 7, BTF_KIND_STRUCT);
	if (strncmp(buf, "union ", 6) == 0)
		return btf_find(btf, buf + 6, BTF_KIND_UNION);
	if (strncmp(buf, "enum ", 5) == 0)
		return btf_find(btf, buf + 5, BTF_KIND_ENUM);
	uint32_t id = btf_find(btf, buf, BTF_KIND_TYPEDEF);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_STRUCT);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_UNION);
	if (!id)
		id = btf_find(btf, buf, BTF_KIND_INT);
	return id;
}

/* One module of an @cast's module list: "kernel", "kernel<linux/x.h>"
 * (the header is SystemTap's way to find the type; BTF has it anyway),
 * or a module name; NULL when there is no BTF for it, `why` says. */
static const struct btf *
cast_module_btf(struct kernel_target *kt, const char *part, char *why,
		size_t whylen)
{
	size_t n = strcspn(part, "<");
	char name[128];

	snprintf(name, sizeof(name), "%.*s", (int)n, part);
	if (!*name) {
		snprintf(why, whylen, "user-space headers are read only as the whole module string, as in \"<sys/un.h>\", not in a list of modules");
		return NULL;
	}
	if (strcmp(name, "kernel") == 0)
		return kernel_btf(kt, why, whylen);
	return kernel_module_btf(kt, name, why, whylen);
}

/* The BTF and type of @cast's type name, trying each module of a
 * "a:b:c" list in turn; BTF_NONE after an error. */
static uint32_t
cast_type(struct elab *e, struct node *n, const struct btf **btf,
	  int *pointers)
{
	const char *modules = n->u.cast.module ? n->u.cast.module : "kernel";
	struct kernel_target *kt = elab_kernel(e, n->loc);
	char why[256] = "", part[256];
	bool any_btf = false;

	if (!kt)
		return BTF_NONE;
	for (const char *p = modules; *p; p += strcspn(p, ":"), p += *p == ':') {
		snprintf(part, sizeof(part), "%.*s", (int)strcspn(p, ":"), p);
		*btf = cast_module_btf(kt, part, why, sizeof(why));
		if (!*btf)
			continue;
		any_btf = true;
		uint32_t id = find_cast_type(*btf, n->u.cast.type_name, pointers);
		if (id)
			return id;
	}
	if (!any_btf)
		diag_error(&e->s->diag, n->loc, "E_NO_DEBUGINFO",
			   "@cast needs type information for '%s', and there is none: %s",
			   modules, why);
	else
		diag_error(&e->s->diag, n->loc, "E_CAST_TYPE",
			   "@cast: type '%s' is not in the BTF of '%s'",
			   n->u.cast.type_name, modules);
	return BTF_NONE;
}

bool
tbtf_kernel_has_type(struct elab *e, struct node *n)
{
	struct kernel_target *kt = elab_kernel(e, n->loc);
	char why[256];
	const struct btf *btf = kt ? kernel_btf(kt, why, sizeof(why)) : NULL;
	int pointers = 0;

	return !btf || find_cast_type(btf, n->u.cast.type_name, &pointers);
}

struct ta_access *
tbtf_cast(struct elab *e, struct node *n)
{
	const struct btf *btf = NULL;
	int pointers = 0;
	uint32_t id = cast_type(e, n, &btf, &pointers);

	if (!id)
		return NULL;
	return tw_walk_cast_node(e, source(btf), id, pointers, n);
}

/* ---- $$parms ---- */

static bool
btf_source_of(const struct context_var *cv, struct tw_source *s,
	      uint64_t *type)
{
	if (!cv->btf)
		return false;
	*s = source(cv->btf);
	*type = cv->btf_type;
	return true;
}

struct ta_access *
tbtf_parms(struct elab *e, struct context_var **vars, int nvars, int pretty)
{
	return tw_parms(e, vars, nvars, pretty, btf_source_of);
}
