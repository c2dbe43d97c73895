/*
 * regex.c -- the kernel target's POSIX extended regular expressions (see
 * regex.h): a pattern is parsed into a small tree, the tree is emitted as
 * a Thompson NFA program, and matching runs all NFA threads in step over
 * the string: no backtracking, no recursion, and scratch space per CPU
 * allocated at compile.  Matching is unanchored.  No locale: [:classes:]
 * are ASCII, as in the C locale the user target uses.  Without __KERNEL__
 * it builds for user space too, so that testsuite/unit/test_regex.c can
 * compare it with libc's regexec.
 *
 * Two matchers share the program:
 *  - yes or no (no struct tap_match): a thread is a program counter, and
 *    the first thread to reach MATCH ends the run, as regexec with
 *    REG_NOSUB may.  Time O(string * program).
 *  - where (a struct tap_match, the pattern compiled with TAP_RE_SUBMATCH,
 *    which puts SAVE instructions around each group): a Pike VM.  Each
 *    thread carries capture slots (the start and end of the match and of
 *    each group, and re_emit_rep's), and the threads of
 *    one position are kept in priority order: earlier starts first, then
 *    the order a backtracking matcher would try them in.  Where two
 *    threads reach the same instruction at the same position, the first
 *    one goes on.  The run goes past the first match while a thread that
 *    began no later than it lives, so that the match found is POSIX's
 *    leftmost-longest.  Time O(string * program * slots).
 * Only scripts that call matched() or ngroups() compile their patterns
 * with TAP_RE_SUBMATCH (translator/codegen/codegen_expr.c): the others
 * pay neither for the slots nor for running past the first match.
 *
 * Where the groups can differ from POSIX's and glibc's: among the
 * leftmost-longest matches this one takes the groups a backtracking
 * matcher would find first (alternatives left to right, repetitions
 * greedy), where POSIX makes each subexpression in turn, left to right,
 * as long as it can be: "(a|ab)(c|bcd)(d*)" on "abcd" gives a, bcd, ""
 * (glibc too; POSIX says ab, c, d).  An optional iteration that would
 * match nothing is taken only when no iteration came before, as glibc
 * mostly does: "(a*)*" on "b" gives group 1 "", "(a*)+" on "aa" gives
 * "aa" (but "(a*){1,3}" on "aa" gives "aa" here and "" in glibc).  The
 * other differences from glibc come where a repeated subexpression can
 * match nothing, mostly through an alternative: "(b*|c*)*.+" on "ccbb"
 * gives group 1 "b" here (the repetition as long as it can be, as POSIX
 * wants) and "" in glibc.  On random patterns over {a,b,c} with nested groups,
 * alternatives and repetitions (testsuite/unit/test_regex.c), the yes or
 * no and the whole match are always glibc's, and the groups differ in
 * about one match in a thousand.
 * Strings are read up to 65534 bytes when groups are kept (offsets are
 * 16 bits; tapc's strings are MAXSTRINGLEN bytes).
 * Must not: allocate or sleep in tap_regex_match.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/smp.h>
#define re_cpu_get()		get_cpu()
#define re_cpu_put()		put_cpu()
#else
#include <errno.h>
#define re_cpu_get()		tap_cpu_id()
#define re_cpu_put()		do { } while (0)
#endif
#include "regex.h"
#include "../core/platform.h"
#include "../core/match.h"

#define TAP_RE_MAX_NODES	512	/* tree nodes of one pattern */
#define TAP_RE_MAX_PROG		2048	/* NFA instructions */
#define TAP_RE_MAX_SETS		64	/* bracket expressions */
#define TAP_RE_MAX_DEPTH	32	/* nested groups and repetitions */
#define TAP_RE_DUP_MAX		255	/* largest {m,n} count, as RE_DUP_MAX */
#define TAP_RE_UNSET		0xffff	/* a capture slot not written */
#define TAP_RE_MAX_POS		0xfffe	/* where the string ends for the
					 * submatch matcher, at the latest */

enum tap_re_kind { RE_LIT, RE_ANY, RE_SET, RE_BOL, RE_EOL, RE_EMPTY,
		   RE_CAT, RE_ALT, RE_REP, RE_GROUP };

/* A tree node; CAT and ALT children are a list: kid, then each next. */
struct tap_re_node {
	u8 kind;
	u8 c;			/* RE_LIT: the byte; RE_SET: the set */
	short kid, next;	/* -1: none */
	short min, max;		/* RE_REP: max -1 is no limit */
	short group;		/* RE_GROUP: its number, from 1 */
};

enum tap_re_op { OP_CHAR, OP_ANY, OP_SET, OP_BOL, OP_EOL, OP_SPLIT, OP_JMP,
		 OP_SAVE, OP_PROGRESS, OP_MATCH };

struct tap_re_inst {
	u8 op;
	u8 c;			/* OP_CHAR: the byte; OP_SET: the set */
	u16 x, y;		/* OP_SPLIT: both; OP_JMP: x; OP_SAVE: x is
				 * the slot to write the position to;
				 * OP_PROGRESS: x is the slot that must
				 * differ from the position to go on */
};

/* Slots past the groups': where an optional iteration began
 * (re_emit_rep).  Until emission ends the count of groups is not known,
 * so their numbers carry this bit; re_install makes them slots. */
#define RE_HIDDEN		0x8000

struct tap_re_comp {
	const char *p;		/* the next pattern byte */
	struct tap_re_node *nodes;
	int nnodes, nsets, depth, ngroups, flags;
	int nhidden;		/* slots of optional iterations */
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

/* A parenthesized subexpression; c->p is past '('.  Groups are numbered
 * by their '(' from the left, as POSIX numbers them. */
static int
re_group(struct tap_re_comp *c)
{
	int n, g, k;

	if (++c->depth > TAP_RE_MAX_DEPTH) {
		c->err = -E2BIG;
		return -1;
	}
	g = ++c->ngroups;
	k = re_alt(c);
	c->depth--;
	if (k < 0 || *c->p != ')') {
		c->err = c->err ? c->err : -EINVAL;
		return -1;
	}
	c->p++;
	n = re_node(c, RE_GROUP);
	if (n < 0)
		return -1;
	c->nodes[n].kid = k;
	c->nodes[n].group = g;
	return n;
}

static int
re_atom(struct tap_re_comp *c)
{
	int n, ch = (unsigned char)*c->p++;

	switch (ch) {
	case '(':
		return re_group(c);
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

/* Whether node n has a group in it. */
static int
re_has_group(const struct tap_re_comp *c, int n)
{
	int k;

	if (c->nodes[n].kind == RE_GROUP)
		return 1;
	for (k = c->nodes[n].kid; k >= 0; k = c->nodes[k].next)
		if (re_has_group(c, k))
			return 1;
	return 0;
}

/* A SPLIT to what follows (x) or, once the end is known, past the
 * repetition (y, chained through y until then). */
static void
re_emit_optional(struct tap_re_comp *c, int *chain)
{
	int split = re_inst(c, OP_SPLIT, 0);

	c->prog[split].x = c->nprog;
	c->prog[split].y = *chain;
	*chain = split;
}

/*
 * min copies, then a loop (no limit) or max - min optional copies whose
 * SPLITs all leave to the end.  An optional iteration that matches
 * nothing after another iteration is never taken, as glibc mostly does
 * not take one: its groups would say "" where glibc keeps the last
 * iteration that read something.  Only the groups show which is taken, so only where
 * groups are kept does the program grow for it: a loop's empty iteration
 * ends at its SPLIT, already reached at that position; with no
 * iterations required (min 0) the first is a copy of its own before the
 * loop, which may match nothing; optional copies of a {m,n} after the
 * first check a slot of their own saying where the copy began.
 */
static void
re_emit_rep(struct tap_re_comp *c, int n)
{
	const struct tap_re_node *r = &c->nodes[n];
	int i, split, loop, splits = -1, slot = -1, pc;
	int groups = (c->flags & TAP_RE_SUBMATCH) && re_has_group(c, r->kid);

	for (i = 0; i < r->min && !c->err; i++)
		re_emit(c, r->kid);
	if (r->max < 0) {
		if (groups && r->min == 0) {
			re_emit_optional(c, &splits);
			re_emit(c, r->kid);
		}
		loop = re_inst(c, OP_SPLIT, 0);
		c->prog[loop].x = c->nprog;
		re_emit(c, r->kid);
		c->prog[re_inst(c, OP_JMP, 0)].x = loop;
		c->prog[loop].y = c->nprog;
	}
	if (groups && r->max > 1 && r->max > r->min)
		slot = c->nhidden++;
	for (; i < r->max && !c->err; i++) {
		re_emit_optional(c, &splits);
		if (slot >= 0 && i > 0) {
			pc = re_inst(c, OP_SAVE, 0);
			c->prog[pc].x = RE_HIDDEN | slot;
		}
		re_emit(c, r->kid);
		if (slot >= 0 && i > 0) {
			pc = re_inst(c, OP_PROGRESS, 0);
			c->prog[pc].x = RE_HIDDEN | slot;
		}
	}
	while (splits >= 0 && !c->err) {
		split = (short)c->prog[splits].y;
		c->prog[splits].y = c->nprog;
		splits = split;
	}
}

/* SAVE the group's start and end slots around it when groups are kept;
 * copies made for a repetition save to the same slots, so the last
 * iteration's stays. */
static void
re_emit_group(struct tap_re_comp *c, int n)
{
	int slot = 2 * c->nodes[n].group, pc;

	if (c->flags & TAP_RE_SUBMATCH) {
		pc = re_inst(c, OP_SAVE, 0);
		c->prog[pc].x = slot;
	}
	re_emit(c, c->nodes[n].kid);
	if (c->flags & TAP_RE_SUBMATCH) {
		pc = re_inst(c, OP_SAVE, 0);
		c->prog[pc].x = slot + 1;
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
	case RE_GROUP: re_emit_group(c, n); break;
	}
}

/* ---- compiling ---- */

/* Instructions a thread can wait at: those that read a byte, and MATCH. */
static int
re_waits(int op)
{
	return op == OP_CHAR || op == OP_ANY || op == OP_SET || op == OP_MATCH;
}

/*
 * One CPU's scratch, in one block: the marks (for each instruction, the
 * generation -- the position -- that last reached it), the closure stack,
 * the two thread lists (now and next), and with TAP_RE_SUBMATCH each
 * list's capture slots, the slots of the thread being followed and the
 * best match's.
 */
struct tap_re_scratch {
	u32 gen;
	u32 *mark;		/* nprog */
	u32 *stack;		/* 2 * nprog + 2: each instruction reached
				 * pushes two entries at most */
	u16 *list[2];		/* nthreads each */
	u16 *slots[2];		/* nthreads * nslots each */
	u16 *work, *best;	/* nslots each */
};

static struct tap_re_scratch *
re_scratch_new(const tap_regex_t *re)
{
	int nslots = re->nslots;
	size_t size = sizeof(struct tap_re_scratch) +
		      (3 * re->nprog + 2) * sizeof(u32) +
		      2 * re->nthreads * sizeof(u16);
	struct tap_re_scratch *sc;
	u16 *p;

	if (re->flags & TAP_RE_SUBMATCH)
		size += (2 * re->nthreads + 2) * nslots * sizeof(u16);
	sc = tap_alloc(size);
	if (!sc)
		return NULL;
	sc->mark = (u32 *)(sc + 1);
	sc->stack = sc->mark + re->nprog;
	p = (u16 *)(sc->stack + 2 * re->nprog + 2);
	sc->list[0] = p;
	sc->list[1] = p + re->nthreads;
	if (re->flags & TAP_RE_SUBMATCH) {
		p += 2 * re->nthreads;
		sc->slots[0] = p;
		sc->slots[1] = p + re->nthreads * nslots;
		sc->work = p + 2 * re->nthreads * nslots;
		sc->best = sc->work + nslots;
	}
	return sc;
}

/* The program and the scratch, from the parse in c. */
static int
re_install(tap_regex_t *re, struct tap_re_comp *c)
{
	int i;

	re->nprog = c->nprog;
	re->ngroups = c->ngroups;
	re->nslots = 2 * (c->ngroups + 1) + c->nhidden;
	re->flags = c->flags;
	if ((c->flags & TAP_RE_SUBMATCH) && re->nslots > 255)
		return -E2BIG;	/* a stack entry has 8 bits for a slot */
	for (i = 0; i < c->nprog; i++) {
		re->nthreads += re_waits(c->prog[i].op);
		if ((c->prog[i].op == OP_SAVE || c->prog[i].op == OP_PROGRESS) &&
		    (c->prog[i].x & RE_HIDDEN))
			c->prog[i].x = 2 * (c->ngroups + 1) +
				       (c->prog[i].x & ~RE_HIDDEN);
	}
	re->prog = tap_alloc(c->nprog * sizeof(*c->prog));
	re->sets = tap_alloc((c->nsets ? c->nsets : 1) * sizeof(*c->sets));
	re->nscratch = tap_num_cpus();
	re->scratch = tap_alloc(re->nscratch * sizeof(*re->scratch));
	if (!re->prog || !re->sets || !re->scratch)
		return -ENOMEM;
	for (i = 0; i < re->nscratch; i++) {
		re->scratch[i] = re_scratch_new(re);
		if (!re->scratch[i])
			return -ENOMEM;
	}
	memcpy(re->prog, c->prog, c->nprog * sizeof(*c->prog));
	memcpy(re->sets, c->sets, c->nsets * sizeof(*c->sets));
	return 0;
}

int
tap_regex_compile(tap_regex_t *re, const char *pattern, int flags)
{
	struct tap_re_comp c = { .p = pattern, .flags = flags };
	int root;

	memset(re, 0, sizeof(*re));
	c.nodes = tap_alloc(TAP_RE_MAX_NODES * sizeof(*c.nodes));
	c.sets = tap_alloc(TAP_RE_MAX_SETS * sizeof(*c.sets));
	c.prog = tap_alloc(TAP_RE_MAX_PROG * sizeof(*c.prog));
	if (!c.nodes || !c.sets || !c.prog) {
		c.err = -ENOMEM;
		goto out;
	}
	root = re_alt(&c);
	if (root >= 0 && *c.p)
		c.err = -EINVAL;	/* a ')' with no '(' */
	if (!c.err && (flags & TAP_RE_SUBMATCH) &&
	    c.ngroups > TAP_RE_MAX_GROUPS)
		c.err = -E2BIG;
	if (c.err)
		goto out;
	re_emit(&c, root);
	re_inst(&c, OP_MATCH, 0);
	if (c.err)
		goto out;
	c.err = re_install(re, &c);
	if (c.err)
		tap_regex_free(re);
out:
	tap_free(c.nodes);
	tap_free(c.sets);
	tap_free(c.prog);
	return c.err;
}

void
tap_regex_free(tap_regex_t *re)
{
	int i;

	for (i = 0; re->scratch && i < re->nscratch; i++)
		tap_free(re->scratch[i]);
	tap_free(re->scratch);
	tap_free(re->prog);
	tap_free(re->sets);
	memset(re, 0, sizeof(*re));
}

/* ---- matching ---- */

struct tap_re_run {
	const tap_regex_t *re;
	struct tap_re_scratch *sc;
	u32 gen;		/* the position's: base + position */
	int bol, eol;		/* '^' and '$' hold here */
	int nslots;		/* submatch: capture slots a thread has */
	u16 pos;		/* submatch: what a SAVE writes */
};

/* The first generation of a run; the marks start over before the
 * counter could wrap. */
static u32
re_generations(const tap_regex_t *re, struct tap_re_scratch *sc)
{
	if (sc->gen > 0xf0000000u) {
		memset(sc->mark, 0, re->nprog * sizeof(u32));
		sc->gen = 0;
	}
	return sc->gen + 1;
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

/* Yes or no: add pc and what it reaches without reading a byte to list;
 * 1 when that reaches MATCH.  Order does not matter here, so marks are
 * taken when an instruction is pushed. */
static int
re_add(struct tap_re_run *m, u16 *list, int *n, int pc)
{
	struct tap_re_scratch *sc = m->sc;
	const struct tap_re_inst *in;
	int sp = 0;

	if (sc->mark[pc] == m->gen)
		return 0;
	sc->mark[pc] = m->gen;
	sc->stack[sp++] = pc;
	while (sp > 0) {
		pc = sc->stack[--sp];
		in = &m->re->prog[pc];
#define RE_PUSH(t) do { if (sc->mark[t] != m->gen) { \
		sc->mark[t] = m->gen; sc->stack[sp++] = (t); } } while (0)
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
		case OP_SAVE:
		case OP_PROGRESS:
			RE_PUSH(pc + 1);
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
re_match_bool(const tap_regex_t *re, struct tap_re_scratch *sc,
	      const u8 *str)
{
	struct tap_re_run m = { .re = re, .sc = sc };
	u16 *cur = sc->list[0], *next = sc->list[1], *t;
	int i, j, ncur = 0, nnext, found = 0;
	u32 base = re_generations(re, sc);

	/* Marks of generation base + i: threads added for position i. */
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
	return found;
}

#define RE_RESTORE	0x80000000u	/* a stack entry: put a slot back */

/*
 * Where: add pc and what it reaches without reading a byte to list w in
 * priority order (a SPLIT's x before its y), each thread with a copy of
 * sc->work, the slots of the path that reached it.  An instruction is
 * marked when it is reached, not when it is pushed, so that the first
 * path in priority order to reach it has it.  A SAVE pushes the slot's
 * old value, restored once the paths through it are done.
 */
static void
re_add_sub(struct tap_re_run *m, int w, int *n, int pc)
{
	struct tap_re_scratch *sc = m->sc;
	const struct tap_re_inst *in;
	int sp = 0;
	u32 e;

	sc->stack[sp++] = pc;
	while (sp > 0) {
		e = sc->stack[--sp];
		if (e & RE_RESTORE) {
			sc->work[(e >> 16) & 0xff] = e & 0xffff;
			continue;
		}
		if (sc->mark[e] == m->gen)
			continue;
		sc->mark[e] = m->gen;
		in = &m->re->prog[e];
		switch (in->op) {
		case OP_JMP:
			sc->stack[sp++] = in->x;
			break;
		case OP_SPLIT:
			sc->stack[sp++] = in->y;
			sc->stack[sp++] = in->x;
			break;
		case OP_SAVE:
			sc->stack[sp++] = RE_RESTORE | (u32)in->x << 16 |
					  sc->work[in->x];
			sc->work[in->x] = m->pos;
			sc->stack[sp++] = e + 1;
			break;
		case OP_PROGRESS:	/* an optional iteration read nothing */
			if (sc->work[in->x] != m->pos)
				sc->stack[sp++] = e + 1;
			break;
		case OP_BOL:
			if (m->bol)
				sc->stack[sp++] = e + 1;
			break;
		case OP_EOL:
			if (m->eol)
				sc->stack[sp++] = e + 1;
			break;
		default:	/* waits for a byte, or MATCH */
			sc->list[w][*n] = e;
			memcpy(sc->slots[w] + *n * m->nslots, sc->work,
			       m->nslots * sizeof(u16));
			(*n)++;
		}
	}
}

/* The best match's slots into mt (and the matched bytes of s). */
static void
re_record(const tap_regex_t *re, const u16 *best, const u8 *s,
	  struct tap_match *mt)
{
	int k;

	for (k = 0; k <= re->ngroups; k++) {
		mt->start[k] = best[2 * k] == TAP_RE_UNSET ? -1 : best[2 * k];
		mt->end[k] = best[2 * k + 1] == TAP_RE_UNSET ? -1
							     : best[2 * k + 1];
	}
	tap_match_set(mt, (const char *)s, re->ngroups + 1);
}

/*
 * Where: the lists hold threads by start, earliest first (a new start
 * joins at the end), and by priority within a start.  A thread at MATCH
 * is a match from its slot 0 to here; it is the best so far when it
 * starts earlier than the best, or at the same start ends later.  Once
 * there is one, no new starts are made and threads that began after it
 * are dropped; the run ends when no thread is left.
 */
static int
re_match_sub(const tap_regex_t *re, struct tap_re_scratch *sc,
	     const u8 *str, struct tap_match *mt)
{
	struct tap_re_run m = { .re = re, .sc = sc, .nslots = re->nslots };
	int i, j, w = 0, ncur = 0, nnext, have = 0, end;
	u16 *t, *best = sc->best;
	const struct tap_re_inst *in;
	u32 base = re_generations(re, sc);

	for (i = 0; ; i++) {
		end = !str[i] || i == TAP_RE_MAX_POS;
		m.gen = base + i;
		m.bol = i == 0;
		m.eol = end;
		m.pos = i;
		if (!have) {	/* the new start has the lowest priority */
			memset(sc->work, 0xff, m.nslots * sizeof(u16));
			sc->work[0] = i;
			re_add_sub(&m, w, &ncur, 0);
		}
		if (!ncur && (have || end))
			break;
		m.gen = base + i + 1;
		m.bol = 0;
		m.eol = !end && (!str[i + 1] || i + 1 == TAP_RE_MAX_POS);
		m.pos = i + 1;
		nnext = 0;
		for (j = 0; j < ncur; j++) {
			t = sc->slots[w] + j * m.nslots;
			if (have && t[0] > best[0])
				break;	/* so do the rest: sorted by start */
			in = &re->prog[sc->list[w][j]];
			if (in->op == OP_MATCH) {
				if (!have || t[0] < best[0] ||
				    (t[0] == best[0] && i > best[1])) {
					memcpy(best, t, m.nslots * sizeof(u16));
					best[1] = i;
					have = 1;
				}
				continue;
			}
			if (end || !re_reads(re, in, str[i]))
				continue;
			memcpy(sc->work, t, m.nslots * sizeof(u16));
			re_add_sub(&m, !w, &nnext, sc->list[w][j] + 1);
		}
		if (end)
			break;
		w = !w;
		ncur = nnext;
	}
	sc->gen = base + i + 1;
	if (!have) {
		tap_match_fail(mt, re->ngroups + 1);
		return 0;
	}
	re_record(re, best, str, mt);
	return 1;
}

int
tap_regex_match(tap_regex_t *re, const char *s, struct tap_match *m)
{
	struct tap_re_scratch *sc = re->scratch[re_cpu_get()];
	int found;

	if (m && (re->flags & TAP_RE_SUBMATCH))
		found = re_match_sub(re, sc, (const u8 *)s, m);
	else
		found = re_match_bool(re, sc, (const u8 *)s);
	re_cpu_put();
	return found;
}
