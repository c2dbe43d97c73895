/*
 * bpf_expr.c -- the statements and expressions of a kernel-side probe as
 * BPF C (--runtime=bpf).
 *
 * Takes one derived probe's body, bound and typed by pass 2.  Produces
 * C lines in b->out that use the handler's variables: ctx (the program's
 * argument), ss (the session map's value), gl (the scalar globals), f
 * (this probe's frame in the per-CPU frame map) and __acts (statements
 * run, for the MAXACTION bound the verifier needs on loops).
 *
 * An expression may need statements first (a map lookup, a string
 * built in a frame temporary, a check that raises an error); they are
 * written before the statement that uses the value, so operands that
 * are evaluated conditionally (&&, ||, ?:) are written as if/else around
 * their own statements.  Anything the BPF side does not do is refused
 * with E_BPF_UNSUPPORTED at the construct, naming it and pointing at the
 * kernel-module backend: never translated approximately.
 */
#include <stdarg.h>
#include <string.h>

#include "translator/codegen/bpf_int.h"
#include "translator/codegen/codegen_int.h"
#include "translator/parse/strlit.h"

void
bpf_line(struct bpf_cg *b, const char *fmt, ...)
{
	va_list ap;

	for (int i = 0; i < b->indent; i++)
		fputc('\t', b->out);
	va_start(ap, fmt);
	vfprintf(b->out, fmt, ap);
	va_end(ap);
	fputc('\n', b->out);
}

char *
bpf_fmt(struct bpf_cg *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = arena_vprintf(b->a, fmt, ap);
	va_end(ap);
	return s;
}

/* How a handler stops at once (an error, next): return from the
 * program (with its verdict, for a program that has one), or from a
 * callback telling its caller to. */
const char *
bpf_abort(struct bpf_cg *b)
{
	if (b->abort_stmt)
		return b->abort_stmt;
	return b->ret_stmt ? b->ret_stmt : "return 0;";
}

void
bpf_refuse(struct bpf_cg *b, struct node *n, const char *what)
{
	diag_error(&b->s->diag, n->loc, "E_BPF_UNSUPPORTED",
		   "%s is not supported by the BPF backend (--runtime=bpf); use the kernel-module backend (--runtime=kernel)",
		   what);
	b->failed = true;
}

const char *
bpf_near(struct bpf_cg *b, struct node *n)
{
	struct cg tmp = { .s = b->s, .a = b->a };

	return cg_near(&tmp, n);
}

static void raise_error_addr(struct bpf_cg *b, const char *msg,
			     struct node *n, const char *addr);
static void raise_uncaught(struct bpf_cg *b, const char *msg,
			   struct node *n, const char *addr);

/* A script error at `n`: the site's id for user space, then return. */
static void
raise_error(struct bpf_cg *b, const char *msg, struct node *n)
{
	raise_error_addr(b, msg, n, NULL);
}

/* ... whose message (a format with one %llx) shows `addr`. */
static void
raise_error_addr(struct bpf_cg *b, const char *msg, struct node *n,
		 const char *addr)
{
	if (bpf_try_catch(b, msg, addr))
		return;
	raise_uncaught(b, msg, n, addr);
}

/* ... reported and ending the handler even inside a try (MAXACTION). */
static void
raise_uncaught(struct bpf_cg *b, const char *msg, struct node *n,
	       const char *addr)
{
	if (b->nerrors == b->error_cap) {
		b->error_cap = b->error_cap ? 2 * b->error_cap : 16;
		struct bpf_error_site *v = arena_alloc(
			b->a, sizeof(*v) * (size_t)b->error_cap);
		if (b->nerrors)
			memcpy(v, b->errors, sizeof(*v) * (size_t)b->nerrors);
		b->errors = v;
	}
	b->errors[b->nerrors].msg = msg;
	b->errors[b->nerrors].near = n ? bpf_near(b, n) : NULL;
	b->errors[b->nerrors].has_addr = addr != NULL;
	if (addr)
		bpf_line(b, "{ tap_error_at(ss, %d, %s); %s }", b->nerrors, addr, bpf_abort(b));
	else
		bpf_line(b, "{ tap_error(ss, %d); %s }", b->nerrors, bpf_abort(b));
	b->nerrors++;
}

const char *
bpf_new_long_temp(struct bpf_cg *b, const char *init)
{
	const char *name = bpf_fmt(b, "__t%d", b->seq++);

	bpf_line(b, "int64_t %s = %s;", name, init);
	return name;
}

/* A TAP_BPF_STRLEN buffer in the frame. */
const char *
bpf_new_str_temp(struct bpf_cg *b)
{
	int k = b->seq++;

	fprintf(b->frame, "\tchar t%d[TAP_BPF_STRLEN];\n", k);
	return bpf_fmt(b, "f->t%d", k);
}

/* ---- symbols ---- */

static int
global_index(struct bpf_cg *b, struct symbol *sym)
{
	for (int i = 0; i < b->prog->nglobals; i++)
		if (b->prog->globals[i] == sym)
			return i;
	return -1;
}

/* sym lives in a BPF map (both halves then know it). */
void
bpf_mark_kernel_global(struct bpf_cg *b, struct symbol *sym)
{
	b->kernel_global[global_index(b, sym)] = true;
}

const char *
bpf_global_map(struct bpf_cg *b, struct symbol *sym)
{
	return bpf_fmt(b, "m%d", global_index(b, sym));
}

const char *
bpf_key_type(struct bpf_cg *b, struct symbol *sym)
{
	return bpf_fmt(b, "struct key_m%d", global_index(b, sym));
}

bool
bpf_uses_hist_log(struct bpf_cg *b, struct symbol *sym)
{
	int i = global_index(b, sym);

	return i >= 0 && b->hist_log && b->hist_log[i];
}

/* The @variance shift of a statistic @variance reads, or -1. */
int
bpf_variance_shift(struct bpf_cg *b, struct symbol *sym)
{
	int i = global_index(b, sym);

	return i >= 0 && b->variance_shift ? b->variance_shift[i] - 1 : -1;
}

const struct bpf_hist_linear *
bpf_hist_linear(struct bpf_cg *b, struct symbol *sym)
{
	int i = global_index(b, sym);

	return i >= 0 && b->hist_lin && b->hist_lin[i].buckets > 0 ? &b->hist_lin[i] : NULL;
}

/* The function `s <<< v` calls (tap_bpf.h's, or bpf_emit.c's for a
 * linear histogram's bounds). */
const char *
bpf_stat_adder(struct bpf_cg *b, struct symbol *sym)
{
	if (bpf_hist_linear(b, sym) || bpf_variance_shift(b, sym) >= 0)
		return bpf_fmt(b, "tap_stat_add_m%d", global_index(b, sym));
	return bpf_uses_hist_log(b, sym) ? "tap_stat_add_log" : "tap_stat_add";
}

const char *
bpf_value_type(struct bpf_cg *b, struct symbol *sym)
{
	if (sym->type == TY_STATS && bpf_hist_linear(b, sym))
		return bpf_fmt(b, "struct tap_bpf_stat_lin_m%d", global_index(b, sym));
	if (sym->type == TY_STATS && bpf_variance_shift(b, sym) >= 0)
		return bpf_uses_hist_log(b, sym) ?
			bpf_fmt(b, "struct tap_bpf_stat_logvar_m%d", global_index(b, sym)) :
			"struct tap_bpf_stat_var";
	if (sym->type == TY_STATS)
		return bpf_uses_hist_log(b, sym) ? "struct tap_bpf_stat_log"
						 : "struct tap_bpf_stat";
	if (sym->type == TY_STRING)
		return "struct tap_bpf_strval";
	return "int64_t";
}

bool
bpf_is_qstr_local(struct bpf_cg *b, struct symbol *sym)
{
	for (int i = 0; i < b->nqstr; i++)
		if (b->qstr_locals[i] == sym)
			return true;
	return false;
}

static const char *
local_name(struct bpf_cg *b, struct symbol *sym)
{
	if (b->ninl > 0)
		return bpf_inline_local(b, sym);
	for (int i = 0; i < b->dp->nlocals; i++)
		if (b->dp->locals[i] == sym)
			return bpf_fmt(b, "f->l%d", i);
	return NULL;
}

static struct bval
symbol_value(struct bpf_cg *b, struct node *n)
{
	struct symbol *sym = n->u.symbol.sym;
	struct bval v = { BX_VOID, "0" };

	if (!sym) {
		bpf_refuse(b, n, "this name");
		return v;
	}
	if (sym->kind != SYM_GLOBAL) {
		const char *name = local_name(b, sym);

		if (!name) {
			bpf_refuse(b, n, "a function's variable");
			return v;
		}
		v.c = name;
		v.t = bpf_is_qstr_local(b, sym) ? BX_QSTR :
		      sym->type == TY_STRING ? BX_STR : BX_LONG;
		return v;
	}
	b->kernel_global[global_index(b, sym)] = true;
	if (sym->nkeys > 0 || sym->type == TY_STATS) {
		bpf_refuse(b, n, bpf_fmt(b, "reading the array or statistics '%s' in a kernel-side probe (only end probes read them)", sym->name));
		return v;
	}
	v.c = bpf_fmt(b, "gl->%s", sym->c_name);
	v.t = sym->type == TY_STRING ? BX_STR : BX_LONG;
	return v;
}

struct bval
bpf_as_long(struct bpf_cg *b, struct node *n)
{
	struct bval v = bpf_expr(b, n);

	if (v.t != BX_LONG && !b->failed)
		bpf_refuse(b, n, "a string here");
	return v;
}

const char *
bpf_as_str(struct bpf_cg *b, struct node *n)
{
	struct bval v = bpf_expr(b, n);

	if (v.t == BX_QSTR)
		bpf_refuse(b, n, "using a user_string_quoted() value other than in print/printf");
	else if (v.t != BX_STR && !b->failed)
		bpf_refuse(b, n, "a number where a string is wanted");
	return v.c;
}

/* ---- arrays ---- */

static struct symbol *
array_of(struct bpf_cg *b, struct node *base)
{
	if (base->kind != N_SYMBOL || !base->u.symbol.sym ||
	    base->u.symbol.sym->kind != SYM_GLOBAL) {
		bpf_refuse(b, base, "this kind of array");
		return NULL;
	}
	struct symbol *sym = base->u.symbol.sym;

	if (sym->wrap) {
		bpf_refuse(b, base, "a wrapping array (global a%)");
		return NULL;
	}
	b->kernel_global[global_index(b, sym)] = true;
	return sym;
}

/* The key of keys[] in a frame temporary; its C lvalue. */
static const char *
build_key(struct bpf_cg *b, struct symbol *sym, struct node_list *keys)
{
	int k = b->seq++;
	const char *key = bpf_fmt(b, "f->k%d", k);

	fprintf(b->frame, "\t%s k%d;\n", bpf_key_type(b, sym), k);
	for (int i = 0; i < keys->n; i++) {
		struct node *kn = keys->v[i];

		if (!kn) {
			bpf_refuse(b, keys->v[0] ? keys->v[0] : sym->decl,
				   "a '*' key (slices)");
			return key;
		}
		if (sym->key_types[i] == TY_STRING) {
			const char *s = bpf_as_str(b, kn);

			bpf_line(b, "tap_str_copy(%s.k%d, %s);", key, i, s);
		} else {
			struct bval v = bpf_as_long(b, kn);

			bpf_line(b, "%s.k%d = %s;", key, i, v.c);
		}
	}
	return key;
}

static struct bval
index_read(struct bpf_cg *b, struct node *n)
{
	struct symbol *sym = array_of(b, n->u.index.base);
	struct bval v = { BX_LONG, "0" };

	if (!sym)
		return v;
	if (sym->type == TY_STATS) {
		bpf_refuse(b, n, "reading statistics in a kernel-side probe");
		return v;
	}
	const char *key = build_key(b, sym, &n->u.index.keys);
	const char *p = bpf_fmt(b, "__p%d", b->seq++);

	bpf_line(b, "%s *%s = bpf_map_lookup_elem(&%s, &%s);",
		 bpf_value_type(b, sym), p, bpf_global_map(b, sym), key);
	if (sym->type == TY_STRING) {
		const char *t = bpf_new_str_temp(b);

		bpf_line(b, "if (%s) tap_str_copy(%s, %s->s); else tap_str_clear(%s);",
			 p, t, p, t);
		v.t = BX_STR;
		v.c = t;
		return v;
	}
	v.c = bpf_new_long_temp(b, bpf_fmt(b, "%s ? *%s : 0", p, p));
	return v;
}

/* The user target's message for the same overflow (runtime/core). */
static void
check_full(struct bpf_cg *b, const char *rc, struct node *array)
{
	struct symbol *sym = array->u.symbol.sym;

	bpf_line(b, "if (%s)", rc);
	b->indent++;
	raise_error(b, sym->max_entries > 0
		    ? bpf_fmt(b, "Array overflow, check size limit (%ld)", sym->max_entries)
		    : "Array overflow, check MAXMAPENTRIES", array);
	b->indent--;
}

/* a[k] op= v, a[k]++ ...: the value before and after. */
static struct bval
index_update(struct bpf_cg *b, struct node *target, enum op op,
	     struct node *rhs, struct node *at, bool want_old)
{
	struct symbol *sym = array_of(b, target->u.index.base);
	struct bval v = { BX_LONG, "0" };

	if (!sym)
		return v;
	const char *key = build_key(b, sym, &target->u.index.keys);
	const char *map = bpf_global_map(b, sym);

	if (op == OP_STAT_ADD) {
		struct bval x = bpf_as_long(b, rhs);
		const char *rc = bpf_new_long_temp(b, bpf_fmt(b, "%s(&%s, &%s, %s)",
			bpf_stat_adder(b, sym), map, key, x.c));

		check_full(b, rc, target->u.index.base);
		v.t = BX_VOID;
		return v;
	}
	if (sym->type == TY_STRING) {
		if (op != OP_ASSIGN) {
			bpf_refuse(b, at, "this operator on a string array element");
			return v;
		}
		const char *s = bpf_as_str(b, rhs);
		const char *t = bpf_new_str_temp(b);

		bpf_line(b, "tap_str_copy(%s, %s);", t, s);
		const char *rc = bpf_new_long_temp(b, bpf_fmt(b, "tap_hash_set(&%s, &%s, %s)", map, key, t));
		check_full(b, rc, target->u.index.base);
		v.t = BX_STR;
		v.c = t;
		return v;
	}
	if (op == OP_ASSIGN) {
		struct bval x = bpf_as_long(b, rhs);
		const char *t = bpf_new_long_temp(b, x.c);
		const char *rc = bpf_new_long_temp(b, bpf_fmt(b, "tap_hash_set(&%s, &%s, &%s)", map, key, t));

		check_full(b, rc, target->u.index.base);
		v.c = t;
		return v;
	}
	if (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN || op == OP_INC ||
	    op == OP_DEC) {
		const char *delta;

		if (op == OP_INC || op == OP_DEC)
			delta = op == OP_INC ? "1" : "-1";
		else
			delta = bpf_fmt(b, "%s(%s)", op == OP_SUB_ASSIGN ? "-" : "",
					bpf_as_long(b, rhs).c);
		const char *d = bpf_new_long_temp(b, delta);
		const char *old = bpf_new_long_temp(b, "0");
		const char *rc = bpf_new_long_temp(b, bpf_fmt(b, "tap_hash_add(&%s, &%s, %s, &%s)", map, key, d, old));

		check_full(b, rc, target->u.index.base);
		v.c = want_old ? old : bpf_fmt(b, "(%s + %s)", old, d);
		return v;
	}
	bpf_refuse(b, at, bpf_fmt(b, "operator '%s' on an array element", op_spelling(op)));
	return v;
}

/* ---- calls ---- */

static void
add_print_site(struct bpf_cg *b, struct bpf_print_site site)
{
	if (b->nprints == b->print_cap) {
		b->print_cap = b->print_cap ? 2 * b->print_cap : 16;
		struct bpf_print_site *v = arena_alloc(
			b->a, sizeof(*v) * (size_t)b->print_cap);
		if (b->nprints)
			memcpy(v, b->prints, sizeof(*v) * (size_t)b->nprints);
		b->prints = v;
	}
	b->prints[b->nprints++] = site;
}

/* printf/print/println: the arguments evaluated, then one record. */
static void
emit_print(struct bpf_cg *b, struct node *n, const char *fmt, bool newline,
	   int first)
{
	struct node_list *args = &n->u.call.args;
	int nargs = args->n - first, id = b->nprints, k = b->seq++;
	struct bpf_print_site site = { fmt, newline, nargs,
		arena_alloc(b->a, sizeof(enum bx) * (size_t)(nargs + 1)) };
	const char **vals = arena_alloc(b->a, sizeof(char *) * (size_t)(nargs + 1));

	fprintf(b->frames, "struct rec%d {\n\tstruct tap_bpf_rec_hdr h;\n", k);
	for (int i = 0; i < nargs; i++) {
		struct bval v = bpf_expr(b, args->v[first + i]);

		site.args[i] = v.t;
		if (v.t == BX_LONG) {
			vals[i] = bpf_new_long_temp(b, v.c);
			fprintf(b->frames, "\tint64_t a%d;\n", i);
		} else if (v.t == BX_STR) {
			vals[i] = v.c;
			fprintf(b->frames, "\tchar a%d[TAP_BPF_STRLEN];\n", i);
		} else if (v.t == BX_QSTR) {
			vals[i] = v.c;
			fprintf(b->frames, "\tstruct tap_bpf_qstr a%d;\n", i);
		} else {
			bpf_refuse(b, args->v[first + i], "a value-less argument");
			return;
		}
	}
	fprintf(b->frames, "};\n");
	add_print_site(b, site);
	bpf_line(b, "{");
	b->indent++;
	bpf_line(b, "struct rec%d *r = bpf_ringbuf_reserve(&tap_ringbuf, sizeof(*r), 0);", k);
	bpf_line(b, "if (!r) {");
	bpf_line(b, "\ttap_count_drop(ss);");
	bpf_line(b, "} else {");
	b->indent++;
	bpf_line(b, "r->h.type = TAP_BPF_REC_PRINT;");
	bpf_line(b, "r->h.id = %d;", id);
	for (int i = 0; i < nargs; i++) {
		if (site.args[i] == BX_LONG)
			bpf_line(b, "r->a%d = %s;", i, vals[i]);
		else if (site.args[i] == BX_STR)
			bpf_line(b, "tap_str_copy(r->a%d, %s);", i, vals[i]);
		else
			bpf_line(b, "__builtin_memcpy(&r->a%d, &%s, sizeof(r->a%d));", i, vals[i], i);
	}
	bpf_line(b, "bpf_ringbuf_submit(r, tap_print_wakeup());");
	b->indent--;
	bpf_line(b, "}");
	b->indent--;
	bpf_line(b, "}");
}

static struct bval
call_builtin(struct bpf_cg *b, struct node *n)
{
	struct bval v = { BX_LONG, "0" };
	struct node_list *args = &n->u.call.args;

	switch (n->u.call.builtin->id) {
	case BUILTIN_EXIT:
		bpf_line(b, "tap_exit(ss);");
		v.t = BX_VOID;
		return v;
	case BUILTIN_ERROR:
		/* error("literal"): the message is the site's; like the user
		 * target, no "near" (user_bpf.c prints near only when set) */
		if (args->n == 1 && args->v[0]->kind == N_STRING) {
			size_t len;

			raise_error(b, strlit_unescape(b->a, args->v[0]->u.string.raw, &len), NULL);
			v.t = BX_VOID;
			return v;
		}
		bpf_refuse(b, n, "error() with a computed message");
		return v;
	case BUILTIN_PID:
		v.c = "((int64_t)(bpf_get_current_pid_tgid() >> 32))";
		return v;
	case BUILTIN_TID:
		v.c = "((int64_t)(uint32_t)bpf_get_current_pid_tgid())";
		return v;
	case BUILTIN_CPU:
		v.c = "((int64_t)bpf_get_smp_processor_id())";
		return v;
	case BUILTIN_TARGET:
		v.c = "ss->target_pid";
		return v;
	case BUILTIN_GETTIMEOFDAY_NS:
	case BUILTIN_GETTIMEOFDAY_US:
	case BUILTIN_GETTIMEOFDAY_MS:
	case BUILTIN_GETTIMEOFDAY_S: {
		static const char *const div[] = { "1", "1000", "1000000", "1000000000" };
		int k = n->u.call.builtin->id - BUILTIN_GETTIMEOFDAY_NS;

		v.c = bpf_fmt(b, "((int64_t)(bpf_ktime_get_ns() + ss->realtime_offset) / %s)", div[k]);
		return v;
	}
	case BUILTIN_EXECNAME: {
		const char *t = bpf_new_str_temp(b);

		bpf_line(b, "tap_execname(%s);", t);
		v.t = BX_STR;
		v.c = t;
		return v;
	}
	case BUILTIN_STRLEN:
		v.c = bpf_fmt(b, "tap_str_len(%s)", bpf_as_str(b, args->v[0]));
		return v;
	default:
		break;
	}
	bpf_refuse(b, n, bpf_fmt(b, "the function %s()", n->u.call.name));
	return v;
}

/* Tapset functions whose kernel C the BPF side replaces by helpers. */
static struct bval
call_intrinsic(struct bpf_cg *b, struct node *n)
{
	const char *name = n->u.call.name;
	struct node_list *args = &n->u.call.args;
	struct bval v = { BX_LONG, "0" };

	if (strcmp(name, "uid") == 0 && args->n == 0) {
		v.c = "((int64_t)(uint32_t)bpf_get_current_uid_gid())";
		return v;
	}
	if (strcmp(name, "ktime_get_ns") == 0 && args->n == 0) {
		/* CLOCK_MONOTONIC, NMI-safe: the kernel's fast accessor, as
		 * the module's tapset C uses */
		v.c = "((int64_t)bpf_ktime_get_ns())";
		return v;
	}
	if (strcmp(name, "ppid") == 0 && args->n == 0) {
		v.c = "tap_ppid()";
		return v;
	}
	if (strcmp(name, "gid") == 0 && args->n == 0) {
		v.c = "((int64_t)(bpf_get_current_uid_gid() >> 32))";
		return v;
	}
	if ((strcmp(name, "user_string") == 0 ||
	     strcmp(name, "kernel_string") == 0) &&
	    (args->n == 1 || args->n == 2)) {
		bool user = name[0] == 'u';
		struct bval addr = bpf_as_long(b, args->v[0]);
		const char *t = bpf_new_str_temp(b);
		const char *rc = bpf_new_long_temp(b, bpf_fmt(b, "tap_read_%s_str(%s, %s)", user ? "user" : "kernel", t, addr.c));

		if (args->n == 2) {
			const char *err = bpf_as_str(b, args->v[1]);

			bpf_line(b, "if (%s) tap_str_copy(%s, %s);", rc, t, err);
		} else {
			bpf_line(b, "if (%s)", rc);
			b->indent++;
			raise_error(b, user ? "user string copy fault"
					    : "kernel string copy fault", n);
			b->indent--;
		}
		v.t = BX_STR;
		v.c = t;
		return v;
	}
	if (n->u.call.fn->decl && n->u.call.fn->decl->u.function.submatches) {
		/* matched() & co. (tapsets/regex.stp): no =~ runs here */
		bpf_refuse(b, n, bpf_fmt(b, "%s() in a kernel-side probe (the groups of a regular-expression match; =~ runs only in user-space probes such as begin and end)", name));
		return v;
	}
	bpf_refuse(b, n, bpf_fmt(b, "calling the function %s() in a kernel-side probe", name));
	return v;
}

static struct bval
call(struct bpf_cg *b, struct node *n)
{
	const char *name = n->u.call.name;
	struct node_list *args = &n->u.call.args;
	struct bval v = { BX_VOID, "0" };

	if (!n->u.call.fn && !n->u.call.builtin) {
		if (strcmp(name, "printf") == 0 && args->n >= 1 &&
		    args->v[0]->kind == N_STRING) {
			emit_print(b, n, args->v[0]->u.string.raw, false, 1);
			return v;
		}
		if (strcmp(name, "print") == 0 || strcmp(name, "println") == 0) {
			emit_print(b, n, NULL, name[5] == 'l', 0);
			return v;
		}
		if (strcmp(name, "sprintf") == 0 || strcmp(name, "sprint") == 0 ||
		    strcmp(name, "sprintln") == 0)
			return bpf_sprintf(b, n);
		bpf_refuse(b, n, bpf_fmt(b, "%s()", name));
		return v;
	}
	if (n->u.call.builtin)
		return call_builtin(b, n);
	if (bpf_is_script_function(n->u.call.fn))
		return bpf_call_script(b, n);
	return call_intrinsic(b, n);
}

/* ---- operators ---- */

static const char *
c_binop(enum op op)
{
	switch (op) {
	case OP_ADD: case OP_ADD_ASSIGN: return "+";
	case OP_SUB: case OP_SUB_ASSIGN: return "-";
	case OP_MUL: case OP_MUL_ASSIGN: return "*";
	case OP_DIV: case OP_DIV_ASSIGN: return "/";
	case OP_MOD: case OP_MOD_ASSIGN: return "%";
	case OP_SHL: case OP_SHL_ASSIGN: return "<<";
	case OP_SHR: case OP_SHR_ASSIGN: return ">>";
	case OP_BAND: case OP_AND_ASSIGN: return "&";
	case OP_BOR: case OP_OR_ASSIGN: return "|";
	case OP_BXOR: case OP_XOR_ASSIGN: return "^";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	default: return NULL;
	}
}

/* l op r for longs; / and % check for 0 first. */
static const char *
long_binop(struct bpf_cg *b, enum op op, const char *l, const char *r,
	   struct node *at)
{
	const char *c = c_binop(op);

	if (!c) {
		bpf_refuse(b, at, bpf_fmt(b, "operator '%s'", op_spelling(op)));
		return "0";
	}
	if (*c == '/' || *c == '%') {
		const char *lt = bpf_new_long_temp(b, l);
		const char *rt = bpf_new_long_temp(b, r);

		bpf_line(b, "if (%s == 0)", rt);
		b->indent++;
		raise_error(b, "division by 0", at);
		b->indent--;
		return bpf_fmt(b, "tap_%s(%s, %s)", *c == '/' ? "div" : "mod", lt, rt);
	}
	if (op == OP_SHR || op == OP_SHR_ASSIGN)	/* arithmetic, as stap */
		return bpf_fmt(b, "((int64_t)(%s) >> ((%s) & 63))", l, r);
	if (op == OP_SHL || op == OP_SHL_ASSIGN)
		return bpf_fmt(b, "((int64_t)((uint64_t)(%s) << ((%s) & 63)))", l, r);
	return bpf_fmt(b, "(%s %s %s)", l, c, r);
}

static struct bval
logical(struct bpf_cg *b, struct node *n)
{
	bool and = n->u.binary.op == OP_ANDAND;
	struct bval l = bpf_as_long(b, n->u.binary.lhs);
	const char *t = bpf_new_long_temp(b, bpf_fmt(b, "(%s) != 0", l.c));

	bpf_line(b, and ? "if (%s) {" : "if (!%s) {", t);
	b->indent++;
	struct bval r = bpf_as_long(b, n->u.binary.rhs);
	bpf_line(b, "%s = (%s) != 0;", t, r.c);
	b->indent--;
	bpf_line(b, "}");
	return (struct bval){ BX_LONG, t };
}

static struct bval
ternary(struct bpf_cg *b, struct node *n)
{
	struct bval c = bpf_as_long(b, n->u.ternary.cond);
	bool str = n->type == TY_STRING;
	const char *t = str ? bpf_new_str_temp(b) : bpf_new_long_temp(b, "0");

	bpf_line(b, "if (%s) {", c.c);
	b->indent++;
	if (str)
		bpf_line(b, "tap_str_copy(%s, %s);", t, bpf_as_str(b, n->u.ternary.then_expr));
	else
		bpf_line(b, "%s = %s;", t, bpf_as_long(b, n->u.ternary.then_expr).c);
	b->indent--;
	bpf_line(b, "} else {");
	b->indent++;
	if (str)
		bpf_line(b, "tap_str_copy(%s, %s);", t, bpf_as_str(b, n->u.ternary.else_expr));
	else
		bpf_line(b, "%s = %s;", t, bpf_as_long(b, n->u.ternary.else_expr).c);
	b->indent--;
	bpf_line(b, "}");
	return (struct bval){ str ? BX_STR : BX_LONG, t };
}

/* The scalar a N_SYMBOL names, as an lvalue; or a context variable
 * its family lets a handler write (the BPF LSM verdict, $return). */
static struct bval
scalar_lvalue(struct bpf_cg *b, struct node *n)
{
	if (n->kind == N_TARGET && n->u.target.cv && b->dp &&
	    b->dp->provider->bpf_target_lvalue && !n->u.target.access) {
		const char *l = b->dp->provider->bpf_target_lvalue(
			b->a, b->dp, n->u.target.cv);

		if (l)
			return (struct bval){ BX_LONG, l };
	}
	if (n->kind != N_SYMBOL) {
		bpf_refuse(b, n, "assigning to this");
		return (struct bval){ BX_VOID, "0" };
	}
	struct symbol *sym = n->u.symbol.sym;

	if (sym && sym->type == TY_STATS) {
		bpf_refuse(b, n, "this use of statistics");
		return (struct bval){ BX_VOID, "0" };
	}
	return symbol_value(b, n);
}

static bool
is_global(struct node *n)
{
	return n->kind == N_SYMBOL && n->u.symbol.sym &&
	       n->u.symbol.sym->kind == SYM_GLOBAL;
}

static struct bval
stat_add_scalar(struct bpf_cg *b, struct node *n)
{
	struct node *lhs = n->u.binary.lhs;
	struct symbol *sym = lhs->kind == N_SYMBOL ? lhs->u.symbol.sym : NULL;

	if (!sym || sym->kind != SYM_GLOBAL) {
		bpf_refuse(b, n, "'<<<' on this");
		return (struct bval){ BX_VOID, "0" };
	}
	b->kernel_global[global_index(b, sym)] = true;
	struct bval x = bpf_as_long(b, n->u.binary.rhs);
	bpf_line(b, "{ __u32 __z = 0; %s(&%s, &__z, %s); }",
		 bpf_stat_adder(b, sym), bpf_global_map(b, sym), x.c);
	return (struct bval){ BX_VOID, "0" };
}

static struct bval
assign(struct bpf_cg *b, struct node *n)
{
	enum op op = n->u.binary.op;
	struct node *lhs = n->u.binary.lhs, *rhs = n->u.binary.rhs;

	if (lhs->kind == N_INDEX)
		return index_update(b, lhs, op, rhs, n, false);
	if (op == OP_STAT_ADD)
		return stat_add_scalar(b, n);
	/* local = user_string_quoted(addr) */
	if (lhs->kind == N_SYMBOL && lhs->u.symbol.sym &&
	    bpf_is_qstr_local(b, lhs->u.symbol.sym)) {
		struct bval l = symbol_value(b, lhs);
		struct bval a = bpf_as_long(b, rhs->u.call.args.v[0]);

		bpf_line(b, "tap_read_user_qstr(&%s, %s);", l.c, a.c);
		return (struct bval){ BX_VOID, "0" };
	}
	struct bval l = scalar_lvalue(b, lhs);

	if (l.t == BX_VOID)
		return l;
	if (l.t == BX_STR) {
		if (op == OP_ASSIGN) {
			const char *s = bpf_as_str(b, rhs);

			bpf_line(b, "tap_str_copy(%s, %s);", l.c, s);
		} else if (op == OP_CONCAT_ASSIGN) {
			const char *s = bpf_as_str(b, rhs);
			const char *t = bpf_new_str_temp(b);

			bpf_line(b, "tap_str_concat(%s, %s, %s);", t, l.c, s);
			bpf_line(b, "tap_str_copy(%s, %s);", l.c, t);
		} else {
			bpf_refuse(b, n, bpf_fmt(b, "operator '%s' on a string", op_spelling(op)));
		}
		return l;
	}
	struct bval r = bpf_as_long(b, rhs);

	if (op == OP_ASSIGN) {
		bpf_line(b, "%s = %s;", l.c, r.c);
		return l;
	}
	if (is_global(lhs) && (op == OP_ADD_ASSIGN || op == OP_SUB_ASSIGN)) {
		bpf_line(b, "__sync_fetch_and_add(&%s, %s(%s));", l.c,
			 op == OP_SUB_ASSIGN ? "-" : "", r.c);
		return l;
	}
	bpf_line(b, "%s = %s;", l.c, long_binop(b, op, l.c, r.c, n));
	return l;
}

static struct bval
crement(struct bpf_cg *b, struct node *n)
{
	struct node *x = n->u.crement.operand;
	bool inc = n->u.crement.op == OP_INC, post = !n->u.crement.prefix;

	if (x->kind == N_INDEX)
		return index_update(b, x, n->u.crement.op, NULL, n, post);
	struct bval l = scalar_lvalue(b, x);

	if (l.t != BX_LONG) {
		if (l.t != BX_VOID)
			bpf_refuse(b, n, "'++'/'--' on a string");
		return l;
	}
	if (is_global(x)) {
		const char *old = bpf_new_long_temp(b, bpf_fmt(b, "__sync_fetch_and_add(&%s, %s)", l.c, inc ? "1" : "-1"));

		return (struct bval){ BX_LONG, post ? old : bpf_fmt(b, "(%s %s 1)", old, inc ? "+" : "-") };
	}
	const char *old = bpf_new_long_temp(b, l.c);

	bpf_line(b, "%s = %s %s 1;", l.c, old, inc ? "+" : "-");
	return (struct bval){ BX_LONG, post ? old : l.c };
}

/* The bytes an ADD step adds: its members' offsets as CO-RE
 * relocations where they can be (bpf_core_offset()), the rest (array
 * indexes, bitfields, members of unnamed types) the constant the
 * translator's BTF gave. */
static const char *
add_offset(struct bpf_cg *b, const struct ta_step *st)
{
	int64_t rest = st->offset;
	const char *e = NULL;

	for (int i = 0; i < st->nhops; i++) {
		const char *off = bpf_core_offset(b, &st->hops[i]);

		if (!off)
			continue;
		rest -= st->hops[i].offset;
		e = e ? bpf_fmt(b, "%s + %s", e, off) : off;
	}
	if (!e)
		return bpf_fmt(b, "%lld", (long long)rest);
	return rest ? bpf_fmt(b, "%s + %lld", e, (long long)rest) : e;
}

/* Kernel memory through a typed access (tvar_access.h): the base value
 * from the provider, DEREF/ADD/INDEX steps, an integer or an address;
 * every load is bpf_probe_read_kernel, a failed one the module's
 * "kernel read fault" error. */
static struct bval
typed_target(struct bpf_cg *b, struct node *n, const struct ta_access *acc,
	     const char *base)
{
	const char *v = bpf_new_long_temp(b, base);
	bool in_memory = acc->base.in_memory;

	for (int i = 0; i < acc->nsteps; i++) {
		const struct ta_step *st = &acc->steps[i];

		switch (st->kind) {
		case TA_STEP_DEREF:
			if (in_memory) {
				const char *p = bpf_new_long_temp(b, "0");

				bpf_line(b, "if (tap_kread(&%s, 8, %s))", p, v);
				b->indent++;
				raise_error_addr(b, "kernel read fault at 0x%llx (8 bytes)", n, v);
				b->indent--;
				bpf_line(b, "%s = %s;", v, p);
			}
			in_memory = true;
			break;
		case TA_STEP_ADD:
			bpf_line(b, "%s += %s;", v, add_offset(b, st));
			break;
		case TA_STEP_INDEX: {
			struct bval x = bpf_as_long(b, st->index);

			bpf_line(b, "%s += (%s) * %lld;", v, x.c, (long long)st->stride);
			break;
		}
		}
	}
	if (acc->result.kind == TA_RES_ADDRESS)
		return (struct bval){ BX_LONG, v };
	if (acc->result.kind != TA_RES_INT || acc->result.bit_size ||
	    (acc->result.size != 1 && acc->result.size != 2 &&
	     acc->result.size != 4 && acc->result.size != 8)) {
		bpf_refuse(b, n, "this kind of typed kernel value (bitfields, strings, pretty printing)");
		return (struct bval){ BX_LONG, "0" };
	}
	static const char *const ctype[2][9] = {
		{ "", "uint8_t", "uint16_t", "", "uint32_t", "", "", "", "uint64_t" },
		{ "", "int8_t", "int16_t", "", "int32_t", "", "", "", "int64_t" },
	};
	const char *t = ctype[acc->result.is_signed ? 1 : 0][acc->result.size];
	if (!in_memory)
		return (struct bval){ BX_LONG, bpf_fmt(b, "((int64_t)(%s)%s)", t, v) };
	const char *r = bpf_fmt(b, "__r%d", b->seq++);

	bpf_line(b, "%s %s = 0;", t, r);
	bpf_line(b, "if (tap_kread(&%s, %d, %s))", r, acc->result.size, v);
	b->indent++;
	raise_error_addr(b, bpf_fmt(b, "kernel read fault at 0x%%llx (%d bytes)", acc->result.size), n, v);
	b->indent--;
	return (struct bval){ BX_LONG, bpf_fmt(b, "((int64_t)%s)", r) };
}

/* `raw`, the provider's read of `cv` from the TP_PROTO arguments, made
 * an expression for every form of a tracepoint program: with the
 * classic form's read of the format record beside it (__classic is a
 * constant in each form's program, so clang keeps one of the two).
 * When the record does not carry `cv`, the probe loses its classic
 * form and b->classic_why says why. */
static const char *
target_forms(struct bpf_cg *b, struct node *n, const struct context_var *cv,
	     const char *raw)
{
	const struct provider *pv = b->dp->provider;
	const char *rec;

	if (!b->att || !b->att->classic_section || b->classic_why)
		return raw;
	rec = pv->bpf_classic_expr ? pv->bpf_classic_expr(b->a, b->dp, cv) : NULL;
	if (!rec) {
		b->classic_why = bpf_fmt(b, "its handler reads %s (%s:%d:%d), which the event's format record (a classic tracepoint's context) does not carry",
			n->u.target.name,
			n->loc.src && n->loc.src->name ? n->loc.src->name : "<input>",
			n->loc.line, n->loc.col);
		return raw;
	}
	return bpf_fmt(b, "(__classic ? %s : %s)", rec, raw);
}

static struct bval
target(struct bpf_cg *b, struct node *n)
{
	struct context_var *cv = n->u.target.cv;
	const char *c = NULL;
	const struct ta_access *acc = n->u.target.access;

	if (b->ncb > 0) {
		bpf_refuse(b, n, bpf_fmt(b, "the context variable %s inside a foreach loop of a kernel-side probe (copy it to a local before the loop)", n->u.target.name));
		return (struct bval){ BX_LONG, "0" };
	}
	/* with no steps too, for an integer: the register holds the whole
	 * 64 bits, the argument's type says how many count (int dfd = -100
	 * arrives as 0xffffff9c in di) */
	if (cv && acc && (acc->nsteps > 0 || acc->result.kind == TA_RES_INT) &&
	    !n->u.target.path.pretty &&
	    (acc->base.kind == TA_BASE_SLOT || acc->base.kind == TA_BASE_ARG ||
	     acc->base.kind == TA_BASE_RETURN) &&
	    b->dp->provider->bpf_target_expr &&
	    (c = b->dp->provider->bpf_target_expr(b->a, b->dp, cv)))
		return typed_target(b, n, acc, target_forms(b, n, cv, c));

	if (cv && n->u.target.path.nsteps == 0 && !n->u.target.path.pretty &&
	    !n->u.target.path.addr_of && b->dp->provider->bpf_target_expr)
		c = b->dp->provider->bpf_target_expr(b->a, b->dp, cv);
	if (!c) {
		bpf_refuse(b, n, bpf_fmt(b, "the context variable %s (only plain scalar arguments are read)", n->u.target.name));
		return (struct bval){ BX_LONG, "0" };
	}
	return (struct bval){ BX_LONG, target_forms(b, n, cv, c) };
}

struct bval
bpf_expr(struct bpf_cg *b, struct node *n)
{
	struct bval v = { BX_LONG, "0" };

	if (b->failed)
		return v;
	switch (n->kind) {
	case N_NUMBER:
		v.c = bpf_fmt(b, "((int64_t)%lluULL)", (unsigned long long)n->u.number.value);
		return v;
	case N_STRING:
		v.t = BX_STR;
		v.c = bpf_fmt(b, "\"%s\"", n->u.string.raw);
		return v;
	case N_SYMBOL:
		return symbol_value(b, n);
	case N_TARGET:
		return target(b, n);
	case N_UNARY: {
		struct bval x = bpf_as_long(b, n->u.unary.operand);
		static const char *const ops[] = { "-", "+", "!", "~" };
		enum op op = n->u.unary.op;

		if (op < OP_NEG || op > OP_BNOT) {
			bpf_refuse(b, n, bpf_fmt(b, "operator '%s'", op_spelling(op)));
			return v;
		}
		v.c = bpf_fmt(b, "((int64_t)%s(%s))", ops[op - OP_NEG], x.c);
		return v;
	}
	case N_CREMENT:
		return crement(b, n);
	case N_BINARY:
		if (n->u.binary.op == OP_CONCAT) {
			const char *l = bpf_as_str(b, n->u.binary.lhs);
			const char *r = bpf_as_str(b, n->u.binary.rhs);
			const char *t = bpf_new_str_temp(b);

			bpf_line(b, "tap_str_concat(%s, %s, %s);", t, l, r);
			return (struct bval){ BX_STR, t };
		} else {
			struct bval l = bpf_as_long(b, n->u.binary.lhs);
			const char *lt = bpf_new_long_temp(b, l.c);
			struct bval r = bpf_as_long(b, n->u.binary.rhs);

			v.c = long_binop(b, n->u.binary.op, lt, r.c, n);
			return v;
		}
	case N_COMPARE:
		if (n->u.binary.lhs->type == TY_STRING) {
			const char *l = bpf_as_str(b, n->u.binary.lhs);
			const char *r = bpf_as_str(b, n->u.binary.rhs);

			v.c = bpf_fmt(b, "(tap_str_compare(%s, %s) %s 0)", l, r, c_binop(n->u.binary.op));
			return v;
		} else {
			struct bval l = bpf_as_long(b, n->u.binary.lhs);
			const char *lt = bpf_new_long_temp(b, l.c);
			struct bval r = bpf_as_long(b, n->u.binary.rhs);

			v.c = bpf_fmt(b, "((int64_t)(%s %s %s))", lt, c_binop(n->u.binary.op), r.c);
			return v;
		}
	case N_LOGICAL:
		return logical(b, n);
	case N_TERNARY:
		return ternary(b, n);
	case N_ASSIGN:
		return assign(b, n);
	case N_IN: {
		struct symbol *sym = array_of(b, n->u.in.array);

		if (!sym)
			return v;
		const char *key = build_key(b, sym, &n->u.in.keys);
		v.c = bpf_fmt(b, "((int64_t)(bpf_map_lookup_elem(&%s, &%s) != 0))", bpf_global_map(b, sym), key);
		return v;
	}
	case N_INDEX:
		return index_read(b, n);
	case N_CALL:
		return call(b, n);
	case N_STAT_OP:
		bpf_refuse(b, n, bpf_fmt(b, "reading statistics (%s) in a kernel-side probe", op_spelling(n->u.stat.op)));
		return v;
	case N_HIST:
		bpf_refuse(b, n, "histograms");
		return v;
	case N_REGEX:
		bpf_refuse(b, n, "regular expressions (=~)");
		return v;
	case N_CAST: case N_ATVAR: case N_AUTOCAST:
		bpf_refuse(b, n, "typed kernel data (@cast, @var, ->member)");
		return v;
	case N_ENTRY:
		bpf_refuse(b, n, "@entry");
		return v;
	default:
		bpf_refuse(b, n, "this expression");
		return v;
	}
}

/* ---- statements ---- */

/* A for loop's init or step: an expression, or a statement. */
void
bpf_expr_or_stmt(struct bpf_cg *b, struct node *n)
{
	if (n->kind >= N_BLOCK && n->kind <= N_TRY) {
		bpf_stmt(b, n);
		return;
	}
	bpf_line(b, "{");
	b->indent++;
	struct bval v = bpf_expr(b, n);
	if (v.t == BX_LONG)
		bpf_line(b, "(void)(%s);", v.c);
	b->indent--;
	bpf_line(b, "}");
}

void
bpf_raise_uncaught(struct bpf_cg *b, const char *msg, struct node *n)
{
	raise_uncaught(b, msg, n, NULL);
}

/* One round of a while/for, in a C loop or a bpf_loop() callback: the
 * MAXACTION count (++__acts, the handler's), the test (false: the `stop`
 * statement), the body (continue jumps to contK), the step. */
void
bpf_loop_round(struct bpf_cg *b, struct node *n, const char *stop,
	       struct node *cond, struct node *step, struct node *body, int k)
{
	bpf_line(b, "if (++__acts > TAP_BPF_MAXACTION)");
	b->indent++;
	raise_uncaught(b, "MAXACTION exceeded", n, NULL);
	b->indent--;
	if (cond) {
		struct bval c = bpf_as_long(b, cond);

		bpf_line(b, "if (!(%s)) %s", c.c, stop);
	}
	b->cont = k;
	bpf_line(b, "{");
	b->indent++;
	bpf_stmt(b, body);
	b->indent--;
	bpf_line(b, "}");
	bpf_line(b, "cont%d: ;", k);
	if (step)
		bpf_expr_or_stmt(b, step);
}

static void
loop(struct bpf_cg *b, struct node *n, struct node *cond, struct node *step,
     struct node *body)
{
	int was = b->cont, k;
	const char *brk = b->brk_stmt, *cont = b->cont_stmt;

	if (bpf_loop_callback(b, n, cond, step, body))
		return;
	k = b->seq++;
	b->brk_stmt = b->cont_stmt = NULL;
	bpf_line(b, "for (;;) {");
	b->indent++;
	bpf_loop_round(b, n, "break;", cond, step, body, k);
	b->indent--;
	bpf_line(b, "}");
	b->cont = was;
	b->brk_stmt = brk;
	b->cont_stmt = cont;
}

/* A store to a local nobody reads is left out when computing its value
 * could not show (bpf_effect.c, issue #15): the value is pure, or can
 * only fail and the store is a tapset alias's (argstr, say). */
static bool
unread_store_may_go(struct bpf_cg *b, struct node *e)
{
	if (e->kind != N_ASSIGN || e->u.binary.op != OP_ASSIGN ||
	    e->u.binary.lhs->kind != N_SYMBOL || !e->u.binary.lhs->u.symbol.sym ||
	    e->u.binary.lhs->u.symbol.sym->kind == SYM_GLOBAL ||
	    b->ninl > 0 || b->ntry > 0 ||
	    bpf_is_read_local(b, e->u.binary.lhs->u.symbol.sym))
		return false;
	switch (bpf_effect_of(e->u.binary.rhs)) {
	case BPF_PURE:
		return true;
	case BPF_FAILS:
		return e->loc.src && e->loc.src->is_tapset;
	case BPF_ACTS:
		return false;
	}
	return false;
}

void
bpf_stmt(struct bpf_cg *b, struct node *n)
{
	if (!n || b->failed)
		return;
	switch (n->kind) {
	case N_BLOCK:
		bpf_line(b, "{");
		b->indent++;
		for (int i = 0; i < n->u.block.stmts.n; i++)
			bpf_stmt(b, n->u.block.stmts.v[i]);
		b->indent--;
		bpf_line(b, "}");
		return;
	case N_NULL_STMT:
		return;
	case N_EXPR_STMT: {
		struct node *e = n->u.expr_stmt.expr;

		if (unread_store_may_go(b, e))
			return;
		bpf_line(b, "{");
		b->indent++;
		struct bval v = bpf_expr(b, e);
		if (v.t == BX_LONG)
			bpf_line(b, "(void)(%s);", v.c);
		b->indent--;
		bpf_line(b, "}");
		return;
	}
	case N_IF: {
		bpf_line(b, "{");
		b->indent++;
		struct bval c = bpf_as_long(b, n->u.if_stmt.cond);
		bpf_line(b, "if (%s) {", c.c);
		b->indent++;
		bpf_stmt(b, n->u.if_stmt.then_stmt);
		b->indent--;
		if (n->u.if_stmt.else_stmt) {
			bpf_line(b, "} else {");
			b->indent++;
			bpf_stmt(b, n->u.if_stmt.else_stmt);
			b->indent--;
		}
		bpf_line(b, "}");
		b->indent--;
		bpf_line(b, "}");
		return;
	}
	case N_WHILE:
		loop(b, n, n->u.while_stmt.cond, NULL, n->u.while_stmt.body);
		return;
	case N_FOR:
		bpf_line(b, "{");
		b->indent++;
		if (n->u.for_stmt.init)
			bpf_expr_or_stmt(b, n->u.for_stmt.init);
		loop(b, n, n->u.for_stmt.cond, n->u.for_stmt.step,
		     n->u.for_stmt.body);
		b->indent--;
		bpf_line(b, "}");
		return;
	case N_BREAK:
		bpf_line(b, "%s", b->brk_stmt ? b->brk_stmt : "break;");
		return;
	case N_CONTINUE:
		if (b->cont_stmt)
			bpf_line(b, "%s", b->cont_stmt);
		else
			bpf_line(b, "goto cont%d;", b->cont);
		return;
	case N_NEXT:
		bpf_line(b, "%s", bpf_abort(b));
		return;
	case N_DELETE: {
		struct node *t = n->u.del.target;

		if (t->kind == N_INDEX) {
			struct symbol *sym = array_of(b, t->u.index.base);

			if (!sym)
				return;
			bpf_line(b, "{");
			b->indent++;
			const char *key = build_key(b, sym, &t->u.index.keys);
			bpf_line(b, "bpf_map_delete_elem(&%s, &%s);", bpf_global_map(b, sym), key);
			b->indent--;
			bpf_line(b, "}");
			return;
		}
		bpf_refuse(b, n, "deleting a whole array or a scalar in a kernel-side probe");
		return;
	}
	case N_FOREACH:
		bpf_foreach(b, n);
		return;
	case N_TRY:
		bpf_try(b, n);
		return;
	case N_RETURN:
		if (b->ninl > 0) {
			bpf_return(b, n);
			return;
		}
		bpf_refuse(b, n, "return");
		return;
	default:
		bpf_refuse(b, n, "this statement");
		return;
	}
}
