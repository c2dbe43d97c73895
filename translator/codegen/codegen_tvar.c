/*
 * codegen_tvar.c -- pass 3 for $target reads (codegen_tvar.h): the C
 * for a `struct ta_access`, whichever debug-info source built it, and the
 * @entry values of .return probes.
 *
 * A read is one GNU statement expression: V starts as the base (a pt_regs
 * field, a probe_data slot, an expression), each step moves it (DEREF
 * reads a pointer with tap_kread_addr, ADD and INDEX add), and the result
 * reads or converts it.  Every memory read goes through the fault-safe
 * helpers of runtime/linux/memory.h; on a fault the helper has recorded
 * "kernel read fault at 0x..." and the code jumps to the frame's error
 * label with the node's "near" text, so a bad pointer is a script error.
 *
 * @entry: a .return probe's entry handler (probe_N_entry, registered as
 * the kretprobe's entry_handler) evaluates every @entry(expr) of the
 * probe and stores the values in the kretprobe instance's data
 * (c->probe_data): longs first, 8 bytes each, then strings of MAXSTRINGLEN
 * (the kernel caps the data at 4096 bytes: a static assertion says so).
 * The return handler reads them at the same offsets.  The entry handler's
 * temporaries are a frame in union tap_frame, like a probe's.  The entry handlers are generated when
 * the return handler first needs one (so that their statics reach the
 * declarations) and written at the module's end, after every function.
 *
 * Guru-mode writes (cg_target_store): a value in a register sets the
 * pt_regs field (in a uprobe handler c->regs are the user registers the
 * task resumes with); an object in memory is stored by tap_twrite_int /
 * tap_twrite_bits (runtime/linux/target_mem.h), which write the probed
 * task's user memory in a uprobe handler and kernel memory elsewhere,
 * a fault being the script error.
 */
#include <stdlib.h>
#include <string.h>


#include "translator/codegen/codegen_tvar.h"
#include "translator/providers/provider.h"

/* ---- plain reads ---- */

static const char *
arg_register(int i)
{
	static const char *const regs[] = { "di", "si", "dx", "cx", "r8", "r9" };

	return i >= 0 && i < 6 ? regs[i] : NULL;
}

struct entry_layout;

/* What this file remembers while one program is translated; it hangs
 * off the generator (g->tvar), so a second translation starts afresh. */
struct cg_tvar {
	/* The symbols the module asks taprun for (runtime/linux/ksyms.h),
	 * each declared once: "name" for the kernel, "module:name" for a
	 * module's symbol. */
	const char **ksym_names;
	int nksym_names, capksym_names;
	bool target_mem;		/* target_mem.h included */
	/* One per .return probe that has @entry. */
	struct entry_layout *layouts;
};

static struct cg_tvar *
tvar_state(struct cg *g)
{
	if (!g->tvar)
		g->tvar = arena_alloc(g->a, sizeof(*g->tvar));
	return g->tvar;
}

static const char *
ksym_code(struct cg *g, const struct ta_base *b)
{
	struct cg_tvar *t = tvar_state(g);
	const char *key = b->module ? cg_fmt(g, "%s:%s", b->module, b->symbol)
				    : b->symbol;
	const char *lit = cg_c_string(g, key, strlen(key));
	bool known = false;

	for (int i = 0; i < t->nksym_names && !known; i++)
		known = strcmp(t->ksym_names[i], key) == 0;
	if (!known) {
		t->ksym_names = arena_grow(g->a, t->ksym_names,
					   sizeof(*t->ksym_names),
					   &t->capksym_names, t->nksym_names + 1);
		t->ksym_names[t->nksym_names++] = key;
		/* taprun resolves it before loading, or refuses to load */
		fprintf(g->decls, "MODULE_INFO(tap_ksym, %s);\n", lit);
	}
	return cg_fmt(g, "((uint64_t)tap_ksym(%s) + (uint64_t)%lldLL)", lit,
		      (long long)b->offset);
}

/* runtime/linux/target_mem.h, included once per program by the first
 * $target code that loads memory inside a location or writes. */
static void
need_target_mem(struct cg *g)
{
	struct cg_tvar *t = tvar_state(g);

	if (t->target_mem)
		return;
	t->target_mem = true;
	fprintf(g->decls, "#include \"target_mem.h\"\n");
}

static const char *fail_code(struct cg *g, struct node *at);

/* A DWARF location computed in C: with its memory loads, a fault in one
 * of them is the script error. */
static const char *
regs_expr_code(struct cg *g, const char *expr, struct node *at)
{
	if (!strstr(expr, "tap_loc_load"))
		return cg_fmt(g, "({ struct pt_regs *__r = c->regs; (uint64_t)(%s); })",
			      expr);
	need_target_mem(g);
	return cg_fmt(g, "({ struct pt_regs *__r = c->regs; bool __lf = false; uint64_t __x = (uint64_t)(%s); if (unlikely(__lf)) %s __x; })",
		      expr, fail_code(g, at));
}

/* An object split into pieces, assembled in a string temporary of the
 * frame (MAXSTRINGLEN bytes): its address. */
static const char *
pieces_code(struct cg *g, const struct ta_base *b, struct node *at)
{
	const char *buf = cg_str_temp(g);
	const char *code = "";

	need_target_mem(g);
	for (int i = 0; i < b->npieces; i++)
		code = cg_fmt(g, "%s __pv = (uint64_t)(%s); memcpy(__pb + %u, &__pv, %u);",
			      code, b->pieces[i].c_expr, b->pieces[i].offset,
			      b->pieces[i].size);
	return cg_fmt(g, "({ struct pt_regs *__r = c->regs; bool __lf = false; uint8_t *__pb = (uint8_t *)%s; uint64_t __pv; _Static_assert(%u <= MAXSTRINGLEN, \"a value in pieces is assembled in a string temporary\");%s if (unlikely(__lf)) %s (uint64_t)(unsigned long)__pb; })",
		      buf, b->size, code, fail_code(g, at));
}

static const char *
base_code(struct cg *g, const struct ta_base *b, struct node *at)
{
	switch (b->kind) {
	case TA_BASE_ARG:
		if (!arg_register(b->index))
			break;
		return cg_fmt(g, "(uint64_t)c->regs->%s", arg_register(b->index));
	case TA_BASE_REG:
		return cg_fmt(g, "(uint64_t)c->regs->%s", b->reg);
	case TA_BASE_RETURN:
		return "(uint64_t)regs_return_value(c->regs)";
	case TA_BASE_SLOT:
		return cg_fmt(g, "(uint64_t)((int64_t *)c->probe_data)[%d]",
			      b->index);
	case TA_BASE_EXPR:
		return cg_fmt(g, "(uint64_t)(%s)", cg_expr(g, b->expr));
	case TA_BASE_REGS_EXPR:
		return regs_expr_code(g, b->c_expr, at);
	case TA_BASE_PIECES:
		return pieces_code(g, b, at);
	case TA_BASE_SYMBOL:
		if (b->percpu)	/* this CPU's copy; raw_: a begin probe
				 * may run preemptible */
			return cg_fmt(g, "((uint64_t)(unsigned long)raw_cpu_ptr((void __percpu *)(unsigned long)%s))",
				      ksym_code(g, b));
		return ksym_code(g, b);
	}
	cg_unsupported(g, at, "this variable's location");
	return "0";
}

/* The statement raising the fault a helper recorded. */
static const char *
fail_code(struct cg *g, struct node *at)
{
	const char *near = at->kind == N_TARGET ?
		cg_where(g, at->loc, cg_fmt(g, "identifier '%s'",
					    at->u.target.name)) :
		at->kind == N_CAST ? cg_where(g, at->loc, "operator '@cast'") :
		at->kind == N_ATVAR ? cg_where(g, at->loc, "operator '@var'") :
		at->kind == N_AUTOCAST ? cg_where(g, at->loc, "operator '->'") :
		cg_near(g, at);

	return cg_fmt(g, "{ c->last_stmt = %s; goto %s; }",
		      cg_c_string(g, near, strlen(near)), g->err_label);
}

/* Statements leaving V in `v`; *in_memory says what V holds after. */
static const char *
steps_code(struct cg *g, const struct ta_access *t, const char *v,
	   struct node *at, bool *in_memory)
{
	const char *code = cg_fmt(g, "uint64_t %s = %s;", v,
				  base_code(g, &t->base, at));
	bool mem = t->base.in_memory;

	for (int i = 0; i < t->nsteps; i++) {
		const struct ta_step *st = &t->steps[i];
		switch (st->kind) {
		case TA_STEP_DEREF:
			if (mem)
				code = cg_fmt(g, "%s if (unlikely(!tap_kread_addr(c, &%s))) %s",
					      code, v, fail_code(g, at));
			mem = true;
			break;
		case TA_STEP_ADD:
			/* 0: a member at offset 0, kept for BPF's CO-RE hops */
			if (st->offset)
				code = cg_fmt(g, "%s %s += (uint64_t)%lldLL;",
					      code, v, (long long)st->offset);
			break;
		case TA_STEP_INDEX:
			code = cg_fmt(g, "%s %s += (uint64_t)(%s) * %lldULL;",
				      code, v, cg_expr(g, st->index),
				      (long long)st->stride);
			break;
		}
	}
	*in_memory = mem;
	return code;
}

static const char *
truncate_code(struct cg *g, const struct ta_result *r, const char *v)
{
	static const char *const s[] = { NULL, "int8_t", "int16_t", NULL,
					 "int32_t" };
	static const char *const u[] = { NULL, "uint8_t", "uint16_t", NULL,
					 "uint32_t" };

	if (r->size >= 8 || r->size < 1 || r->size == 3)
		return cg_fmt(g, "(int64_t)%s", v);
	return cg_fmt(g, "(int64_t)(%s)%s", r->is_signed ? s[r->size] :
		      u[r->size], v);
}

static const char *
int_code(struct cg *g, const struct ta_access *t, struct node *at)
{
	const struct ta_result *r = &t->result;
	const char *v = cg_fmt(g, "__v%d", g->label_seq++);
	bool mem;
	const char *steps = steps_code(g, t, v, at, &mem);

	if (r->kind != TA_RES_ADDRESS && !mem && r->bit_size &&
	    r->bit_offset + r->bit_size <= 64)	/* bits of a value (a small
						 * struct in a register) */
		return cg_fmt(g, r->is_signed ?
			      "({ %s (int64_t)(%s << %u) >> %u; })" :
			      "({ %s (int64_t)((%s >> %u) & (~0ULL >> %u)); })",
			      steps, v, r->is_signed ? 64 - r->bit_offset - r->bit_size
						     : r->bit_offset,
			      64 - r->bit_size);
	if (r->kind == TA_RES_ADDRESS || !mem)
		return cg_fmt(g, "({ %s %s; })", steps,
			      r->kind == TA_RES_ADDRESS ?
			      cg_fmt(g, "(int64_t)%s", v) :
			      truncate_code(g, r, v));
	const char *read = r->bit_size ?
		cg_fmt(g, "tap_kread_bits(c, %s, %d, %u, %u, %s, &__r)", v,
		       r->size, r->bit_offset, r->bit_size,
		       r->is_signed ? "true" : "false") :
		cg_fmt(g, "tap_kread_int(c, %s, %d, %s, &__r)", v, r->size,
		       r->is_signed ? "true" : "false");
	return cg_fmt(g, "({ %s s64 __r; if (unlikely(!%s)) %s __r; })",
		      steps, read, fail_code(g, at));
}

/* The chars at V into dst. */
static const char *
string_into(struct cg *g, const struct ta_access *t, const char *dst,
	    struct node *at)
{
	const char *v = cg_fmt(g, "__v%d", g->label_seq++);
	bool mem;
	const char *steps = steps_code(g, t, v, at, &mem);

	return cg_fmt(g, "%s if (unlikely(tap_kread_chars(c, %s, %s, %d) < 0)) %s",
		      steps, dst, v, t->result.size, fail_code(g, at));
}

/* ---- pretty printing ---- */

struct pretty_cg {
	const char *buf;	/* the struct tap_buf's name */
	const char *raw;	/* string temporaries for quoted values */
	const char *quoted;
};

static const char *pretty_code(struct cg *g, const struct ta_pretty *p,
			       const struct pretty_cg *pc, struct node *at);

static const char *
quoted_code(struct cg *g, const struct ta_access *t, const struct pretty_cg *pc,
	    struct node *at)
{
	if (t->result.kind == TA_RES_STRING)
		return cg_fmt(g, "{ %s tap_pretty_quoted(&%s, %s, %s); }",
			      string_into(g, t, pc->raw, at), pc->buf,
			      pc->quoted, pc->raw);
	/* A char *: NULL is 0x0, unreadable is its address. */
	return cg_fmt(g, "tap_pretty_kstring(&%s, %s, %s, (u64)%s);", pc->buf,
		      pc->raw, pc->quoted, int_code(g, t, at));
}

static const char *
piece_code(struct cg *g, const struct ta_piece *pc_, const struct pretty_cg *pc,
	   struct node *at)
{
	const char *v;

	switch (pc_->fmt) {
	case TA_FMT_QUOTED:
		return quoted_code(g, pc_->value, pc, at);
	case TA_FMT_STRUCT_PTR:
		return cg_fmt(g, "{ int64_t __p = %s; if (!__p) tap_buf_puts(&%s, \"0x0\"); else { %s } }",
			      int_code(g, pc_->value, at), pc->buf,
			      pretty_code(g, pc_->inner, pc, at));
	case TA_FMT_DEC: case TA_FMT_HEX: case TA_FMT_FUNC:
		break;
	}
	v = int_code(g, pc_->value, at);
	return cg_fmt(g, "tap_pretty_%s(&%s, %s);",
		      pc_->fmt == TA_FMT_DEC ? "dec" :
		      pc_->fmt == TA_FMT_HEX ? "hex" : "func", pc->buf, v);
}

static const char *
pretty_code(struct cg *g, const struct ta_pretty *p, const struct pretty_cg *pc,
	    struct node *at)
{
	const char *code = "";

	for (int i = 0; i < p->npieces; i++) {
		const struct ta_piece *piece = &p->pieces[i];
		if (piece->text && *piece->text)
			code = cg_fmt(g, "%s tap_buf_puts(&%s, %s);", code,
				      pc->buf, cg_c_string(g, piece->text,
							   strlen(piece->text)));
		if (piece->value)
			code = cg_fmt(g, "%s %s", code,
				      piece_code(g, piece, pc, at));
	}
	return code;
}

static const char *
pretty_expr(struct cg *g, const struct ta_access *t, struct node *at)
{
	const char *out = cg_str_temp(g);
	struct pretty_cg pc = { cg_fmt(g, "__b%d", g->label_seq++),
				cg_str_temp(g), cg_str_temp(g) };

	return cg_fmt(g, "({ struct tap_buf %s; tap_buf_init(&%s, %s, MAXSTRINGLEN); %s (const char *)%s; })",
		      pc.buf, pc.buf, out,
		      pretty_code(g, t->result.pretty, &pc, at), out);
}

const char *
cg_access(struct cg *g, const struct ta_access *t, struct node *at)
{
	if (g->s->opts.target == TARGET_USER) {
		cg_unsupported(g, at, "kernel context variables on the user-space target");
		return t->result.kind == TA_RES_INT ||
		       t->result.kind == TA_RES_ADDRESS ? "((int64_t)0)" : "\"\"";
	}
	switch (t->result.kind) {
	case TA_RES_INT:
	case TA_RES_ADDRESS:
		return int_code(g, t, at);
	case TA_RES_STRING: {
		const char *dst = cg_str_temp(g);
		return cg_fmt(g, "({ %s (const char *)%s; })",
			      string_into(g, t, dst, at), dst);
	}
	case TA_RES_PRETTY:
		return pretty_expr(g, t, at);
	}
	return "((int64_t)0)";
}

/* ---- guru-mode writes ---- */

/* The access a store into `lhs` goes through (pass 2 checked it with
 * ta_writable), or NULL. */
static const struct ta_access *
store_access(struct cg *g, struct node *lhs)
{
	const struct context_var *cv;

	switch (lhs->kind) {
	case N_TARGET:
		if (lhs->u.target.access)
			return lhs->u.target.access;
		cv = lhs->u.target.cv;
		if (cv && cv->arg_index < 0 && strcmp(cv->name, "return") == 0)
			return ta_new(g->a, (struct ta_base){ .kind = TA_BASE_RETURN });
		return NULL;
	case N_ATVAR:
		return lhs->u.atvar.access;
	case N_CAST:
		return lhs->u.cast.access;
	case N_AUTOCAST:
		return lhs->u.autocast.access;
	default:
		return NULL;
	}
}

/* The register a store into a value (not in memory) sets. */
static const char *
store_register(struct cg *g, const struct ta_base *b)
{
	switch (b->kind) {
	case TA_BASE_ARG:
		return arg_register(b->index) ?
			cg_fmt(g, "c->regs->%s", arg_register(b->index)) : NULL;
	case TA_BASE_REG:
		return cg_fmt(g, "c->regs->%s", b->reg);
	case TA_BASE_SLOT:	/* the provider reads it back (netfilter's
				 * verdict) */
		return cg_fmt(g, "((int64_t *)c->probe_data)[%d]", b->index);
	default:
		return NULL;
	}
}

const char *
cg_target_store(struct cg *g, struct node *lhs, const char *val)
{
	const struct ta_access *t = store_access(g, lhs);
	const struct ta_result *r;
	const char *sv = cg_fmt(g, "__sv%d", g->label_seq++);
	const char *v, *steps, *reg;
	bool mem;

	if (!t || g->s->opts.target == TARGET_USER) {
		cg_unsupported(g, lhs, "writing this context variable");
		return "((int64_t)0)";
	}
	r = &t->result;
	if (t->base.kind == TA_BASE_RETURN && !t->nsteps)
		return cg_fmt(g, "({ int64_t %s = %s; regs_set_return_value(c->regs, (unsigned long)%s); %s; })",
			      sv, val, sv, sv);
	v = cg_fmt(g, "__v%d", g->label_seq++);
	steps = steps_code(g, t, v, lhs, &mem);
	if (!mem && (reg = store_register(g, &t->base)) && !t->nsteps) {
		if (!r->bit_size)
			return cg_fmt(g, "({ int64_t %s = %s; %s %s = (unsigned long)%s; (void)%s; %s; })",
				      sv, val, steps, reg, sv, v, sv);
		/* a member of a struct passed in the register */
		unsigned long long mask = r->bit_size >= 64 ? ~0ULL :
			((1ULL << r->bit_size) - 1) << r->bit_offset;
		return cg_fmt(g, "({ int64_t %s = %s; %s %s = (%s & ~0x%llxULL) | (((uint64_t)%s << %u) & 0x%llxULL); %s; })",
			      sv, val, steps, reg, v, mask, sv, r->bit_offset,
			      mask, sv);
	}
	if (!mem || r->kind != TA_RES_INT) {
		cg_unsupported(g, lhs, "writing this context variable");
		return "((int64_t)0)";
	}
	need_target_mem(g);
	const char *write = r->bit_size ?
		cg_fmt(g, "tap_twrite_bits(c, %s, %d, %u, %u, (u64)%s)", v,
		       r->size, r->bit_offset, r->bit_size, sv) :
		cg_fmt(g, "tap_twrite_int(c, %s, %d, (u64)%s)", v, r->size, sv);
	return cg_fmt(g, "({ int64_t %s = %s; %s if (unlikely(!%s)) %s %s; })",
		      sv, val, steps, write, fail_code(g, lhs), sv);
}

/* ---- @entry ---- */

/* One .return probe's saved values. */
struct entry_layout {
	struct arena *a;
	struct derived_probe *dp;
	struct node **nodes;		/* its N_ENTRYs, in body order */
	int n, cap;
	int nlong, nstr;
	char *handler;			/* probe_N_entry's text */
	struct entry_layout *next;
};

static bool
collect_entry(struct node *n, void *ctx)
{
	struct entry_layout *L = ctx;

	if (n->kind != N_ENTRY)
		return true;
	for (int i = 0; i < L->n; i++)
		if (L->nodes[i] == n)
			return false;
	L->nodes = arena_grow(L->a, L->nodes, sizeof(*L->nodes), &L->cap,
			      L->n + 1);
	L->nodes[L->n++] = n;
	return false;	/* @entry inside @entry is evaluated at entry too */
}

static bool
has_node(struct node *n, void *ctx)
{
	struct node **want = ctx;

	if (n == *want)
		*want = NULL;
	return *want != NULL;
}

static bool
contains(struct node *root, struct node *n)
{
	struct node *want = n;

	ast_walk(root, has_node, NULL, &want);
	return want == NULL;
}

static const char *
slot_offset(struct cg *g, const struct entry_layout *L, int i)
{
	int li = 0, si = 0;

	for (int k = 0; k < i; k++)
		if (L->nodes[k]->type == TY_STRING)
			si++;
		else
			li++;
	if (L->nodes[i]->type == TY_STRING)
		return cg_fmt(g, "(%d + MAXSTRINGLEN * %d)", 8 * L->nlong, si);
	return cg_fmt(g, "%d", 8 * li);
}

/* The kretprobe instance data: the saved values. */
static const char *
data_size(struct cg *g, const struct entry_layout *L)
{
	return cg_fmt(g, "(%d + MAXSTRINGLEN * %d)", 8 * L->nlong, L->nstr);
}

static bool
reject_symbol(struct node *n, void *ctx)
{
	struct cg *g = ctx;

	if (n->kind == N_SYMBOL) {
		cg_unsupported(g, n, "script variables inside @entry (only context variables, constants and function calls)");
		return false;
	}
	return true;
}

/* probe_N_entry: evaluate every @entry of the probe into the data. */
static void
gen_entry_handler(struct cg *g, struct entry_layout *L)
{
	struct cg_writer saved = g->w;
	struct cg_frame *saved_frame = g->frame;
	const char *saved_err = g->err_label, *saved_out = g->out_label;
	struct cg_frame f = { 0 };
	int index = L->dp->index;
	char *text = NULL;
	size_t len = 0;

	f.struct_name = cg_fmt(g, "probe_%d_entry_tmp", index);
	g->frame = &f;
	g->err_label = g->out_label = "out";
	g->w.out = open_memstream(&text, &len);
	g->w.depth = 1;
	for (int i = 0; i < L->n; i++) {
		struct node *e = L->nodes[i]->u.atop.args.v[0];
		ast_walk(e, reject_symbol, NULL, g);
		if (L->nodes[i]->type == TY_STRING)
			cg_line(&g->w, "tap_str_copy(__d + %s, %s);",
				slot_offset(g, L, i), cg_expr(g, e));
		else
			cg_line(&g->w, "*(int64_t *)(__d + %s) = %s;",
				slot_offset(g, L, i), cg_expr(g, e));
	}
	fclose(g->w.out);
	g->w = saved;
	g->frame = saved_frame;
	g->err_label = saved_err;
	g->out_label = saved_out;

	/* The handler's temporaries are a frame like a probe's: the entry
	 * handler runs in a context of its own, at frame 0. */
	fprintf(g->decls, "struct %s {\n", f.struct_name);
	for (int i = 0; i < f.nstr; i++)
		fprintf(g->decls, "\tchar __str%d[MAXSTRINGLEN];\n", i);
	fprintf(g->decls, "\tchar __end;\n};\n");
	fprintf(g->body_frames, "\tstruct %s probe_%d_entry;\n",
		f.struct_name, index);
	L->handler = cg_fmt(g, "/* @entry values of probe %d (%s) */\n"
			    "static void\nprobe_%d_entry(struct tap_context *c)\n{\n"
			    "\tchar *__d = c->probe_data;\n"
			    "\tstruct %s *l = &TAP_FRAME(c, 0)->probe_%d_entry;\n\n"
			    "\t(void)l;\n\tmemset(__d, 0, %s);\n%sout:\n\t;\n}\n",
			    index, cg_comment_text(g->a, L->dp->name), index,
			    f.struct_name, index,
			    data_size(g, L), text);
	free(text);
}

static struct entry_layout *
layout_of(struct cg *g, struct derived_probe *dp, bool create)
{
	struct cg_tvar *t = tvar_state(g);
	struct entry_layout *L;

	for (L = t->layouts; L; L = L->next)
		if (L->dp == dp)
			return L;
	if (!create)
		return NULL;
	L = arena_alloc(g->a, sizeof(*L));
	L->a = g->a;
	L->dp = dp;
	ast_walk(dp->cond, collect_entry, NULL, L);
	ast_walk(dp->body, collect_entry, NULL, L);
	for (int i = 0; i < L->n; i++)
		if (L->nodes[i]->type == TY_STRING)
			L->nstr++;
		else
			L->nlong++;
	L->next = t->layouts;
	t->layouts = L;
	gen_entry_handler(g, L);
	return L;
}

const char *
cg_entry_value(struct cg *g, struct node *n)
{
	struct entry_layout *L = NULL;

	/* Every .return probe whose handler has this node gets its entry
	 * handler (probes may share a body); the offsets are the same in
	 * all of them. */
	for (int i = 0; i < g->prog->nprobes && g->s->opts.target != TARGET_USER; i++) {
		struct derived_probe *dp = g->prog->probes[i];
		if (!provider_is_return(dp) ||
		    !(contains(dp->body, n) || contains(dp->cond, n)))
			continue;
		struct entry_layout *l = layout_of(g, dp, true);
		if (!L)
			L = l;
	}
	if (!L) {
		cg_unsupported(g, n, "@entry outside a .return probe");
		return n->type == TY_STRING ? "\"\"" : "((int64_t)0)";
	}
	for (int i = 0; i < L->n; i++) {
		if (L->nodes[i] != n)
			continue;
		if (n->type == TY_STRING)
			return cg_fmt(g, "((const char *)c->probe_data + %s)",
				      slot_offset(g, L, i));
		return cg_fmt(g, "(*(int64_t *)((char *)c->probe_data + %s))",
			      slot_offset(g, L, i));
	}
	cg_unsupported(g, n, "this @entry");
	return "((int64_t)0)";
}

void
cg_entry_handlers(struct cg *g)
{
	for (struct entry_layout *L = tvar_state(g)->layouts; L; L = L->next) {
		cg_blank(&g->w);
		/* The kernel refuses more (register_kretprobe: -E2BIG). */
		cg_line(&g->w, "_Static_assert(%s <= KRETPROBE_MAX_DATA_SIZE, \"probe %d saves more @entry values than a kretprobe holds (4096 bytes; a string takes MAXSTRINGLEN)\");",
			data_size(g, L), L->dp->index);
		fputs(L->handler, g->w.out);
	}
}

const char *
cg_entry_handler_name(struct cg *g, struct derived_probe *dp)
{
	struct entry_layout *L = layout_of(g, dp, false);

	return L ? cg_fmt(g, "probe_%d_entry", dp->index) : "NULL";
}

const char *
cg_entry_data_size(struct cg *g, struct derived_probe *dp)
{
	struct entry_layout *L = layout_of(g, dp, false);

	return L ? data_size(g, L) : "0";
}

/* ---- context variables, by their provider ---- */

/* The probe whose context variable `cv` is. */
static const struct derived_probe *
probe_of(struct cg *g, const struct context_var *cv)
{
	for (int i = 0; i < g->prog->nprobes; i++)
		for (int j = 0; j < g->prog->probes[i]->nctxvars; j++)
			if (g->prog->probes[i]->ctxvars[j] == cv)
				return g->prog->probes[i];
	return NULL;
}

const char *
cg_target_expr(struct cg *g, struct node *n)
{
	const struct context_var *cv = n->u.target.cv;
	const struct derived_probe *dp = cv ? probe_of(g, cv) : NULL;
	const char *expr = NULL;

	if (n->u.target.access)
		return cg_access(g, n->u.target.access, n);
	if (dp && dp->provider->target_expr)
		expr = dp->provider->target_expr(g, cg_backend(g), dp, cv, n);
	if (!expr) {
		cg_unsupported(g, n, "this context variable");
		return "((int64_t)0)";
	}
	return expr;
}

bool
cg_is_value_store(const struct node *lhs)
{
	return lhs->kind == N_TARGET && lhs->u.target.cv &&
	       lhs->u.target.cv->script_value;
}

const char *
cg_value_store(struct cg *g, struct node *lhs, enum op op, const char *val)
{
	const struct derived_probe *dp = probe_of(g, lhs->u.target.cv);
	const char *expr = NULL;

	if (dp && dp->provider->value_store)
		expr = dp->provider->value_store(g, cg_backend(g), dp, lhs, op,
						 val);
	if (!expr) {
		cg_unsupported(g, lhs, "a store into this context variable");
		return "\"\"";
	}
	return expr;
}
