/*
 * bpf_emit.c -- pass 3 for --runtime=bpf: which probes run where, and
 * the BPF C of those that run in the kernel.
 *
 * Takes s->program.  bpf_split() asks each probe's provider where it runs
 * (provider.h bpf_place): in the user program (begin, end, timers) or as
 * a BPF program attached to a kernel event; a probe no family places is
 * refused naming the probe.  bpf_emit_kernel() writes one C file for
 * clang -target bpf:
 *
 *   #include "tap_bpf.h"           (runtime/bpf: shared maps, helpers)
 *   struct file___tvar { ... }     CO-RE flavors of the kernel structs
 *                                  whose members typed accesses read:
 *                                  libbpf relocates those offsets at
 *                                  load against the running kernel
 *   struct tap_globals             the scalar globals (array map "tap_gl")
 *   key structs and maps m<i>      one hash map per global array, per-CPU
 *                                  for statistics
 *   record and frame structs       print records, each probe's locals
 *   tap_frames                     a per-CPU array of their union
 *   SEC("...") probe_N             one program per kernel-side probe;
 *                                  a tracepoint's body is inline, called
 *                                  by its raw_tp, tp_btf and classic
 *                                  tracepoint programs
 *
 * Must not: translate a construct approximately (bpf_expr.c refuses);
 * know a probe family (providers answer through bpf_place /
 * bpf_target_expr).
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/core/stat.h"
#include "translator/codegen/bpf_int.h"
#include "translator/parse/ast.h"

/* ---- placement ---- */

struct write_scan {
	struct bpf_cg *b;
	struct node *hit;	/* the first write to a kernel global */
	bool arrays_only;	/* begin: scalars are copied to BPF after it */
	struct function_sym **seen;
	int nseen, cap;
};

static struct symbol *
written_symbol(struct node *n)
{
	struct node *t = NULL;

	if (n->kind == N_ASSIGN)
		t = n->u.binary.lhs;
	else if (n->kind == N_CREMENT)
		t = n->u.crement.operand;
	else if (n->kind == N_DELETE)
		t = n->u.del.target;
	if (t && t->kind == N_INDEX)
		t = t->u.index.base;
	if (t && t->kind == N_SYMBOL)
		return t->u.symbol.sym;
	return NULL;
}

static bool scan_writes(struct node *n, void *ctx);

static void
scan_function(struct write_scan *w, struct function_sym *fn)
{
	for (int i = 0; i < w->nseen; i++)
		if (w->seen[i] == fn)
			return;
	if (w->nseen == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		struct function_sym **v = arena_alloc(w->b->a, sizeof(*v) * (size_t)w->cap);
		if (w->nseen)
			memcpy(v, w->seen, sizeof(*v) * (size_t)w->nseen);
		w->seen = v;
	}
	w->seen[w->nseen++] = fn;
	if (fn->decl && fn->decl->u.function.body)
		ast_walk(fn->decl->u.function.body, scan_writes, NULL, w);
}

static bool
scan_writes(struct node *n, void *ctx)
{
	struct write_scan *w = ctx;
	struct symbol *sym;

	if (w->hit)
		return false;
	if (n->kind == N_CALL && n->u.call.fn)
		scan_function(w, n->u.call.fn);
	sym = written_symbol(n);
	if (sym && sym->kind == SYM_GLOBAL &&
	    (!w->arrays_only || sym->nkeys > 0 || sym->type == TY_STATS)) {
		for (int i = 0; i < w->b->prog->nglobals; i++)
			if (w->b->prog->globals[i] == sym &&
			    w->b->kernel_global[i])
				w->hit = n;
	}
	return true;
}

bool
bpf_split(struct session *s, struct bpf_split *sp)
{
	struct program *p = s->program;
	bool ok = true;

	sp->kernel = arena_alloc(s->arena, sizeof(*sp->kernel) * (size_t)(p->nprobes + 1));
	sp->user = arena_alloc(s->arena, sizeof(*sp->user) * (size_t)(p->nprobes + 1));
	sp->attach = arena_alloc(s->arena, sizeof(*sp->attach) * (size_t)(p->nprobes + 1));
	sp->nkernel = sp->nuser = 0;
	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		struct bpf_attach att = { 0 };

		switch (provider_bpf_place(dp, s->arena, &att)) {
		case BPF_PLACE_KERNEL:
			sp->attach[sp->nkernel] = att;
			sp->kernel[sp->nkernel++] = dp;
			break;
		case BPF_PLACE_USER:
			sp->attach[p->nprobes] = att;	/* unused slot */
			sp->user[sp->nuser++] = dp;
			break;
		case BPF_PLACE_NONE:
			diag_error(&s->diag, dp->origin ? dp->origin->loc : dp->point->loc,
				   "E_BPF_UNSUPPORTED",
				   "probe %s has no BPF implementation (--runtime=bpf); use the kernel-module backend (--runtime=kernel)",
				   dp->name);
			ok = false;
			break;
		}
	}
	for (int i = 0; i < p->ncounters; i++) {
		diag_error(&s->diag, p->counters[i]->loc, "E_BPF_UNSUPPORTED",
			   "perf counter probe %s has no BPF implementation (--runtime=bpf); use the kernel-module backend (--runtime=kernel)",
			   p->counters[i]->point);
		ok = false;
	}
	return ok;
}

/* A user-space probe must not write what BPF programs own, except begin
 * probes writing scalars (copied to the maps before the BPF programs are
 * attached): user space reads the maps, it does not merge into them. */
static bool
check_user_writes(struct bpf_cg *b, const struct bpf_split *sp)
{
	for (int i = 0; i < sp->nuser; i++) {
		struct derived_probe *dp = sp->user[i];
		struct bpf_attach att = { 0 };
		struct write_scan w = { .b = b };

		provider_bpf_place(dp, b->a, &att);
		w.arrays_only = att.what && strcmp(att.what, "begin") == 0;
		ast_walk(dp->body, scan_writes, NULL, &w);
		if (w.hit) {
			diag_error(&b->s->diag, w.hit->loc, "E_BPF_UNSUPPORTED",
				   "writing a global a kernel-side probe uses from the user-space probe %s is not supported by the BPF backend (--runtime=bpf); use the kernel-module backend (--runtime=kernel)",
				   dp->name);
			return false;
		}
	}
	return true;
}

/* ---- user_string_quoted() locals ---- */

struct qstr_scan {
	struct bpf_cg *b;
	struct symbol **cand;	/* assigned from user_string_quoted() */
	int ncand;
	struct symbol **other;	/* assigned anything else */
	int nother;
};

static bool
is_quoted_call(struct node *n)
{
	return n->kind == N_CALL && n->u.call.fn &&
	       strcmp(n->u.call.name, "user_string_quoted") == 0 &&
	       n->u.call.args.n == 1;
}

static bool
scan_qstr(struct node *n, void *ctx)
{
	struct qstr_scan *q = ctx;

	if (n->kind != N_ASSIGN || n->u.binary.lhs->kind != N_SYMBOL)
		return true;
	struct symbol *sym = n->u.binary.lhs->u.symbol.sym;

	if (!sym || sym->kind == SYM_GLOBAL)
		return true;
	if (n->u.binary.op == OP_ASSIGN && is_quoted_call(n->u.binary.rhs))
		q->cand[q->ncand++] = sym;
	else
		q->other[q->nother++] = sym;
	return true;
}

static bool
count_visit(struct node *n, void *ctx)
{
	(void)n;
	(*(int *)ctx)++;
	return true;
}

static void
find_qstr_locals(struct bpf_cg *b, struct derived_probe *dp)
{
	int total = 0;

	ast_walk(dp->body, count_visit, NULL, &total);
	struct qstr_scan q = { b,
		arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(total + 1)), 0,
		arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(total + 1)), 0 };

	ast_walk(dp->body, scan_qstr, NULL, &q);
	b->qstr_locals = arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(q.ncand + 1));
	b->nqstr = 0;
	for (int i = 0; i < q.ncand; i++) {
		bool mixed = false;

		for (int j = 0; j < q.nother; j++)
			mixed |= q.other[j] == q.cand[i];
		if (!mixed)
			b->qstr_locals[b->nqstr++] = q.cand[i];
	}
}

/* ---- locals something reads ---- */

struct read_scan {
	struct bpf_cg *b;
	struct symbol **uses;	/* every N_SYMBOL of a local */
	int nuses;
	struct symbol **stores;	/* those that are `x = ...`'s x */
	int nstores;
};

static bool
scan_reads(struct node *n, void *ctx)
{
	struct read_scan *r = ctx;

	if (n->kind == N_SYMBOL && n->u.symbol.sym &&
	    n->u.symbol.sym->kind != SYM_GLOBAL)
		r->uses[r->nuses++] = n->u.symbol.sym;
	if (n->kind == N_ASSIGN && n->u.binary.op == OP_ASSIGN &&
	    n->u.binary.lhs->kind == N_SYMBOL && n->u.binary.lhs->u.symbol.sym)
		r->stores[r->nstores++] = n->u.binary.lhs->u.symbol.sym;
	return true;
}

bool
bpf_is_read_local(struct bpf_cg *b, struct symbol *sym)
{
	for (int i = 0; i < b->nread; i++)
		if (b->read_locals[i] == sym)
			return true;
	return false;
}

static bool count_visit(struct node *n, void *ctx);

static void
find_read_locals(struct bpf_cg *b, struct derived_probe *dp)
{
	int total = 0;

	ast_walk(dp->body, count_visit, NULL, &total);
	if (dp->cond)
		ast_walk(dp->cond, count_visit, NULL, &total);
	struct read_scan r = { b,
		arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(total + 1)), 0,
		arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(total + 1)), 0 };

	ast_walk(dp->body, scan_reads, NULL, &r);
	if (dp->cond)
		ast_walk(dp->cond, scan_reads, NULL, &r);
	b->read_locals = arena_alloc(b->a, sizeof(struct symbol *) * (size_t)(r.nuses + 1));
	b->nread = 0;
	for (int i = 0; i < dp->nlocals; i++) {
		struct symbol *sym = dp->locals[i];
		int uses = 0, stores = 0;

		for (int j = 0; j < r.nuses; j++)
			uses += r.uses[j] == sym;
		for (int j = 0; j < r.nstores; j++)
			stores += r.stores[j] == sym;
		if (uses > stores)
			b->read_locals[b->nread++] = sym;
	}
}

/* ---- the BPF C ---- */

/* A tracepoint probe: a raw tracepoint, its body written once
 * (probe_N_body) for the program forms user_bpf.c chooses from. */
static bool
is_tracepoint(const struct bpf_attach *att)
{
	return strncmp(att->section, "raw_tp/", 7) == 0;
}

/* Whether -D NAME was given. */
static bool
defined(struct bpf_cg *b, const char *name)
{
	for (int i = 0; i < b->s->opts.ndefines; i++)
		if (strcmp(b->s->opts.defines[i].name, name) == 0)
			return true;
	return false;
}

/* The programs of a tracepoint probe, each calling its body: the raw
 * tracepoint probe_N, the tp_btf twin probe_N_btf on the same argument
 * array, and where the event's format record gives every context
 * variable the handler reads, the classic tracepoint probe_N_tp on that
 * record.  Records in b->kernel_classic_why why there is no classic
 * form. */
static void
emit_tracepoint_forms(struct bpf_cg *b, struct derived_probe *dp,
		      const struct bpf_attach *att)
{
	const char *why = b->classic_why;
	/* the tier's test of the fallback to classic tracepoints */
	const char *test = defined(b, "TAP_BPF_TEST_RAW_REFUSED") ?
		"\tTAP_BPF_TEST_REFUSE(ctx);\n" : "";

	fprintf(b->out, "SEC(\"%s\")\nint probe_%d(%s *ctx)\n{\n%s\treturn probe_%d_body(ctx, 0);\n}\n\n",
		att->section, dp->index, att->ctx_type, test, dp->index);
	fprintf(b->out, "SEC(\"tp_btf/%s\")\nint probe_%d_btf(__u64 *ctx)\n{\n%s\treturn probe_%d_body(ctx, 0);\n}\n\n",
		att->section + 7, dp->index, test, dp->index);
	if (!att->classic_section)
		why = "the tracepoint's subsystem is unknown (no tracefs, no kernel headers), so its classic tracepoint cannot be named";
	else if (!why)
		fprintf(b->out, "SEC(\"%s\")\nint probe_%d_tp(void *ctx)\n{\n\treturn probe_%d_body(ctx, 1);\n}\n\n",
			att->classic_section, dp->index, dp->index);
	for (int i = 0; i < b->nkernel_names; i++)
		if (strcmp(b->kernel_progs[i], bpf_fmt(b, "probe_%d", dp->index)) == 0)
			b->kernel_classic_why[i] = why;
}

/* The programs of a kernel.function probe, each calling its body: the
 * kprobe (kretprobe) probe_N on the registers and the fentry (fexit)
 * twin probe_N_fe on the trampoline's argument array; user_bpf.c loads
 * one of the two. */
static void
emit_fentry_forms(struct bpf_cg *b, struct derived_probe *dp,
		  const struct bpf_attach *att)
{
	fprintf(b->out, "SEC(\"%s\")\nint probe_%d(%s *ctx)\n{\n\treturn probe_%d_body(ctx, 0);\n}\n\n",
		att->section, dp->index, att->ctx_type, dp->index);
	fprintf(b->out, "SEC(\"%s\")\nint probe_%d_fe(__u64 *ctx)\n{\n\treturn probe_%d_body(ctx, 1);\n}\n\n",
		att->fentry_section, dp->index, dp->index);
}

static void
emit_handler(struct bpf_cg *b, struct derived_probe *dp,
	     const struct bpf_attach *att, FILE *frame_text)
{
	char *members = NULL;
	size_t len = 0;

	b->dp = dp;
	b->frame = open_memstream(&members, &len);
	find_qstr_locals(b, dp);
	find_read_locals(b, dp);
	for (int i = 0; i < dp->nlocals; i++) {
		struct symbol *sym = dp->locals[i];

		if (bpf_is_qstr_local(b, sym))
			fprintf(b->frame, "\tstruct tap_bpf_qstr l%d;\t/* %s */\n", i, sym->name);
		else if (sym->type == TY_STRING)
			fprintf(b->frame, "\tchar l%d[TAP_BPF_STRLEN];\t/* %s */\n", i, sym->name);
		else
			fprintf(b->frame, "\tint64_t l%d;\t/* %s */\n", i, sym->name);
	}
	b->att = att;
	b->classic_why = NULL;
	if (att->fentry_section) {
		/* one body for the kprobe and its trampoline form */
		fprintf(b->out, "/* %s */\nstatic __always_inline int\nprobe_%d_body(void *__ctx, const int __fentry)\n{\n",
			dp->name, dp->index);
		fprintf(b->out, "\t%s *ctx = __ctx;\n\n\t(void)ctx;\n",
			att->ctx_type);
	} else if (is_tracepoint(att)) {
		/* one body for the tracepoint's forms (emit_tracepoint_forms) */
		fprintf(b->out, "/* %s */\nstatic __always_inline int\nprobe_%d_body(void *__ctx, const int __classic)\n{\n",
			dp->name, dp->index);
		fprintf(b->out, "\t%s *ctx = __ctx;\n\t%s *rec = __ctx;\n\n\t(void)ctx; (void)rec;\n",
			att->ctx_type, att->classic_ctx_type ? att->classic_ctx_type : "void");
	} else {
		fprintf(b->out, "/* %s */\nSEC(\"%s\")\nint %s(%s *ctx)\n{\n",
			dp->name, att->section, bpf_fmt(b, "probe_%d", dp->index),
			att->ctx_type);
	}
	b->indent = 1;
	/* a verdict program (BPF LSM) returns its verdict on every way
	 * out, the one it was given until the frame holds it */
	const char *early = att->ret_early ? att->ret_early : "return 0;";

	if (att->ret_frame_member)
		fprintf(b->frame, "\t%s\n", att->ret_frame_member);
	b->ret_stmt = att->ret_stmt;
	bpf_line(b, "__u32 zero = 0;");
	bpf_line(b, "int64_t __acts = 0;");
	if (att->guard && att->classic_guard)
		bpf_line(b, "if (!(__classic ? %s : %s)) %s",
			 att->classic_guard, att->guard, early);
	else if (att->guard)
		bpf_line(b, "if (!(%s)) %s", att->guard, early);
	bpf_line(b, "struct tap_bpf_session *ss = bpf_map_lookup_elem(&tap_session, &zero);");
	bpf_line(b, "struct tap_globals *gl = bpf_map_lookup_elem(&tap_gl, &zero);");
	bpf_line(b, "struct frame%d *f = bpf_map_lookup_elem(&tap_frames, &zero);", dp->index);
	bpf_line(b, "if (!ss || !gl || !f || ss->stopping) %s", early);
	if (att->ret_init)
		bpf_line(b, "%s", att->ret_init);
	bpf_line(b, "(void)__acts; (void)gl;");
	for (int i = 0; i < dp->nlocals; i++) {
		struct symbol *sym = dp->locals[i];

		if (bpf_is_qstr_local(b, sym))
			bpf_line(b, "f->l%d.state = 0; f->l%d.s[0] = 0;", i, i);
		else if (sym->type == TY_STRING)
			bpf_line(b, "tap_str_clear(f->l%d);", i);
		else
			bpf_line(b, "f->l%d = 0;", i);
	}
	if (dp->cond) {
		struct bval c = bpf_expr(b, dp->cond);

		bpf_line(b, "if (!(%s)) %s", c.c, bpf_abort(b));
	}
	bpf_stmt(b, dp->body);
	bpf_line(b, "%s", bpf_abort(b));
	b->ret_stmt = NULL;
	fprintf(b->out, "}\n\n");
	if (att->fentry_section)
		emit_fentry_forms(b, dp, att);
	else if (is_tracepoint(att))
		emit_tracepoint_forms(b, dp, att);
	b->att = NULL;
	fclose(b->frame);
	/* the slack tap_str_concat() needs after any temporary */
	fprintf(frame_text, "struct frame%d {\n\tint64_t __unused;\n%s\tchar __slack[TAP_BPF_STRLEN];\n};\n", dp->index, members);
	free(members);
	b->dp = NULL;
}

/* ---- CO-RE flavors ---- */

/* Whether libbpf can match flavor `name`___tvar to the kernel's `name`:
 * it drops the suffix from the last "X___Y" it finds, so the name must
 * hold no "___" of its own and not end in '_'. */
static bool
flavor_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && name[n - 1] != '_' && !strstr(name, "___");
}

static bool
hop_same_type(const struct ta_hop *x, const struct ta_hop *y)
{
	if (x->kind != y->kind || x->size != y->size || x->ndims != y->ndims)
		return false;
	for (int i = 0; i < x->ndims; i++)
		if (x->dims[i] != y->dims[i])
			return false;
	return true;
}

static struct bpf_flavor *
flavor_of(struct bpf_cg *b, const struct ta_hop *hop)
{
	struct bpf_flavor *f;

	for (int i = 0; i < b->nflavors; i++) {
		f = &b->flavors[i];
		if (f->is_union == hop->container_union &&
		    strcmp(f->name, hop->container) == 0)
			return f;
	}
	b->flavors = arena_grow(b->a, b->flavors, sizeof(*b->flavors),
				&b->flavor_cap, b->nflavors + 1);
	f = &b->flavors[b->nflavors++];
	memset(f, 0, sizeof(*f));
	f->name = hop->container;
	f->is_union = hop->container_union;
	return f;
}

const char *
bpf_core_offset(struct bpf_cg *b, const struct ta_hop *hop)
{
	struct bpf_flavor *f;
	int i;

	if (!hop->container || !flavor_name_ok(hop->container))
		return NULL;
	f = flavor_of(b, hop);
	for (i = 0; i < f->nmembers; i++)
		if (strcmp(f->members[i]->member, hop->member) == 0)
			break;
	if (i == f->nmembers) {
		f->members = arena_grow(b->a, f->members, sizeof(*f->members),
					&f->cap, f->nmembers + 1);
		f->members[f->nmembers++] = hop;
	} else if (!hop_same_type(f->members[i], hop)) {
		return NULL;	/* two BTFs disagree (a module's type) */
	}
	return bpf_fmt(b, "(int64_t)__builtin_preserve_field_info(((%s %s___tvar *)0)->%s, BPF_FIELD_BYTE_OFFSET)",
		       f->is_union ? "union" : "struct", f->name, hop->member);
}

/* A member of a flavor.  Its type need only be of the kind libbpf's
 * field compatibility checks (relo_core.c): any struct or union matches
 * any other, so an empty one stands for them; integers of any size
 * match; an enum without a name matches every enum; arrays by their
 * elements.  The layout does not matter: a relocation names the member,
 * and its offset is the target's. */
static void
emit_flavor_member(struct bpf_cg *b, const struct ta_hop *m, FILE *out)
{
	static const char *const ints[] = { NULL, "__u8", "__u16", NULL,
					    "__u32", NULL, NULL, NULL,
					    "__u64" };

	switch (m->kind) {
	case TA_FIELD_INT:
		fprintf(out, "\t%s %s", ints[m->size], m->member);
		break;
	case TA_FIELD_ENUM:
		fprintf(out, "\tenum { __tap_enum%d } %s", b->nenums++,
			m->member);
		break;
	case TA_FIELD_PTR:
		fprintf(out, "\tvoid *%s", m->member);
		break;
	case TA_FIELD_COMPOSITE:
		fprintf(out, "\tstruct {} %s", m->member);
		break;
	}
	for (int i = 0; i < m->ndims; i++)
		fprintf(out, "[%llu]", (unsigned long long)m->dims[i]);
	fprintf(out, ";\n");
}

static void
emit_flavors(struct bpf_cg *b, FILE *out)
{
	if (!b->nflavors)
		return;
	fprintf(out, "/* CO-RE flavors of the kernel's types (libbpf drops \"___tvar\"): the\n * members typed accesses reach, their offsets relocated at load */\n");
	for (int i = 0; i < b->nflavors; i++) {
		const struct bpf_flavor *f = &b->flavors[i];

		fprintf(out, "%s %s___tvar {\n", f->is_union ? "union" : "struct",
			f->name);
		for (int j = 0; j < f->nmembers; j++)
			emit_flavor_member(b, f->members[j], out);
		fprintf(out, "} __attribute__((preserve_access_index));\n\n");
	}
}

/* The scalar globals BPF programs use, as both halves declare them. */
void
bpf_emit_globals_struct(struct bpf_cg *b, FILE *out)
{
	struct program *p = b->prog;

	fprintf(out, "struct tap_globals {\n\tint64_t __unused;\n");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (!b->kernel_global[i] || sym->nkeys > 0 || sym->type == TY_STATS)
			continue;
		if (sym->type == TY_STRING)
			fprintf(out, "\tchar %s[TAP_BPF_STRLEN];\n", sym->c_name);
		else
			fprintf(out, "\tint64_t %s;\n", sym->c_name);
	}
	fprintf(out, "};\n\n");
}

/* A statistic @hist_linear prints: its accumulator with runtime/core's
 * buckets for those bounds (underflow, the steps, overflow), and its
 * `<<<` (runtime/core's tap_hist_linear_bucket() on constants); with
 * @variance's state after the buckets when @variance reads it too. */
static void
emit_linear_stat(struct bpf_cg *b, struct symbol *sym, int i, FILE *out)
{
	const struct bpf_hist_linear *h = bpf_hist_linear(b, sym);
	int shift = bpf_variance_shift(b, sym);

	fprintf(out, "struct tap_bpf_stat_lin_m%d {\n\tlong long count, sum, min, max;\n\tlong long hist[%d];\n%s};\n",
		i, h->buckets, shift >= 0 ? "\tstruct tap_bpf_welford w;\n" : "");
	fprintf(out, "static const struct tap_bpf_stat_lin_m%d tap_stat_zero_m%d;\n\n", i, i);
	fprintf(out, "static __always_inline int\ntap_stat_add_m%d(void *map, const void *key, int64_t v)\n{\n", i);
	fprintf(out, "\tstruct tap_bpf_stat_lin_m%d *st = tap_stat_slot(map, key, &tap_stat_zero_m%d);\n\tuint64_t idx;\n\n", i, i);
	fprintf(out, "\tif (!st)\n\t\treturn TAP_BPF_EFULL;\n\ttap_stat_update((struct tap_bpf_stat *)st, v);\n");
	fprintf(out, "\tif (v < (int64_t)%lldLL)\n\t\tidx = 0;\n\telse\n\t\tidx = ((uint64_t)v - (uint64_t)%lldLL) / %lluULL + 1;\n",
		(long long)h->lo, (long long)h->lo, (unsigned long long)h->step);
	/* The barrier keeps clang from turning the bound on idx into one
	 * on v, which the verifier cannot carry through the division
	 * ("math between map_value pointer and register with unbounded
	 * min value"). */
	fprintf(out, "\t__asm__ __volatile__(\"\" : \"+r\"(idx));\n");
	fprintf(out, "\tif (idx >= %d)\n\t\tidx = %d;\n\tst->hist[idx]++;\n", h->buckets - 1, h->buckets - 1);
	if (shift >= 0)
		fprintf(out, "\ttap_welford_update(&st->w, st->count, v, %d);\n", shift);
	fprintf(out, "\treturn 0;\n}\n\n");
}

/* A statistic @variance reads: Welford's state with that shift, after
 * @hist_log's buckets when a @hist_log prints it too. */
static void
emit_variance_stat(struct bpf_cg *b, struct symbol *sym, int i, FILE *out)
{
	int shift = bpf_variance_shift(b, sym);

	if (!bpf_uses_hist_log(b, sym)) {
		fprintf(out, "static __always_inline int\ntap_stat_add_m%d(void *map, const void *key, int64_t v)\n{\n\treturn tap_stat_add_var(map, key, v, %d);\n}\n\n",
			i, shift);
		return;
	}
	fprintf(out, "struct tap_bpf_stat_logvar_m%d {\n\tlong long count, sum, min, max;\n\tlong long hist[TAP_BPF_HIST_LOG_BUCKETS];\n\tstruct tap_bpf_welford w;\n};\n", i);
	fprintf(out, "static const struct tap_bpf_stat_logvar_m%d tap_stat_zero_m%d;\n\n", i, i);
	fprintf(out, "static __always_inline int\ntap_stat_add_m%d(void *map, const void *key, int64_t v)\n{\n", i);
	fprintf(out, "\tstruct tap_bpf_stat_logvar_m%d *st = tap_stat_slot(map, key, &tap_stat_zero_m%d);\n\n", i, i);
	fprintf(out, "\tif (!st)\n\t\treturn TAP_BPF_EFULL;\n\ttap_stat_update((struct tap_bpf_stat *)st, v);\n");
	fprintf(out, "\tst->hist[tap_hist_log_bucket(v) & (TAP_BPF_HIST_LOG_BUCKETS - 1)]++;\n");
	fprintf(out, "\ttap_welford_update(&st->w, st->count, v, %d);\n\treturn 0;\n}\n\n", shift);
}

static void
emit_globals(struct bpf_cg *b, FILE *out)
{
	struct program *p = b->prog;

	bpf_emit_globals_struct(b, out);
	fprintf(out, "struct {\n\t__uint(type, BPF_MAP_TYPE_ARRAY);\n\t__uint(max_entries, 1);\n\t__type(key, __u32);\n\t__type(value, struct tap_globals);\n} tap_gl SEC(\".maps\");\n\n");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (!b->kernel_global[i])
			continue;
		if (sym->nkeys == 0 && sym->type != TY_STATS)
			continue;
		if (sym->nkeys > 0) {
			fprintf(out, "%s {\n", bpf_key_type(b, sym));
			for (int k = 0; k < sym->nkeys; k++)
				if (sym->key_types[k] == TY_STRING)
					fprintf(out, "\tchar k%d[TAP_BPF_STRLEN];\n", k);
				else
					fprintf(out, "\tint64_t k%d;\n", k);
			fprintf(out, "};\n");
		}
		if (sym->type == TY_STATS && bpf_hist_linear(b, sym))
			emit_linear_stat(b, sym, i, out);
		else if (sym->type == TY_STATS && bpf_variance_shift(b, sym) >= 0)
			emit_variance_stat(b, sym, i, out);
		fprintf(out, "struct {\n\t__uint(type, BPF_MAP_TYPE_%s);\n\t__uint(max_entries, %ld);\n\t__type(key, %s);\n\t__type(value, %s);\n} %s SEC(\".maps\");\t/* %s */\n\n",
			sym->nkeys == 0 ? "PERCPU_ARRAY" :
			sym->type == TY_STATS ? "PERCPU_HASH" : "HASH",
			sym->nkeys == 0 ? 1L : sym->max_entries > 0 ? sym->max_entries : 2048L,
			sym->nkeys > 0 ? bpf_key_type(b, sym) : "__u32",
			bpf_value_type(b, sym), bpf_global_map(b, sym), sym->name);
	}
}

/* @hist_log(s) and @hist_linear(s, ...) anywhere (end probes print
 * them): s keeps those buckets in BPF.  A linear histogram whose bounds
 * BPF cannot know, or a second histogram, is refused at its use. */
struct hist_scan {
	struct bpf_cg *b;
	bool linear_hit;	/* the checking walk */
	struct node *unused;
};

static void refuse_stat_read(struct bpf_cg *b, struct node *n,
			     const char *what);

/* The global index of the statistic x (s, or s[...]) names, or -1. */
static int
stat_operand_index(struct bpf_cg *b, struct node *x)
{
	if (x->kind == N_INDEX)
		x = x->u.index.base;
	if (x->kind != N_SYMBOL || !x->u.symbol.sym)
		return -1;
	for (int i = 0; i < b->prog->nglobals; i++)
		if (b->prog->globals[i] == x->u.symbol.sym)
			return i;
	return -1;
}

static bool
literal(struct node *n, int64_t *out)
{
	if (n && n->kind == N_NUMBER) {
		*out = (int64_t)n->u.number.value;
		return true;
	}
	if (n && n->kind == N_UNARY && n->u.unary.op == OP_NEG &&
	    literal(n->u.unary.operand, out)) {
		*out = -*out;
		return true;
	}
	return false;
}

/* @hist_linear(s, lo, hi, step): the bounds BPF buckets by, as
 * runtime/core's tap_stat_desc_init() counts them; -1 buckets when they
 * are not numbers or not valid (the user half's codegen reports those,
 * and a kernel-side statistic with them is refused). */
static void
note_linear(struct bpf_cg *b, struct node *n, struct bpf_hist_linear *h)
{
	int64_t lo, hi, step;
	uint64_t span;

	(void)b;
	if (!literal(n->u.hist.lo, &lo) || !literal(n->u.hist.hi, &hi) ||
	    !literal(n->u.hist.step, &step) || step <= 0 || hi < lo) {
		h->buckets = -1;
		return;
	}
	span = ((uint64_t)hi - (uint64_t)lo) / (uint64_t)step;
	if (span > TAP_HIST_MAX_BUCKETS - 3 ||
	    (h->buckets && (h->lo != lo || h->hi != hi || h->step != step))) {
		h->buckets = -1;	/* too many, or two shapes */
		return;
	}
	h->lo = lo;
	h->hi = hi;
	h->step = step;
	h->buckets = (int)span + 3;
}

/* @variance(s[, shift]): s keeps Welford's state in BPF with that shift
 * (stored + 1); -1 when the shift is not a number from 0 to 62, or two
 * reads give two shifts (refused at the use). */
static void
note_variance(struct bpf_cg *b, struct node *n, int i)
{
	int64_t shift = 0;

	if ((n->u.stat.shift && !literal(n->u.stat.shift, &shift)) ||
	    shift < 0 || shift > 62 ||
	    (b->variance_shift[i] && b->variance_shift[i] != shift + 1)) {
		b->variance_shift[i] = -1;
		return;
	}
	b->variance_shift[i] = (int)shift + 1;
}

static bool
scan_hist(struct node *n, void *ctx)
{
	struct hist_scan *h = ctx;
	struct node *x;
	int i;

	if (h->linear_hit) {	/* the second walk: refuse what BPF lacks */
		if (n->kind == N_HIST && n->u.hist.kind != HIST_LOG &&
		    (i = stat_operand_index(h->b, n->u.hist.operand)) >= 0 &&
		    (h->b->hist_lin[i].buckets < 0 || h->b->hist_log[i]))
			refuse_stat_read(h->b, n, "@hist_linear of statistics a BPF program collects, unless its bounds are numbers giving at most 128 buckets and the statistic has no other histogram");
		if (n->kind == N_STAT_OP && n->u.stat.op == OP_VARIANCE &&
		    (i = stat_operand_index(h->b, n->u.stat.operand)) >= 0 &&
		    h->b->variance_shift[i] <= 0)
			refuse_stat_read(h->b, n, "@variance of statistics a BPF program collects, unless its shift is a number from 0 to 62, the same at every read");
		return true;
	}
	if (n->kind == N_STAT_OP && n->u.stat.op == OP_VARIANCE &&
	    (i = stat_operand_index(h->b, n->u.stat.operand)) >= 0)
		note_variance(h->b, n, i);
	if (n->kind != N_HIST)
		return true;
	x = n->u.hist.operand;
	if (x->kind == N_INDEX)
		x = x->u.index.base;
	if (x->kind != N_SYMBOL || !x->u.symbol.sym)
		return true;
	for (i = 0; i < h->b->prog->nglobals; i++)
		if (h->b->prog->globals[i] == x->u.symbol.sym) {
			if (n->u.hist.kind == HIST_LOG)
				h->b->hist_log[i] = true;
			else
				note_linear(h->b, n, &h->b->hist_lin[i]);
		}
	return true;
}


/* First walk (check false): which statistics @hist_log prints and
 * @variance reads; second (check true, once kernel_global is known):
 * refuse reads BPF cannot answer. */
static void
scan_stat_reads(struct bpf_cg *b, bool check)
{
	struct hist_scan h = { b, check, NULL };
	struct program *p = b->prog;

	if (!check) {
		b->hist_log = arena_alloc(b->a, sizeof(bool) * (size_t)(p->nglobals + 1));
		b->hist_lin = arena_alloc(b->a, sizeof(*b->hist_lin) * (size_t)(p->nglobals + 1));
		b->variance_shift = arena_alloc(b->a, sizeof(int) * (size_t)(p->nglobals + 1));
		memset(b->hist_log, 0, sizeof(bool) * (size_t)(p->nglobals + 1));
		memset(b->hist_lin, 0, sizeof(*b->hist_lin) * (size_t)(p->nglobals + 1));
		memset(b->variance_shift, 0, sizeof(int) * (size_t)(p->nglobals + 1));
	}
	for (int i = 0; i < p->nprobes; i++)
		ast_walk(p->probes[i]->body, scan_hist, NULL, &h);
	for (int i = 0; i < p->nfunctions; i++)
		if (p->functions[i]->decl && p->functions[i]->decl->u.function.body)
			ast_walk(p->functions[i]->decl->u.function.body, scan_hist, NULL, &h);
}

/* A read of statistics that BPF programs do not keep the state for. */
static void
refuse_stat_read(struct bpf_cg *b, struct node *n, const char *what)
{
	struct node *x;

	if (!n || b->failed)
		return;
	x = n->kind == N_HIST ? n->u.hist.operand : n->u.stat.operand;
	if (x->kind == N_INDEX)
		x = x->u.index.base;
	if (x->kind != N_SYMBOL)
		return;
	for (int i = 0; i < b->prog->nglobals; i++)
		if (b->prog->globals[i] == x->u.symbol.sym && b->kernel_global[i])
			bpf_refuse(b, n, what);
}

bool
bpf_emit_kernel(struct bpf_cg *b, const struct bpf_split *sp, FILE *out)
{
	char *handlers = NULL, *frames = NULL, *callbacks = NULL;
	size_t hlen = 0, flen = 0, clen = 0;
	FILE *frame_text;

	b->kernel_global = arena_alloc(b->a, sizeof(bool) * (size_t)(b->prog->nglobals + 1));
	b->kernel_names = arena_alloc(b->a, sizeof(char *) * (size_t)(sp->nkernel + 1));
	b->kernel_progs = arena_alloc(b->a, sizeof(char *) * (size_t)(sp->nkernel + 1));
	b->kernel_where = arena_alloc(b->a, sizeof(char *) * (size_t)(sp->nkernel + 1));
	b->kernel_attach = sp->attach;
	b->kernel_classic_why = arena_alloc(b->a, sizeof(char *) * (size_t)(sp->nkernel + 1));
	for (int i = 0; i < sp->nkernel; i++) {
		struct derived_probe *dp = sp->kernel[i];
		struct loc loc = dp->origin ? dp->origin->loc : dp->point->loc;

		b->kernel_progs[i] = bpf_fmt(b, "probe_%d", dp->index);
		b->kernel_where[i] = bpf_fmt(b, "%s:%d:%d",
			loc.src && loc.src->name ? loc.src->name : "<input>",
			loc.line, loc.col);
		b->kernel_names[b->nkernel_names++] = dp->name;
	}
	scan_stat_reads(b, false);
	b->out = open_memstream(&handlers, &hlen);
	b->callbacks = open_memstream(&callbacks, &clen);
	b->frames = frame_text = open_memstream(&frames, &flen);
	for (int i = 0; i < sp->nkernel && !b->failed; i++)
		emit_handler(b, sp->kernel[i], &sp->attach[i], frame_text);
	fclose(b->out);
	fclose(b->callbacks);
	fclose(frame_text);
	b->out = NULL;
	b->callbacks = NULL;
	b->frames = NULL;
	if (!b->failed && !check_user_writes(b, sp))
		b->failed = true;
	if (!b->failed)
		scan_stat_reads(b, true);
	if (b->failed) {
		free(handlers);
		free(callbacks);
		free(frames);
		return false;
	}
	fprintf(out, "/* BPF side of a tapc --runtime=bpf script (runtime/bpf/README.md) */\n");
	/* -D NAME=VALUE reach both halves (TAP_BPF_STRLEN must agree) */
	for (int i = 0; i < b->s->opts.ndefines; i++)
		fprintf(out, "#define %s %s\n", b->s->opts.defines[i].name,
			b->s->opts.defines[i].value ? b->s->opts.defines[i].value : "1");
	fprintf(out, "#include \"tap_bpf.h\"\n\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n\n");
	emit_flavors(b, out);
	emit_globals(b, out);
	fputs(frames, out);
	fprintf(out, "\nunion tap_frame {\n\tint64_t __unused;\n");
	for (int i = 0; i < sp->nkernel; i++)
		fprintf(out, "\tstruct frame%d f%d;\n", sp->kernel[i]->index, sp->kernel[i]->index);
	fprintf(out, "};\n\nstruct {\n\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n\t__uint(max_entries, 1);\n\t__type(key, __u32);\n\t__type(value, union tap_frame);\n} tap_frames SEC(\".maps\");\n\n");
	fputs(callbacks, out);
	fputs(handlers, out);
	free(handlers);
	free(callbacks);
	free(frames);
	return true;
}
