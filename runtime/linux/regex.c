/*
 * regex.c -- the kernel target's POSIX extended regular expressions (see
 * regex.h): a pattern is parsed into a small tree, the tree is emitted as
 * a Thompson NFA program, and matching runs all NFA threads in step over
 * the string (no backtracking: time O(program * string), no recursion, and
 * scratch space per CPU allocated at compile).  Matching is unanchored and
 * only says whether the string matches, as regexec with REG_NOSUB does; no
 * locale: [:classes:] are ASCII, as in the C locale the user target uses.
 * Without __KERNEL__ it builds for user space too, so that it can be
 * compared with libc's regexec on the host.
 * Must not: allocate or sleep in tap_regex_match.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "regex.h"
#define re_zalloc(n)		kzalloc((n), GFP_KERNEL)
#define re_free(p)		kfree(p)
#else
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
#define __percpu
typedef struct tap_regex {
	struct tap_re_inst *prog;
	u8 (*sets)[32];
	int nprog;
	void *scratch;
} tap_regex_t;
void tap_regex_free(tap_regex_t *re);
#define re_zalloc(n)		calloc(1, (n))
#define re_free(p)		free(p)
#define __alloc_percpu(n, a)	calloc(1, (n))
#define free_percpu(p)		free(p)
#define get_cpu_ptr(p)		(p)
#define put_cpu_ptr(p)		do { } while (0)
#endif

#define TAP_RE_MAX_NODES	512	/* tree nodes of one pattern */
#define TAP_RE_MAX_PROG		2048	/* NFA instructions */
#define TAP_RE_MAX_SETS		64	/* bracket expressions */
#define TAP_RE_MAX_DEPTH	32	/* nested groups and repetitions */
#define TAP_RE_DUP_MAX		255	/* largest {m,n} count, as RE_DUP_MAX */

enum tap_re_kind { RE_LIT, RE_ANY, RE_SET, RE_BOL, RE_EOL, RE_EMPTY,
		   RE_CAT, RE_ALT, RE_REP };

/* A tree node; CAT and ALT children are a list: kid, then each next. */
struct tap_re_node {
	u8 kind;
	u8 c;			/* RE_LIT: the byte; RE_SET: the set */
	short kid, next;	/* -1: none */
	short min, max;		/* RE_REP: max -1 is no limit */
};

enum tap_re_op { OP_CHAR, OP_ANY, OP_SET, OP_BOL, OP_EOL, OP_SPLIT, OP_JMP,
		 OP_MATCH };

struct tap_re_inst {
	u8 op;
	u8 c;			/* OP_CHAR: the byte; OP_SET: the set */
	u16 x, y;		/* OP_SPLIT: both; OP_JMP: x */
};

struct tap_re_comp {
	const char *p;		/* the next pattern byte */
	struct tap_re_node *nodes;
	int nnodes, nsets, depth;
	u8 (*sets)[32];
	struct tap_re_inst *prog;
	int nprog;
	int err;		/* first error, as -errno */
};

/* ---- parsing ---- */

static int
re_node(struct tap_re_comp *c, int kind)
{
	struct tap_re_node *n;

	if (c->nnodes >= TAP_RE_MAX_NODES) {
		c->err = -E2BIG;
		return -1;
	}
	n = &c->nodes[c->nnodes];
	n->kind = kind;
	n->kid = n->next = -1;
	return c->nnodes++;
}

static int
re_class(const char *name, int len, int ch)
{
#define RE_IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
	int up = ch >= 'A' && ch <= 'Z', lo = ch >= 'a' && ch <= 'z';
	int dig = ch >= '0' && ch <= '9';
	int graph = ch > 32 && ch < 127;

	if (RE_IS("alpha")) return up || lo;
	if (RE_IS("digit")) return dig;
	if (RE_IS("alnum")) return up || lo || dig;
	if (RE_IS("upper")) return up;
	if (RE_IS("lower")) return lo;
	if (RE_IS("space")) return ch == ' ' || (ch >= 9 && ch <= 13);
	if (RE_IS("blank")) return ch == ' ' || ch == '\t';
	if (RE_IS("punct")) return graph && !up && !lo && !dig;
	if (RE_IS("print")) return graph || ch == ' ';
	if (RE_IS("graph")) return graph;
	if (RE_IS("cntrl")) return ch < 32 || ch == 127;
	if (RE_IS("xdigit")) return dig || (ch >= 'a' && ch <= 'f') ||
				   (ch >= 'A' && ch <= 'F');
	return -1;
#undef RE_IS
}

/* "[:name:]" at c->p: its bytes into set; false if unknown. */
static int
re_bracket_class(struct tap_re_comp *c, u8 *set)
{
	const char *name = c->p + 2, *end = strstr(name, ":]");
	int ch;

	if (!end || re_class(name, end - name, 'a') < 0)
		return 0;
	for (ch = 1; ch < 256; ch++)
		if (re_class(name, end - name, ch))
			set[ch / 8] |= 1 << (ch % 8);
	c->p = end + 2;
	return 1;
}

/* A bracket expression; c->p is past '['. */
static int
re_bracket(struct tap_re_comp *c)
{
	int n, neg = 0, first = 1, lo, hi, ch;
	u8 *set;

	if (c->nsets >= TAP_RE_MAX_SETS) {
		c->err = -E2BIG;
		return -1;
	}
	set = c->sets[c->nsets];
	if (*c->p == '^') {
		neg = 1;
		c->p++;
	}
	while (*c->p && (*c->p != ']' || first)) {
		first = 0;
		if (c->p[0] == '[' && c->p[1] == ':') {
			if (!re_bracket_class(c, set))
				goto bad;
			continue;
		}
		if (c->p[0] == '[' && (c->p[1] == '=' || c->p[1] == '.'))
			goto bad;	/* collating elements: not supported */
		lo = hi = (unsigned char)*c->p++;
		if (c->p[0] == '-' && c->p[1] && c->p[1] != ']') {
			hi = (unsigned char)c->p[1];
			c->p += 2;
			if (hi < lo)
				goto bad;
		}
		for (ch = lo; ch <= hi; ch++)
			set[ch / 8] |= 1 << (ch % 8);
	}
	if (*c->p != ']')
		goto bad;
	c->p++;
	if (neg)
		for (ch = 0; ch < 32; ch++)
			set[ch] = ~set[ch];
	set[0] &= ~1;		/* NUL ends the string, it never matches */
	n = re_node(c, RE_SET);
	if (n >= 0)
		c->nodes[n].c = c->nsets++;
	return n;
bad:
	c->err = -EINVAL;
	return -1;
}

static int re_alt(struct tap_re_comp *c);

static int
re_atom(struct tap_re_comp *c)
{
	int n, ch = (unsigned char)*c->p++;

	switch (ch) {
	case '(':
		if (++c->depth > TAP_RE_MAX_DEPTH) {
			c->err = -E2BIG;
			return -1;
		}
		n = re_alt(c);
		c->depth--;
		if (n < 0 || *c->p != ')') {
			c->err = c->err ? c->err : -EINVAL;
			return -1;
		}
		c->p++;
		return n;
	case '.':
		return re_node(c, RE_ANY);
	case '^':
		return re_node(c, RE_BOL);
	case '$':
		return re_node(c, RE_EOL);
	case '[':
		return re_bracket(c);
	case '*': case '+': case '?': case ')':
		c->err = -EINVAL;	/* nothing to repeat, or unbalanced */
		return -1;
	case '\\':
		ch = (unsigned char)*c->p++;
		if (!ch) {
			c->err = -EINVAL;
			return -1;
		}
		break;
	}
	n = re_node(c, RE_LIT);
	if (n >= 0)
		c->nodes[n].c = ch;
	return n;
}

static int
re_count(struct tap_re_comp *c)
{
	int v = 0;

	if (*c->p < '0' || *c->p > '9')
		return -1;
	while (*c->p >= '0' && *c->p <= '9' && v <= TAP_RE_DUP_MAX)
		v = v * 10 + *c->p++ - '0';
	return v;
}

/* After an atom: '*', '+', '?', '{m}', '{m,}', '{m,n}', repeatedly. */
static int
re_piece(struct tap_re_comp *c)
{
	int n = re_atom(c), r, min, max;

	while (n >= 0 && *c->p && strchr("*+?{", *c->p)) {
		if (*c->p == '{' && (c->p[1] < '0' || c->p[1] > '9'))
			break;		/* a plain '{' */
		if (c->nodes[n].kind == RE_BOL || c->nodes[n].kind == RE_EOL) {
			c->err = -EINVAL;	/* libc: REG_BADRPT */
			return -1;
		}
		min = 0;
		max = -1;
		if (*c->p == '+')
			min = 1;
		else if (*c->p == '?')
			max = 1;
		if (*c->p++ == '{') {
			min = max = re_count(c);
			if (*c->p == ',') {
				c->p++;
				max = *c->p == '}' ? -1 : re_count(c);
			}
			if (*c->p++ != '}' || min > TAP_RE_DUP_MAX ||
			    max > TAP_RE_DUP_MAX || (max >= 0 && max < min) ||
			    (max < 0 && c->p[-2] != ',')) {
				c->err = -EINVAL;
				return -1;
			}
		}
		if (++c->depth > TAP_RE_MAX_DEPTH) {
			c->err = -E2BIG;
			return -1;
		}
		r = re_node(c, RE_REP);
		if (r < 0)
			return -1;
		c->nodes[r].kid = n;
		c->nodes[r].min = min;
		c->nodes[r].max = max;
		n = r;
	}
	return n;
}

/* Pieces up to '|', ')' or the end; an empty branch matches "". */
static int
re_cat(struct tap_re_comp *c)
{
	int n = re_node(c, RE_CAT), last = -1, k, depth = c->depth;

	while (n >= 0 && *c->p && *c->p != '|' && *c->p != ')') {
		k = re_piece(c);
		c->depth = depth;	/* repetitions nest within a piece */
		if (k < 0)
			return -1;
		if (last < 0)
			c->nodes[n].kid = k;
		else
			c->nodes[last].next = k;
		last = k;
	}
	return n;
}

static int
re_alt(struct tap_re_comp *c)
{
	int n = re_node(c, RE_ALT), last, k;

	if (n < 0)
		return -1;
	last = k = re_cat(c);
	c->nodes[n].kid = k;
	while (k >= 0 && *c->p == '|') {
		c->p++;
		k = re_cat(c);
		if (k >= 0)
			c->nodes[last].next = k;
		last = k;
	}
	return k < 0 ? -1 : n;
}

/* ---- the NFA program ---- */

static int
re_inst(struct tap_re_comp *c, int op, int ch)
{
	if (c->nprog >= TAP_RE_MAX_PROG) {
		c->err = -E2BIG;
		return 0;
	}
	c->prog[c->nprog].op = op;
	c->prog[c->nprog].c = ch;
	return c->nprog++;
}

static void re_emit(struct tap_re_comp *c, int n);

/* Alternatives: SPLIT to each but the last, each JMPs to the end; the
 * pending JMPs are chained through x until the end is known. */
static void
re_emit_alt(struct tap_re_comp *c, int n)
{
	int k, split, jmps = -1, j;

	for (k = c->nodes[n].kid; k >= 0 && !c->err; k = c->nodes[k].next) {
		if (c->nodes[k].next < 0) {
			re_emit(c, k);
			break;
		}
		split = re_inst(c, OP_SPLIT, 0);
		c->prog[split].x = c->nprog;
		re_emit(c, k);
		j = re_inst(c, OP_JMP, 0);
		c->prog[j].x = jmps;
		jmps = j;
		c->prog[split].y = c->nprog;
	}
	while (jmps >= 0 && !c->err) {
		j = (short)c->prog[jmps].x;
		c->prog[jmps].x = c->nprog;
		jmps = j;
	}
}

/* min copies, then a loop (no limit) or max - min optional copies whose
 * SPLITs all leave to the end. */
static void
re_emit_rep(struct tap_re_comp *c, int n)
{
	const struct tap_re_node *r = &c->nodes[n];
	int i, split, loop, splits = -1;

	for (i = 0; i < r->min && !c->err; i++)
		re_emit(c, r->kid);
	if (r->max < 0) {
		loop = re_inst(c, OP_SPLIT, 0);
		c->prog[loop].x = c->nprog;
		re_emit(c, r->kid);
		c->prog[re_inst(c, OP_JMP, 0)].x = loop;
		c->prog[loop].y = c->nprog;
		return;
	}
	for (; i < r->max && !c->err; i++) {
		split = re_inst(c, OP_SPLIT, 0);
		c->prog[split].x = c->nprog;
		c->prog[split].y = splits;
		splits = split;
		re_emit(c, r->kid);
	}
	while (splits >= 0 && !c->err) {
		split = (short)c->prog[splits].y;
		c->prog[splits].y = c->nprog;
		splits = split;
	}
}

static void
re_emit(struct tap_re_comp *c, int n)
{
	const struct tap_re_node *node = &c->nodes[n];
	int k;

	if (c->err)
		return;
	switch (node->kind) {
	case RE_LIT: re_inst(c, OP_CHAR, node->c); break;
	case RE_ANY: re_inst(c, OP_ANY, 0); break;
	case RE_SET: re_inst(c, OP_SET, node->c); break;
	case RE_BOL: re_inst(c, OP_BOL, 0); break;
	case RE_EOL: re_inst(c, OP_EOL, 0); break;
	case RE_EMPTY: break;
	case RE_CAT:
		for (k = node->kid; k >= 0; k = c->nodes[k].next)
			re_emit(c, k);
		break;
	case RE_ALT: re_emit_alt(c, n); break;
	case RE_REP: re_emit_rep(c, n); break;
	}
}

/* ---- matching ---- */

/* Per CPU, after this header: mark[nprog] (u32), then three u16 lists:
 * the current threads, the next threads, the closure stack. */
struct tap_re_scratch {
	u32 gen;
	u32 mark[];
};

static size_t
re_scratch_size(int nprog)
{
	return sizeof(struct tap_re_scratch) + nprog * sizeof(u32) +
	       3 * nprog * sizeof(u16);
}

int
tap_regex_compile(tap_regex_t *re, const char *pattern)
{
	struct tap_re_comp c = { .p = pattern };
	int root;

	memset(re, 0, sizeof(*re));
	c.nodes = re_zalloc(TAP_RE_MAX_NODES * sizeof(*c.nodes));
	c.sets = re_zalloc(TAP_RE_MAX_SETS * sizeof(*c.sets));
	c.prog = re_zalloc(TAP_RE_MAX_PROG * sizeof(*c.prog));
	if (!c.nodes || !c.sets || !c.prog) {
		c.err = -ENOMEM;
		goto out;
	}
	root = re_alt(&c);
	if (root >= 0 && *c.p)
		c.err = -EINVAL;	/* a ')' with no '(' */
	if (c.err)
		goto out;
	re_emit(&c, root);
	re_inst(&c, OP_MATCH, 0);
	if (c.err)
		goto out;
	re->nprog = c.nprog;
	re->prog = re_zalloc(c.nprog * sizeof(*c.prog));
	re->sets = re_zalloc((c.nsets ? c.nsets : 1) * sizeof(*c.sets));
	re->scratch = __alloc_percpu(re_scratch_size(c.nprog), 4);
	if (!re->prog || !re->sets || !re->scratch) {
		c.err = -ENOMEM;
		tap_regex_free(re);
		goto out;
	}
	memcpy(re->prog, c.prog, c.nprog * sizeof(*c.prog));
	memcpy(re->sets, c.sets, c.nsets * sizeof(*c.sets));
out:
	re_free(c.nodes);
	re_free(c.sets);
	re_free(c.prog);
	return c.err;
}

void
tap_regex_free(tap_regex_t *re)
{
	re_free(re->prog);
	re_free(re->sets);
	if (re->scratch)
		free_percpu(re->scratch);
	memset(re, 0, sizeof(*re));
}

struct tap_re_run {
	const struct tap_re_inst *prog;
	u32 *mark, gen;
	u16 *stack;
	int bol, eol;
};

/* Add pc and what it reaches without reading a byte to list; 1 when that
 * reaches MATCH. */
static int
re_add(struct tap_re_run *m, u16 *list, int *n, int pc)
{
	const struct tap_re_inst *in;
	int sp = 0;

	if (m->mark[pc] == m->gen)
		return 0;
	m->mark[pc] = m->gen;
	m->stack[sp++] = pc;
	while (sp > 0) {
		pc = m->stack[--sp];
		in = &m->prog[pc];
#define RE_PUSH(t) do { if (m->mark[t] != m->gen) { \
		m->mark[t] = m->gen; m->stack[sp++] = (t); } } while (0)
		switch (in->op) {
		case OP_MATCH:
			return 1;
		case OP_JMP:
			RE_PUSH(in->x);
			break;
		case OP_SPLIT:
			RE_PUSH(in->y);
			RE_PUSH(in->x);
			break;
		case OP_BOL:
			if (m->bol)
				RE_PUSH(pc + 1);
			break;
		case OP_EOL:
			if (m->eol)
				RE_PUSH(pc + 1);
			break;
		default:
			list[(*n)++] = pc;
		}
#undef RE_PUSH
	}
	return 0;
}

static int
re_reads(const tap_regex_t *re, const struct tap_re_inst *in, u8 ch)
{
	switch (in->op) {
	case OP_CHAR: return in->c == ch;
	case OP_ANY: return 1;
	case OP_SET: return re->sets[in->c][ch / 8] & (1 << (ch % 8));
	default: return 0;
	}
}

int
tap_regex_match(tap_regex_t *re, const char *s)
{
	struct tap_re_scratch *sc = get_cpu_ptr(re->scratch);
	struct tap_re_run m = { .prog = re->prog, .mark = sc->mark };
	u16 *cur = (u16 *)(sc->mark + re->nprog), *next = cur + re->nprog, *t;
	int i, j, ncur = 0, nnext, found = 0;
	const u8 *str = (const u8 *)s;
	u32 base;

	m.stack = next + re->nprog;
	if (sc->gen > 0xf0000000u) {	/* before the generations wrap */
		memset(sc->mark, 0, re->nprog * sizeof(u32));
		sc->gen = 0;
	}
	/* Marks of generation base + i: threads added for position i. */
	base = sc->gen + 1;
	for (i = 0; ; i++) {
		/* a new thread at every position: the match is unanchored */
		m.gen = base + i;
		m.bol = i == 0;
		m.eol = str[i] == 0;
		found = re_add(&m, cur, &ncur, 0);
		if (found || !str[i])
			break;
		m.gen = base + i + 1;
		m.bol = 0;
		m.eol = str[i + 1] == 0;
		nnext = 0;
		for (j = 0; j < ncur && !found; j++)
			if (re_reads(re, &re->prog[cur[j]], str[i]))
				found = re_add(&m, next, &nnext, cur[j] + 1);
		if (found)
			break;
		t = cur;
		cur = next;
		next = t;
		ncur = nnext;
	}
	sc->gen = base + i + 1;
	put_cpu_ptr(re->scratch);
	return found;
}
