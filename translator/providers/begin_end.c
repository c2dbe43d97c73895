/*
 * begin_end.c -- the begin, end, error and never probes.
 *
 * begin runs when the script starts, end when it stops, error when a
 * probe hits a script error; an optional number orders probes of one kind
 * (begin(-1) before begin). never is never registered: it checks that a
 * body elaborates. They offer no context variables.
 *
 * Both backends get the same tables: struct tap_probe pointers, one array
 * per kind, in sequence order; the platform runs them itself (module init
 * and exit, or the user program's main).
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/pdata.h"
#include "translator/providers/provider.h"

extern const struct provider provider_begin_end;

static const struct {
	const char *name;
	enum be_kind kind;
} kinds[] = {
	{ "begin", BE_BEGIN }, { "end", BE_END }, { "error", BE_ERROR },
	{ "never", BE_NEVER },
};

static int
kind_index(const struct node *point)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (pp_is(point, 0, kinds[i].name))
			return (int)i;
	return -1;
}

static bool
begin_end_claims(const struct node *point)
{
	return point->u.point.ncomps == 1 && kind_index(point) >= 0;
}

static int
begin_end_match(struct elab *e, struct node *point)
{
	int k = kind_index(point);
	struct pdata_begin_end *pd = arena_alloc(e->s->arena, sizeof(*pd));
	const struct node *arg = pp_arg(point, 0);

	pd->kind = kinds[k].kind;
	if (arg && (arg->kind != N_NUMBER || pd->kind == BE_NEVER)) {
		diag_error(&e->s->diag, point->loc, "E_PROBE_ARG",
			   "%s takes %s", kinds[k].name,
			   pd->kind == BE_NEVER ? "no argument" :
			   "an optional sequence number");
		return -1;
	}
	if (arg)
		pd->sequence = (int64_t)arg->u.number.value;
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

/* ---- code generation ---- */

static int64_t
sequence_of(const struct derived_probe *dp)
{
	return ((const struct pdata_begin_end *)dp->pdata)->sequence;
}

/* End probes with the autoprint handlers among them: stap adds those as
 * end probes of sequence 0 after the script's own. */
static int
end_table(struct cg *g, struct derived_probe **v, int n, const char *name)
{
	int i, k;

	cg_open(&g->w, "static const struct tap_probe *const %s[] =", name);
	for (i = 0; i < n && sequence_of(v[i]) <= 0; i++)
		cg_line(&g->w, "&__tap_probe_%d,", v[i]->index);
	for (k = 0; k < g->nauto; k++)
		cg_line(&g->w, "&__tap_auto_%d,", k);
	for (; i < n; i++)
		cg_line(&g->w, "&__tap_probe_%d,", v[i]->index);
	cg_close(&g->w, ";");
	return n + g->nauto;
}

/* Begin, end or error probes, in sequence order (stable). */
static int
kind_table(struct cg *g, enum be_kind kind, const char *name)
{
	struct program *p = g->prog;
	struct derived_probe **v = arena_alloc(g->a, sizeof(*v) *
					       (size_t)(p->nprobes + 1));
	int i, j, n = 0;

	for (i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];

		if (dp->provider != &provider_begin_end ||
		    ((const struct pdata_begin_end *)dp->pdata)->kind != kind)
			continue;
		/* --remote-merge: the hosts' module leaves its end probes
		 * to tapc, which runs them over every host's globals
		 * (codegen_merge.c); its end table is the merge lines'. */
		if (kind == BE_END && g->s->opts.merge_part == MERGE_REMOTE)
			continue;
		for (j = n; j > 0 && sequence_of(v[j - 1]) > sequence_of(dp); j--)
			v[j] = v[j - 1];
		v[j] = dp;
		n++;
	}
	if (kind == BE_END && g->nauto)
		return end_table(g, v, n, name);
	if (!n)
		return 0;
	cg_open(&g->w, "static const struct tap_probe *const %s[] =", name);
	for (i = 0; i < n; i++)
		cg_line(&g->w, "&__tap_probe_%d,", v[i]->index);
	cg_close(&g->w, ";");
	return n;
}

static int ntables[3];	/* rows of __tap_begin, __tap_end, __tap_error */

/* May assume the records __tap_probe_N and __tap_auto_N (the autoprint
 * end handlers, g->nauto of them) are written. */
static void
begin_end_tables(struct cg *g, enum backend b)
{
	(void)b;
	ntables[0] = kind_table(g, BE_BEGIN, "__tap_begin");
	ntables[1] = kind_table(g, BE_END, "__tap_end");
	ntables[2] = kind_table(g, BE_ERROR, "__tap_error");
}

static void
begin_end_desc(struct cg *g, enum backend b)
{
	(void)b;
	cg_desc_array(g, "begin", "__tap_begin", ntables[0]);
	cg_desc_array(g, "end", "__tap_end", ntables[1]);
	cg_desc_array(g, "error", "__tap_error", ntables[2]);
}

static const char *const begin_end_shapes[] = {
	"begin", "begin(NUMBER)", "end", "end(NUMBER)",
	"error", "error(NUMBER)", "never", NULL,
};

/* --runtime=bpf: the user program's session runs them, as --target=user
 * does. */
static enum bpf_place
begin_end_bpf_place(const struct derived_probe *dp, struct arena *a,
		    struct bpf_attach *att)
{
	(void)a;
	att->what = ((const struct pdata_begin_end *)dp->pdata)->kind == BE_BEGIN
		? "begin" : "end";
	return BPF_PLACE_USER;
}

const struct provider provider_begin_end = {
	.name = "begin/end",
	.claims = begin_end_claims,
	.match = begin_end_match,
	.privilege = PRIV_STAPUSR,	/* the script's own start and end */
	.shapes = begin_end_shapes,
	.emit_tables = begin_end_tables,
	.emit_desc = begin_end_desc,
	.bpf_place = begin_end_bpf_place,
};
