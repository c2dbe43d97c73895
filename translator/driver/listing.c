/*
 * listing.c -- `tapc -l PATTERN` and `-L PATTERN`: the probe points a
 * pattern matches, and with -L the variables each offers.
 *
 * The pattern is elaborated as the point of an empty probe, so aliases,
 * wildcards and providers answer exactly as they would in a script. A
 * point reached through a tapset alias is listed by the alias's name, and
 * its variables are those the alias's prologue sets; a provider's point is
 * listed by its own name with its context variables. Wildcards in names
 * (`-l 'timer.*'`, `-l '*'`) match the names elaboration knows, so they
 * list what a script's probe would get.
 */
#include <stdlib.h>
#include <string.h>

#include "translator/sema/builtins.h"
#include "translator/sema/elab.h"
#include "translator/driver/listing.h"
#include "translator/parse/parse.h"
#include "translator/providers/provider.h"
#include "translator/parse/tapset.h"

struct line {
	const char *text;
};

static int
compare_lines(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

static void
append(char *buf, size_t size, size_t *len, const char *fmt, const char *a,
       const char *b)
{
	if (*len < size)
		*len += (size_t)snprintf(buf + *len, size - *len, fmt, a, b);
}

static const char *
describe(struct elab *e, struct derived_probe *dp, bool vars)
{
	char buf[4096];
	size_t len = 0;
	const char *name = dp->alias_name ? dp->alias_name : dp->name;

	append(buf, sizeof(buf), &len, "%s%s", name, "");
	if (!vars)
		return arena_strdup(e->s->arena, buf);
	for (int i = 0; dp->alias_name && i < dp->nlocals; i++)
		append(buf, sizeof(buf), &len, " %s:%s", dp->locals[i]->name,
		       type_name(dp->locals[i]->type));
	struct context_var **cv;
	int n = provider_list_context(e, dp, &cv);
	for (int i = 0; i < n; i++)
		append(buf, sizeof(buf), &len, " $%s:%s", cv[i]->name,
		       cv[i]->c_type ? cv[i]->c_type : type_name(cv[i]->type));
	return arena_strdup(e->s->arena, buf);
}

static bool
elaborate_pattern(struct session *s, struct elab **out)
{
	const char *text = arena_printf(s->arena, "probe %s {}",
					s->opts.list_pattern);
	struct source *src = source_from_text(s, "<pattern>", text,
					      strlen(text));

	if (!tapset_load_macros(s))
		return false;
	s->user_file = parse_source_with(s, src, s->macros, false);
	if (s->diag.errors || !tapset_load_library(s))
		return false;
	struct elab *e = elab_new(s);
	struct diag_mark quiet;
	e->listing = true;
	/* A pattern that matches nothing is not an error to explain: the
	 * listing is just empty (and the exit status 1). */
	diag_hold(&s->diag, &quiet);
	for (int i = 0; i < s->user_file->items.n; i++)
		if (s->user_file->items.v[i]->kind == N_PROBE)
			elab_derive_probe(e, s->user_file->items.v[i]);
	diag_release(&s->diag, &quiet, false);
	*out = e;
	return true;
}

bool
pass_list(struct session *s)
{
	struct elab *e;
	struct diag_mark quiet;

	if (!elaborate_pattern(s, &e))
		return false;
	/* Types of alias locals need the bodies resolved; a body the target
	 * cannot support, or a probe whose variables cannot be described,
	 * does not stop the listing. */
	diag_hold(&s->diag, &quiet);
	if (s->opts.list_vars) {
		resolve_program(e);
		types_infer(e);
	}
	struct program *p = e->prog;
	struct line *lines = arena_alloc(s->arena, sizeof(*lines) *
					 (size_t)(p->nprobes + 1));
	for (int i = 0; i < p->nprobes; i++)
		lines[i].text = describe(e, p->probes[i], s->opts.list_vars);
	diag_release(&s->diag, &quiet, false);
	if (p->nprobes)
		qsort(lines, (size_t)p->nprobes, sizeof(*lines), compare_lines);
	for (int i = 0; i < p->nprobes; i++)
		if (i == 0 || strcmp(lines[i].text, lines[i - 1].text) != 0)
			printf("%s\n", lines[i].text);
	/* the providers' warning was held with the rest: say it here, so
	 * that a cut list is never taken for the whole */
	if (e->capped_point)
		diag_warning(&s->diag, e->capped_point->loc, "W_TOO_MANY_PROBES",
			     "the list stops at %d probe points: '%s' matches more; narrow the pattern to see the rest",
			     e->capped_at, s->opts.list_pattern);
	if (p->nprobes == 0)
		return false;	/* nothing matched: exit 1, as stap does */
	return true;
}

static int
compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
print_sorted_unique(char **v, int n)
{
	if (n)
		qsort(v, (size_t)n, sizeof(*v), compare_strings);
	for (int i = 0; i < n; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			printf("%s\n", v[i]);
}

static const char *
function_signature(struct session *s, const struct node *f)
{
	char buf[1024];
	size_t len = 0;

	len += (size_t)snprintf(buf, sizeof(buf), "%s:%s(", f->u.function.name,
				type_name(f->u.function.ret == TY_UNKNOWN ?
					  TY_VOID : f->u.function.ret));
	for (int i = 0; i < f->u.function.params.n && len < sizeof(buf) - 80;
	     i++) {
		const struct node *p = f->u.function.params.v[i];
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"%s%s:%s", i ? ", " : "",
					p->u.symbol.name,
					type_name(p->u.symbol.decl_type));
	}
	snprintf(buf + len, sizeof(buf) - len, ")");
	return arena_strdup(s->arena, buf);
}

/* A builtin generated inline (sema/builtins.h), as NAME:TYPE(TYPES):
 * the parameters have no names there; tapsets/builtins.stp documents
 * them. */
static const char *
builtin_signature(struct session *s, const struct builtin *b)
{
	const char *sig = arena_printf(s->arena, "%s:%s(", b->name,
				       type_name(b->ret));

	for (int i = 0; i < b->nparams; i++)
		sig = arena_printf(s->arena, "%s%s%s", sig, i ? ", " : "",
				   type_name(b->params[i]));
	return arena_printf(s->arena, "%s)", sig);
}

struct shape_list {
	struct session *s;
	char **v;
	int n, cap;
};

/* "kernel.function(STRING)" as stap spells it: kernel.function(string) */
static void
add_probe_type(const char *head, const char *tail, void *ctx)
{
	struct shape_list *l = ctx;
	char *t = arena_printf(l->s->arena, "%s%s%s", head, tail ? "." : "",
			       tail ? tail : "");

	for (char *p = t; (p = strchr(p, '(')) != NULL; p++)
		for (char *q = p + 1; *q && *q != ')'; q++)
			*q = (char)(*q - 'A' + 'a');
	l->v = arena_grow(l->s->arena, l->v, sizeof(*l->v), &l->cap, l->n + 1);
	l->v[l->n++] = t;
}

/* --dump-probe-types: the shapes of the providers' probe points. */
static void
print_probe_types(struct session *s)
{
	struct shape_list l = { .s = s };

	provider_shapes_each(add_probe_type, &l);
	print_sorted_unique(l.v, l.n);
}

bool
pass_dump(struct session *s)
{
	char **v = NULL;
	int n = 0, cap = 0;

	if (!tapset_load_macros(s) || !tapset_load_library(s))
		return false;
	if (s->opts.dump_probe_types)
		print_probe_types(s);
	for (int f = 0; f < s->nlibrary; f++) {
		struct node_list *items = &s->library[f]->items;
		for (int i = 0; i < items->n; i++) {
			struct node *it = items->v[i];
			const char *line = NULL;
			if (s->opts.dump_functions && it->kind == N_FUNCTION &&
			    !it->u.function.is_private)
				line = function_signature(s, it);
			if (s->opts.dump_probe_aliases && it->kind == N_ALIAS)
				for (int j = 0; j < it->u.alias.names.n; j++) {
					v = arena_grow(s->arena, v, sizeof(*v), &cap, n + 1);
					v[n++] = (char *)pp_to_string(
						s->arena, it->u.alias.names.v[j]);
				}
			if (line) {
				v = arena_grow(s->arena, v, sizeof(*v), &cap, n + 1);
				v[n++] = (char *)line;
			}
		}
	}
	for (int i = 0; s->opts.dump_functions && builtin_at(i); i++) {
		v = arena_grow(s->arena, v, sizeof(*v), &cap, n + 1);
		v[n++] = (char *)builtin_signature(s, builtin_at(i));
	}
	print_sorted_unique(v, n);
	return true;
}
