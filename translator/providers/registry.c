/*
 * registry.c -- the list of providers and helpers for reading probe points.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "translator/providers/provider.h"

extern const struct provider provider_begin_end;
extern const struct provider provider_timer;
extern const struct provider provider_tracepoint;
extern const struct provider provider_kprobe;
extern const struct provider provider_syscall;
extern const struct provider provider_dwarf;
extern const struct provider provider_kfunc;
extern const struct provider provider_process;
extern const struct provider provider_procfs;
extern const struct provider provider_unsupported;

const struct provider *const provider_registry[] = {
	&provider_begin_end,
	&provider_timer,
	&provider_tracepoint,
	&provider_kprobe,
	&provider_syscall,
	&provider_dwarf,	/* before kfunc: DWARF when the kernel has it */
	&provider_kfunc,
	&provider_process,
	&provider_procfs,
	&provider_unsupported,	/* last: recognises the rest by name */
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
