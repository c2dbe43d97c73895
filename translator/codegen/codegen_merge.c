/*
 * codegen_merge.c -- pass 3 for `tapc --remote-merge`: the script split
 * into the module the hosts run and the program that runs its end
 * probes here, over the hosts' globals merged (runtime/core/merge.h).
 *
 * The shape a script may have, checked here before either half is
 * written (E_REMOTE_MERGE, at the construct):
 *   - every probe but `end` runs on the hosts; the end probes, and the
 *     autoprint of globals written but never read, run here, once, as
 *     on the user target (--target=user);
 *   - a global the end probes (or the functions they call, or autoprint)
 *     use and that the hosts' probes write is merged: statistics (count
 *     and sum add, min/max combine, histograms add bucket-wise; @avg from
 *     the merged sum and count) and integers (they add: a counter of N
 *     hosts is their total), scalars or arrays merged by key;
 *   - refused: such a global holding strings (one host's string is not
 *     the others'), @variance of such a global (not carried), and, in
 *     the end probes, functions of kernel C (they cannot run here).
 * Globals the hosts never write (set by their initializer or -G) keep
 * the value they get here, which is the same.
 *
 * Takes s->program and s->opts.merge_part.  MERGE_REMOTE: codegen.c
 * writes the whole program for the kernel, with the end probes left out
 * of the end table (begin_end.c) and, instead of autoprint, one end
 * handler per merged global writing its lines, then the closing line
 * (codegen_autoprint.c).  MERGE_LOCAL: the user target's C of the end
 * probes and the functions they reach, with the table of merged globals
 * that runtime/user/main.c's -M FILE fills.
 * Must not: leave s->program changed.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/providers/pdata.h"

struct merge_plan {
	struct program *p;
	struct derived_probe **local;	/* the end probes */
	int nlocal;
	struct function_sym **fns;	/* reached from them */
	struct node **fn_site;		/* the first call of each */
	int nfns;
	struct node **local_ref;	/* by global: first use here */
	struct node **remote_write;	/* by global: first write there */
	bool *merged;			/* by global */
};

/* Functions reached from a set of probes: a list the walker fills. */
struct reach {
	struct arena *a;
	struct function_sym **v;
	struct node **site;
	int n, cap;
};

static bool reach_visit(struct node *n, void *ctx);

static void
reach_add(struct reach *r, struct function_sym *fn, struct node *call)
{
	for (int i = 0; i < r->n; i++)
		if (r->v[i] == fn)
			return;
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		struct function_sym **v = arena_alloc(r->a, sizeof(*v) * (size_t)cap);
		struct node **site = arena_alloc(r->a, sizeof(*site) * (size_t)cap);
		if (r->n) {
			memcpy(v, r->v, sizeof(*v) * (size_t)r->n);
			memcpy(site, r->site, sizeof(*site) * (size_t)r->n);
		}
		r->v = v;
		r->site = site;
		r->cap = cap;
	}
	r->site[r->n] = call;
	r->v[r->n++] = fn;
	if (fn->decl && fn->decl->u.function.body)
		ast_walk(fn->decl->u.function.body, reach_visit, NULL, r);
}

static bool
reach_visit(struct node *n, void *ctx)
{
	if (n->kind == N_CALL && n->u.call.fn)
		reach_add(ctx, n->u.call.fn, n);
	return true;
}

static void
reach_probe(struct reach *r, struct derived_probe *dp)
{
	if (dp->body)
		ast_walk(dp->body, reach_visit, NULL, r);
	if (dp->cond)
		ast_walk(dp->cond, reach_visit, NULL, r);
}

bool
cg_merge_is_end(const struct derived_probe *dp)
{
	return dp->provider == &provider_begin_end &&
	       ((const struct pdata_begin_end *)dp->pdata)->kind == BE_END;
}

/* ---- who uses which global ---- */

struct uses {
	struct program *p;
	struct node **first;	/* by global index */
	bool writes_only;	/* record writes, not every use */
};

static int
global_index(const struct program *p, const struct symbol *sym)
{
	for (int i = 0; sym && sym->kind == SYM_GLOBAL && i < p->nglobals; i++)
		if (p->globals[i] == sym)
			return i;
	return -1;
}

static void
uses_mark(struct uses *u, struct node *target, struct node *at)
{
	struct node *base = target;
	int i;

	if (base->kind == N_INDEX)
		base = base->u.index.base;
	if (base->kind != N_SYMBOL)
		return;
	i = global_index(u->p, base->u.symbol.sym);
	if (i >= 0 && !u->first[i])
		u->first[i] = at;
}

static bool
uses_visit(struct node *n, void *ctx)
{
	struct uses *u = ctx;

	if (!u->writes_only) {
		if (n->kind == N_SYMBOL)
			uses_mark(u, n, n);
		return true;
	}
	if (n->kind == N_ASSIGN)
		uses_mark(u, n->u.binary.lhs, n);
	else if (n->kind == N_CREMENT)
		uses_mark(u, n->u.crement.operand, n);
	else if (n->kind == N_DELETE)
		uses_mark(u, n->u.del.target, n);
	return true;
}

/* Walk the probes given and every function they reach. */
static void
uses_scan(struct uses *u, struct derived_probe **probes, int n,
	  const struct reach *r)
{
	for (int i = 0; i < n; i++) {
		if (probes[i]->body)
			ast_walk(probes[i]->body, uses_visit, NULL, u);
		if (probes[i]->cond)
			ast_walk(probes[i]->cond, uses_visit, NULL, u);
	}
	for (int i = 0; i < r->n; i++)
		if (r->v[i]->decl && r->v[i]->decl->u.function.body)
			ast_walk(r->v[i]->decl->u.function.body, uses_visit,
				 NULL, u);
}

/* ---- the refusals ---- */

/* Embedded C of a library file with a `runtime == "kernel"` branch is
 * kernel C; the user-space branch was not elaborated. */
static bool
is_kernel_c(const struct function_sym *fn)
{
	const struct source *src;

	if (!fn->decl || !fn->decl->u.function.embedded)
		return false;
	src = fn->decl->loc.src;
	return !src || !src->text || strstr(src->text, "runtime == \"kernel\"");
}

struct variance_find {
	struct symbol *sym;
	struct node *at;
};

static bool
variance_visit(struct node *n, void *ctx)
{
	struct variance_find *v = ctx;

	if (!v->at && n->kind == N_STAT_OP && n->u.stat.op == OP_VARIANCE &&
	    cg_array_symbol(n->u.stat.operand) == v->sym)
		v->at = n;
	return true;
}

static struct node *
variance_use(struct program *p, struct symbol *sym)
{
	struct variance_find v = { .sym = sym };

	for (int i = 0; i < p->nprobes && !v.at; i++)
		if (p->probes[i]->body)
			ast_walk(p->probes[i]->body, variance_visit, NULL, &v);
	for (int i = 0; i < p->nfunctions && !v.at; i++)
		if (p->functions[i]->decl && p->functions[i]->decl->u.function.body)
			ast_walk(p->functions[i]->decl->u.function.body,
				 variance_visit, NULL, &v);
	return v.at;
}

static bool
merge_check_global(struct session *s, struct merge_plan *mp, int i)
{
	struct symbol *sym = mp->p->globals[i];
	struct node *use = mp->local_ref[i];
	struct loc at = use ? use->loc : sym->decl->loc;
	struct node *var;

	if (sym->type == TY_STRING) {
		diag_error(&s->diag, at, "E_REMOTE_MERGE",
			   "--remote-merge cannot merge global '%s': it holds strings, which the hosts' probes set and the end probes %s; only statistics and integers add up across hosts",
			   sym->name, use ? "read here" : "print (autoprint)");
		diag_note(&s->diag, mp->remote_write[i]->loc,
			  "'%s' is written here, by a probe that runs on the hosts",
			  sym->name);
		return false;
	}
	if (sym->type == TY_STATS && (var = variance_use(mp->p, sym))) {
		diag_error(&s->diag, var->loc, "E_REMOTE_MERGE",
			   "--remote-merge cannot merge @variance of '%s': the hosts send @count, @sum, @min, @max and the histogram buckets, from which @variance does not follow",
			   sym->name);
		return false;
	}
	return true;
}

/* Which probes run here, what they reach, which globals are merged;
 * false after reporting what the shape does not allow. */
static bool
merge_plan(struct session *s, struct merge_plan *mp)
{
	struct program *p = s->program;
	size_t ng = sizeof(void *) * (size_t)(p->nglobals + 1);
	struct derived_probe **remote = arena_alloc(s->arena, sizeof(*remote) * (size_t)(p->nprobes + 1));
	struct reach lr = { .a = s->arena }, rr = { .a = s->arena };
	struct cg tmp = { .s = s, .prog = p, .a = s->arena };
	bool *autoprinted, ok = true;
	int nremote = 0;

	memset(mp, 0, sizeof(*mp));
	mp->p = p;
	mp->local = arena_alloc(s->arena, sizeof(*mp->local) * (size_t)(p->nprobes + 1));
	for (int i = 0; i < p->nprobes; i++) {
		if (cg_merge_is_end(p->probes[i]))
			mp->local[mp->nlocal++] = p->probes[i];
		else
			remote[nremote++] = p->probes[i];
	}
	for (int i = 0; i < mp->nlocal; i++)
		reach_probe(&lr, mp->local[i]);
	for (int i = 0; i < nremote; i++)
		reach_probe(&rr, remote[i]);
	for (int i = 0; i < lr.n; i++)
		if (is_kernel_c(lr.v[i])) {
			diag_error(&s->diag, lr.site[i]->loc, "E_REMOTE_MERGE",
				   "%s() is kernel C, which cannot run where --remote-merge runs the end probes: here, once, in user space (as --target=user), over the hosts' merged globals",
				   lr.v[i]->name);
			ok = false;
		}
	mp->fns = lr.v;
	mp->fn_site = lr.site;
	mp->nfns = lr.n;
	mp->local_ref = arena_alloc(s->arena, ng);
	mp->remote_write = arena_alloc(s->arena, ng);
	mp->merged = arena_alloc(s->arena, ng);
	struct uses lu = { .p = p, .first = mp->local_ref };
	struct uses ru = { .p = p, .first = mp->remote_write, .writes_only = true };
	uses_scan(&lu, mp->local, mp->nlocal, &lr);
	uses_scan(&ru, remote, nremote, &rr);
	autoprinted = cg_autoprint_wanted(&tmp);
	for (int i = 0; i < p->nglobals; i++) {
		if (!mp->remote_write[i] || (!mp->local_ref[i] && !autoprinted[i]))
			continue;
		mp->merged[i] = true;
		if (!merge_check_global(s, mp, i))
			ok = false;
	}
	return ok;
}

bool *
cg_merge_remote_plan(struct session *s)
{
	struct merge_plan mp;

	return merge_plan(s, &mp) ? mp.merged : NULL;
}

/* ---- here: the table -M FILE fills (runtime/user/main.c) ---- */

void
cg_merge_table(struct cg *g)
{
	struct program *p = g->prog;
	int n = 0;

	cg_blank(&g->w);
	cg_comment(&g->w, "--remote-merge: the globals the hosts' lines fill");
	cg_open(&g->w, "const struct tap_merge_global tap_merge_globals[] =");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];
		const char *keys = "";

		if (!g->merged || !g->merged[i])
			continue;
		for (int k = 0; k < sym->nkeys; k++)
			keys = cg_fmt(g, "%s%s", keys, sym->key_types[k] == TY_STRING
				      ? " TAP_T_STRING," : " TAP_T_LONG,");
		cg_line(&g->w, "{ .name = \"%s\", .nkeys = %d, .keys = {%s }, .%s = &%s },",
			sym->name, sym->nkeys, keys,
			cg_is_stat_array(sym) ? "pmap" : sym->nkeys ? "map" :
			sym->type == TY_STATS ? "stat" : "scalar",
			cg_global_name(sym));
		n++;
	}
	cg_line(&g->w, "{ .name = NULL },");
	cg_close(&g->w, ";");
	cg_line(&g->w, "const size_t tap_merge_nglobals = %d;", n);
}

/* The end probes and the functions they reach, for the user target;
 * the program's lists restored after. */
bool
cg_merge_translate_local(struct session *s, FILE *out)
{
	struct program *p = s->program;
	struct program saved = *p;
	enum target_kind target = s->opts.target;
	struct merge_plan mp;
	struct function_sym **fns;
	int nfns = 0;
	bool ok;

	if (!merge_plan(s, &mp))
		return false;
	/* keep the program's order of functions */
	fns = arena_alloc(s->arena, sizeof(*fns) * (size_t)(p->nfunctions + 1));
	for (int i = 0; i < p->nfunctions; i++)
		for (int j = 0; j < mp.nfns; j++)
			if (mp.fns[j] == p->functions[i])
				fns[nfns++] = p->functions[i];
	p->whole = &saved;
	p->probes = mp.local;
	p->nprobes = p->probes_cap = mp.nlocal;
	p->functions = fns;
	p->nfunctions = p->functions_cap = nfns;
	p->nembeds = 0;		/* top-level %{ %}: the kernel's C */
	s->opts.target = TARGET_USER;
	ok = cg_translate(s, out, mp.merged);
	s->opts.target = target;
	*p = saved;
	return ok;
}
