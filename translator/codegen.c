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
 *   tap_init_globals / tap_exit_globals, the tap_probe records, and
 *   struct tap_module_desc tap_module
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
 * names above.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen_int.h"
#include "translator/providers/provider.h"

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

static int
cg_hex(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* One escape after the backslash at *pp; returns the byte. */
static int
cg_escape(const char **pp)
{
	const char *p = *pp;
	int v = 0, i;

	switch (*p) {
	case 'n': v = '\n'; break;
	case 't': v = '\t'; break;
	case 'r': v = '\r'; break;
	case 'a': v = '\a'; break;
	case 'b': v = '\b'; break;
	case 'f': v = '\f'; break;
	case 'v': v = '\v'; break;
	case 'x':
		for (i = 0; i < 2 && cg_hex(p[1]) >= 0; i++)
			v = v * 16 + cg_hex(*++p);
		break;
	default:
		if (*p >= '0' && *p <= '7') {
			v = *p - '0';
			for (i = 1; i < 3 && p[1] >= '0' && p[1] <= '7'; i++)
				v = v * 8 + (*++p - '0');
		} else {
			v = (unsigned char)*p;	/* \\ \" \' and the rest */
		}
	}
	*pp = p;
	return v & 0xff;
}

/* A literal's text as written (escapes and all) into its bytes. */
const char *
cg_unescape(struct cg *g, const char *raw, size_t *len)
{
	char *out = arena_alloc(g->a, strlen(raw) + 1);
	const char *p;
	size_t n = 0;

	for (p = raw; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			out[n++] = (char)cg_escape(&p);
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	*len = n;
	return out;
}

const char *
cg_global_name(struct symbol *sym)
{
	return sym->c_name && strncmp(sym->c_name, "g_", 2) == 0
		? sym->c_name : arena_printf_static(sym);
}
