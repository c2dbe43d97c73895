/*
 * bpf_sprintf.c -- sprintf(), sprint() and sprintln() in a kernel-side
 * probe (--runtime=bpf), through the kernel's bpf_snprintf() helper.
 *
 * Takes the call; gives a string in a frame temporary.  The script's
 * format is compiled with runtime/core's tap_fmt_compile() (the one
 * parser every backend uses) and written again as a kernel format: every
 * value is 64-bit (%d -> %lld, %u -> %llu, %x -> %llx, %X -> %llX), %s
 * and %c as they are, '%' in literal text doubled.  The kernel's
 * formatter then prints exactly what runtime/core prints for the flags
 * it accepts ('-', '+', ' ', '0' and a width); what it does not accept
 * (a precision, '#', '*', %o %p %b %m %M, bytes that are neither
 * printable nor white space, more than 12 arguments) is refused at pass
 * 4 naming the directive, rather than printed differently.  The result
 * is cut at TAP_BPF_STRLEN - 1 bytes, as every BPF string is.
 * Must not: format at run time anything the checks above have not
 * accepted.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/format.h"
#include "translator/codegen/bpf_int.h"
#include "translator/parse/strlit.h"

#define BPF_SPRINTF_MAXARGS 12	/* the kernel's MAX_BPRINTF_VARARGS */

/* Append s[0..len) to the C literal being built, every byte that is not
 * a letter or digit as an octal escape. */
static void
put_literal(FILE *f, const char *s, size_t len, bool double_percent)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (isalnum(c) || c == ' ')
			fputc(c, f);
		else if (c == '%' && double_percent)
			fputs("%%", f);
		else
			fprintf(f, "\\%03o", c);
	}
}

/* One directive as the kernel's; false (after refusing) when it has none. */
static bool
put_directive(struct bpf_cg *b, struct node *n, FILE *f,
	      const struct tap_fmt_piece *p)
{
	const char *conv;
	bool numeric = true;

	switch (p->conv) {
	case TAP_FMT_SIGNED: conv = "lld"; break;
	case TAP_FMT_UNSIGNED: conv = "llu"; break;
	case TAP_FMT_HEX: conv = "llx"; break;
	case TAP_FMT_HEX_UPPER: conv = "llX"; break;
	case TAP_FMT_STRING: conv = "s"; numeric = false; break;
	case TAP_FMT_CHAR: conv = "c"; numeric = false; break;
	default:
		bpf_refuse(b, n, "this sprintf directive (%o %p %b %m %M) in a kernel-side probe");
		return false;
	}
	if (p->precision != TAP_FMT_NONE || p->width == TAP_FMT_STAR ||
	    (p->flags & TAP_FMT_F_SPECIAL) ||
	    (!numeric && (p->flags & ~TAP_FMT_F_LEFT))) {
		bpf_refuse(b, n, "a sprintf directive with a precision, '*', '#' (or flags other than '-' on %s/%c) in a kernel-side probe");
		return false;
	}
	fputc('%', f);
	if (p->flags & TAP_FMT_F_LEFT)
		fputc('-', f);
	if (p->flags & TAP_FMT_F_PLUS)
		fputc('+', f);
	if (p->flags & TAP_FMT_F_SPACE)
		fputc(' ', f);
	if (p->flags & TAP_FMT_F_ZEROPAD)
		fputc('0', f);
	if (p->width > 0)
		fprintf(f, "%d", p->width);
	fputs(conv, f);
	return true;
}

/* The kernel format of a script format; its argument types in *types. */
static const char *
kernel_format(struct bpf_cg *b, struct node *n, const char *fmt,
	      enum tap_type *types, int *nargs)
{
	unsigned int max = tap_fmt_count_pieces(fmt) + 1, off = 0;
	struct tap_fmt_piece *pieces = arena_alloc(b->a, sizeof(*pieces) * max);
	struct tap_fmt tf;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (tap_fmt_compile(&tf, fmt, pieces, max, &off) != TAP_OK) {
		bpf_refuse(b, n, "this sprintf format");
		return NULL;
	}
	for (size_t i = 0; fmt[i]; i++)
		if (!isprint((unsigned char)fmt[i]) && !isspace((unsigned char)fmt[i])) {
			bpf_refuse(b, n, "a sprintf format with bytes that are not printable (the kernel's bpf_snprintf refuses them)");
			return NULL;
		}
	f = open_memstream(&text, &len);
	*nargs = 0;
	for (unsigned int i = 0; i < tf.npieces; i++) {
		const struct tap_fmt_piece *p = &tf.pieces[i];

		if (p->conv == TAP_FMT_LITERAL) {
			put_literal(f, fmt + p->off, p->len, true);
			continue;
		}
		if (p->conv == TAP_FMT_PERCENT) {
			fputs("%%", f);
			continue;
		}
		if (!put_directive(b, n, f, p) || *nargs == BPF_SPRINTF_MAXARGS) {
			if (!b->failed)
				bpf_refuse(b, n, "sprintf with more than 12 values in a kernel-side probe");
			fclose(f);
			free(text);
			return NULL;
		}
		types[(*nargs)++] = p->conv == TAP_FMT_STRING ? TAP_T_STRING : TAP_T_LONG;
	}
	fclose(f);
	const char *r = arena_strdup(b->a, text);
	free(text);
	return r;
}

/* sprint/sprintln: each value as print does, none between them. */
static const char *
print_format(struct bpf_cg *b, struct node *n, bool newline,
	     enum tap_type *types, int *nargs)
{
	struct node_list *args = &n->u.call.args;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (args->n > BPF_SPRINTF_MAXARGS) {
		bpf_refuse(b, n, "sprint with more than 12 values in a kernel-side probe");
		return NULL;
	}
	f = open_memstream(&text, &len);
	for (int i = 0; i < args->n; i++) {
		bool str = args->v[i]->type == TY_STRING;

		fputs(str ? "%s" : "%lld", f);
		types[i] = str ? TAP_T_STRING : TAP_T_LONG;
	}
	if (newline)
		fputs("\\n", f);
	fclose(f);
	*nargs = args->n;
	const char *r = arena_strdup(b->a, text);
	free(text);
	return r;
}

struct bval
bpf_sprintf(struct bpf_cg *b, struct node *n)
{
	const char *name = n->u.call.name;
	struct node_list *args = &n->u.call.args;
	enum tap_type types[BPF_SPRINTF_MAXARGS + 1];
	struct bval none = { BX_STR, "\"\"" };
	const char *kfmt;
	int nargs = 0, first = 0, k = b->seq++;

	if (strcmp(name, "sprintf") == 0) {
		size_t len;

		if (args->n < 1 || args->v[0]->kind != N_STRING) {
			bpf_refuse(b, n, "sprintf with a computed format");
			return none;
		}
		kfmt = kernel_format(b, n, strlit_unescape(b->a, args->v[0]->u.string.raw, &len), types, &nargs);
		first = 1;
	} else {
		kfmt = print_format(b, n, strcmp(name, "sprintln") == 0, types, &nargs);
	}
	if (!kfmt)
		return none;
	if (args->n - first != nargs) {
		bpf_refuse(b, n, "sprintf whose values do not match its format");
		return none;
	}
	fprintf(b->frames, "static const char sfmt%d[] = \"%s\";\n", k, kfmt);
	const char **vals = arena_alloc(b->a, sizeof(char *) * (size_t)(nargs + 1));
	for (int i = 0; i < nargs; i++) {
		struct node *a = args->v[first + i];

		if (types[i] == TAP_T_STRING)
			vals[i] = bpf_fmt(b, "(__u64)(long)(%s)", bpf_as_str(b, a));
		else
			vals[i] = bpf_new_long_temp(b, bpf_as_long(b, a).c);
	}
	if (b->failed)
		return none;
	const char *t = bpf_new_str_temp(b);

	bpf_line(b, "{");
	b->indent++;
	bpf_line(b, "__u64 __sd[%d];", nargs > 0 ? nargs : 1);
	bpf_line(b, "__sd[0] = 0;");
	for (int i = 0; i < nargs; i++)
		bpf_line(b, "__sd[%d] = (__u64)%s;", i, vals[i]);
	bpf_line(b, "if (bpf_snprintf(%s, TAP_BPF_STRLEN, sfmt%d, __sd, %d) < 0)", t, k, nargs * 8);
	b->indent++;
	bpf_line(b, "tap_str_clear(%s);", t);
	b->indent--;
	b->indent--;
	bpf_line(b, "}");
	return (struct bval){ BX_STR, t };
}
