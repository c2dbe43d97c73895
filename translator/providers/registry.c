/*
 * registry.c -- the list of providers, the hooks' defaults for the passes
 * that ask them, and helpers for reading probe points.
 *
 * Takes a derived probe or the session; produces the provider's answer,
 * or the default provider.h names when the hook is absent.  Must not
 * know any family: adding one is a line in provider_registry[] only.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "translator/driver/session.h"
#include "translator/providers/dwarf_access.h"
#include "translator/providers/provider.h"

/*
 * The families, one line each, in the order providers are asked; it is
 * also the order of the module's tables and of its descriptor's fields
 * (the emit hooks run in it).  Each names `provider_NAME`, defined in
 * its own file.
 */
#define PROVIDER_LIST(X) \
	X(begin_end) \
	X(timer) \
	X(tracepoint) \
	X(kprobe) \
	X(syscall) \
	X(dwarf)	/* kernel.function: DWARF, else BTF (kfunc.c) */ \
	X(process) \
	X(procfs) \
	X(netfilter) \
	X(hwbkpt)	/* kernel.data */ \
	X(perf)		/* perf.type(T).config(C) */ \
	X(lsm)		/* lsm.HOOK: BPF LSM, --runtime=bpf */ \
	X(unsupported)	/* last: recognises the rest by name */

#define PROVIDER_DECLARE(name) extern const struct provider provider_##name;
#define PROVIDER_ENTRY(name) &provider_##name,

PROVIDER_LIST(PROVIDER_DECLARE)

const struct provider *const provider_registry[] = {
	PROVIDER_LIST(PROVIDER_ENTRY)
	NULL,
};

const struct provider *
provider_for(const struct node *point)
{
	for (int i = 0; provider_registry[i]; i++)
		if (provider_registry[i]->claims(point))
			return provider_registry[i];
	return NULL;
}

/* ---- the hooks, with their defaults ---- */

struct context_var *
provider_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	if (!dp->provider || !dp->provider->context)
		return NULL;
	return dp->provider->context(e, dp, name);
}

int
provider_list_context(struct elab *e, struct derived_probe *dp,
		      struct context_var ***out)
{
	*out = NULL;
	if (!dp->provider || !dp->provider->list_context)
		return 0;
	return dp->provider->list_context(e, dp, out);
}

bool
provider_is_return(const struct derived_probe *dp)
{
	return dp && dp->provider && dp->provider->is_return &&
	       dp->provider->is_return(dp);
}

const char *
provider_meta_string(const struct derived_probe *dp, const char *name)
{
	if (!dp || !dp->provider || !dp->provider->meta_string)
		return NULL;
	return dp->provider->meta_string(dp, name);
}

struct ta_access *
provider_atvar(struct elab *e, struct derived_probe *dp, struct node *n)
{
	if (dp && dp->provider && dp->provider->atvar)
		return dp->provider->atvar(e, dp, n);
	return dwacc_atvar(e, dp, n);
}

const char *
provider_untyped_reason(const struct derived_probe *dp)
{
	if (!dp || !dp->provider || !dp->provider->untyped_reason)
		return NULL;
	return dp->provider->untyped_reason(dp);
}

bool
provider_kernel_only(const struct derived_probe *dp)
{
	return dp->provider && dp->provider->kernel_only;
}

enum bpf_place
provider_bpf_place(const struct derived_probe *dp, struct arena *a,
		   struct bpf_attach *att)
{
	if (!dp->provider || !dp->provider->bpf_place)
		return BPF_PLACE_NONE;
	return dp->provider->bpf_place(dp, a, att);
}

enum privilege
provider_privilege(const struct provider *p, const struct node *point)
{
	if (p->point_privilege)
		return privilege_level(p->point_privilege(point));
	return privilege_level(p->privilege);
}

void
provider_hash_inputs(struct session *s, struct hash *h)
{
	for (int i = 0; provider_registry[i]; i++)
		if (provider_registry[i]->hash_inputs)
			provider_registry[i]->hash_inputs(s, h);
}

int
provider_guest_files(struct session *s, const char ***out)
{
	const char **all = NULL;
	int n = 0, cap = 0;

	for (int i = 0; provider_registry[i]; i++) {
		const char **v;
		int k = provider_registry[i]->guest_files ?
			provider_registry[i]->guest_files(s, &v) : 0;

		for (int j = 0; j < k; j++) {
			all = arena_grow(s->arena, all, sizeof(*all), &cap,
					 n + 1);
			all[n++] = v[j];
		}
	}
	*out = all;
	return n;
}

void
provider_shapes_each(void (*fn)(const char *head, const char *tail,
				void *ctx), void *ctx)
{
	for (int i = 0; provider_registry[i]; i++) {
		const struct provider *p = provider_registry[i];

		for (int j = 0; p->shapes && p->shapes[j]; j++)
			fn(p->shapes[j], NULL, ctx);
		for (int h = 0; p->shape_heads && p->shape_heads[h]; h++)
			for (int t = 0; p->shape_tails[t]; t++)
				fn(p->shape_heads[h], p->shape_tails[t], ctx);
	}
}

/* ---- reading probe points ---- */

const char *
pp_name(const struct node *point, int i)
{
	if (i < 0 || i >= point->u.point.ncomps)
		return NULL;
	return point->u.point.comps[i].name;
}

bool
pp_is(const struct node *point, int i, const char *name)
{
	const char *n = pp_name(point, i);

	return n && strcmp(n, name) == 0;
}

const struct node *
pp_arg(const struct node *point, int i)
{
	if (i < 0 || i >= point->u.point.ncomps)
		return NULL;
	return point->u.point.comps[i].arg;
}

bool
pp_arg_number(const struct node *point, int i, int64_t *out)
{
	const struct node *a = pp_arg(point, i);

	if (!a || a->kind != N_NUMBER)
		return false;
	*out = (int64_t)a->u.number.value;
	return true;
}

const char *
pp_arg_string(const struct node *point, int i)
{
	const struct node *a = pp_arg(point, i);

	return a && a->kind == N_STRING ? a->u.string.raw : NULL;
}

bool
pp_return_suffix(const struct node *point, int i, bool *is_return,
		 int64_t *maxactive)
{
	int n = point->u.point.ncomps;

	*is_return = false;
	*maxactive = 0;
	if (i == n)
		return true;
	if (!pp_is(point, i, "return") || pp_arg(point, i))
		return false;
	*is_return = true;
	if (i + 1 == n)
		return true;
	return i + 2 == n && pp_is(point, i + 1, "maxactive") &&
	       pp_arg_number(point, i + 1, maxactive) && *maxactive > 0 &&
	       *maxactive <= INT_MAX;
}

bool
pp_args_equal(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return !a && !b;
	if (a->kind != b->kind)
		return false;
	if (a->kind == N_NUMBER)
		return a->u.number.value == b->u.number.value;
	return strcmp(a->u.string.raw, b->u.string.raw) == 0;
}

const char *
pp_to_string(struct arena *ar, const struct node *point)
{
	char buf[1024];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < point->u.point.ncomps && len < sizeof(buf) - 64;
	     i++) {
		const struct pp_component *c = &point->u.point.comps[i];
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "." : "", c->name);
		if (!c->arg || len >= sizeof(buf) - 64)
			continue;
		if (c->arg->kind == N_NUMBER)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"(%s)", c->arg->u.number.text);
		else
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"(\"%s\")", c->arg->u.string.raw);
	}
	return arena_strdup(ar, buf);
}

const char *
provider_bpf_arg(struct arena *a, const struct context_var *cv,
		 const char *array)
{
	static const char *const narrow[2][9] = {
		{ "", "(uint8_t)", "(uint16_t)", "", "(uint32_t)",
		  "", "", "", "" },
		{ "", "(int8_t)", "(int16_t)", "", "(int32_t)",
		  "", "", "", "" },
	};
	const char *cast = "";

	if (cv->type != TY_LONG || cv->arg_index < 0)
		return NULL;
	if (!cv->is_pointer && cv->size > 0 && cv->size < 8)
		cast = narrow[cv->is_signed ? 1 : 0][cv->size];
	return arena_printf(a, "((int64_t)%s%s[%d])", cast, array,
			    cv->arg_index);
}
