/*
 * bpf_try.c -- try/catch in a kernel-side probe (--runtime=bpf).
 *
 * Takes an N_TRY of a BPF program.  Inside the try body a script error
 * (division by zero, a full array, a fault, error("...")) does not
 * report and leave: bpf_try_catch() writes its message into the try's
 * frame buffer -- the same text the user target's catch variable gets,
 * without "near ..."; a fault's address formatted by bpf_snprintf() --
 * and jumps to the catch block, which copies it into the catch variable
 * and runs the handler.  Calls written inline stay in the same C
 * function, so errors in them are caught too.  MAXACTION is not
 * catchable (as in SystemTap).  A foreach in a try body is refused: its
 * body is another C function (a callback) that cannot jump to the catch.
 * Must not: catch what the innermost try of another C function owns.
 */
#include <ctype.h>
#include <string.h>

#include "translator/codegen/bpf_int.h"

/* msg as a C string literal's contents. */
static const char *
c_escaped(struct bpf_cg *b, const char *msg)
{
	size_t n = strlen(msg);
	char *out = arena_alloc(b->a, 4 * n + 1), *p = out;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (isalnum(c) || c == ' ')
			*p++ = (char)c;
		else
			p += sprintf(p, "\\%03o", c);
	}
	*p = '\0';
	return out;
}

bool
bpf_try_catch(struct bpf_cg *b, const char *msg, const char *addr)
{
	const struct bpf_try *t;

	if (b->ntry == 0 || b->tries[b->ntry - 1].ncb != b->ncb)
		return false;
	t = &b->tries[b->ntry - 1];
	if (addr) {
		int k = b->seq++;

		fprintf(b->frames, "static const char efmt%d[] = \"%s\";\n", k, c_escaped(b, msg));
		bpf_line(b, "{ __u64 __ea = (__u64)(%s); bpf_snprintf(f->try%d_msg, TAP_BPF_STRLEN, efmt%d, &__ea, 8); goto catch%d; }",
			 addr, t->k, k, t->k);
	} else {
		bpf_line(b, "{ tap_str_copy(f->try%d_msg, \"%s\"); goto catch%d; }",
			 t->k, c_escaped(b, msg), t->k);
	}
	return true;
}

void
bpf_try(struct bpf_cg *b, struct node *n)
{
	struct node *var = n->u.try_stmt.catch_var;
	int k = b->seq++;

	if (b->ntry == BPF_MAX_TRY) {
		bpf_refuse(b, n, "try nested this deep");
		return;
	}
	fprintf(b->frame, "\tchar try%d_msg[TAP_BPF_STRLEN];\n", k);
	bpf_line(b, "{");
	b->indent++;
	b->tries[b->ntry++] = (struct bpf_try){ k, b->ncb };
	bpf_stmt(b, n->u.try_stmt.body);
	b->ntry--;
	bpf_line(b, "goto try_end%d;", k);
	b->indent--;
	bpf_line(b, "}");
	bpf_line(b, "catch%d: ;", k);
	bpf_line(b, "{");
	b->indent++;
	if (var && var->u.symbol.sym) {
		struct bval v = bpf_expr(b, var);

		if (v.t == BX_STR)
			bpf_line(b, "tap_str_copy(%s, f->try%d_msg);", v.c, k);
		else if (!b->failed)
			bpf_refuse(b, var, "this catch variable");
	}
	bpf_stmt(b, n->u.try_stmt.handler);
	b->indent--;
	bpf_line(b, "}");
	bpf_line(b, "try_end%d: ;", k);
}
