/*
 * bpf_callback.c -- writing a loop body as a BPF callback function
 * (--runtime=bpf): what foreach (bpf_for_each_map_elem) and while/for
 * (bpf_loop) share.
 *
 * A callback is a static function of its own, verified once however many
 * times it runs, so its text goes to b->callbacks (bpf_emit.c places it
 * before the handlers; an inner callback ends, and is written, before
 * the one around it, so C sees it declared first).  It has none of the
 * handler's C locals: it finds the session, the globals and this CPU's
 * frame again (the frame is the handler's: the callback runs on its CPU,
 * in its call), and a script error or `next` inside records "abort" in
 * the frame through b->abort_stmt for the caller to see.
 * Must not: leave b->out, the indent, the loop statements or the abort
 * statement changed after bpf_callback_end().
 */
#include <stdio.h>
#include <stdlib.h>

#include "translator/codegen/bpf_int.h"

void
bpf_callback_begin(struct bpf_cg *b, struct bpf_callback *cb,
		   const char *head)
{
	cb->out = b->out;
	cb->indent = b->indent;
	cb->abort_stmt = b->abort_stmt;
	cb->brk_stmt = b->brk_stmt;
	cb->cont_stmt = b->cont_stmt;
	cb->cont = b->cont;
	cb->text = NULL;
	cb->len = 0;
	b->out = open_memstream(&cb->text, &cb->len);
	fputs(head, b->out);
	fputs("{\n", b->out);
	b->indent = 1;
	b->ncb++;
	bpf_line(b, "__u32 zero = 0;");
	bpf_line(b, "int64_t __acts = 0;");
	bpf_line(b, "struct tap_bpf_session *ss = bpf_map_lookup_elem(&tap_session, &zero);");
	bpf_line(b, "struct tap_globals *gl = bpf_map_lookup_elem(&tap_gl, &zero);");
	bpf_line(b, "struct frame%d *f = bpf_map_lookup_elem(&tap_frames, &zero);", b->dp->index);
	bpf_line(b, "if (!ss || !gl || !f) return 1;");
	bpf_line(b, "(void)__acts; (void)gl;");
}

void
bpf_callback_end(struct bpf_cg *b, struct bpf_callback *cb)
{
	fputs("}\n\n", b->out);
	fclose(b->out);
	b->ncb--;
	b->out = cb->out;
	b->indent = cb->indent;
	b->abort_stmt = cb->abort_stmt;
	b->brk_stmt = cb->brk_stmt;
	b->cont_stmt = cb->cont_stmt;
	b->cont = cb->cont;
	fwrite(cb->text, 1, cb->len, b->callbacks);
	free(cb->text);
	cb->text = NULL;
}
