/*
 * preproc_cond.c -- a recursive-descent evaluator for preprocessor conditions.
 *
 *   cond    := conj ('||' conj)*
 *   conj    := atom ('&&' atom)*
 *   atom    := '(' cond ')' | '!' atom | operand [op operand]
 *   operand := fact | number | string | '-' number
 *
 * It works on the token list the preprocessor collected and reports errors
 * at the offending token.
 */
#include "translator/parse/preproc_cond.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "translator/common/arena.h"
#include "translator/parse/grammar.h"
#include "translator/parse/preproc.h"

struct cond_parser {
	struct preproc_cond_env *env;
	const struct token *toks;
	int n, pos;
	struct loc open;
	bool failed;
};

/* A value: a number, or a string that remembers which fact it came from
 * (versions compare as versions, others as globs or plain strings). */
enum value_kind { V_NUMBER, V_STRING, V_VERSION };
struct value {
	enum value_kind kind;
	long long num;
	const char *str;
	const char *fact;	/* "arch", "$#", ...; NULL for a literal */
};

static struct value
mkval(enum value_kind kind, long long num, const char *str)
{
	return (struct value){ .kind = kind, .num = num, .str = str };
}

static const struct token *
peek(struct cond_parser *cp)
{
	static const struct token end = { 0 };

	return cp->pos < cp->n ? &cp->toks[cp->pos] : &end;
}

static struct loc
here(struct cond_parser *cp)
{
	return cp->pos < cp->n ? cp->toks[cp->pos].loc : cp->open;
}

static void
cond_error(struct cond_parser *cp, const char *msg)
{
	if (!cp->failed)
		diag_error(&cp->env->s->diag, here(cp), "E_PP_COND", "%s", msg);
	cp->failed = true;
}

int
preproc_version_compare(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long long x = strtoull(a, &ea, 10);
			unsigned long long y = strtoull(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

static const char *
config_value(struct preproc_cond_env *env, const char *name)
{
	const struct kernel_facts *f = &env->s->facts;
	const char *v = f->config_lookup ?
		f->config_lookup(f->config_ctx, name) : NULL;

	return v ? v : "";
}

static bool
fact_value(struct cond_parser *cp, const char *name, struct value *v)
{
	const struct session *s = cp->env->s;
	const struct kernel_facts *f = &s->facts;

	if (strcmp(name, "kernel_v") == 0)
		*v = mkval(V_VERSION, 0, f->kernel_version);
	else if (strcmp(name, "kernel_vr") == 0)
		*v = mkval(V_VERSION, 0, f->kernel_release);
	else if (strcmp(name, "systemtap_v") == 0)
		*v = mkval(V_VERSION, 0,
			s->opts.compatible ? s->opts.compatible :
			TAPC_COMPAT_VERSION);
	else if (strcmp(name, "arch") == 0)
		*v = mkval(V_STRING, 0, f->arch);
	else if (strcmp(name, "runtime") == 0)
		*v = mkval(V_STRING, 0, f->runtime);
	else if (strcmp(name, "systemtap_privilege") == 0)
		*v = mkval(V_STRING, 0,
			     privilege_name(s->opts.privilege));
	else if (strcmp(name, "guru_mode") == 0)
		*v = mkval(V_NUMBER, s->opts.guru, NULL);
	else if (strncmp(name, "CONFIG_", 7) == 0)
		*v = mkval(V_STRING, 0, config_value(cp->env, name));
	else
		return false;
	if (v->kind != V_NUMBER && !v->str)
		v->str = "";
	return true;
}

/* $N (as a number when it is one) or @N (a string) in a condition. */
static bool
argument_value(struct cond_parser *cp, const struct token *t, struct value *v)
{
	const struct options *o = &cp->env->s->opts;
	long n = strtol(t->text + 1, NULL, 10);
	char *end;

	if (n < 1 || n > o->nargs) {
		char msg[160];
		snprintf(msg, sizeof(msg),
			 "command line argument %s is out of range (%d given)",
			 t->text, o->nargs);
		if (!cp->failed)
			diag_error(&cp->env->s->diag, t->loc, "E_ARG_RANGE",
				   "%s", msg);
		cp->failed = true;
		return false;
	}
	const char *arg = o->args[n - 1];
	long long num = strtoll(arg, &end, 0);
	if (t->kind == ARGREF && *arg && !*end)
		*v = mkval(V_NUMBER, num, NULL);
	else
		*v = mkval(V_STRING, 0, arg);
	return true;
}

static bool
operand(struct cond_parser *cp, struct value *v)
{
	const struct token *t = peek(cp);
	bool negative = false;

	if (t->kind == '-') {
		negative = true;
		cp->pos++;
		t = peek(cp);
		if (t->kind != NUMBER) {
			cond_error(cp, "expected a number after '-'");
			return false;
		}
	}
	switch (t->kind) {
	case NUMBER:
		*v = mkval(V_NUMBER, strtoll(t->text, NULL, 0), NULL);
		if (negative)
			v->num = -v->num;
		break;
	case STRING:
		*v = mkval(V_STRING, 0, t->text);
		break;
	case ARGREF:
	case ARGSTR:
		if (!argument_value(cp, t, v))
			return false;
		break;
	case ARGC:
		*v = mkval(V_NUMBER, cp->env->nargs, NULL);
		v->fact = "$#";
		break;
	case ARGCS: {
		char *buf = arena_printf(cp->env->s->arena, "%d",
					 cp->env->nargs);
		*v = mkval(V_STRING, 0, buf);
		v->fact = "@#";
		break;
	}
	case IDENT:
		if (!fact_value(cp, t->text, v)) {
			char msg[200];
			snprintf(msg, sizeof(msg),
				 "unknown name '%.80s' in a preprocessor condition",
				 t->text);
			cond_error(cp, msg);
			return false;
		}
		v->fact = t->text;
		break;
	default:
		cond_error(cp, "expected kernel_v, kernel_vr, arch, runtime, systemtap_v, systemtap_privilege, guru_mode, CONFIG_*, $#, @# or a literal");
		return false;
	}
	cp->pos++;
	return true;
}

static bool
as_number(const struct value *v, long long *out)
{
	char *end;

	if (v->kind == V_NUMBER) {
		*out = v->num;
		return true;
	}
	if (!*v->str) {
		*out = 0;
		return v->fact && strncmp(v->fact, "CONFIG_", 7) == 0;
	}
	*out = strtoll(v->str, &end, 0);
	return !*end;
}

static int
compare_values(const struct value *a, const struct value *b, bool *glob_ok)
{
	*glob_ok = false;
	if (a->kind == V_NUMBER && b->kind == V_NUMBER)
		return a->num < b->num ? -1 : a->num > b->num;
	long long l, r;
	bool both_config = a->fact && b->fact &&
			   strncmp(a->fact, "CONFIG_", 7) == 0 &&
			   strncmp(b->fact, "CONFIG_", 7) == 0;
	if (a->kind == V_NUMBER || b->kind == V_NUMBER) {
		/* "6" and 6 compare as numbers; an unset CONFIG_ option is
		 * "" and also 0. */
		if (!as_number(a, &l) || !as_number(b, &r))
			return -2;	/* incomparable */
		return l < r ? -1 : l > r;
	}
	/* Two CONFIG_ options: as numbers when both are (NR_CPUS > HZ),
	 * else as strings ("m" == "y"). */
	if (both_config && *a->str && *b->str && as_number(a, &l) &&
	    as_number(b, &r))
		return l < r ? -1 : l > r;
	*glob_ok = true;
	if (a->kind == V_VERSION || b->kind == V_VERSION)
		return preproc_version_compare(a->str, b->str);
	return strcmp(a->str, b->str);
}

static int
apply_op(int op, const struct value *a, const struct value *b, bool *err)
{
	bool glob_ok;
	int c = compare_values(a, b, &glob_ok);

	if (c == -2) {
		*err = true;
		return 0;
	}
	if (glob_ok && (op == EQ || op == NE)) {
		/* The literal side is the pattern: arch == "i?86". */
		const char *pat = b->str, *str = a->str;
		bool m = fnmatch(pat, str, 0) == 0 || strcmp(pat, str) == 0;
		return op == EQ ? m : !m;
	}
	switch (op) {
	case EQ: return c == 0;
	case NE: return c != 0;
	case '<': return c < 0;
	case LE: return c <= 0;
	case '>': return c > 0;
	case GE: return c >= 0;
	}
	return 0;
}

/*
 * What each fact may be compared with, as SystemTap allows: names only
 * for equality, versions only with strings, $# with numbers, @# with
 * strings, guru_mode with 0 or 1.
 */
static const char *
comparison_problem(const struct value *a, int op, const struct value *b)
{
	const char *f = a->fact;
	bool equality = op == EQ || op == NE;

	if (!f)
		return NULL;
	if ((strcmp(f, "arch") == 0 || strcmp(f, "runtime") == 0 ||
	     strcmp(f, "systemtap_privilege") == 0) && !equality)
		return "only == and != can compare this name";
	if ((strcmp(f, "arch") == 0 || strcmp(f, "runtime") == 0 ||
	     strcmp(f, "systemtap_privilege") == 0 ||
	     strncmp(f, "kernel_v", 8) == 0 ||
	     strcmp(f, "systemtap_v") == 0 || strcmp(f, "@#") == 0) &&
	    b->kind == V_NUMBER)
		return "expected a string to compare with";
	if (strcmp(f, "$#") == 0 && b->kind != V_NUMBER)
		return "expected a number to compare $# with";
	if (strcmp(f, "guru_mode") == 0) {
		if (!equality)
			return "only == and != can compare guru_mode";
		if (b->kind != V_NUMBER || (b->num != 0 && b->num != 1))
			return "guru_mode is compared with 0 or 1";
	}
	return NULL;
}

static bool is_comparison(int kind)
{
	return kind == EQ || kind == NE || kind == '<' || kind == LE ||
	       kind == '>' || kind == GE;
}

static int parse_cond(struct cond_parser *cp);

static int
parse_atom(struct cond_parser *cp)
{
	struct value a, b;

	if (peek(cp)->kind == '(') {
		cp->pos++;
		int v = parse_cond(cp);
		if (peek(cp)->kind != ')')
			cond_error(cp, "expected ')' in the preprocessor condition");
		else
			cp->pos++;
		return v;
	}
	if (peek(cp)->kind == '!') {
		cp->pos++;
		return !parse_atom(cp);
	}
	if (!operand(cp, &a))
		return 0;
	int op = peek(cp)->kind;
	if (!is_comparison(op)) {
		if (a.kind == V_NUMBER)
			return a.num != 0;
		cond_error(cp, "expected a comparison (==, !=, <, <=, >, >=)");
		return 0;
	}
	cp->pos++;
	if (!operand(cp, &b))
		return 0;
	const char *problem = comparison_problem(&a, op, &b);
	if (problem) {
		cp->pos--;
		cond_error(cp, problem);
		return 0;
	}
	bool err = false;
	int v = apply_op(op, &a, &b, &err);
	if (err)
		cond_error(cp, "cannot compare a number with a string here");
	return v;
}

static int
parse_conj(struct cond_parser *cp)
{
	int v = parse_atom(cp);

	while (!cp->failed && peek(cp)->kind == ANDAND) {
		cp->pos++;
		int r = parse_atom(cp);
		v = v && r;
	}
	return v;
}

static int
parse_cond(struct cond_parser *cp)
{
	int v = parse_conj(cp);

	while (!cp->failed && peek(cp)->kind == OROR) {
		cp->pos++;
		int r = parse_conj(cp);
		v = v || r;
	}
	return v;
}

int
preproc_cond_eval(struct preproc_cond_env *env, struct loc open,
		  const struct token *toks, int n)
{
	struct cond_parser cp = { env, toks, n, 0, open, false };

	if (n == 0) {
		diag_error(&env->s->diag, open, "E_PP_COND",
			   "empty preprocessor condition");
		return -1;
	}
	int v = parse_cond(&cp);
	if (!cp.failed && cp.pos < cp.n)
		cond_error(&cp, "unexpected token in the preprocessor condition");
	return cp.failed ? -1 : v;
}
