/*
 * codegen.c -- pass 3's driver: the layout of the generated C file, the
 * script's globals and the registration table.
 *
 * Takes s->program (sema.h). Produces one C file, in this order:
 *
 *   -D NAME=VALUE defines; #include "runtime.h"  (the platform's)
 *   helpers every program uses (output, frames, TAP_STMT)
 *   globals: g_NAME (int64_t, char[MAXSTRINGLEN], struct tap_stat,
 *            struct tap_map, or struct tap_pmap for arrays of statistics)
 *   static format tables and regexes; one struct per frame;
 *   union tap_frame; function prototypes
 *   script functions fn_NAME, probe handlers probe_N
 *   tap_init_globals / tap_exit_globals, the tap_probe records, what
 *   each provider emits (provider.h: its callbacks, then its tables),
 *   and struct tap_module_desc tap_module with each provider's fields
 *   #include "runtime.c"
 *
 * Conventions a platform relies on (see runtime/user/runtime.h): handlers
 * are void probe_N(struct tap_context *c) run between tap_context_enter()
 * and tap_context_exit(); locals live in c->locals as TAP_MAXNESTING + 1
 * frames of union tap_frame (tap_module.locals_size); an error sets
 * c->error, c->errbuf (the message, what catch sees) and c->last_stmt
 * ("operator '/' at f.stp:3:9", or NULL after error()), and the platform
 * prints "ERROR: errbuf near last_stmt"; output is appended to c->out and
 * committed by the platform; `next` in a function sets c->next.
 * Must not: depend on which platform it writes for, except through the
 * names above; know any probe family (it asks the providers' hooks).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/codegen/codegen_tvar.h"
#include "translator/parse/strlit.h"

char *
cg_fmt(struct cg *g, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = arena_vprintf(g->a, fmt, ap);
	va_end(ap);
	return s;
}

void
cg_unsupported(struct cg *g, struct node *n, const char *what)
{
	diag_error(&g->s->diag, n->loc, "E_CODEGEN_UNSUPPORTED",
		   "cannot translate %s yet", what);
	g->failed = true;
}

const char *
cg_new_label(struct cg *g, const char *stem)
{
	return cg_fmt(g, "%s_%d", stem, g->label_seq++);
}

/* "file:line:col", prefixed with `what` and " at " when given. */
const char *
cg_where(struct cg *g, struct loc loc, const char *what)
{
	const char *file = loc.src && loc.src->name ? loc.src->name : "<input>";

	if (what)
		return cg_fmt(g, "%s at %s:%d:%d", what, file, loc.line,
			      loc.col);
	return cg_fmt(g, "%s:%d:%d", file, loc.line, loc.col);
}

/* SystemTap's description of the token a node starts at, for "near". */
const char *
cg_near(struct cg *g, struct node *n)
{
	const char *what;

	switch (n->kind) {
	case N_BINARY: case N_COMPARE: case N_REGEX: case N_LOGICAL:
	case N_ASSIGN:
		what = cg_fmt(g, "operator '%s'", op_spelling(n->u.binary.op));
		break;
	case N_UNARY:
		what = cg_fmt(g, "operator '%s'", op_spelling(n->u.unary.op));
		break;
	case N_CREMENT:
		what = cg_fmt(g, "operator '%s'", op_spelling(n->u.crement.op));
		break;
	case N_STAT_OP:
		what = cg_fmt(g, "operator '%s'", op_spelling(n->u.stat.op));
		break;
	case N_HIST:
		what = n->u.hist.kind == HIST_LOG ? "operator '@hist_log'"
						  : "operator '@hist_linear'";
		break;
	case N_SYMBOL:
		what = cg_fmt(g, "identifier '%s'", n->u.symbol.name);
		break;
	case N_CALL:
		what = cg_fmt(g, "identifier '%s'", n->u.call.name);
		break;
	case N_INDEX:
		return cg_near(g, n->u.index.base);
	case N_NUMBER:
		what = cg_fmt(g, "number '%s'", n->u.number.text);
		break;
	case N_STRING:
		what = cg_fmt(g, "string '%s'", n->u.string.raw);
		break;
	default:
		what = "keyword";
		break;
	}
	return cg_where(g, n->loc, what);
}

/* Bytes as a C string literal; anything unusual in octal. */
const char *
cg_c_string(struct cg *g, const char *bytes, size_t len)
{
	char *out = arena_alloc(g->a, len * 4 + 3), *p = out;
	size_t i;

	*p++ = '"';
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)bytes[i];

		if (ch == '"' || ch == '\\') {
			*p++ = '\\';
			*p++ = (char)ch;
		} else if (ch >= 0x20 && ch < 0x7f && ch != '?') {
			*p++ = (char)ch;
		} else {
			p += sprintf(p, "\\%03o", ch);
		}
	}
	*p++ = '"';
	*p = '\0';
	return out;
}

/* A literal's text as written (escapes and all) into its bytes. */
const char *
cg_unescape(struct cg *g, const char *raw, size_t *len)
{
	return strlit_unescape(g->a, raw, len);
}

/* Elaboration's c_name when it gave one; pass_translate() names the
 * rest before anything is written. */
const char *
cg_global_name(struct symbol *sym)
{
	return sym->c_name ? sym->c_name : sym->name;
}

bool
cg_is_stat_array(struct symbol *sym)
{
	return sym->nkeys > 0 && sym->type == TY_STATS;
}

/* ---- statistics: what each aggregate collects ---- */

static struct cg_stat_use *
cg_stat_use(struct cg *g, struct symbol *sym)
{
	int i;

	for (i = 0; i < g->nstats; i++)
		if (g->stats[i].sym == sym)
			return &g->stats[i];
	g->stats = arena_grow(g->a, g->stats, sizeof(*g->stats),
			      &g->stat_cap, g->nstats + 1);
	memset(&g->stats[g->nstats], 0, sizeof(g->stats[0]));
	g->stats[g->nstats].sym = sym;
	return &g->stats[g->nstats++];
}

static bool
cg_literal(struct node *n, int64_t *out)
{
	if (n && n->kind == N_NUMBER) {
		*out = (int64_t)n->u.number.value;
		return true;
	}
	if (n && n->kind == N_UNARY && n->u.unary.op == OP_NEG &&
	    cg_literal(n->u.unary.operand, out)) {
		*out = -*out;
		return true;
	}
	return false;
}

static bool
cg_scan_stat(struct node *n, void *ctx)
{
	struct cg *g = ctx;
	struct symbol *sym;
	struct cg_stat_use *u;

	if (n->kind == N_STAT_OP && n->u.stat.op == OP_VARIANCE &&
	    (sym = cg_array_symbol(n->u.stat.operand))) {
		u = cg_stat_use(g, sym);
		u->variance = true;
		if (n->u.stat.shift && !cg_literal(n->u.stat.shift, &u->shift))
			cg_unsupported(g, n, "a @variance shift that is not a number");
	}
	if (n->kind != N_HIST || !(sym = cg_array_symbol(n->u.hist.operand)))
		return true;
	u = cg_stat_use(g, sym);
	u->has_hist = true;
	u->hist = n->u.hist.kind;
	if (n->u.hist.kind == HIST_LINEAR &&
	    (!cg_literal(n->u.hist.lo, &u->lo) ||
	     !cg_literal(n->u.hist.hi, &u->hi) ||
	     !cg_literal(n->u.hist.step, &u->step)))
		cg_unsupported(g, n, "@hist_linear with bounds that are not numbers");
	return true;
}

/* Over the whole program when pass 3 writes part of it (--runtime=bpf's
 * user half, --remote-merge's end probes): a histogram the other part
 * reads makes the buckets the parts exchange. */
static void
cg_scan_stats(struct cg *g)
{
	const struct program *p = g->prog->whole ? g->prog->whole : g->prog;
	int i;

	for (i = 0; i < p->nprobes; i++)
		ast_walk(p->probes[i]->body, cg_scan_stat, NULL, g);
	for (i = 0; i < p->nfunctions; i++)
		if (p->functions[i]->decl)
			ast_walk(p->functions[i]->decl->u.function.body,
				 cg_scan_stat, NULL, g);
}

/* ---- globals ---- */

static void
cg_name_globals(struct cg *g)
{
	struct program *p = g->prog;
	int i, j;

	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];
		bool clash = false;

		if (sym->c_name)
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(p->globals[j]->name, sym->name) == 0)
				clash = true;
		sym->c_name = clash ? cg_fmt(g, "g_%s_%d", sym->name, i)
				    : cg_fmt(g, "g_%s", sym->name);
	}
}

static void
cg_global_decls(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];
		const char *name = cg_global_name(sym);

		if (cg_is_stat_array(sym))
			cg_line(&g->w, "static struct tap_pmap %s;", name);
		else if (sym->nkeys > 0)
			cg_line(&g->w, "static struct tap_map %s;", name);
		else if (sym->type == TY_STATS)
			cg_line(&g->w, "static struct tap_stat %s;", name);
		else if (sym->type == TY_STRING)
			cg_line(&g->w, "static char %s[MAXSTRINGLEN];", name);
		else
			cg_line(&g->w, "static int64_t %s;", name);
		if (sym->cpu_adds && sym->nkeys > 0)
			cg_line(&g->w, "static struct tap_cmap %s;",
				cg_counter_deltas(g, sym));
		else if (sym->cpu_adds && sym->type == TY_LONG)
			cg_line(&g->w, "TAP_COUNTER_DEFINE(%s);",
				cg_counter_deltas(g, sym));
		cg_line(&g->w, "static struct tap_lock %s_lock = TAP_LOCK_INIT(%s_lock);",
			name, name);
	}
}

static const char *
cg_tap_type(enum type t)
{
	switch (t) {
	case TY_STRING: return "TAP_T_STRING";
	case TY_STATS: return "TAP_T_STAT";
	case TY_LONG: return "TAP_T_LONG";
	case TY_UNKNOWN:
	case TY_VOID:
		break;
	}
	return "TAP_T_LONG";
}

/* The stat desc `d` for an aggregate, into the init function. */
static void
cg_init_desc(struct cg *g, struct symbol *sym)
{
	struct cg_stat_use *u = cg_stat_use(g, sym);
	const char *kind = !u->has_hist ? "TAP_HIST_NONE" :
		u->hist == HIST_LOG ? "TAP_HIST_LOG" : "TAP_HIST_LINEAR";

	cg_line(&g->w, "rc = tap_stat_desc_init(&d, %s, %lld, %lld, %lld, %s, %d);",
		kind, (long long)u->lo, (long long)u->hi, (long long)u->step,
		u->variance ? "true" : "false", (int)u->shift);
	cg_line(&g->w, "if (rc)");
	cg_line(&g->w, "\treturn rc;");
}

static void
cg_init_map(struct cg *g, struct symbol *sym)
{
	char *keys = "";
	int i;

	for (i = 0; i < sym->nkeys; i++)
		keys = cg_fmt(g, "%s%s%s", keys, i ? ", " : "",
			      cg_tap_type(sym->key_types[i]));
	if (sym->type == TY_STATS)
		cg_init_desc(g, sym);
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_map_spec spec = { .nkeys = %d, .keys = { %s }, "
		".value = %s, .max_entries = %ld, .wrap = %s, .stat = %s };",
		sym->nkeys, keys, cg_tap_type(sym->type), sym->max_entries,
		sym->wrap ? "true" : "false",
		sym->type == TY_STATS ? "&d" : "NULL");
	cg_line(&g->w, "rc = tap_%s_init(&%s, &spec);",
		cg_is_stat_array(sym) ? "pmap" : "map", cg_global_name(sym));
	if (sym->cpu_adds)	/* per-CPU deltas (codegen_counters.c) */
		cg_line(&g->w, "if (!rc)\n\t\t\trc = tap_cmap_init(&%s, &%s, &spec);",
			cg_counter_deltas(g, sym), cg_global_name(sym));
	cg_close(&g->w, NULL);
	cg_line(&g->w, "if (rc)");
	cg_line(&g->w, "\treturn rc;");
}

static void
cg_init_scalar(struct cg *g, struct symbol *sym)
{
	const char *name = cg_global_name(sym);

	if (sym->type == TY_STATS) {
		cg_init_desc(g, sym);
		cg_line(&g->w, "rc = tap_stat_init(&%s, &d);", name);
		cg_line(&g->w, "if (rc)");
		cg_line(&g->w, "\treturn rc;");
		return;
	}
	if (!sym->init)
		return;
	if (sym->type == TY_STRING)
		cg_line(&g->w, "tap_str_copy(%s, %s);", name,
			cg_expr(g, sym->init));
	else
		cg_line(&g->w, "%s = %s;", name, cg_expr(g, sym->init));
}

static void
cg_init_globals(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	cg_blank(&g->w);
	cg_line(&g->w, "static int");
	cg_line(&g->w, "tap_init_globals(void)");
	cg_open_block(&g->w);
	cg_line(&g->w, "struct tap_stat_desc d;");
	cg_line(&g->w, "int rc = 0;");
	cg_blank(&g->w);
	cg_line(&g->w, "(void)d;");
	for (i = 0; i < p->nglobals; i++) {
		if (p->globals[i]->type == TY_STATS) {
			/* aggregates have a lock per CPU (codegen_locks.c) */
			cg_line(&g->w, "rc = tap_lock_percpu_init(&%s_lock);",
				cg_global_name(p->globals[i]));
			cg_line(&g->w, "if (rc)");
			cg_line(&g->w, "\treturn rc;");
		}
		if (p->globals[i]->nkeys > 0)
			cg_init_map(g, p->globals[i]);
		else
			cg_init_scalar(g, p->globals[i]);
	}
	for (i = 0; i < g->nregex; i++)
		cg_line(&g->w, "if (tap_regex_compile(&%s, %s, %s))\n\t\treturn TAP_EINVAL;",
			g->regexes[i].name, g->regexes[i].pattern,
			g->submatches ? "TAP_RE_SUBMATCH" : "0");
	cg_line(&g->w, "return rc;");
	cg_close(&g->w, NULL);
}

static void
cg_exit_globals(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	cg_blank(&g->w);
	cg_line(&g->w, "static void");
	cg_line(&g->w, "tap_exit_globals(void)");
	cg_open_block(&g->w);
	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (cg_is_stat_array(sym))
			cg_line(&g->w, "tap_pmap_free(&%s);", cg_global_name(sym));
		else if (sym->nkeys > 0)
			cg_line(&g->w, "tap_map_free(&%s);", cg_global_name(sym));
		else if (sym->type == TY_STATS)
			cg_line(&g->w, "tap_stat_free(&%s);", cg_global_name(sym));
		if (sym->cpu_adds && sym->nkeys > 0)
			cg_line(&g->w, "tap_cmap_free(&%s);",
				cg_counter_deltas(g, sym));
		if (sym->type == TY_STATS)
			cg_line(&g->w, "tap_lock_percpu_free(&%s_lock);",
				cg_global_name(sym));
	}
	for (i = 0; i < g->nregex; i++)
		cg_line(&g->w, "tap_regex_free(&%s);", g->regexes[i].name);
	cg_close(&g->w, NULL);
}

/* -G name=value: the scalar long and string globals. */
static int
cg_params(struct cg *g)
{
	struct program *p = g->prog;
	int i, n = 0;

	for (i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (sym->nkeys || (sym->type != TY_LONG && sym->type != TY_STRING))
			continue;
		if (!n++)
			cg_open(&g->w, "static const struct tap_global_param __tap_params[] =");
		if (sym->type == TY_STRING)
			cg_line(&g->w, "{ \"%s\", TAP_T_STRING, NULL, %s },",
				sym->name, cg_global_name(sym));
		else
			cg_line(&g->w, "{ \"%s\", TAP_T_LONG, &%s, NULL },",
				sym->name, cg_global_name(sym));
	}
	if (n)
		cg_close(&g->w, ";");
	return n;
}

/* ---- the helpers at the top of every program ---- */

static const char *const cg_prelude[] = {
	"#define TAP_FRAME(c, n) (&((union tap_frame *)(void *)(c)->locals)[n])",
	"",
	"/* Count one statement; past MAXACTION end the frame, naming it. */",
	"#define TAP_STMT(near, label) do { \\",
	"\tif (unlikely(!tap_action(c, 1))) { \\",
	"\t\tc->last_stmt = (near); \\",
	"\t\tgoto label; \\",
	"\t} \\",
	"} while (0)",
	"",
	"",
	"/* Render into the handler's output; a full buffer is committed once",
	" * and the rendering tried again; what still does not fit is cut, and",
	" * counted as lost output. */",
	"#define __TAP_OUT(c, render) do { \\",
	"\tstruct tap_buf __b; \\",
	"\tint __pass, __rc = 0; \\",
	"\tfor (__pass = 0; __pass < 2; __pass++) { \\",
	"\t\ttap_buf_init(&__b, (c)->out.data + (c)->out.len, \\",
	"\t\t\t     sizeof((c)->out.data) - (c)->out.len); \\",
	"\t\t__rc = (render); \\",
	"\t\tif (!__b.truncated || (c)->out.len == 0 || __pass) \\",
	"\t\t\tbreak; \\",
	"\t\ttap_output_commit(c); \\",
	"\t} \\",
	"\tif (__b.truncated) \\",
	"\t\ttap_output_cut(c); \\",
	"\t(c)->out.len += __b.len; \\",
	"\treturn __rc; \\",
	"} while (0)",
	"",
	"static __attribute__((unused)) int",
	"__tap_out_fmt(struct tap_context *c, const struct tap_fmt *f,",
	"\t      const struct tap_value *a, unsigned int n)",
	"{",
	"\t__TAP_OUT(c, tap_fmt_apply(f, a, n, &__b, NULL));",
	"}",
	"",
	"static __attribute__((unused)) int",
	"__tap_out_values(struct tap_context *c, const struct tap_value *a,",
	"\t\t const enum tap_type *t, unsigned int n, const char *delim,",
	"\t\t bool nl)",
	"{",
	"\t__TAP_OUT(c, tap_print_values(&__b, a, t, n, delim, nl));",
	"}",
	"",
	"/* --json (runtime/core/json.h): one piece of a document at a time,",
	" * each whole or cut as any output. */",
	"static __attribute__((unused)) int",
	"__tap_out_json_entry(struct tap_context *c, bool first,",
	"\t\t     const struct tap_value *k, const enum tap_type *kt,",
	"\t\t     unsigned int nk, const struct tap_value *v, enum tap_type t,",
	"\t\t     const struct tap_stat_data *sd)",
	"{",
	"\t__TAP_OUT(c, tap_json_entry(&__b, first, k, kt, nk, v, t, sd));",
	"}",
	"",
	"static __attribute__((unused)) int",
	"__tap_out_json_value(struct tap_context *c, const char *name,",
	"\t\t     const struct tap_value *v, enum tap_type t,",
	"\t\t     const struct tap_stat_data *sd)",
	"{",
	"\t__TAP_OUT(c, tap_json_named_value(&__b, name, v, t, sd));",
	"}",
	"",
	"static __attribute__((unused)) int",
	"__tap_out_json_hist(struct tap_context *c, const char *name,",
	"\t\t    const struct tap_stat_desc *d, const struct tap_stat_data *sd)",
	"{",
	"\t__TAP_OUT(c, tap_json_hist(&__b, name, d, sd));",
	"}",
	"",
	"/* A histogram larger than the output buffer goes out in buffers of",
	" * whole rows: committed as each fills, none cut. */",
	"static __attribute__((unused)) int",
	"__tap_out_hist(struct tap_context *c, const struct tap_stat_desc *d,",
	"\t       const struct tap_stat_data *sd)",
	"{",
	"\tstruct tap_hist_cursor cur = { 0 };",
	"\tstruct tap_buf b;",
	"\tint rc;",
	"",
	"\tfor (;;) {",
	"\t\ttap_buf_init(&b, (c)->out.data + (c)->out.len,",
	"\t\t\t     sizeof((c)->out.data) - (c)->out.len);",
	"\t\trc = tap_hist_print_part(&b, d, sd, TAP_HIST_ELISION, &cur);",
	"\t\tif (b.truncated)",
	"\t\t\ttap_output_cut(c);",
	"\t\t(c)->out.len += b.len;",
	"\t\tif (rc != TAP_HIST_MORE)",
	"\t\t\treturn rc;",
	"\t\tif ((c)->out.len == 0)	/* a row larger than the buffer */",
	"\t\t\tcur.cut = true;",
	"\t\ttap_output_commit(c);",
	"\t}",
	"}",
	"",
	"/* --remote-merge: a global's line (runtime/core/merge.h). */",
	"static __attribute__((unused)) int",
	"__tap_out_merge(struct tap_context *c, const char *name,",
	"\t\tconst struct tap_value *k, const enum tap_type *kt,",
	"\t\tunsigned int nk, enum tap_type t, int64_t lv,",
	"\t\tconst struct tap_stat_desc *d, const struct tap_stat_data *sd)",
	"{",
	"\t__TAP_OUT(c, tap_merge_put(&__b, name, k, kt, nk, t, lv, d, sd));",
	"}",
	"",
	"static __attribute__((unused)) void",
	"__tap_str_fmt(char *dst, const struct tap_fmt *f, const struct tap_value *a,",
	"\t      unsigned int n)",
	"{",
	"\tstruct tap_buf b;",
	"",
	"\ttap_buf_init(&b, dst, MAXSTRINGLEN);",
	"\ttap_fmt_apply(f, a, n, &b, NULL);",
	"}",
	"",
	"static __attribute__((unused)) void",
	"__tap_str_values(char *dst, const struct tap_value *a,",
	"\t\t const enum tap_type *t, unsigned int n, const char *delim,",
	"\t\t bool nl)",
	"{",
	"\tstruct tap_buf b;",
	"",
	"\ttap_buf_init(&b, dst, MAXSTRINGLEN);",
	"\ttap_print_values(&b, a, t, n, delim, nl);",
	"}",
	"",
	"/* [k, *] in a: any entry matching the slice. */",
	"static __attribute__((unused)) bool",
	"tap_map_slice_exists(struct tap_map *m, const struct tap_value *k,",
	"\t\t     uint32_t wildcard)",
	"{",
	"\tstruct tap_map_entry *e;",
	"",
	"\tfor (e = m->oldest; e; e = e->next)",
	"\t\tif (tap_map_entry_matches(m, e, k, wildcard))",
	"\t\t\treturn true;",
	"\treturn false;",
	"}",
	"",
	"static __attribute__((unused)) bool",
	"tap_pmap_slice_exists(struct tap_pmap *p, const struct tap_value *k,",
	"\t\t      uint32_t wildcard)",
	"{",
	"\tunsigned int cpu;",
	"",
	"\tfor (cpu = 0; cpu < p->ncpus; cpu++)",
	"\t\tif (tap_map_slice_exists(&p->cpu[cpu], k, wildcard))",
	"\t\t\treturn true;",
	"\treturn false;",
	"}",
	NULL
};

/* Only for programs that use =~ or !~: on the user target, libc's regex
 * behind the names runtime/linux/regex.h gives the kernel target.  With
 * TAP_RE_SUBMATCH (the program reads groups) a match writes where they
 * are into the context's struct tap_match (runtime/core/match.h). */
static const char *const cg_regex_prelude[] = {
	"#ifndef __KERNEL__",
	"#include <regex.h>",
	"typedef regex_t tap_regex_t;",
	"#define TAP_RE_SUBMATCH 1",
	"",
	"static __attribute__((unused)) int",
	"tap_regex_compile(regex_t *re, const char *pattern, int flags)",
	"{",
	"\tint rc = regcomp(re, pattern, REG_EXTENDED |",
	"\t\t\t (flags & TAP_RE_SUBMATCH ? 0 : REG_NOSUB));",
	"",
	"\tif (!rc && (flags & TAP_RE_SUBMATCH) && re->re_nsub > TAP_RE_MAX_GROUPS) {",
	"\t\tregfree(re);",
	"\t\treturn -1;",
	"\t}",
	"\treturn rc;",
	"}",
	"",
	"static __attribute__((unused)) void",
	"tap_regex_free(regex_t *re)",
	"{",
	"\tregfree(re);",
	"}",
	"",
	"static inline int",
	"tap_regex_match(regex_t *re, const char *s, struct tap_match *m)",
	"{",
	"\tregmatch_t pm[TAP_RE_MAX_GROUPS + 1];",
	"\tint i, n = re->re_nsub + 1;",
	"",
	"\tif (!m)",
	"\t\treturn regexec(re, s, 0, NULL, 0) == 0;",
	"\tif (regexec(re, s, n, pm, 0)) {",
	"\t\ttap_match_fail(m, n);",
	"\t\treturn 0;",
	"\t}",
	"\tfor (i = 0; i < n; i++) {",
	"\t\tm->start[i] = pm[i].rm_so;",
	"\t\tm->end[i] = pm[i].rm_eo;",
	"\t}",
	"\ttap_match_set(m, s, n);",
	"\treturn 1;",
	"}",
	"#endif",
	"",
	NULL
};

static void
cg_head(struct cg *g)
{
	const struct options *o = &g->s->opts;
	int i;

	cg_comment(&g->w, "Generated by tapc from %s; do not edit.",
		o->script_file ? o->script_file : "<input>");
	for (i = 0; i < o->ndefines; i++)
		cg_line(&g->w, "#define %s %s", o->defines[i].name,
			o->defines[i].value ? o->defines[i].value : "1");
	/* A stapusr module's process probes see only the tasks of the user
	 * taprun names (runtime/linux/owner.h); after the -D macros, so
	 * that none of them can turn it off. */
	if (cg_backend(g) == BACKEND_KMOD &&
	    privilege_level(o->privilege) == PRIV_STAPUSR) {
		cg_line(&g->w, "#undef TAP_OWNER_ONLY");
		cg_line(&g->w, "#define TAP_OWNER_ONLY 1");
	}
	cg_line(&g->w, "#include \"runtime.h\"");
	/* Who may load the module: taprun checks the groups of the user
	 * who runs it against this (loader/privilege.c). */
	if (cg_backend(g) == BACKEND_KMOD)
		cg_line(&g->w, "MODULE_INFO(tap_privilege, \"%s\");",
			privilege_name(o->privilege));
	cg_blank(&g->w);
	for (i = 0; cg_prelude[i]; i++)
		fprintf(g->w.out, "%s\n", cg_prelude[i]);
	for (i = 0; g->nregex && cg_regex_prelude[i]; i++)
		fprintf(g->w.out, "%s\n", cg_regex_prelude[i]);
	for (i = 0; i < g->prog->nembeds; i++)
		fprintf(g->w.out, "%s\n", g->prog->embeds[i]->u.embed.code);
	cg_blank(&g->w);
}

/* ---- what the providers' emit hooks share ---- */

enum backend
cg_backend(const struct cg *g)
{
	return g->s->opts.target == TARGET_USER ? BACKEND_USER : BACKEND_KMOD;
}

const char *
cg_probe_location(struct cg *g, const struct derived_probe *dp)
{
	const char *at = cg_where(g, dp->origin ? dp->origin->loc
				  : dp->point->loc, NULL);

	return cg_c_string(g, at, strlen(at));
}

/* -t: a probe record's row in the timing report, for its skips; nothing
 * without -t. */
static const char *
cg_timing_index(struct cg *g, int index)
{
	return g->s->opts.timing ? cg_fmt(g, ", .timing_index = %d", index) : "";
}

const char *
cg_probe_record(struct cg *g, const struct derived_probe *dp)
{
	const char *pn = dp->alias_name ? dp->alias_name : dp->name;

	return cg_fmt(g, "{ .point = %s, .script_point = %s, .location = %s, .handler = probe_%d%s }",
		      cg_c_string(g, dp->name, strlen(dp->name)),
		      cg_c_string(g, pn, strlen(pn)),
		      cg_probe_location(g, dp), dp->index,
		      cg_timing_index(g, dp->index));
}

void
cg_desc_array(struct cg *g, const char *field, const char *array, int n)
{
	cg_line(&g->w, ".%s = %s, .n_%s = %d,", field, n ? array : "NULL",
		field, n);
}

static struct cg_table *
cg_table(struct cg *g, const char *array)
{
	for (int i = 0; i < g->ntables; i++)
		if (strcmp(g->tables[i].array, array) == 0)
			return &g->tables[i];
	g->tables = arena_grow(g->a, g->tables, sizeof(*g->tables),
			       &g->table_cap, g->ntables + 1);
	memset(&g->tables[g->ntables], 0, sizeof(g->tables[0]));
	g->tables[g->ntables].array = array;
	return &g->tables[g->ntables++];
}

void
cg_table_row(struct cg *g, const char *array, int key, const char *row)
{
	struct cg_table *t = cg_table(g, array);
	int j;

	t->rows = arena_grow(g->a, t->rows, sizeof(*t->rows), &t->cap,
			     t->n + 1);
	for (j = t->n; j > 0 && t->rows[j - 1].key > key; j--)
		t->rows[j] = t->rows[j - 1];
	t->rows[j].key = key;
	t->rows[j].text = row;
	t->n++;
}

int
cg_table_write(struct cg *g, const char *array, const char *type)
{
	struct cg_table *t = cg_table(g, array);

	if (!t->n)
		return 0;
	cg_open(&g->w, "static %s %s[] =", type, array);
	for (int i = 0; i < t->n; i++)
		cg_line(&g->w, "%s", t->rows[i].text);
	cg_close(&g->w, ";");
	return t->n;
}

/* ---- the registration table ---- */

static void
cg_probe_records(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	cg_blank(&g->w);
	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];

		const char *pn = dp->alias_name ? dp->alias_name : dp->name;

		dp->index = i;
		cg_line(&g->w, "static const struct tap_probe __tap_probe_%d "
			"__attribute__((unused)) = { .point = %s, .script_point = %s, "
			".location = %s, .handler = probe_%d%s };", i,
			cg_c_string(g, dp->name, strlen(dp->name)),
			cg_c_string(g, pn, strlen(pn)),
			cg_probe_location(g, dp), i, cg_timing_index(g, i));
	}
}

/* -t: what the timing report (runtime/linux/timing.c) calls each probe,
 * by index; the derivation is stap's " from: ALIAS". */
static void
cg_timing_table(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	cg_blank(&g->w);
	cg_open(&g->w, "static const struct tap_timing_probe __tap_timing[] =");
	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const char *pn = dp->alias_name ? dp->alias_name : dp->name;
		const char *from = cg_fmt(g, " from: %s", pn);

		cg_line(&g->w, "{ %s, %s, %s },",
			cg_c_string(g, dp->name, strlen(dp->name)),
			cg_probe_location(g, dp),
			cg_c_string(g, from, strlen(from)));
	}
	cg_close(&g->w, ";");
}

/*
 * The providers' C, phase by phase in registry order: their callbacks,
 * the entry handlers of .return probes, their tables, then the module
 * descriptor with their fields.
 */
static void
cg_module_desc(struct cg *g)
{
	const struct provider *const *pp;
	enum backend b = cg_backend(g);
	int np;

	cg_probe_records(g);
	for (pp = provider_registry; *pp; pp++)
		if ((*pp)->emit_code)
			(*pp)->emit_code(g, b);
	cg_entry_handlers(g);
	for (pp = provider_registry; *pp; pp++)
		if ((*pp)->emit_tables)
			(*pp)->emit_tables(g, b);
	np = cg_params(g);
	if (g->s->opts.timing)
		cg_timing_table(g);
	cg_blank(&g->w);
	cg_open(&g->w, "struct tap_module_desc tap_module =");
	for (pp = provider_registry; *pp; pp++)
		if ((*pp)->emit_desc)
			(*pp)->emit_desc(g, b);
	cg_desc_array(g, "params", "__tap_params", np);
	cg_line(&g->w, ".locals_size = sizeof(union tap_frame) * (TAP_MAXNESTING + 1),");
	if (g->s->opts.timing)
		cg_desc_array(g, "timing", "__tap_timing", g->prog->nprobes);
	cg_line(&g->w, ".init = tap_init_globals,");
	cg_line(&g->w, ".exit = tap_exit_globals,");
	cg_close(&g->w, ";");
}

/* Probes the user platform cannot run are errors here, not at run time. */
static void
cg_check_probes(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];

		dp->index = i;
		if (cg_backend(g) == BACKEND_USER && provider_kernel_only(dp)) {
			diag_error(&g->s->diag, dp->point->loc, "E_USER_TARGET",
				   "probe %s needs the kernel target", dp->name);
			g->failed = true;
		}
	}
	for (i = 0; cg_backend(g) == BACKEND_USER && i < p->ncounters; i++) {
		diag_error(&g->s->diag, p->counters[i]->loc, "E_USER_TARGET",
			   "perf counter probe %s needs the kernel target",
			   p->counters[i]->point);
		g->failed = true;
	}
}

/* ---- the pass ---- */

static void
cg_write_all(struct cg *g, FILE *out, const char *decls, const char *frames,
	     const char *bodies)
{
	g->w.out = out;
	g->w.depth = 0;
	cg_head(g);
	cg_global_decls(g);
	cg_blank(&g->w);
	fputs(decls, out);
	fprintf(out, "\nunion tap_frame {\n\tchar __none;\n%s};\n", frames);
	fputs(bodies, out);
	cg_init_globals(g);
	cg_exit_globals(g);
	cg_module_desc(g);
	if (g->s->opts.merge_part == MERGE_LOCAL)
		cg_merge_table(g);
	cg_blank(&g->w);
	cg_line(&g->w, "#include \"runtime.c\"");
}

/* Whether a function of the program reads the groups of regular
 * expression matches: embedded C marked so (tapsets/regex.stp). */
static bool
cg_reads_submatches(const struct program *p)
{
	for (int i = 0; i < p->nfunctions; i++) {
		const struct node *d = p->functions[i]->decl;

		if (d && d->u.function.embedded && d->u.function.submatches)
			return true;
	}
	return false;
}

bool
pass_translate(struct session *s, FILE *out)
{
	const bool *merged = NULL;

	if (!s->program)
		return false;
	/* --remote-merge (codegen_merge.c): the end probes here, or the
	 * rest, writing the merged globals out, on the hosts */
	if (s->opts.merge_part == MERGE_LOCAL && !s->program->whole)
		return cg_merge_translate_local(s, out);
	if (s->opts.merge_part == MERGE_REMOTE &&
	    !(merged = cg_merge_remote_plan(s)))
		return false;
	return cg_translate(s, out, merged);
}

bool
cg_translate(struct session *s, FILE *out, const bool *merged)
{
	struct cg g = { .s = s, .prog = s->program, .a = s->arena,
			.merged = merged };
	char *decls = NULL, *frames = NULL, *bodies = NULL;
	size_t dl = 0, fl = 0, bl = 0;

	if (!g.prog)
		return false;
	g.err_label = g.out_label = "out";
	g.submatches = cg_reads_submatches(g.prog);
	cg_name_globals(&g);
	cg_choose_counters(&g);
	cg_check_probes(&g);
	cg_scan_stats(&g);
	g.decls = open_memstream(&decls, &dl);
	g.body_frames = open_memstream(&frames, &fl);
	g.w.out = open_memstream(&bodies, &bl);
	cg_functions(&g);
	cg_probes(&g);
	g.nauto = cg_autoprint(&g);
	fclose(g.w.out);
	fclose(g.body_frames);
	fclose(g.decls);
	if (!g.failed)
		cg_write_all(&g, out, decls, frames, bodies);
	free(decls);
	free(frames);
	free(bodies);
	return !g.failed && !s->diag.errors;
}
