/*
 * bpf_user.c -- the glue between the user program of --runtime=bpf and
 * its BPF half, appended to the user target's C (after runtime.c).
 *
 * Takes what bpf_emit.c / bpf_expr.c recorded while writing the BPF C
 * (print sites, error sites, which globals live in BPF maps) and the
 * compiled BPF object.  Produces: the tables runtime/bpf/user_bpf.c
 * reads (tap_bpf_prints, tap_bpf_errors, tap_bpf_maps,
 * tap_bpf_probe_names), struct tap_globals (the same layout as the BPF
 * side's), the scalar copies both ways, the object's bytes, and the
 * #include of user_bpf.c.
 * Must not: emit anything the BPF C does not match field for field.
 */
#include <string.h>

#include "translator/codegen/bpf_int.h"

static void
c_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			fprintf(out, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static char
kind_letter(enum bx t)
{
	return t == BX_LONG ? 'L' : t == BX_STR ? 'S' : 'Q';
}

static void
emit_prints(struct bpf_cg *b, FILE *out)
{
	int max = 1;

	for (int i = 0; i < b->nprints; i++)
		if (b->prints[i].nargs > max)
			max = b->prints[i].nargs;
	fprintf(out, "#define TAP_BPF_MAX_ARGS %d\n#define TAP_BPF_NPRINTS %d\n#define TAP_BPF_NERRORS %d\n",
		max, b->nprints, b->nerrors);
	fprintf(out, "struct tap_bpf_print_site {\n\tconst char *fmt;\n\tbool newline;\n\tunsigned int nargs;\n\tconst char *kinds;\n};\n");
	fprintf(out, "static const struct tap_bpf_print_site tap_bpf_prints[TAP_BPF_NPRINTS + 1] = {\n");
	for (int i = 0; i < b->nprints; i++) {
		struct bpf_print_site *p = &b->prints[i];
		char kinds[64] = "";

		for (int k = 0; k < p->nargs && k < 63; k++)
			kinds[k] = kind_letter(p->args[k]);
		kinds[p->nargs < 63 ? p->nargs : 63] = '\0';
		fprintf(out, "\t{ ");
		if (p->fmt)
			fprintf(out, "\"%s\"", p->fmt);	/* the script's escapes */
		else
			fprintf(out, "NULL");
		fprintf(out, ", %s, %d, \"%s\" },\n", p->newline ? "true" : "false",
			p->nargs, kinds);
	}
	fprintf(out, "};\n");
	fprintf(out, "static const struct { const char *msg, *near; bool has_addr; } tap_bpf_errors[TAP_BPF_NERRORS + 1] = {\n");
	for (int i = 0; i < b->nerrors; i++) {
		fprintf(out, "\t{ ");
		c_string(out, b->errors[i].msg);
		fprintf(out, ", ");
		if (b->errors[i].near)
			c_string(out, b->errors[i].near);
		else
			fprintf(out, "NULL");
		fprintf(out, ", %s },\n", b->errors[i].has_addr ? "true" : "false");
	}
	fprintf(out, "};\n");
}

/* A statistic's accumulator as user_bpf.c reads it: 'T' count, sum,
 * min and max; 'H' with @hist_log's buckets, 'N' with @hist_linear's;
 * 'V' with @variance's state; 'h' and 'n' with the buckets and then the
 * state. */
static char
stat_kind(struct bpf_cg *b, struct symbol *sym)
{
	bool variance = bpf_variance_shift(b, sym) >= 0;

	if (bpf_hist_linear(b, sym))
		return variance ? 'n' : 'N';
	if (bpf_uses_hist_log(b, sym))
		return variance ? 'h' : 'H';
	return variance ? 'V' : 'T';
}

static void
emit_globals(struct bpf_cg *b, FILE *out)
{
	struct program *p = b->prog;
	int nmaps = 0;

	bpf_emit_globals_struct(b, out);
	fprintf(out, "static void\ntap_bpf_push_scalars(struct tap_globals *g)\n{\n\t(void)g;\n");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (!b->kernel_global[i] || sym->nkeys > 0 || sym->type == TY_STATS)
			continue;
		if (sym->type == TY_STRING)
			fprintf(out, "\tsnprintf(g->%s, TAP_BPF_STRLEN, \"%%s\", %s);\n", sym->c_name, sym->c_name);
		else
			fprintf(out, "\tg->%s = %s;\n", sym->c_name, sym->c_name);
	}
	fprintf(out, "}\nstatic void\ntap_bpf_pull_scalars(const struct tap_globals *g)\n{\n\t(void)g;\n");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];

		if (!b->kernel_global[i] || sym->nkeys > 0 || sym->type == TY_STATS)
			continue;
		if (sym->type == TY_STRING)
			fprintf(out, "\tsnprintf(%s, MAXSTRINGLEN, \"%%.*s\", TAP_BPF_STRLEN, g->%s);\n", sym->c_name, sym->c_name);
		else
			fprintf(out, "\t%s = g->%s;\n", sym->c_name, sym->c_name);
	}
	fprintf(out, "}\n");
	fprintf(out, "struct tap_bpf_map_desc {\n\tconst char *map;\n\tconst char *key_kinds;\n\tsize_t key_size;\n\tchar value_kind;\n\tvoid *global;\n};\n");
	fprintf(out, "static const struct tap_bpf_map_desc tap_bpf_maps[] = {\n");
	for (int i = 0; i < p->nglobals; i++) {
		struct symbol *sym = p->globals[i];
		char kinds[16] = "";
		int nstr = 0, nlong = 0;

		if (!b->kernel_global[i] || (sym->nkeys == 0 && sym->type != TY_STATS))
			continue;
		for (int k = 0; k < sym->nkeys; k++) {
			kinds[k] = sym->key_types[k] == TY_STRING ? 'S' : 'L';
			if (sym->key_types[k] == TY_STRING)
				nstr++;
			else
				nlong++;
		}
		/* the key struct's size (bpf_emit.c), or the __u32 index */
		fprintf(out, "\t{ \"m%d\", \"%s\", %s, '%c', &%s },\n", i, kinds,
			sym->nkeys == 0 ? "4" : bpf_fmt(b, "%d * TAP_BPF_STRLEN + %d * 8", nstr, nlong),
			sym->type == TY_STATS ? stat_kind(b, sym) :
			sym->type == TY_STRING ? 'S' : 'L',
			sym->c_name);
		nmaps++;
	}
	fprintf(out, "\t{ NULL, NULL, 0, 0, NULL }\n};\n#define TAP_BPF_NMAPS %d\n", nmaps);
}

void
bpf_emit_user_glue(struct bpf_cg *b, FILE *out, const char *object_key)
{
	fprintf(out, "\n/* ---- the BPF half (translator/codegen/bpf_user.c) ---- */\n");
	fprintf(out, "#include \"tap_bpf_abi.h\"\n");
	emit_prints(b, out);
	emit_globals(b, out);
	/* program name -> the probe, where the script wrote it, for a
	 * perf event program its sampling period and CPUs, for a uprobe
	 * its place, for a tracepoint without a classic form the reason */
	fprintf(out, "static const struct { const char *prog, *probe, *where; unsigned long long perf_period_ns; bool perf_every_cpu; const char *uprobe_path; unsigned long long uprobe_offset, uprobe_ref_ctr_offset; int uprobe_pid; bool uprobe_return; const char *classic_why; } tap_bpf_probe_names[] = {\n");
	for (int i = 0; i < b->nkernel_names; i++) {
		fprintf(out, "\t{ \"%s\", ", b->kernel_progs[i]);
		c_string(out, b->kernel_names[i]);
		fprintf(out, ", ");
		c_string(out, b->kernel_where[i]);
		fprintf(out, ", %lluULL, %s, ", b->kernel_attach[i].perf_period_ns,
			b->kernel_attach[i].perf_every_cpu ? "true" : "false");
		if (b->kernel_attach[i].uprobe_path)
			c_string(out, b->kernel_attach[i].uprobe_path);
		else
			fprintf(out, "NULL");
		fprintf(out, ", %lluULL, %lluULL, %d, %s, ",
			b->kernel_attach[i].uprobe_offset,
			b->kernel_attach[i].uprobe_ref_ctr_offset,
			b->kernel_attach[i].uprobe_pid,
			b->kernel_attach[i].uprobe_return ? "true" : "false");
		if (b->kernel_classic_why[i])
			c_string(out, b->kernel_classic_why[i]);
		else
			fprintf(out, "NULL");
		fprintf(out, " },\n");
	}
	fprintf(out, "\t{ NULL, NULL, NULL, 0, false, NULL, 0, 0, 0, false, NULL }\n};\n");
	/* the object's bytes come in at the link, from its own file, so
	 * that clang and cc run side by side (translator/build/build_bpf.c) */
	fprintf(out, "/* the BPF object %s */\n", object_key);
	fprintf(out, "extern const unsigned char tap_bpf_object[], tap_bpf_object_end[];\n");
	fprintf(out, "#include \"user_bpf.c\"\n");
}
