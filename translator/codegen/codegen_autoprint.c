/*
 * codegen_autoprint.c -- pass 3 for SystemTap's autoprint: a global of the
 * script that is written but never read is printed when the script ends,
 * by an end handler of its own, as stap does:
 *
 *     n=5                      s="text"
 *     a[1]=2                   b["k",3]="v"      (by value, largest first)
 *     st @count=2 @min=1 @max=4 @sum=5 @avg=2    (st @count=0x0 if empty)
 *     sa[1] @count=... @min=... @max=... @sum=... @avg=...  (by @count)
 *
 * Takes the program's globals (sema.h: read/written flags). Produces the
 * handlers autoprint_N, their records __tap_auto_N, and their frames;
 * codegen.c lists them among the end probes, after the script's own end
 * probes of sequence 0 or less. Lines go through formats compiled at
 * translate time, as printf's do. Must not: print tapset globals.
 *
 * With --remote-merge, the hosts' module has, instead, a handler of this
 * kind for each global merged across hosts (codegen_merge.c), writing
 * its merge lines (runtime/core/merge.h), then one writing the closing
 * line: the autoprint itself runs once, here, over the merged globals.
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"

/* Which globals the program reads and writes, by index: assignments of
 * every kind, ++/-- and delete write their target without reading it. */
struct cg_rw {
	struct program *p;
	bool *read, *written;
};

/* Where the printing statements stand: an autoprint handler (its own
 * frame, one label for both exits) or the handler a print(G) is in (its
 * frame's iteration storage, its MAXACTION and error exits). */
struct cg_whole_at {
	const char *iters;	/* iteration storage of the entries */
	const char *out;	/* where TAP_STMT leaves at MAXACTION */
	const char *err;	/* where it goes after tap_error_at() */
	const char *near;	/* the script location errors name */
};

static int
cg_global_index(struct program *p, struct symbol *sym)
{
	int i;

	for (i = 0; sym && sym->kind == SYM_GLOBAL && i < p->nglobals; i++)
		if (p->globals[i] == sym)
			return i;
	return -1;
}

static bool cg_rw_node(struct node *n, void *ctx);

/* `target` is written: its keys are read, the array itself is not. */
static void
cg_rw_target(struct cg_rw *rw, struct node *target)
{
	struct node *base = target;
	int i;

	if (target->kind == N_INDEX) {
		base = target->u.index.base;
		for (i = 0; i < target->u.index.keys.n; i++)
			if (target->u.index.keys.v[i])
				ast_walk(target->u.index.keys.v[i], cg_rw_node,
					 NULL, rw);
	}
	if (base->kind != N_SYMBOL) {
		ast_walk(target, cg_rw_node, NULL, rw);
		return;
	}
	i = cg_global_index(rw->p, base->u.symbol.sym);
	if (i >= 0)
		rw->written[i] = true;
}

static bool
cg_rw_node(struct node *n, void *ctx)
{
	struct cg_rw *rw = ctx;
	int i;

	/* =, <<<, +=, ...: SystemTap counts a global that is only counted
	 * (a[k] += x, and n++ below) as written, not read. */
	if (n->kind == N_ASSIGN) {
		cg_rw_target(rw, n->u.binary.lhs);
		ast_walk(n->u.binary.rhs, cg_rw_node, NULL, rw);
		return false;
	}
	/* n++ as a statement only writes; println(n++) also reads n */
	if (n->kind == N_EXPR_STMT &&
	    n->u.expr_stmt.expr->kind == N_CREMENT) {
		cg_rw_target(rw, n->u.expr_stmt.expr->u.crement.operand);
		return false;
	}
	if (n->kind == N_DELETE) {
		cg_rw_target(rw, n->u.del.target);
		return false;
	}
	if (n->kind == N_SYMBOL &&
	    (i = cg_global_index(rw->p, n->u.symbol.sym)) >= 0) {
		rw->read[i] = true;
		if (n->u.symbol.sym->written)
			rw->written[i] = true;	/* ++, +=: both */
	}
	return true;
}

static void
cg_rw_scan(struct cg *g, struct cg_rw *rw)
{
	const struct program *p = g->prog->whole ? g->prog->whole : g->prog;
	int i;

	rw->p = g->prog;
	rw->read = arena_alloc(g->a, sizeof(bool) * (size_t)(p->nglobals + 1));
	rw->written = arena_alloc(g->a, sizeof(bool) * (size_t)(p->nglobals + 1));
	for (i = 0; i < p->nprobes; i++) {
		if (p->probes[i]->body)
			ast_walk(p->probes[i]->body, cg_rw_node, NULL, rw);
		if (p->probes[i]->cond)
			ast_walk(p->probes[i]->cond, cg_rw_node, NULL, rw);
	}
	for (i = 0; i < p->nfunctions; i++)
		if (p->functions[i]->decl && p->functions[i]->decl->u.function.body)
			ast_walk(p->functions[i]->decl->u.function.body,
				 cg_rw_node, NULL, rw);
}

static bool
cg_wants_autoprint(struct cg_rw *rw, int i)
{
	struct symbol *sym = rw->p->globals[i];
	const struct node *d = sym->decl;

	return rw->written[i] && !rw->read[i] && !sym->is_private && d &&
	       d->loc.src && !d->loc.src->is_tapset;
}

/* The line's format: name, keys, then the value or the statistics. */
static const char *
cg_autoprint_format(struct cg *g, struct symbol *sym)
{
	char *f = cg_fmt(g, "%s", sym->name);
	int i;

	if (sym->nkeys) {
		f = cg_fmt(g, "%s[", f);
		for (i = 0; i < sym->nkeys; i++)
			f = cg_fmt(g, "%s%s%s", f, i ? "," : "",
				   sym->key_types[i] == TY_STRING ? "\"%#s\""
								  : "%#d");
		f = cg_fmt(g, "%s]", f);
	}
	if (sym->type == TY_STATS)
		return cg_fmt(g, "%s @count=%%#d @min=%%#d @max=%%#d @sum=%%#d @avg=%%#d\n", f);
	if (sym->type == TY_STRING)
		return cg_fmt(g, "%s=\"%%#s\"\n", f);
	return cg_fmt(g, "%s=%%d\n", f);
}

/* Statements putting the five statistics of `sd` in v[at..at+4]. */
static void
cg_autoprint_stats(struct cg *g, const char *sd, int at)
{
	cg_line(&g->w, "v[%d] = TAP_LONG(tap_stat_count(%s));", at, sd);
	cg_line(&g->w, "(void)tap_stat_min(%s, &v[%d].l);", sd, at + 1);
	cg_line(&g->w, "(void)tap_stat_max(%s, &v[%d].l);", sd, at + 2);
	cg_line(&g->w, "v[%d] = TAP_LONG(tap_stat_sum(%s));", at + 3, sd);
	cg_line(&g->w, "(void)tap_stat_avg(%s, &v[%d].l);", sd, at + 4);
}

static void
cg_autoprint_scalar(struct cg *g, struct symbol *sym, const char *fmt)
{
	const char *name = cg_global_name(sym);

	if (sym->type == TY_STATS) {
		cg_line(&g->w, "const struct tap_stat_data *sd = tap_stat_get(&%s);",
			name);
		cg_open(&g->w, "if (tap_stat_count(sd) == 0)");
		cg_line(&g->w, "tap_puts(c, \"%s @count=0x0\\n\");", sym->name);
		cg_close(&g->w, NULL);
		cg_open(&g->w, "else");
		cg_autoprint_stats(g, "sd", 0);
		cg_line(&g->w, "__tap_out_fmt(c, &%s, v, 5);", fmt);
		cg_close(&g->w, NULL);
		return;
	}
	cg_line(&g->w, "v[0] = %s(%s);", sym->type == TY_STRING ? "TAP_STR"
		: "TAP_LONG", cg_scalar_value(g, sym));
	cg_line(&g->w, "__tap_out_fmt(c, &%s, v, 1);", fmt);
}

/* The map to iterate: an array of statistics aggregated first. */
static const char *
cg_whole_map(struct cg *g, struct symbol *sym, const struct cg_whole_at *at)
{
	if (!cg_is_stat_array(sym))
		return cg_fmt(g, "&%s", cg_global_name(sym));
	cg_open(&g->w, "if (tap_pmap_aggregate(&%s))", cg_global_name(sym));
	cg_line(&g->w, "tap_error_at(c, \"aggregation overflow\", %s);",
		cg_c_string(g, at->near, strlen(at->near)));
	cg_line(&g->w, "goto %s;", at->err);
	cg_close(&g->w, NULL);
	return cg_fmt(g, "&%s.agg", cg_global_name(sym));
}

/* At the top of the loop over the entries: count the statement, and put
 * entry e's keys in v[], then its value unless it is a statistic. */
static void
cg_whole_entry(struct cg *g, struct symbol *sym, const char *map,
	       const struct cg_whole_at *at)
{
	int i;

	cg_line(&g->w, "TAP_STMT(%s, %s);",
		cg_c_string(g, at->near, strlen(at->near)), at->out);
	for (i = 0; i < sym->nkeys; i++)
		cg_line(&g->w, "v[%d] = %s(tap_map_key_%s(%s, e, %d));", i,
			sym->key_types[i] == TY_STRING ? "TAP_STR" : "TAP_LONG",
			sym->key_types[i] == TY_STRING ? "str" : "long", map, i);
	if (sym->type == TY_STRING)
		cg_line(&g->w, "v[%d] = TAP_STR(tap_map_value_str(%s, e));",
			sym->nkeys, map);
	else if (sym->type != TY_STATS)
		cg_line(&g->w, "v[%d] = TAP_LONG(*tap_map_value_long(%s, e));",
			sym->nkeys, map);
}

static void
cg_autoprint_array(struct cg *g, struct symbol *sym, const char *fmt,
		   const struct cg_whole_at *at, int nargs)
{
	const char *map = cg_whole_map(g, sym, at);

	cg_line(&g->w, "tap_map_iter_start(%s, &o, &it, %s);", map, at->iters);
	cg_open(&g->w, "while ((e = tap_map_iter_next(&it)) != NULL)");
	cg_whole_entry(g, sym, map, at);
	if (sym->type == TY_STATS)
		cg_autoprint_stats(g, cg_fmt(g, "tap_map_value_stat(%s, e)", map),
				   sym->nkeys);
	cg_line(&g->w, "__tap_out_fmt(c, &%s, v, %d);", fmt, nargs);
	cg_close(&g->w, NULL);
}

/* --json: the same globals as one JSON document a line (json.h):
 * {"name":N,"value":V} for a scalar, {"name":N,"entries":[{"key":[..],
 * "value":V},...]} for an array, in the order the text lines have. */
static const char *
cg_json_type(struct symbol *sym)
{
	if (sym->type == TY_STATS)
		return "TAP_T_STAT";
	return sym->type == TY_STRING ? "TAP_T_STRING" : "TAP_T_LONG";
}

static void
cg_autoprint_json_scalar(struct cg *g, struct symbol *sym)
{
	const char *name = cg_global_name(sym);

	if (sym->type == TY_STATS)
		cg_line(&g->w, "__tap_out_json_value(c, \"%s\", &v[0], TAP_T_STAT, "
			"tap_stat_get(&%s));", sym->name, name);
	else
		cg_line(&g->w, "v[0] = %s(%s); __tap_out_json_value(c, \"%s\", "
			"&v[0], %s, NULL);", sym->type == TY_STRING ? "TAP_STR"
			: "TAP_LONG", cg_scalar_value(g, sym), sym->name,
			cg_json_type(sym));
}

static void
cg_autoprint_json_array(struct cg *g, struct symbol *sym,
			const struct cg_whole_at *at)
{
	const char *map = cg_whole_map(g, sym, at);
	const char *sd = "NULL";
	int i, k = g->static_seq++;

	fprintf(g->decls, "static const enum tap_type __tap_jkt_%d[] = {", k);
	for (i = 0; i < sym->nkeys; i++)
		fprintf(g->decls, " %s,", sym->key_types[i] == TY_STRING
			? "TAP_T_STRING" : "TAP_T_LONG");
	fprintf(g->decls, " };\n");
	if (cg_is_stat_array(sym))
		sd = cg_fmt(g, "tap_map_value_stat(%s, e)", map);
	cg_line(&g->w, "tap_puts(c, \"{\\\"name\\\":\\\"%s\\\",\\\"entries\\\":[\");",
		sym->name);
	cg_line(&g->w, "tap_map_iter_start(%s, &o, &it, %s);", map, at->iters);
	cg_open(&g->w, "for (i = 0; (e = tap_map_iter_next(&it)) != NULL; i++)");
	cg_whole_entry(g, sym, map, at);
	cg_line(&g->w, "__tap_out_json_entry(c, i == 0, v, __tap_jkt_%d, %d, "
		"&v[%d], %s, %s);", k, sym->nkeys, sym->nkeys, cg_json_type(sym),
		sd);
	cg_close(&g->w, NULL);
	cg_line(&g->w, "tap_puts(c, \"]}\\n\");");
}

/* The frame: iteration storage for an array's entries. */
static void
cg_autoprint_frame(struct cg *g, struct symbol *sym, int k)
{
	fprintf(g->decls, "struct auto_%d_locals {\n", k);
	if (sym->max_entries > 0)
		fprintf(g->decls, "\tstruct tap_map_entry *it[%ld];\n",
			sym->max_entries);
	else
		fprintf(g->decls, "\tstruct tap_map_entry *it[MAXMAPENTRIES];\n");
	fprintf(g->decls, "};\n");
	fprintf(g->body_frames, "\tstruct auto_%d_locals auto_%d;\n", k, k);
}

/* --remote-merge on the hosts: global sym as merge lines, one per
 * entry of an array, in any order. */
static void
cg_merge_dump_block(struct cg *g, struct symbol *sym,
		    const struct cg_whole_at *at)
{
	const char *name = cg_global_name(sym), *map;
	int i, k = g->static_seq++;

	cg_open_block(&g->w);
	if (!sym->nkeys && sym->type == TY_STATS) {
		cg_line(&g->w, "__tap_out_merge(c, \"%s\", NULL, NULL, 0, TAP_T_STAT, 0, &%s.desc, tap_stat_get(&%s));",
			sym->name, name, name);
	} else if (!sym->nkeys) {
		cg_line(&g->w, "__tap_out_merge(c, \"%s\", NULL, NULL, 0, TAP_T_LONG, %s, NULL, NULL);",
			sym->name, cg_scalar_value(g, sym));
	} else {
		fprintf(g->decls, "static const enum tap_type __tap_mkt_%d[] = {", k);
		for (i = 0; i < sym->nkeys; i++)
			fprintf(g->decls, " %s,", sym->key_types[i] == TY_STRING
				? "TAP_T_STRING" : "TAP_T_LONG");
		fprintf(g->decls, " };\n");
		cg_line(&g->w, "struct tap_value v[%d] = { { 0, NULL } };",
			sym->nkeys + 1);
		cg_line(&g->w, "struct tap_map_order o = { .dir = 0, .limit = -1 };");
		cg_line(&g->w, "struct tap_map_iter it;");
		cg_line(&g->w, "struct tap_map_entry *e;");
		map = cg_whole_map(g, sym, at);
		cg_line(&g->w, "tap_map_iter_start(%s, &o, &it, %s);", map, at->iters);
		cg_open(&g->w, "while ((e = tap_map_iter_next(&it)) != NULL)");
		cg_whole_entry(g, sym, map, at);
		if (sym->type == TY_STATS)
			cg_line(&g->w, "__tap_out_merge(c, \"%s\", v, __tap_mkt_%d, %d, TAP_T_STAT, 0, &(%s)->stat_desc, tap_map_value_stat(%s, e));",
				sym->name, k, sym->nkeys, map, map);
		else
			cg_line(&g->w, "__tap_out_merge(c, \"%s\", v, __tap_mkt_%d, %d, TAP_T_LONG, v[%d].l, NULL, NULL);",
				sym->name, k, sym->nkeys, sym->nkeys);
		cg_close(&g->w, NULL);
	}
	cg_close(&g->w, NULL);
}

/* The statements that print global sym whole, in a block of their own:
 * its locals, then the lines (text, or JSON with --json). */
static void
cg_print_whole_block(struct cg *g, struct symbol *sym,
		     const struct cg_whole_at *at)
{
	const char *src = cg_autoprint_format(g, sym);
	const char *fmt;
	unsigned int nargs = 0, off = 0;
	bool json = g->s->opts.json_output;

	fmt = cg_static_format(g, src, strlen(src), &nargs, &off);
	if (!fmt)
		return;
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_value v[%u] = { { 0, NULL } };",
		nargs ? nargs : 1);
	if (sym->nkeys) {
		cg_line(&g->w, "struct tap_map_order o = { .dir = -1, .column = 0, "
			".field = TAP_STAT_COUNT, .limit = -1 };");
		cg_line(&g->w, "struct tap_map_iter it;");
		cg_line(&g->w, "struct tap_map_entry *e;");
		if (json)
			cg_line(&g->w, "int i;");
	}
	if (json && sym->nkeys)
		cg_autoprint_json_array(g, sym, at);
	else if (json)
		cg_autoprint_json_scalar(g, sym);
	else if (sym->nkeys)
		cg_autoprint_array(g, sym, fmt, at, (int)nargs);
	else
		cg_autoprint_scalar(g, sym, fmt);
	cg_close(&g->w, NULL);
}

static void
cg_autoprint_handler(struct cg *g, struct symbol *sym, int k)
{
	struct cg_whole_at at = {
		.iters = "l->it", .out = "out", .err = "out",
		.near = cg_where(g, sym->decl->loc, "keyword"),
	};

	fprintf(g->decls, "static const struct tap_lock_use __tap_alocks_%d[] = {\n",
		k);
	cg_lock_use_entry(g, sym, true);
	fprintf(g->decls, "};\n");
	if (sym->nkeys)
		cg_autoprint_frame(g, sym, k);
	cg_blank(&g->w);
	if (g->s->opts.merge_part == MERGE_REMOTE)
		cg_comment(&g->w, "--remote-merge: global %s, for the end probes run by tapc",
			   sym->name);
	else
		cg_comment(&g->w, "autoprint: global %s is written but never read",
			   sym->name);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "autoprint_%d(struct tap_context *c)", k);
	cg_open_block(&g->w);
	if (sym->nkeys)
		cg_line(&g->w, "struct auto_%d_locals *l = &TAP_FRAME(c, 0)->auto_%d;",
			k, k);
	cg_line(&g->w, "if (!tap_locks_acquire(c, __tap_alocks_%d, 1))", k);
	cg_line(&g->w, "\treturn;");
	cg_fold_counted_arrays(g, sym, "out");
	if (g->s->opts.merge_part == MERGE_REMOTE)
		cg_merge_dump_block(g, sym, &at);
	else
		cg_print_whole_block(g, sym, &at);
	cg_label(&g->w, "out");
	cg_line(&g->w, "tap_locks_release(__tap_alocks_%d, 1);", k);
	cg_close(&g->w, NULL);
	cg_line(&g->w, "static const struct tap_probe __tap_auto_%d = { .point = \"end\", "
		".location = %s, .handler = autoprint_%d };", k,
		cg_c_string(g, cg_where(g, sym->decl->loc, NULL),
			    strlen(cg_where(g, sym->decl->loc, NULL))), k);
}

/* print(G) / println(G) of a whole array or statistics global in a
 * handler or function, which --json allows (sema_is_whole_print): the
 * autoprint's JSON document, under the handler's locks (the global is
 * read there) and its MAXACTION.  println adds nothing: the document is
 * a line already. */
const char *
cg_print_whole(struct cg *g, struct node *n)
{
	struct symbol *sym = n->u.call.args.v[0]->u.symbol.sym;
	struct cg_whole_at at = {
		.iters = sym->nkeys ? cg_iter_storage(g, sym) : NULL,
		.out = g->out_label, .err = g->err_label, .near = cg_near(g, n),
	};

	cg_print_whole_block(g, sym, &at);
	return "((int64_t)0)";
}

bool *
cg_autoprint_wanted(struct cg *g)
{
	struct cg_rw rw;
	bool *want = arena_alloc(g->a, sizeof(bool) * (size_t)(g->prog->nglobals + 1));

	cg_rw_scan(g, &rw);
	for (int i = 0; i < g->prog->nglobals; i++)
		want[i] = cg_wants_autoprint(&rw, i);
	return want;
}

/* --remote-merge on the hosts: after the globals' lines, the line that
 * says they are all there. */
static void
cg_merge_end_handler(struct cg *g, int k)
{
	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "autoprint_%d(struct tap_context *c)", k);
	cg_open_block(&g->w);
	cg_line(&g->w, "tap_puts(c, TAP_MERGE_END);");
	cg_close(&g->w, NULL);
	cg_line(&g->w, "static const struct tap_probe __tap_auto_%d = { .point = \"end\", "
		".location = \"--remote-merge\", .handler = autoprint_%d };", k, k);
}

int
cg_autoprint(struct cg *g)
{
	struct program *p = g->prog;
	struct cg_rw rw;
	int i, n = 0;

	if (g->s->opts.merge_part == MERGE_REMOTE) {
		for (i = 0; i < p->nglobals; i++)
			if (g->merged && g->merged[i])
				cg_autoprint_handler(g, p->globals[i], n++);
		cg_merge_end_handler(g, n++);
		return n;
	}
	cg_rw_scan(g, &rw);
	for (i = 0; i < p->nglobals; i++)
		if (cg_wants_autoprint(&rw, i))
			cg_autoprint_handler(g, p->globals[i], n++);
	return n;
}
