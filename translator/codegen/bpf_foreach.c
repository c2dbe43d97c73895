/*
 * bpf_foreach.c -- foreach over a global array in a kernel-side probe
 * (--runtime=bpf), as a bpf_for_each_map_elem() callback.
 *
 * Takes an N_FOREACH of a BPF program.  The loop's body becomes a static
 * callback (bpf_callback.c) that copies the element's key into the
 * loop's variables and its value into `v = [k]`'s, and runs the body.
 * `break` returns 1 (the iteration stops), `continue` returns 0; an
 * error or `next` records "abort" in the frame and returns 1, and the
 * handler, seeing it after the call, leaves as well.  `limit N` is a
 * count in the frame.
 *
 * Without a sort order the elements come in the map's order, which the
 * language leaves unspecified; a sorted foreach needs every element at
 * once, which a BPF program cannot hold, so it is refused (end probes
 * sort; they run in user space).  Also refused: context variables in the
 * body (the tracepoint's arguments are not the callback's), `return`
 * from an inline function inside the loop, and foreach over statistics,
 * histograms and slices.
 * Must not: leave b->out, the loop statements or the abort statement
 * changed after returning.
 */
#include "translator/codegen/bpf_int.h"

static bool
refuse_foreach(struct bpf_cg *b, struct node *n, struct symbol **arr)
{
	struct node *a = n->u.foreach.array;
	struct symbol *sym;

	if (a->kind != N_SYMBOL || !a->u.symbol.sym ||
	    a->u.symbol.sym->kind != SYM_GLOBAL) {
		bpf_refuse(b, n, "foreach over a slice or a histogram in a kernel-side probe");
		return true;
	}
	sym = a->u.symbol.sym;
	if (sym->type == TY_STATS || sym->nkeys == 0) {
		bpf_refuse(b, n, "foreach over statistics in a kernel-side probe (end probes read them)");
		return true;
	}
	if (sym->wrap) {
		bpf_refuse(b, n, "foreach over a wrapping array (global a%)");
		return true;
	}
	if (n->u.foreach.sort_column >= 0) {
		bpf_refuse(b, n, "a sorted foreach in a kernel-side probe (a BPF program cannot sort; foreach without '+'/'-' is supported there, sorting in begin/end probes)");
		return true;
	}
	if (n->u.foreach.keys.n != sym->nkeys) {
		bpf_refuse(b, n, "this foreach");
		return true;
	}
	*arr = sym;
	bpf_mark_kernel_global(b, sym);
	return false;
}

/* key -> the loop variables, value -> v of `v = [k]`. */
static void
bind_element(struct bpf_cg *b, struct node *n, struct symbol *sym)
{
	for (int i = 0; i < n->u.foreach.keys.n; i++) {
		struct bval v = bpf_expr(b, n->u.foreach.keys.v[i]);

		if (sym->key_types[i] == TY_STRING)
			bpf_line(b, "tap_str_copy(%s, key->k%d);", v.c, i);
		else
			bpf_line(b, "%s = key->k%d;", v.c, i);
	}
	if (n->u.foreach.value) {
		struct bval v = bpf_expr(b, n->u.foreach.value);

		if (sym->type == TY_STRING)
			bpf_line(b, "tap_str_copy(%s, val->s);", v.c);
		else
			bpf_line(b, "%s = *val;", v.c);
	}
}

void
bpf_foreach(struct bpf_cg *b, struct node *n)
{
	struct symbol *sym = NULL;
	int k = b->seq++;
	struct bpf_callback cb;
	const char *outer_abort = bpf_abort(b);

	if (b->ntry > 0 && b->tries[b->ntry - 1].ncb == b->ncb) {
		bpf_refuse(b, n, "foreach inside try in a kernel-side probe (the loop's body could not reach the catch)");
		return;
	}
	if (refuse_foreach(b, n, &sym))
		return;
	fprintf(b->frame, "\tint64_t fe%d_n, fe%d_lim, fe%d_stop;\n", k, k, k);
	bpf_line(b, "{");
	b->indent++;
	if (n->u.foreach.limit) {
		struct bval lim = bpf_as_long(b, n->u.foreach.limit);

		bpf_line(b, "f->fe%d_lim = %s;", k, lim.c);
	} else {
		bpf_line(b, "f->fe%d_lim = -1;", k);
	}
	bpf_line(b, "f->fe%d_n = 0;", k);
	bpf_line(b, "f->fe%d_stop = 0;", k);
	bpf_line(b, "bpf_for_each_map_elem(&%s, fe_cb%d, (void *)0, 0);", bpf_global_map(b, sym), k);
	bpf_line(b, "if (f->fe%d_stop)", k);
	bpf_line(b, "\t%s", outer_abort);
	b->indent--;
	bpf_line(b, "}");

	bpf_callback_begin(b, &cb, bpf_fmt(b,
		"/* foreach at %s */\nstatic long\nfe_cb%d(void *map, %s *key, %s *val, void *data)\n",
		bpf_near(b, n), k, bpf_key_type(b, sym), bpf_value_type(b, sym)));
	bpf_line(b, "(void)map; (void)key; (void)val; (void)data;");
	bpf_line(b, "if (f->fe%d_lim >= 0 && f->fe%d_n++ >= f->fe%d_lim) return 1;", k, k, k);
	b->abort_stmt = bpf_fmt(b, "{ f->fe%d_stop = 1; return 1; }", k);
	b->brk_stmt = "return 1;";
	b->cont_stmt = "return 0;";
	bind_element(b, n, sym);
	bpf_stmt(b, n->u.foreach.body);
	bpf_line(b, "return 0;");
	bpf_callback_end(b, &cb);
}
