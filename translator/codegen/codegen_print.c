/*
 * codegen_print.c -- pass 3 for the print family: printf, sprintf, print,
 * println, printd, printdln, sprint, sprintln.
 *
 * Formats are compiled here, at translate time, with the runtime core's
 * own engine (runtime/core/format.h): a bad format is a translate-time
 * error, and the program gets the compiled pieces as a static table, so
 * nothing is parsed in a probe handler. Arguments are evaluated left to
 * right into a struct tap_value array; output goes to the handler's buffer
 * through the helpers codegen.c writes at the top of every program
 * (__tap_out_fmt and friends), strings to a frame temporary.
 * Must not: print anything itself.
 */
#include <string.h>

#include "runtime/core/format.h"
#include "translator/codegen/codegen_int.h"
#include "translator/driver/compat.h"

static const char *const print_family[] = {
	"printf", "sprintf", "print", "println", "printd", "printdln",
	"sprint", "sprintln", NULL
};

bool
cg_is_print_family(const char *name)
{
	int i;

	for (i = 0; print_family[i]; i++)
		if (strcmp(name, print_family[i]) == 0)
			return true;
	return false;
}

/* Arguments from `first` on into a fresh tap_value array: declarations,
 * with the array's name in *arr. */
static const char *
cg_values(struct cg *g, struct node *n, int first, const char **arr)
{
	const char *name = cg_fmt(g, "__args%d", g->label_seq++);
	int nargs = n->u.call.args.n - first;
	char *decl = cg_fmt(g, "struct tap_value %s[%d]; ", name,
			    nargs > 0 ? nargs : 1);
	int i;

	for (i = first; i < n->u.call.args.n; i++) {
		struct node *a = n->u.call.args.v[i];

		decl = cg_fmt(g, "%s%s[%d] = %s(%s); ", decl, name, i - first,
			      a->type == TY_STRING ? "TAP_STR" : "TAP_LONG",
			      cg_expr(g, a));
	}
	*arr = name;
	return decl;
}

static const char *
cg_types(struct cg *g, struct node *n, int first)
{
	char *s = "(const enum tap_type[]){ ";
	int i;

	for (i = first; i < n->u.call.args.n; i++)
		s = cg_fmt(g, "%s%s, ", s, n->u.call.args.v[i]->type ==
			   TY_STRING ? "TAP_T_STRING" : "TAP_T_LONG");
	if (first >= n->u.call.args.n)
		s = cg_fmt(g, "%sTAP_T_NONE, ", s);
	return cg_fmt(g, "%s}", s);
}

/* Whether a piece is one a compiled format renders: a literal, %%, or a
 * %d or %s with no flags, width or precision. */
static bool
cg_piece_plain(const struct tap_fmt_piece *pc)
{
	if (pc->conv == TAP_FMT_LITERAL || pc->conv == TAP_FMT_PERCENT)
		return true;
	return (pc->conv == TAP_FMT_SIGNED || pc->conv == TAP_FMT_STRING) &&
	       pc->flags == 0 && pc->width == TAP_FMT_NONE &&
	       pc->precision == TAP_FMT_NONE;
}

/*
 * A format made only of plain pieces becomes code: NAME_render() puts
 * each piece straight into the buffer, where tap_fmt_apply() would walk
 * the pieces, resolve each spec and dispatch on its conversion (a good
 * part of what a printf per event cost: issue 18).  Same output, the
 * same truncation; NULL when some piece is not plain.
 */
static const char *
cg_format_render(struct cg *g, const char *name, const char *src,
		 const struct tap_fmt_piece *pieces, unsigned int npieces)
{
	unsigned int i, arg = 0;

	for (i = 0; i < npieces; i++)
		if (!cg_piece_plain(&pieces[i]))
			return NULL;
	fprintf(g->decls, "static int\n%s_render(struct tap_buf *b, "
		"const struct tap_value *a)\n{\n\t(void)a;\n", name);
	for (i = 0; i < npieces; i++) {
		const struct tap_fmt_piece *pc = &pieces[i];

		switch (pc->conv) {
		case TAP_FMT_LITERAL:
			if (pc->len == 1)
				fprintf(g->decls, "\ttap_buf_putc(b, %s[0]);\n",
					cg_c_string(g, src + pc->off, 1));
			else
				fprintf(g->decls, "\ttap_buf_putn(b, %s, %u);\n",
					cg_c_string(g, src + pc->off, pc->len),
					pc->len);
			break;
		case TAP_FMT_PERCENT:
			fprintf(g->decls, "\ttap_buf_putc(b, '%%');\n");
			break;
		case TAP_FMT_SIGNED:
			fprintf(g->decls, "\ttap_buf_put_s64(b, a[%u].l);\n",
				arg++);
			break;
		default:	/* TAP_FMT_STRING, as put_string() */
			fprintf(g->decls, "\ttap_buf_puts(b, a[%u].s ? a[%u].s "
				": \"<NULL>\");\n", arg, arg);
			arg++;
			break;
		}
	}
	fprintf(g->decls, "\treturn tap_buf_status(b);\n}\n");
	return cg_fmt(g, "%s_render", name);
}

/*
 * Compile `len` bytes of format at translate time and emit its static
 * table; the table's name, or NULL (with *off where it went wrong). The
 * number of arguments it takes goes to *nargs.
 */
const char *
cg_static_format(struct cg *g, const char *src, size_t len,
		 unsigned int *nargs, unsigned int *off)
{
	unsigned int count = tap_fmt_count_pieces(src), i;
	struct tap_fmt_piece *pieces;
	struct tap_fmt fmt;
	const char *name, *render;

	pieces = arena_alloc(g->a, sizeof(*pieces) * (count + 1));
	*off = 0;
	if (tap_fmt_compile(&fmt, src, pieces, count + 1, off) != TAP_OK)
		return NULL;
	*nargs = fmt.nargs;
	if (session_compat_before(g->s, "1.3"))	/* compat.h */
		for (i = 0; i < fmt.npieces; i++)
			if (pieces[i].conv == TAP_FMT_POINTER)
				pieces[i].conv = TAP_FMT_POINTER_V12;
	name = cg_fmt(g, "__fmt%d", g->static_seq++);
	fprintf(g->decls, "static const struct tap_fmt_piece %s_pieces[] = {\n",
		name);
	for (i = 0; i < fmt.npieces; i++)
		fprintf(g->decls, "\t{ %u, 0x%x, %d, %d, %u, %u },\n",
			pieces[i].conv, pieces[i].flags, pieces[i].width,
			pieces[i].precision, pieces[i].off, pieces[i].len);
	if (!fmt.npieces)
		fprintf(g->decls, "\t{ 0, 0, 0, 0, 0, 0 },\n");
	fprintf(g->decls, "};\n");
	render = cg_format_render(g, name, src, pieces, fmt.npieces);
	fprintf(g->decls, "static const struct tap_fmt %s = { %s, %s_pieces, "
		"%u, %u, %s };\n", name, cg_c_string(g, src, len), name,
		fmt.npieces, fmt.nargs, render ? render : "NULL");
	return name;
}

/* printf's format: a literal, checked against the arguments given. */
static const char *
cg_format(struct cg *g, struct node *n)
{
	struct node *f = n->u.call.args.n ? n->u.call.args.v[0] : NULL;
	const char *src, *name;
	unsigned int nargs = 0, off = 0;
	size_t len;

	if (!f || f->kind != N_STRING) {
		cg_unsupported(g, n, "a format that is not a literal string");
		return NULL;
	}
	src = cg_unescape(g, f->u.string.raw, &len);
	name = cg_static_format(g, src, len, &nargs, &off);
	if (!name) {
		diag_error(&g->s->diag, f->loc, "E_BAD_FORMAT",
			   "invalid format string at offset %u", off);
		g->failed = true;
		return NULL;
	}
	if (nargs != (unsigned int)n->u.call.args.n - 1) {
		diag_error(&g->s->diag, n->loc, "E_FORMAT_ARGS",
			   "format wants %u arguments, %d given", nargs,
			   n->u.call.args.n - 1);
		g->failed = true;
		return NULL;
	}
	return name;
}

static const char *
cg_printf(struct cg *g, struct node *n, bool to_string)
{
	const char *fmt = cg_format(g, n), *arr, *decl, *dst;

	if (!fmt)
		return to_string ? "\"\"" : "((int64_t)0)";
	decl = cg_values(g, n, 1, &arr);
	if (!to_string)
		return cg_fmt(g, "({ %s__tap_out_fmt(c, &%s, %s, %d); "
			      "(int64_t)0; })", decl, fmt, arr,
			      n->u.call.args.n - 1);
	dst = cg_str_temp(g);
	return cg_fmt(g, "({ %s__tap_str_fmt(%s, &%s, %s, %d); "
		      "(const char *)%s; })", decl, dst, fmt, arr,
		      n->u.call.args.n - 1, dst);
}

/* print(@hist_log(s)), println(@hist_linear(...)) */
static const char *
cg_print_hist(struct cg *g, struct node *n, struct node *h, bool newline)
{
	struct node *x = h->u.hist.operand;
	struct symbol *sym = cg_array_symbol(x);
	const char *desc;

	if (!sym) {
		cg_unsupported(g, n, "printing this histogram");
		return "((int64_t)0)";
	}
	desc = x->kind == N_SYMBOL
		? cg_fmt(g, "&%s.desc", cg_global_name(sym))
		: cg_fmt(g, "&%s.agg.stat_desc", cg_global_name(sym));
	/* --json: one document, its own line (println's newline in it) */
	if (g->s->opts.json_output)
		return cg_fmt(g, "({ if (__tap_out_json_hist(c, \"%s\", %s, %s) "
			      "== TAP_EEMPTY) %s (int64_t)0; })", sym->name,
			      desc, cg_stat_data(g, x),
			      cg_raise(g, "empty aggregate", cg_near(g, n)));
	return cg_fmt(g, "({ if (__tap_out_hist(c, %s, %s) == TAP_EEMPTY) %s "
		      "%s(int64_t)0; })",
		      desc, cg_stat_data(g, x),
		      cg_raise(g, "empty aggregate", cg_near(g, n)),
		      newline ? "tap_puts(c, \"\\n\"); " : "");
}

/* sprint(@hist_log(s)): the histogram as a string, cut at MAXSTRINGLEN. */
static const char *
cg_sprint_hist(struct cg *g, struct node *n, struct node *h)
{
	struct node *x = h->u.hist.operand;
	struct symbol *sym = cg_array_symbol(x);
	const char *dst = cg_str_temp(g);

	if (!sym) {
		cg_unsupported(g, n, "this histogram in a string");
		return "\"\"";
	}
	return cg_fmt(g, "({ struct tap_buf __hb; tap_buf_init(&__hb, %s, "
		      "MAXSTRINGLEN); if (tap_hist_print(&__hb, %s, %s, "
		      "TAP_HIST_ELISION) == TAP_EEMPTY) %s (const char *)%s; })",
		      dst, x->kind == N_SYMBOL
			? cg_fmt(g, "&%s.desc", cg_global_name(sym))
			: cg_fmt(g, "&%s.agg.stat_desc", cg_global_name(sym)),
		      cg_stat_data(g, x),
		      cg_raise(g, "empty aggregate", cg_near(g, n)), dst);
}

const char *
cg_print_call(struct cg *g, struct node *n)
{
	const char *name = n->u.call.name, *arr, *decl, *delim = "NULL";
	bool to_string = name[0] == 's';
	bool newline = strstr(name, "ln") != NULL;
	int first = 0, nvals;

	if (strcmp(name, "printf") == 0 || strcmp(name, "sprintf") == 0)
		return cg_printf(g, n, to_string);
	if (sema_is_whole_print(g->s, n))
		return cg_print_whole(g, n);
	if (strncmp(name + to_string, "printd", 6) == 0) {
		if (n->u.call.args.n < 1) {
			cg_unsupported(g, n, "printd without a delimiter");
			return "((int64_t)0)";
		}
		delim = cg_expr(g, n->u.call.args.v[0]);
		first = 1;
	}
	if (n->u.call.args.n == 1 && n->u.call.args.v[0]->kind == N_HIST)
		return to_string ? cg_sprint_hist(g, n, n->u.call.args.v[0])
				 : cg_print_hist(g, n, n->u.call.args.v[0],
						 newline);
	nvals = n->u.call.args.n - first;
	decl = cg_values(g, n, first, &arr);
	if (!to_string)
		return cg_fmt(g, "({ const char *__d = %s; %s__tap_out_values(c, "
			      "%s, %s, %d, __d, %d); (int64_t)0; })", delim,
			      decl, arr, cg_types(g, n, first), nvals,
			      newline);
	{
		const char *dst = cg_str_temp(g);

		return cg_fmt(g, "({ const char *__d = %s; %s__tap_str_values(%s, "
			      "%s, %s, %d, __d, %d); (const char *)%s; })",
			      delim, decl, dst, arr, cg_types(g, n, first),
			      nvals, newline, dst);
	}
}
