/*
 * dwdump.c -- a developer CLI over dwarf.h: the probe sites of a function
 * pattern in an ELF file with DWARF, and the variables at each site with
 * their locations and types.
 *
 *   dwdump FILE PATTERN [function|inline|return|statement:LINE] [FILE-PATTERN]
 *
 * Used by hand and by the kmod tier's host checks; not installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translator/debuginfo/dwarf.h"

static struct dw_file *file;

static void
print_loc(const struct dw_loc *l)
{
	const char *r = dw_x86_64_pt_regs_name(l->reg);

	switch (l->kind) {
	case DW_LOC_REG: printf("reg %s", r ? r : "?"); break;
	case DW_LOC_MEM: printf("mem %s%+lld", r ? r : "?", (long long)l->offset); break;
	case DW_LOC_REG_VALUE: printf("value %s%+lld", r ? r : "?", (long long)l->offset); break;
	case DW_LOC_CONST: printf("const %lld", (long long)l->value); break;
	case DW_LOC_EXPR: printf("%s %s", l->is_value ? "value" : "mem at", l->expr); break;
	case DW_LOC_SYMBOL: printf("%ssymbol %s%+lld", l->percpu ? "per-CPU " : "", l->symbol, (long long)l->offset); break;
	case DW_LOC_PIECES:
		printf("pieces (%u bytes):", l->size);
		for (int i = 0; i < l->npieces; i++)
			printf(" [%u+%u %s %s]", l->pieces[i].offset, l->pieces[i].size,
			       l->pieces[i].is_value ? "value" : "mem at", l->pieces[i].expr);
		break;
	case DW_LOC_UNAVAILABLE: printf("unavailable: %s", l->why); break;
	}
}

static bool
show(const struct dw_site *s, void *ctx)
{
	const struct dw_var *v;
	char err[256], tn[256];
	int n = dw_site_vars(file, s, &v, err, sizeof(err));

	(void)ctx;
	printf("%s@%s:%d line %d pc 0x%llx link 0x%llx %s+0x%llx%s\n",
	       s->function, s->decl_file ? s->decl_file : "?", s->decl_line,
	       s->line, (unsigned long long)s->pc,
	       (unsigned long long)s->link_pc, s->symbol,
	       (unsigned long long)s->offset, s->external ? " external" : "");
	for (int i = 0; i < n; i++) {
		printf("  %s %s %s: ", v[i].is_param ? "param" : "local",
		       dw_type_name(file, v[i].type, tn, sizeof(tn)), v[i].name);
		print_loc(&v[i].loc);
		putchar('\n');
	}
	return true;
}

int
main(int argc, char **argv)
{
	char err[512];
	struct dw_query q = { 0 };

	if (argc < 3) {
		fputs("usage: dwdump FILE PATTERN [function|inline|return|statement:LINE] [FILE-PATTERN]\n", stderr);
		return 2;
	}
	if (!(file = dw_open(argv[1], err, sizeof(err)))) {
		fprintf(stderr, "dwdump: %s\n", err);
		return 1;
	}
	q.func = argv[2];
	q.kind = DW_SITE_FUNCTION;
	if (argc > 3 && strcmp(argv[3], "inline") == 0)
		q.kind = DW_SITE_INLINE;
	else if (argc > 3 && strcmp(argv[3], "return") == 0)
		q.kind = DW_SITE_RETURN;
	else if (argc > 3 && strncmp(argv[3], "statement:", 10) == 0) {
		q.kind = DW_SITE_STATEMENT;
		q.line_lo = atoi(argv[3] + 10);
		q.every_line = strcmp(argv[3] + 10, "*") == 0;
	}
	q.file = argc > 4 ? argv[4] : NULL;
	int n = dw_find_sites(file, &q, show, NULL, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "dwdump: %s\n", err);
		return 1;
	}
	fprintf(stderr, "%d sites\n", n);
	dw_close_all();
	return n ? 0 : 1;
}
