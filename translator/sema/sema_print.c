/*
 * sema_print.c -- what `tapc -p2` prints: the elaborated program in a
 * stable form. Globals with their types, the functions that are called,
 * then each derived probe with the point it came from, its context
 * variables and locals, and its body (alias prologues and epilogues
 * included) in the canonical form of pass 1.
 */
#include "translator/parse/parse.h"
#include "translator/sema/sema.h"

static void
print_symbol_type(FILE *out, const struct symbol *s)
{
	fputs(type_name(s->type), out);
	if (s->nkeys == 0)
		return;
	fputc('[', out);
	for (int i = 0; i < s->nkeys; i++)
		fprintf(out, "%s%s", i ? ", " : "", type_name(s->key_types[i]));
	fputc(']', out);
}

static void
print_globals(FILE *out, const struct program *p)
{
	fputs("# globals\n", out);
	for (int i = 0; i < p->nglobals; i++) {
		const struct symbol *g = p->globals[i];
		fprintf(out, "%s:", g->name);
		print_symbol_type(out, g);
		if (g->max_entries)
			fprintf(out, " size=%ld", g->max_entries);
		if (g->wrap)
			fputs(" wrap", out);
		if (g->init) {
			fputs(" = ", out);
			print_node(out, g->init);
		}
		if (g->cmdline_value)
			fprintf(out, " -G %s", g->cmdline_value);
		fputc('\n', out);
	}
}

static void
print_locals(FILE *out, struct symbol **locals, int n, int skip)
{
	if (n <= skip)
		return;
	fputs("# locals:", out);
	for (int i = skip; i < n; i++) {
		fprintf(out, " %s:", locals[i]->name);
		print_symbol_type(out, locals[i]);
	}
	fputc('\n', out);
}

static void
print_functions(FILE *out, const struct program *p)
{
	fputs("# functions\n", out);
	for (int i = 0; i < p->nfunctions; i++) {
		const struct function_sym *f = p->functions[i];
		const struct node *d = f->decl;
		fprintf(out, "function %s:%s(", f->name, type_name(f->ret));
		for (int j = 0; j < f->nparams; j++)
			fprintf(out, "%s%s:%s", j ? ", " : "",
				f->params[j]->name,
				type_name(f->params[j]->type));
		fputc(')', out);
		if (d->loc.src)
			fprintf(out, " /* %s:%d */", d->loc.src->name,
				d->loc.line);
		fputc('\n', out);
		print_locals(out, f->locals, f->nlocals, f->nparams);
		if (d->u.function.embedded)
			fputs("%{ ... %}\n", out);
		else
			print_statement(out, d->u.function.body, 0);
	}
}

static void
print_probe(FILE *out, const struct derived_probe *dp)
{
	fprintf(out, "probe %s", dp->name);
	if (dp->written)
		fprintf(out, " /* <- %s */", dp->written);
	fputc('\n', out);
	if (dp->nctxvars) {
		fputs("# context:", out);
		for (int i = 0; i < dp->nctxvars; i++)
			fprintf(out, " $%s:%s", dp->ctxvars[i]->name,
				type_name(dp->ctxvars[i]->type));
		fputc('\n', out);
	}
	print_locals(out, dp->locals, dp->nlocals, 0);
	if (dp->cond) {
		fputs("# if (", out);
		print_node(out, dp->cond);
		fputs(")\n", out);
	}
	print_statement(out, dp->body, 0);
}

void
sema_print_program(FILE *out, const struct session *s)
{
	const struct program *p = s->program;

	print_globals(out, p);
	print_functions(out, p);
	fputs("# probes\n", out);
	for (int i = 0; i < p->nprobes; i++)
		print_probe(out, p->probes[i]);
	/* counters have no handler: their point, and who may read them */
	for (int i = 0; i < p->ncounters; i++)
		fprintf(out, "probe %s /* a counter for @perf(\"%s\") in %s */\n",
			p->counters[i]->point, p->counters[i]->name,
			p->counters[i]->path ? p->counters[i]->path :
			"any program's process probes");
}
