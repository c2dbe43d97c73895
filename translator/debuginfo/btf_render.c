/* btf_render.c -- print BTF types as C declarations.
 *
 * Takes a type id and an optional declared name and produces the C text a
 * programmer would write: `struct task_struct *prev`, `const char *`,
 * `char *const p`, `u8 [16]`, `void (*fn)(int, long)`.  C declarators grow
 * inside-out, so the renderer carries the declarator text built so far
 * (pointer stars prefixed, array and parameter suffixes appended) down to
 * the base type, parenthesising where a pointer meets an array or a
 * function.  Output goes to a caller buffer with snprintf semantics; the
 * only allocation is a scratch string freed before returning.  Anonymous
 * aggregates print as `struct {...}`; this is for messages and generated
 * casts, not for regenerating headers.  libbpf's btf_dump__emit_type_decl()
 * would print whole bodies of anonymous aggregates and `char[16]` for
 * `char [16]`, changing the translator's output, so the declarator is
 * built here from libbpf's decoded records.
 */
#include "translator/debuginfo/btf_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable string that can also be prepended to. */
struct btf_sb {
	char *buf;
	size_t len, cap;
	bool oom;
};

static bool
btf_sb_reserve(struct btf_sb *sb, size_t more)
{
	char *bigger;
	size_t cap = sb->cap ? sb->cap : 64;

	if (sb->oom)
		return false;
	while (cap < sb->len + more + 1)
		cap *= 2;
	if (cap == sb->cap)
		return true;
	if (!(bigger = realloc(sb->buf, cap))) {
		sb->oom = true;
		return false;
	}
	sb->buf = bigger;
	sb->cap = cap;
	return true;
}

static void
btf_sb_append(struct btf_sb *sb, const char *s)
{
	size_t n = strlen(s);

	if (!btf_sb_reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

static void
btf_sb_prepend(struct btf_sb *sb, const char *s)
{
	size_t n = strlen(s);

	if (!btf_sb_reserve(sb, n))
		return;
	if (sb->len)
		memmove(sb->buf + n, sb->buf, sb->len + 1);
	else
		sb->buf[n] = '\0';
	memcpy(sb->buf, s, n);
	sb->len += n;
}

static const char *
btf_sb_str(const struct btf_sb *sb)
{
	return sb->len ? sb->buf : "";
}

static void
btf_render(const struct btf *btf, uint32_t id, struct btf_sb *decl, int depth);

/* `struct foo`, `enum {...}`, `u64`, `void`: the part before the
 * declarator. */
static void
btf_base_name(const struct btf *btf, uint32_t id, struct btf_sb *out)
{
	const struct btf_type *t = btf_type_at(btf, id);
	const char *name = btf_name(btf, id);
	const char *tag = "";

	if (!t) {
		btf_sb_append(out, "void");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT: tag = "struct "; break;
	case BTF_KIND_UNION: tag = "union "; break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64: tag = "enum "; break;
	case BTF_KIND_FWD: tag = btf_kflag(t) ? "union " : "struct "; break;
	default: break;
	}
	btf_sb_append(out, tag);
	btf_sb_append(out, *name ? name : (*tag ? "{...}" : "?"));
}

/* Join base and declarator: "char" + "*p" -> "char *p". */
static void
btf_render_base(const struct btf *btf, uint32_t id, struct btf_sb *decl)
{
	struct btf_sb base = { 0 };

	btf_base_name(btf, id, &base);
	if (decl->len)
		btf_sb_prepend(decl, " ");
	btf_sb_prepend(decl, btf_sb_str(&base));
	decl->oom |= base.oom;
	free(base.buf);
}

static void
btf_render_pointer(const struct btf *btf, uint32_t id, struct btf_sb *decl,
		   int depth)
{
	uint32_t target = btf_ref(btf, id);
	int k = btf_kind_of(btf, target);

	btf_sb_prepend(decl, "*");
	if (k == BTF_KIND_ARRAY || k == BTF_KIND_FUNC_PROTO) {
		btf_sb_prepend(decl, "(");
		btf_sb_append(decl, ")");
	}
	btf_render(btf, target, decl, depth + 1);
}

/* const/volatile/restrict bind to the pointer when they qualify one
 * (`char *const p`), otherwise they go in front (`const char *p`). */
static void
btf_render_qualifier(const struct btf *btf, uint32_t id, struct btf_sb *decl,
		     int depth)
{
	const char *q = btf_kind_of(btf, id) == BTF_KIND_CONST ? "const"
		      : btf_kind_of(btf, id) == BTF_KIND_VOLATILE ? "volatile"
		      : "restrict";
	uint32_t target = btf_ref(btf, id);

	if (btf_kind_of(btf, target) == BTF_KIND_PTR) {
		if (decl->len)
			btf_sb_prepend(decl, " ");
		btf_sb_prepend(decl, q);
		btf_render(btf, target, decl, depth + 1);
		return;
	}
	btf_render(btf, target, decl, depth + 1);
	btf_sb_prepend(decl, " ");
	btf_sb_prepend(decl, q);
}

static void
btf_render_array(const struct btf *btf, uint32_t id, struct btf_sb *decl,
		 int depth)
{
	struct btf_array_info ai;
	char dim[24];

	btf_array_info(btf, id, &ai);
	snprintf(dim, sizeof(dim), "[%u]", ai.nelems);
	btf_sb_append(decl, dim);
	btf_render(btf, ai.elem_type, decl, depth + 1);
}

static void
btf_render_params(const struct btf *btf, uint32_t proto, struct btf_sb *decl,
		  int depth)
{
	int i, n = btf_param_count(btf, proto);
	struct btf_param_info p;

	btf_sb_append(decl, "(");
	for (i = 0; i < n && btf_param_at(btf, proto, i, &p); i++) {
		struct btf_sb param = { 0 };

		if (i)
			btf_sb_append(decl, ", ");
		btf_sb_append(&param, p.name);
		btf_render(btf, p.type, &param, depth + 1);
		btf_sb_append(decl, btf_sb_str(&param));
		decl->oom |= param.oom;
		free(param.buf);
	}
	if (btf_is_variadic(btf, proto))
		btf_sb_append(decl, n > 0 ? ", ..." : "...");
	else if (n == 0)
		btf_sb_append(decl, "void");
	btf_sb_append(decl, ")");
}

static void
btf_render(const struct btf *btf, uint32_t id, struct btf_sb *decl, int depth)
{
	if (depth > BTF_MAX_CHAIN) {
		btf_sb_prepend(decl, "? ");
		return;
	}
	switch (btf_kind_of(btf, id)) {
	case BTF_KIND_PTR:
		btf_render_pointer(btf, id, decl, depth);
		break;
	case BTF_KIND_CONST: case BTF_KIND_VOLATILE: case BTF_KIND_RESTRICT:
		btf_render_qualifier(btf, id, decl, depth);
		break;
	case BTF_KIND_ARRAY:
		btf_render_array(btf, id, decl, depth);
		break;
	case BTF_KIND_FUNC_PROTO:
		btf_render_params(btf, id, decl, depth);
		btf_render(btf, btf_ref(btf, id), decl, depth + 1);
		break;
	case BTF_KIND_TYPE_TAG: case BTF_KIND_DECL_TAG: case BTF_KIND_VAR:
	case BTF_KIND_FUNC:
		/* Tags are invisible in C; a FUNC or VAR prints as its type. */
		btf_render(btf, btf_ref(btf, id), decl, depth + 1);
		break;
	default:
		/* void, int, struct, union, enum, fwd, typedef, datasec,
		 * float: a name. */
		btf_render_base(btf, id, decl);
		break;
	}
}

static int
btf_sb_finish(struct btf_sb *sb, char *buf, size_t size)
{
	int n = sb->oom ? -1 : (int)sb->len;

	if (size > 0)
		snprintf(buf, size, "%s", sb->oom ? "" : btf_sb_str(sb));
	free(sb->buf);
	return n;
}

int
btf_type_snprint(const struct btf *btf, uint32_t id, const char *declname,
		 char *buf, size_t size)
{
	struct btf_sb decl = { 0 };

	btf_sb_append(&decl, declname ? declname : "");
	btf_render(btf, id, &decl, 0);
	return btf_sb_finish(&decl, buf, size);
}

int
btf_func_snprint(const struct btf *btf, uint32_t id, char *buf, size_t size)
{
	struct btf_sb decl = { 0 };
	uint32_t proto = btf_func_proto(btf, id);

	btf_sb_append(&decl, btf_kind_of(btf, id) == BTF_KIND_FUNC
			     ? btf_name(btf, id) : "");
	if (!proto)
		btf_sb_append(&decl, "?");
	else
		btf_render(btf, proto, &decl, 0);
	return btf_sb_finish(&decl, buf, size);
}
