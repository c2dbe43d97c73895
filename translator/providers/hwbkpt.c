/*
 * hwbkpt.c -- kernel.data("SYMBOL") and kernel.data(ADDRESS), each with
 * an optional .length(N) (1, 2, 4 or 8 bytes; 1 by default, and the
 * address must be aligned to it), then .write or .rw: a hardware
 * watchpoint that runs the probe whenever the kernel writes (or reads or
 * writes) those bytes.  No context variables; the probe's registers are
 * those of the access, for print_backtrace() and the like.
 *
 * What the emitted C may assume (kernel module only; runtime/linux/
 * probes_hwbkpt.c): a row of __tap_hwbkpts per probe; a symbol is named
 * once with MODULE_INFO(tap_ksym, ...) so that taprun resolves it before
 * the module loads (or refuses to load it), and the runtime reads it with
 * tap_ksym().
 */
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/sema/elab.h"
#include "translator/providers/provider.h"

extern const struct provider provider_hwbkpt;

struct pdata_hwbkpt {
	const char *symbol;	/* NULL: address */
	int64_t addr;
	int64_t len;
	bool rw;
};

static bool
hwbkpt_claims(const struct node *point)
{
	return pp_is(point, 0, "kernel") && pp_is(point, 1, "data");
}

static int
hwbkpt_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, point->loc, "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

/* A symbol the runtime can look up: what kallsyms names hold. */
static bool
symbol_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

static int
hwbkpt_match(struct elab *e, struct node *point)
{
	struct pdata_hwbkpt *pd = arena_alloc(e->s->arena, sizeof(*pd));
	int n = point->u.point.ncomps, i = 2;

	pd->len = 1;
	if ((pd->symbol = pp_arg_string(point, 1))) {
		if (!symbol_ok(pd->symbol))
			return hwbkpt_error(e, point, "expected a kernel symbol name");
	} else if (!pp_arg_number(point, 1, &pd->addr) || pd->addr == 0) {
		return hwbkpt_error(e, point, "expected kernel.data(\"SYMBOL\") or kernel.data(ADDRESS)");
	}
	if (pp_is(point, i, "length")) {
		if (!pp_arg_number(point, i, &pd->len) ||
		    (pd->len != 1 && pd->len != 2 && pd->len != 4 && pd->len != 8))
			return hwbkpt_error(e, point, "expected .length(N) with N 1, 2, 4 or 8");
		i++;
	}
	if (i + 1 != n || pp_arg(point, i) ||
	    !(pp_is(point, i, "write") || pp_is(point, i, "rw")))
		return hwbkpt_error(e, point, "expected .write or .rw at the end");
	pd->rw = pp_is(point, i, "rw");
	if (!pd->symbol && pd->addr % pd->len)
		return hwbkpt_error(e, point, "the address must be aligned to the length");
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

/* ---- code generation ---- */

static int nhwbkpts;		/* rows of __tap_hwbkpts */

/* Each symbol once, for taprun to resolve. */
static void
declare_symbols(struct cg *g)
{
	struct program *p = g->prog;

	for (int i = 0; i < p->nprobes; i++) {
		const struct pdata_hwbkpt *pd = p->probes[i]->pdata;
		bool seen = false;

		if (p->probes[i]->provider != &provider_hwbkpt || !pd->symbol)
			continue;
		for (int j = 0; j < i && !seen; j++) {
			const struct pdata_hwbkpt *o = p->probes[j]->pdata;
			seen = p->probes[j]->provider == &provider_hwbkpt &&
			       o->symbol && strcmp(o->symbol, pd->symbol) == 0;
		}
		if (!seen)	/* file scope: the tables are too */
			cg_line(&g->w, "MODULE_INFO(tap_ksym, \"%s\");",
				pd->symbol);
	}
}

/* May assume the records __tap_probe_N. */
static void
hwbkpt_tables(struct cg *g, enum backend b)
{
	struct program *p = g->prog;

	nhwbkpts = 0;
	if (b != BACKEND_KMOD)
		return;
	declare_symbols(g);
	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_hwbkpt *pd = dp->pdata;

		if (dp->provider != &provider_hwbkpt)
			continue;
		cg_table_row(g, "__tap_hwbkpts", dp->index,
			     cg_fmt(g, "{ .probe = %s, .symbol = %s%s%s, .addr = 0x%llxUL, .len = %d, .rw = %s },",
				    cg_probe_record(g, dp),
				    pd->symbol ? "\"" : "",
				    pd->symbol ? pd->symbol : "NULL",
				    pd->symbol ? "\"" : "",
				    (unsigned long long)pd->addr, (int)pd->len,
				    pd->rw ? "true" : "false"));
	}
	cg_blank(&g->w);
	nhwbkpts = cg_table_write(g, "__tap_hwbkpts", "struct tap_hwbkpt_probe");
}

static void
hwbkpt_desc(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "hwbkpts", "__tap_hwbkpts", nhwbkpts);
}

static const char *const hwbkpt_heads[] = {
	"kernel.data(STRING)", "kernel.data(NUMBER)",
	"kernel.data(STRING).length(NUMBER)",
	"kernel.data(NUMBER).length(NUMBER)", NULL,
};
static const char *const hwbkpt_tails[] = { "write", "rw", NULL };

const struct provider provider_hwbkpt = {
	.name = "hwbkpt",
	.claims = hwbkpt_claims,
	.match = hwbkpt_match,
	/* privilege left unset (stapdev): watches any kernel memory */
	.shape_heads = hwbkpt_heads,
	.shape_tails = hwbkpt_tails,
	.kernel_only = true,
	.emit_tables = hwbkpt_tables,
	.emit_desc = hwbkpt_desc,
};
