/*
 * bpf_loop.c -- while and for in a kernel-side probe (--runtime=bpf) as a
 * bpf_loop() callback, so that a loop may run as many rounds as
 * MAXACTION allows.
 *
 * The verifier walks a plain C loop round by round, up to 1M
 * instructions for the whole program, so a loop of a few thousand rounds
 * was refused at load (E2BIG).  bpf_loop() (Linux 5.17) calls a callback
 * up to 8,388,608 times, and the verifier checks the callback once.  The
 * loop's test, body and step become the callback (bpf_callback.c):
 *
 *   MAXACTION: the handler's count, carried through f->lpK_acts from
 *     round to round and back, against TAP_BPF_MAXACTION as a C loop
 *     counts (rounds of loops inside count too)
 *   test false, break: f->lpK_end = 1, return 1 (stop)
 *   continue: the step, return 0 (next round)
 *   an error or next: f->lpK_end = 2, return 1; the caller leaves too
 *
 * After the call, f->lpK_end still 0 means the rounds ran out: only when
 * MAXACTION is above bpf_loop()'s limit, and then a script error says
 * so (never a loop cut short in silence).
 *
 * Kept as a C loop (bpf_expr.c's loop()), where a callback cannot be
 * written the same way: a kernel without bpf_loop() (the BTF of the
 * running kernel has no such function), context variables in the loop
 * (the callback does not have the probe's arguments), `return` of an
 * inline function from inside it (its jump target is in the caller), a
 * loop inside a try whose catch the callback could not jump to, and
 * callbacks nested deeper than BPF_MAX_LOOP_NESTING (each is a BPF call
 * frame; the kernel allows 8 with the handler's).
 * Must not: write anything when it returns false.
 */
#include "translator/codegen/bpf_int.h"

/* bpf_loop()'s own bound (BPF_MAX_LOOPS, include/linux/bpf.h) */
#define BPF_LOOP_MAX_ROUNDS 8388608
#define BPF_MAX_LOOP_NESTING 4

static bool
callback_safe_visit(struct node *n, void *ctx)
{
	bool *safe = ctx;

	switch (n->kind) {
	case N_TARGET:
	case N_ENTRY:
	case N_PERF:
	case N_RETURN:
		*safe = false;
		return false;
	default:
		return *safe;
	}
}

static bool
callback_safe(struct node *n)
{
	bool safe = true;

	if (n)
		ast_walk(n, callback_safe_visit, NULL, &safe);
	return safe;
}

bool
bpf_loop_callback(struct bpf_cg *b, struct node *n, struct node *cond,
		  struct node *step, struct node *body)
{
	int k;
	struct bpf_callback cb;
	const char *outer_abort;

	if (!b->has_bpf_loop || b->ncb >= BPF_MAX_LOOP_NESTING ||
	    (b->ntry > 0 && b->tries[b->ntry - 1].ncb == b->ncb) ||
	    !callback_safe(cond) || !callback_safe(step) ||
	    !callback_safe(body))
		return false;
	k = b->seq++;
	outer_abort = bpf_abort(b);
	fprintf(b->frame, "\tint64_t lp%d_acts, lp%d_end;\n", k, k);
	bpf_line(b, "{");
	b->indent++;
	bpf_line(b, "f->lp%d_acts = __acts;", k);
	bpf_line(b, "f->lp%d_end = 0;", k);
	/* one round more than MAXACTION lets, so that the MAXACTION error,
	 * not the end of the rounds, stops a loop that does not end */
	bpf_line(b, "bpf_loop(TAP_BPF_MAXACTION < %d ? TAP_BPF_MAXACTION + 1 : %d, lp_cb%d, (void *)0, 0);",
		 BPF_LOOP_MAX_ROUNDS, BPF_LOOP_MAX_ROUNDS, k);
	bpf_line(b, "__acts = f->lp%d_acts;", k);
	bpf_line(b, "if (f->lp%d_end == 2)", k);
	bpf_line(b, "\t%s", outer_abort);
	bpf_line(b, "if (f->lp%d_end == 0)", k);
	b->indent++;
	bpf_raise_uncaught(b, bpf_fmt(b, "loop ran %d rounds, bpf_loop()'s limit (MAXACTION is above it; the kernel-module backend has no such limit)",
				      BPF_LOOP_MAX_ROUNDS), n);
	b->indent--;
	b->indent--;
	bpf_line(b, "}");

	bpf_callback_begin(b, &cb, bpf_fmt(b,
		"/* %s at %s */\nstatic long\nlp_cb%d(__u32 round, void *data)\n",
		n->kind == N_WHILE ? "while" : "for", bpf_near(b, n), k));
	bpf_line(b, "(void)round; (void)data;");
	/* the handler's count, so that loops inside count toward it too */
	bpf_line(b, "__acts = f->lp%d_acts;", k);
	b->abort_stmt = bpf_fmt(b, "{ f->lp%d_end = 2; return 1; }", k);
	b->brk_stmt = bpf_fmt(b, "{ f->lp%d_acts = __acts; f->lp%d_end = 1; return 1; }", k, k);
	b->cont_stmt = NULL;
	bpf_loop_round(b, n, b->brk_stmt, cond, step, body, k);
	bpf_line(b, "f->lp%d_acts = __acts;", k);
	bpf_line(b, "return 0;");
	bpf_callback_end(b, &cb);
	return true;
}
