/*
 * point_glob.c -- wildcards in probe-point component names, as SystemTap
 * has them: `kerne*.funct*("vfs_read").*`, `*sys**pen`, `foo.*`.
 *
 * The names a wildcard can stand for are the ones known: the providers'
 * shapes (struct provider .shapes) and the probe aliases, the script's and the
 * library's. They are kept as a tree of components, one level per dotted
 * component, a node per name and kind of argument. A point is matched
 * level by level:
 *   - `*`, `?` and `[...]` match within one component's name;
 *   - `**` also matches across the dots of several components
 *     (`ti**es(1)` is timer.jiffies(1));
 *   - a component with an argument matches only names that take one of
 *     its kind (`funct*("vfs_read")` is function(STRING), not .call).
 * Where no name at the next level matches, an alias that ends at the
 * level reached takes the rest of the point as its suffix (SystemTap's
 * `foo.*` with only `foo` defined passes `.*` on to foo's targets), and a
 * provider's shape takes a rest without wildcards for its own parser to
 * judge (kernel.funct*("f").return.maxactive(2)).
 *
 * The result is a list of concrete points; elaborate.c expands each as
 * an optional point, as SystemTap does with every wildcard expansion.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "translator/sema/elab.h"
#include "translator/sema/point_glob.h"
#include "translator/providers/provider.h"

#define GLOB_MAX_PATH 32
#define GLOB_HINT_NAMES 8

enum glob_arg { GA_NONE, GA_STRING, GA_NUMBER, GA_LITERAL };

struct glob_node {
	const char *name;
	enum glob_arg arg;
	const struct node *literal;	/* GA_LITERAL: an alias name's arg */
	bool provider_end;		/* a provider's shape ends here */
	struct node **aliases, **alias_names;	/* aliases named so */
	int naliases, cap_aliases, cap_names;
	struct glob_node **kids;
	int nkids, cap_kids;
};

/* ---- matching names ---- */

/* The ']' closing the class that starts at p ('['), or NULL. */
static const char *
class_end(const char *p)
{
	const char *q = p + 1;

	if (*q == '!' || *q == '^')
		q++;
	if (*q == ']')
		q++;
	return strchr(q, ']');
}

/* Glob `p` against dotted name `s`: '*' and '?' stay within a component,
 * "**" crosses dots. */
static bool
glob_dotted(const char *p, const char *s)
{
	while (*p) {
		if (*p == '*') {
			bool cross = p[1] == '*';
			while (*p == '*')
				p++;
			for (;; s++) {
				if (glob_dotted(p, s))
					return true;
				if (!*s || (*s == '.' && !cross))
					return false;
			}
		}
		if (!*s)
			return false;
		const char *end = *p == '[' ? class_end(p) : NULL;
		if (end && *s != '.') {
			char cls[128], c[2] = { *s, 0 };
			size_t len = (size_t)(end - p) + 1;
			if (len >= sizeof(cls))
				return false;
			memcpy(cls, p, len);
			cls[len] = '\0';
			if (fnmatch(cls, c, 0) != 0)
				return false;
			p = end + 1;
			s++;
			continue;
		}
		if (*p == '\\' && p[1]) {
			if (p[1] != *s)
				return false;
			p += 2;
			s++;
			continue;
		}
		if (*p == '?' ? *s == '.' : *p != *s)
			return false;
		p++;
		s++;
	}
	return !*s;
}

static bool
has_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

bool
pp_glob_in_names(const struct node *point)
{
	for (int i = 0; i < point->u.point.ncomps; i++)
		if (has_glob(point->u.point.comps[i].name))
			return true;
	return false;
}

/* Whether a component with argument `arg` (or none) fits node `g`. */
static bool
arg_fits(const struct node *arg, const struct glob_node *g)
{
	switch (g->arg) {
	case GA_NONE:
		return !arg;
	case GA_STRING:
		return arg && arg->kind == N_STRING;
	case GA_NUMBER:
		return arg && arg->kind == N_NUMBER;
	case GA_LITERAL:
		return arg && pp_args_equal(arg, g->literal);
	}
	return false;
}

/* ---- the tree of known names ---- */

static struct glob_node *
kid(struct elab *e, struct glob_node *g, const char *name, enum glob_arg arg,
    const struct node *literal)
{
	for (int i = 0; i < g->nkids; i++) {
		struct glob_node *k = g->kids[i];
		if (k->arg == arg && strcmp(k->name, name) == 0 &&
		    (arg != GA_LITERAL || pp_args_equal(k->literal, literal)))
			return k;
	}
	struct glob_node *k = arena_alloc(e->s->arena, sizeof(*k));
	k->name = name;
	k->arg = arg;
	k->literal = literal;
	g->kids = arena_grow(e->s->arena, g->kids, sizeof(*g->kids),
			     &g->cap_kids, g->nkids + 1);
	g->kids[g->nkids++] = k;
	return k;
}

/* Add "a.b(STRING).c" below g; returns the node it ends at. */
static struct glob_node *
add_shape(struct elab *e, struct glob_node *g, const char *shape)
{
	while (*shape) {
		size_t len = strcspn(shape, ".(");
		const char *name = arena_strndup(e->s->arena, shape, len);
		enum glob_arg arg = GA_NONE;
		shape += len;
		if (*shape == '(') {
			arg = strncmp(shape, "(NUMBER)", 8) == 0 ? GA_NUMBER :
			      GA_STRING;
			shape = strchr(shape, ')') + 1;
		}
		g = kid(e, g, name, arg, NULL);
		if (*shape == '.')
			shape++;
	}
	return g;
}

static void
add_provider_shape(const char *head, const char *tail, void *ctx)
{
	struct elab *e = ((void **)ctx)[0];
	struct glob_node *g = add_shape(e, ((void **)ctx)[1], head);

	if (tail)
		g = add_shape(e, g, tail);
	g->provider_end = true;
}

static void
add_alias_name(struct elab *e, struct glob_node *g, struct node *al,
	       struct node *name)
{
	for (int i = 0; i < name->u.point.ncomps; i++) {
		const struct pp_component *c = &name->u.point.comps[i];
		g = kid(e, g, c->name, c->arg ? GA_LITERAL : GA_NONE, c->arg);
	}
	g->aliases = arena_grow(e->s->arena, g->aliases, sizeof(*g->aliases),
				&g->cap_aliases, g->naliases + 1);
	g->alias_names = arena_grow(e->s->arena, g->alias_names,
				    sizeof(*g->alias_names), &g->cap_names,
				    g->naliases + 1);
	g->aliases[g->naliases] = al;
	g->alias_names[g->naliases++] = name;
}

static struct glob_node *
known_names(struct elab *e)
{
	if (e->glob_tree)
		return e->glob_tree;
	struct glob_node *root = arena_alloc(e->s->arena, sizeof(*root));
	void *ctx[2] = { e, root };

	root->name = "";
	provider_shapes_each(add_provider_shape, ctx);
	for (int i = 0; i < e->naliases; i++) {
		struct node *al = e->aliases[i];
		for (int j = 0; j < al->u.alias.names.n; j++)
			add_alias_name(e, root, al, al->u.alias.names.v[j]);
	}
	e->glob_tree = root;
	return root;
}

/* ---- walking a point down the tree ---- */

struct walk {
	struct elab *e;
	const struct node *pt;
	struct pp_component path[GLOB_MAX_PATH];	/* names so far */
	int npath;
	struct pp_glob_match *out;
	int nout, cap;
	int miss_i;			/* deepest component not matched */
	const struct glob_node *miss_node;
	int miss_npath;
	struct pp_component miss_path[GLOB_MAX_PATH];
};

static void walk_from(struct walk *w, struct glob_node *g, int i);

static void
push(struct walk *w, const struct glob_node *g, const struct pp_component *c,
     bool with_arg)
{
	w->path[w->npath++] = (struct pp_component){
		.name = g->name, .arg = with_arg ? c->arg : NULL, .loc = c->loc };
}

/* The concrete point: the names walked, then the point's components
 * from `i` on. */
static struct node *
concrete(struct walk *w, int i)
{
	struct node *n = ast_clone(w->e->s->arena, w->pt);

	n->u.point.comps = NULL;
	n->u.point.ncomps = n->u.point.cap = 0;
	for (int k = 0; k < w->npath; k++)
		ast_point_push(w->e->s->arena, n, w->path[k]);
	for (int k = i; k < w->pt->u.point.ncomps; k++)
		ast_point_push(w->e->s->arena, n, w->pt->u.point.comps[k]);
	return n;
}

static void
add_match(struct walk *w, struct node *point, struct node *al,
	  struct node *name)
{
	w->out = arena_grow(w->e->s->arena, w->out, sizeof(*w->out), &w->cap,
			    w->nout + 1);
	w->out[w->nout++] = (struct pp_glob_match){
		.point = point, .alias = al, .alias_name = name,
		.prefix = w->npath };
}

/* The walk stops at g with components i.. left over: the aliases named
 * by the path take them as a suffix, else a provider's shape that ends
 * here takes a rest without wildcards. Whether anything was added. */
static bool
stop_at(struct walk *w, struct glob_node *g, int i)
{
	int n = w->pt->u.point.ncomps;

	if (g->naliases) {
		struct node *point = concrete(w, i);
		for (int k = 0; k < g->naliases; k++)
			add_match(w, point, g->aliases[k], g->alias_names[k]);
		return true;
	}
	if (!g->provider_end)
		return false;
	for (int k = i; k < n; k++)
		if (has_glob(w->pt->u.point.comps[k].name))
			return false;
	add_match(w, concrete(w, i), NULL, NULL);
	return true;
}

static void
note_miss(struct walk *w, const struct glob_node *g, int i)
{
	if (i < w->miss_i)
		return;
	w->miss_i = i;
	w->miss_node = g;
	w->miss_npath = w->npath;
	memcpy(w->miss_path, w->path, sizeof(w->path[0]) * (size_t)w->npath);
}

/* A "**" component: every run of one or more levels below g whose dotted
 * names it matches; only the last level may take the argument. */
static void
walk_multi(struct walk *w, struct glob_node *g, int i, const char *joined)
{
	const struct pp_component *c = &w->pt->u.point.comps[i];

	if (w->npath >= GLOB_MAX_PATH - 1)
		return;
	for (int k = 0; k < g->nkids; k++) {
		struct glob_node *next = g->kids[k];
		const char *name = *joined ? arena_printf(w->e->s->arena,
				"%s.%s", joined, next->name) : next->name;
		push(w, next, c, true);
		if (arg_fits(c->arg, next) && glob_dotted(c->name, name))
			walk_from(w, next, i + 1);
		w->npath--;
		if (next->arg == GA_NONE && next->nkids) {
			push(w, next, c, false);
			walk_multi(w, next, i, name);
			w->npath--;
		}
	}
}

static void
walk_from(struct walk *w, struct glob_node *g, int i)
{
	const struct pp_component *c = &w->pt->u.point.comps[i];
	int before = w->nout;

	if (i == w->pt->u.point.ncomps) {
		if (!stop_at(w, g, i))
			note_miss(w, g, i);
		return;
	}
	if (w->npath >= GLOB_MAX_PATH)
		return;
	if (strstr(c->name, "**")) {
		walk_multi(w, g, i, "");
	} else {
		for (int k = 0; k < g->nkids; k++) {
			struct glob_node *next = g->kids[k];
			if (!arg_fits(c->arg, next) ||
			    !glob_dotted(c->name, next->name))
				continue;
			push(w, next, c, true);
			walk_from(w, next, i + 1);
			w->npath--;
		}
	}
	if (w->nout == before && !stop_at(w, g, i))
		note_miss(w, g, i);
}

/* ---- what was known where matching stopped ---- */

static const char *
kid_text(struct elab *e, const struct glob_node *g)
{
	return g->arg == GA_NONE ? g->name :
	       arena_printf(e->s->arena, "%s(%s)", g->name,
			    g->arg == GA_NUMBER ? "NUMBER" :
			    g->arg == GA_STRING ? "STRING" : "...");
}

static const char *
path_text(struct elab *e, const struct pp_component *path, int n)
{
	const char *s = "";

	for (int i = 0; i < n; i++)
		s = arena_printf(e->s->arena, "%s%s%s", s, i ? "." : "",
				 path[i].name);
	return s;
}

struct near {
	const char *text;
	int dist;
};

static int
compare_near(const void *a, const void *b)
{
	const struct near *x = a, *y = b;

	return x->dist != y->dist ? x->dist - y->dist :
	       strcmp(x->text, y->text);
}

/* The names below the miss node nearest to what was written there. */
static const char *
nearest_names(struct walk *w, const char *written)
{
	const struct glob_node *g = w->miss_node;
	struct near *v = arena_alloc(w->e->s->arena,
				     sizeof(*v) * (size_t)g->nkids);
	char bare[256];
	size_t len = 0;

	for (const char *p = written; *p && len < sizeof(bare) - 1; p++)
		if (!strchr("*?[]", *p))
			bare[len++] = *p;
	bare[len] = '\0';
	for (int k = 0; k < g->nkids; k++) {
		v[k].text = kid_text(w->e, g->kids[k]);
		v[k].dist = elab_edit_distance(bare, g->kids[k]->name);
	}
	qsort(v, (size_t)g->nkids, sizeof(*v), compare_near);
	const char *s = "", *last = "";
	int shown = 0, k;
	for (k = 0; k < g->nkids && shown < GLOB_HINT_NAMES; k++) {
		/* begin and begin(NUMBER): the first (sorted) says it */
		size_t n = strlen(last);
		if (shown && strncmp(v[k].text, last, n) == 0 &&
		    v[k].text[n] == '(')
			continue;
		s = arena_printf(w->e->s->arena, "%s%s%s", s,
				 shown++ ? ", " : "", v[k].text);
		last = v[k].text;
	}
	return k < g->nkids ? arena_printf(w->e->s->arena, "%s, ...", s) : s;
}

static void
describe_miss(struct walk *w, struct pp_glob_miss *miss)
{
	const struct node *pt = w->pt;
	int n = pt->u.point.ncomps, i = w->miss_i < n ? w->miss_i : n - 1;
	const char *where = path_text(w->e, w->miss_path, w->miss_npath);

	miss->at = pt->u.point.comps[i].loc.line ? pt->u.point.comps[i].loc :
		   pt->loc;
	miss->hint = NULL;
	if (!w->miss_node || !w->miss_node->nkids)
		return;
	if (w->miss_i >= n)
		miss->hint = arena_printf(w->e->s->arena,
			"'%s' is not a whole probe point; it goes on with: %s",
			where, nearest_names(w, ""));
	else if (w->miss_npath)
		miss->hint = arena_printf(w->e->s->arena,
			"no name after '%s.' matches '%s'; known there: %s",
			where, pt->u.point.comps[i].name,
			nearest_names(w, pt->u.point.comps[i].name));
	else
		miss->hint = arena_printf(w->e->s->arena,
			"no probe point name matches '%s'; nearest: %s",
			pt->u.point.comps[i].name,
			nearest_names(w, pt->u.point.comps[i].name));
}

int
pp_glob_expand(struct elab *e, const struct node *point,
	       struct pp_glob_match **out, struct pp_glob_miss *miss)
{
	struct walk *w = arena_alloc(e->s->arena, sizeof(*w));

	w->e = e;
	w->pt = point;
	walk_from(w, known_names(e), 0);
	*out = w->out;
	if (!w->nout)
		describe_miss(w, miss);
	return w->nout;
}
