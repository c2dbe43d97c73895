/*
 * codegen_probe.c -- pass 3 for frames: probe handlers and script
 * functions, their locals, and calls between them.
 *
 * A frame's locals and temporaries are a struct in union tap_frame; the
 * context holds TAP_MAXNESTING + 1 such frames after its fixed part (the
 * platform allocates tap_module.locals_size bytes per context), never the
 * C stack. A handler uses frame 0; a function called at depth d uses frame
 * d, so recursion has its own locals at every level and MAXNESTING bounds
 * it. The handler prologue zeroes the script's locals (0 and ""), checks
 * the probe's condition; script errors end at the `out` label, where the
 * platform's tap_context_exit() reports them. Each body is generated into
 * memory first, because the frame's struct is only known once every
 * temporary has been handed out.
 */
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"

/* Record a local the body uses, so that the frame declares it. */
static void
cg_frame_add(struct cg *g, struct cg_frame *f, struct symbol *sym)
{
	int i;

	for (i = 0; i < f->nsyms; i++)
		if (f->syms[i] == sym || strcmp(f->syms[i]->name, sym->name) == 0)
			return;
	f->syms = arena_grow(g->a, f->syms, sizeof(*f->syms), &f->sym_cap,
			     f->nsyms + 1);
	f->syms[f->nsyms++] = sym;
}

void
cg_frame_note(struct cg *g, struct symbol *sym)
{
	if (g->frame && sym->kind != SYM_GLOBAL)
		cg_frame_add(g, g->frame, sym);
}

static const char *
cg_c_type(enum type t)
{
	return t == TY_STRING ? "const char *" : "int64_t ";
}

/* The frame's struct, written to the declarations. */
static void
cg_frame_struct(struct cg *g, struct cg_frame *f)
{
	int i;

	fprintf(g->decls, "struct %s {\n", f->struct_name);
	for (i = 0; i < f->nsyms; i++) {
		struct symbol *s = f->syms[i];

		if (s->type == TY_STRING)
			fprintf(g->decls, "\tchar l_%s[MAXSTRINGLEN];\n", s->name);
		else
			fprintf(g->decls, "\tint64_t l_%s;\n", s->name);
	}
	for (i = 0; i < f->nstr; i++)
		fprintf(g->decls, "\tchar __str%d[MAXSTRINGLEN];\n", i);
	for (i = 0; i < f->niter; i++)
		if (f->iter_slots[i] > 0)
			fprintf(g->decls, "\tstruct tap_map_entry *__it%d[%ld];\n",
				i, f->iter_slots[i]);
		else
			fprintf(g->decls, "\tstruct tap_map_entry *__it%d[MAXMAPENTRIES];\n",
				i);
	fprintf(g->decls, "\tchar __end;\n};\n");
	fprintf(g->body_frames, "\tstruct %s %s;\n", f->struct_name, f->member);
}

/* Generate `body` into memory; returns the text. */
static char *
cg_frame_body(struct cg *g, struct node *body, struct node *cond)
{
	struct cg_writer saved = g->w;
	char *text = NULL;
	size_t len = 0;

	g->w.out = open_memstream(&text, &len);
	g->w.depth = 1;
	g->err_label = "out";
	g->out_label = "out";
	if (cond) {
		cg_locks_before_expr(g, cond);
		cg_line(&g->w, "if (!(%s)) goto out;", cg_expr(g, cond));
	}
	if (body)
		cg_stmt(g, body);
	fclose(g->w.out);
	g->w = saved;
	return text;
}

static void
cg_locals_init(struct cg *g, struct cg_frame *f, int skip)
{
	int i;

	for (i = 0; i < f->nsyms; i++) {
		struct symbol *s = f->syms[i];
		bool param = false;
		int j;

		for (j = 0; j < skip; j++)
			if (f->fn->params[j] == s ||
			    strcmp(f->fn->params[j]->name, s->name) == 0)
				param = true;
		if (param)
			continue;
		if (s->type == TY_STRING)
			cg_line(&g->w, "l->l_%s[0] = '\\0';", s->name);
		else
			cg_line(&g->w, "l->l_%s = 0;", s->name);
	}
}

static void
cg_handler(struct cg *g, struct derived_probe *dp, int index)
{
	struct cg_frame f = { 0 };
	struct cg_locks locks;
	char *text;
	int i, nlocks = cg_lock_table(g, dp, index);

	f.struct_name = cg_fmt(g, "probe_%d_locals", index);
	f.member = cg_fmt(g, "probe_%d", index);
	g->frame = &f;
	for (i = 0; i < dp->nlocals; i++)
		cg_frame_add(g, &f, dp->locals[i]);
	cg_locks_begin(g, &locks, index, nlocks);
	g->alone = dp->provider == &provider_begin_end;
	text = cg_frame_body(g, dp->body, dp->cond);
	cg_locks_end(g);
	cg_frame_struct(g, &f);
	cg_blank(&g->w);
	cg_comment(&g->w, "probe %s at %s", dp->name,
		cg_where(g, dp->origin ? dp->origin->loc : dp->point->loc, NULL));
	/* inline: a provider's callback calls it once, on every event */
	cg_line(&g->w, "static inline void");
	cg_line(&g->w, "probe_%d(struct tap_context *c)", index);
	cg_open_block(&g->w);
	cg_line(&g->w, "struct %s *l = &TAP_FRAME(c, 0)->%s;", f.struct_name,
		f.member);
	cg_blank(&g->w);
	if (nlocks)	/* taken where the body first needs them */
		cg_line(&g->w, "bool __locked = false;");
	if (g->s->opts.timing)	/* -t: only then, so plain runs pay nothing */
		cg_line(&g->w, "uint64_t __tap_t0 = tap_timing_start();");
	cg_line(&g->w, "(void)l;");
	cg_line(&g->w, "c->next = false;");
	if (g->submatches)	/* matched() & co: no match yet in this probe */
		cg_line(&g->w, "tap_match_reset(&c->match);");
	cg_locals_init(g, &f, 0);
	if (g->alone)	/* counts made beside it, before it reads them */
		cg_fold_counted_arrays(g, NULL, "out");
	g->alone = false;
	fputs(text, g->w.out);
	free(text);
	cg_label(&g->w, "out");
	if (nlocks)
		cg_line(&g->w, "if (__locked)\n\t\ttap_locks_release(__tap_locks_%d, %d);",
			index, nlocks);
	if (g->s->opts.timing)	/* the locks' release is the handler's too */
		cg_line(&g->w, "tap_timing_record(%d, __tap_t0, c->error);",
			index);
	cg_close(&g->w, NULL);
	g->frame = NULL;
}

static const char *
cg_fn_name(struct cg *g, struct function_sym *fn)
{
	/* the arity too: functions may be overloaded by it */
	return cg_fmt(g, "fn_%s_%d", fn->name, fn->nparams);
}

/* static RET fn_NAME(struct tap_context *c, PARAMS) */
static const char *
cg_fn_signature(struct cg *g, struct function_sym *fn)
{
	char *sig = cg_fmt(g, "%s(struct tap_context *c%s", cg_fn_name(g, fn),
			   fn->ret == TY_STRING ? ", char *__ret" : "");
	int i;

	for (i = 0; i < fn->nparams; i++)
		sig = cg_fmt(g, "%s, %sp_%s", sig,
			     cg_c_type(fn->params[i]->type), fn->params[i]->name);
	return cg_fmt(g, "%s)", sig);
}

static const char *
cg_fn_ret_type(struct function_sym *fn)
{
	return fn->ret == TY_LONG ? "int64_t" : "void";
}

static void
cg_embedded_body(struct cg *g, struct function_sym *fn, const char *code)
{
	int i;

	for (i = 0; i < fn->nparams; i++)
		cg_line(&g->w, "#define STAP_ARG_%s (l->l_%s)",
			fn->params[i]->name, fn->params[i]->name);
	cg_line(&g->w, "#define STAP_RETVALUE %s",
		fn->ret == TY_STRING ? "__ret" : "__retval");
	cg_line(&g->w, "#define STAP_RETURN(v) do { STAP_RETVALUE = (v); goto out; } while (0)");
	cg_line(&g->w, "#define STAP_ERROR(...) do { tap_error(c, __VA_ARGS__); goto out; } while (0)");
	cg_line(&g->w, "#define CONTEXT c");
	fprintf(g->w.out, "%s\n", code);
	for (i = 0; i < fn->nparams; i++)
		cg_line(&g->w, "#undef STAP_ARG_%s", fn->params[i]->name);
	cg_line(&g->w, "#undef STAP_RETVALUE");
	cg_line(&g->w, "#undef STAP_RETURN");
	cg_line(&g->w, "#undef STAP_ERROR");
	cg_line(&g->w, "#undef CONTEXT");
}

static void
cg_fn_prologue(struct cg *g, struct function_sym *fn, struct cg_frame *f)
{
	int i;

	cg_line(&g->w, "struct %s *l = &TAP_FRAME(c, c->nesting)->%s;",
		f->struct_name, f->member);
	if (fn->ret == TY_LONG)
		cg_line(&g->w, "int64_t __retval = 0;");
	cg_blank(&g->w);
	cg_line(&g->w, "(void)l;");
	if (fn->ret == TY_STRING)
		cg_line(&g->w, "__ret[0] = '\\0';");
	for (i = 0; i < fn->nparams; i++) {
		struct symbol *p = fn->params[i];

		if (p->type == TY_STRING)
			cg_line(&g->w, "tap_str_copy(l->l_%s, p_%s);", p->name,
				p->name);
		else
			cg_line(&g->w, "l->l_%s = p_%s;", p->name, p->name);
	}
	cg_locals_init(g, f, fn->nparams);
}

static void
cg_function(struct cg *g, struct function_sym *fn)
{
	struct node *decl = fn->decl;
	struct cg_frame f = { 0 };
	char *text = NULL;
	int i;

	f.struct_name = cg_fmt(g, "fn_%s_%d_locals", fn->name, fn->nparams);
	f.member = cg_fmt(g, "fn_%s_%d", fn->name, fn->nparams);
	f.is_function = true;
	f.fn = fn;
	g->frame = &f;
	for (i = 0; i < fn->nlocals; i++)
		cg_frame_add(g, &f, fn->locals[i]);
	for (i = 0; i < fn->nparams; i++)
		cg_frame_add(g, &f, fn->params[i]);
	if (decl && decl->u.function.body)
		text = cg_frame_body(g, decl->u.function.body, NULL);
	cg_frame_struct(g, &f);
	cg_blank(&g->w);
	cg_comment(&g->w, "function %s at %s", fn->name,
		decl ? cg_where(g, decl->loc, NULL) : "?");
	cg_line(&g->w, "static %s", cg_fn_ret_type(fn));
	cg_line(&g->w, "%s", cg_fn_signature(g, fn));
	cg_open_block(&g->w);
	cg_fn_prologue(g, fn, &f);
	if (text)
		fputs(text, g->w.out);
	else if (decl && decl->u.function.embedded)
		cg_embedded_body(g, fn, decl->u.function.embedded);
	free(text);
	cg_label(&g->w, "out");
	if (fn->ret == TY_LONG)
		cg_line(&g->w, "return __retval;");
	cg_close(&g->w, NULL);
	g->frame = NULL;
}

void
cg_functions(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	for (i = 0; i < p->nfunctions; i++)
		fprintf(g->decls, "static %s %s;\n",
			cg_fn_ret_type(p->functions[i]),
			cg_fn_signature(g, p->functions[i]));
	for (i = 0; i < p->nfunctions; i++)
		cg_function(g, p->functions[i]);
}

void
cg_probes(struct cg *g)
{
	struct program *p = g->prog;
	int i;

	for (i = 0; i < p->nprobes; i++)
		cg_handler(g, p->probes[i], i);
}

/*
 * Where stap says MAXNESTING was exceeded: at the callee's name in its
 * declaration (the check is in its prologue there). The node keeps the
 * `function` keyword's place; the name is the next word of the source.
 */
static const char *
cg_fn_near(struct cg *g, struct function_sym *fn, struct node *call)
{
	struct loc at;
	const char *p, *text;
	int line = 1;

	if (!fn->decl || !fn->decl->loc.src || !fn->decl->loc.src->text)
		return cg_near(g, call);
	at = fn->decl->loc;
	text = at.src->text;
	for (p = text; *p && line < at.line; p++)
		if (*p == '\n')
			line++;
	p += at.col - 1;
	if (strncmp(p, "function", 8) != 0)
		return cg_near(g, call);
	for (p += 8, at.col += 8; *p == ' ' || *p == '\t' || *p == '\n'; p++) {
		at.col++;
		if (*p == '\n') {
			at.line++;
			at.col = 1;
		}
	}
	return cg_where(g, at, cg_fmt(g, "identifier '%s'", fn->name));
}

/* A call: arguments in order into temporaries, the nesting check, the
 * call one frame deeper, then the callee's error or `next`. */
const char *
cg_function_call(struct cg *g, struct node *n)
{
	struct function_sym *fn = n->u.call.fn;
	char *decl = "", *args = "";
	const char *dst = NULL, *call, *on_error, *near = cg_fn_near(g, fn, n);
	int i;

	for (i = 0; i < n->u.call.args.n && i < fn->nparams; i++) {
		const char *t = cg_fmt(g, "__t%d", g->label_seq++);

		decl = cg_fmt(g, "%s%s%s = %s; ", decl,
			      cg_c_type(fn->params[i]->type), t,
			      cg_expr(g, n->u.call.args.v[i]));
		args = cg_fmt(g, "%s, %s", args, t);
	}
	if (fn->ret == TY_STRING) {
		dst = cg_str_temp(g);
		args = cg_fmt(g, ", %s%s", dst, args);
	}
	call = cg_fmt(g, "%s(c%s)", cg_fn_name(g, fn), args);
	near = cg_c_string(g, near, strlen(near));
	/* an embedded-C function's error has no statement of its own: it is
	 * near the function's name, as SystemTap reports it */
	if (fn->decl && fn->decl->u.function.embedded)
		on_error = cg_fmt(g, "{ if (!c->last_stmt) c->last_stmt = %s; goto %s; }",
				  near, g->err_label);
	else
		on_error = cg_fmt(g, "goto %s;", g->err_label);
	return cg_fmt(g, "({ %sif (unlikely(!tap_nesting_enter(c))) { "
		      "c->last_stmt = %s; goto %s; } "
		      "%s%s; tap_nesting_exit(c); "
		      "if (unlikely(c->error)) %s "
		      "if (unlikely(c->next)) goto %s; %s; })",
		      decl, near, g->err_label,
		      fn->ret == TY_LONG ? "int64_t __r = " : "", call,
		      on_error, g->out_label,
		      fn->ret == TY_LONG ? "__r" : fn->ret == TY_STRING ?
		      cg_fmt(g, "(const char *)%s", dst) : "(int64_t)0");
}
