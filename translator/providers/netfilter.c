/*
 * netfilter.c -- netfilter.hook("HOOK").pf("PF")[.priority("N")] (the two
 * first components in either order): a netfilter hook that runs the probe
 * for each packet passing HOOK of protocol family PF.  HOOK is a hook's
 * name (NF_INET_PRE_ROUTING, NF_IP_LOCAL_IN, NF_ARP_OUT, NF_BR_FORWARD,
 * ...) or its number; PF is NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP,
 * NFPROTO_BRIDGE (or PF_INET & co., or a number); the priority a number
 * or NF_IP_PRI_FIRST / NF_IP_PRI_LAST, 0 by default.  In guru mode any
 * other C identifier is taken as the kernel's own name for a hook, family
 * or priority (the module's build checks it), as SystemTap does.  The
 * tapset's netfilter.ipv4.* and friends (tapsets/linux/netfilter.stp) are
 * built on these.
 *
 * Context variables, all longs: $hooknum, $skb, $in and $out (the struct
 * net_device pointers, 0 when none; $indev and $outdev the same), $state
 * (the struct nf_hook_state), $pf, and $verdict, which a guru-mode
 * handler may set (NF_DROP 0, NF_ACCEPT 1, ...).  $skb, $in, $out and
 * $state are typed by the kernel's BTF when it has it, so $skb->len
 * works.
 *
 * What the emitted C may assume (kernel module only; runtime/linux/
 * probes_netfilter.c): a row of __tap_netfilters per probe with the hook,
 * family and priority as the kernel's own constants (the module's build
 * gives their values); the runtime's hook function fills c->probe_data
 * with the TAP_NF_* int64_t slots (probes.h) and returns the verdict
 * slot.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "translator/codegen/codegen_int.h"
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kernel.h"
#include "translator/sema/elab.h"
#include "translator/sema/tvar_btf.h"
#include "translator/providers/provider.h"

extern const struct provider provider_netfilter;

/* The slots of runtime/linux/probes.h (TAP_NF_*). */
enum { NF_SLOT_HOOKNUM, NF_SLOT_SKB, NF_SLOT_IN, NF_SLOT_OUT,
       NF_SLOT_STATE, NF_SLOT_VERDICT, NF_SLOT_PF };

struct pdata_netfilter {
	const char *pf, *hook, *priority;	/* C expressions */
	struct context_var **vars;
	int nvars;
};

/* Names a script may give, and the C the module is built with. */
struct nf_name { const char *name, *c; };

static const struct nf_name nf_pfs[] = {
	{ "NFPROTO_IPV4", "NFPROTO_IPV4" }, { "PF_INET", "NFPROTO_IPV4" },
	{ "NFPROTO_IPV6", "NFPROTO_IPV6" }, { "PF_INET6", "NFPROTO_IPV6" },
	{ "NFPROTO_ARP", "NFPROTO_ARP" }, { "NFPROTO_BRIDGE", "NFPROTO_BRIDGE" },
	{ "PF_BRIDGE", "NFPROTO_BRIDGE" }, { NULL, NULL },
};

/* The bridge and ARP hook numbers are the kernel's own (uapi), written
 * as numbers since their headers are not always included. */
static const struct nf_name nf_hooks[] = {
	{ "NF_INET_PRE_ROUTING", "NF_INET_PRE_ROUTING" },
	{ "NF_INET_LOCAL_IN", "NF_INET_LOCAL_IN" },
	{ "NF_INET_FORWARD", "NF_INET_FORWARD" },
	{ "NF_INET_LOCAL_OUT", "NF_INET_LOCAL_OUT" },
	{ "NF_INET_POST_ROUTING", "NF_INET_POST_ROUTING" },
	{ "NF_IP_PRE_ROUTING", "NF_INET_PRE_ROUTING" },
	{ "NF_IP_LOCAL_IN", "NF_INET_LOCAL_IN" },
	{ "NF_IP_FORWARD", "NF_INET_FORWARD" },
	{ "NF_IP_LOCAL_OUT", "NF_INET_LOCAL_OUT" },
	{ "NF_IP_POST_ROUTING", "NF_INET_POST_ROUTING" },
	{ "NF_IP6_PRE_ROUTING", "NF_INET_PRE_ROUTING" },
	{ "NF_IP6_LOCAL_IN", "NF_INET_LOCAL_IN" },
	{ "NF_IP6_FORWARD", "NF_INET_FORWARD" },
	{ "NF_IP6_LOCAL_OUT", "NF_INET_LOCAL_OUT" },
	{ "NF_IP6_POST_ROUTING", "NF_INET_POST_ROUTING" },
	{ "NF_ARP_IN", "0" }, { "NF_ARP_OUT", "1" }, { "NF_ARP_FORWARD", "2" },
	{ "NF_BR_PRE_ROUTING", "0" }, { "NF_BR_LOCAL_IN", "1" },
	{ "NF_BR_FORWARD", "2" }, { "NF_BR_LOCAL_OUT", "3" },
	{ "NF_BR_POST_ROUTING", "4" },
	{ NULL, NULL },
};

static const struct nf_name nf_priorities[] = {
	{ "NF_IP_PRI_FIRST", "INT_MIN" }, { "NF_IP_PRI_LAST", "INT_MAX" },
	{ NULL, NULL },
};

static bool
netfilter_claims(const struct node *point)
{
	return pp_is(point, 0, "netfilter") &&
	       (pp_is(point, 1, "hook") || pp_is(point, 1, "pf"));
}

/* A name of `names`, or a decimal number (a leading '-' allowed when
 * `negative`), as C; NULL when it is neither. */
static const char *
nf_value(struct elab *e, const struct nf_name *names, const char *s,
	 bool negative)
{
	char *end;
	long v;

	for (int i = 0; names[i].name; i++)
		if (strcmp(names[i].name, s) == 0)
			return names[i].c;
	if (!*s || (!negative && *s == '-'))
		return NULL;
	v = strtol(s, &end, 10);
	if (*end || v < (negative ? -2147483647L : 0) || v > 2147483647L)
		return NULL;
	return arena_printf(e->s->arena, "%ld", v);
}

static bool
c_identifier(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	while (*++s)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static int
nf_error(struct elab *e, struct node *point, const char *msg)
{
	diag_error(&e->s->diag, point->loc, "E_PROBE_ARG", "%s: %s",
		   pp_to_string(e->s->arena, point), msg);
	return -1;
}

/* Types $name by `type` of the kernel's BTF (a pointer) when known. */
static void
nf_type_var(const struct btf *btf, uint32_t type, struct context_var *cv)
{
	if (!btf || type == BTF_NONE || !btf_is_pointer(btf, type))
		return;
	tbtf_set_scalar_result(btf, type, cv->access);
	cv->btf = btf;
	cv->btf_type = type;
}

static struct context_var *
nf_var(struct elab *e, struct pdata_netfilter *pd, const char *name,
       int slot, const char *c_type)
{
	struct context_var *cv = elab_new_context_var(e, name, TY_LONG, c_type);

	cv->arg_index = slot;
	cv->size = 8;
	cv->is_pointer = strchr(c_type, '*') != NULL;
	cv->access = ta_new(e->s->arena, (struct ta_base){ .kind = TA_BASE_SLOT,
							    .index = slot });
	cv->access->type_name = cv->c_type;
	cv->access->result.kind = TA_RES_INT;
	cv->access->result.size = 8;
	cv->access->result.is_signed = !cv->is_pointer;
	pd->vars[pd->nvars++] = cv;
	return cv;
}

/* The pointer types the hook function's prototype (nf_hookfn) and struct
 * nf_hook_state give $skb, $state, $in and $out. */
static void
nf_type_vars(struct elab *e, struct node *point, struct pdata_netfilter *pd)
{
	struct kernel_target *kt = elab_kernel(e, point->loc);
	char err[256];
	const struct btf *btf = kt ? kernel_btf(kt, err, sizeof(err)) : NULL;
	struct btf_param_info skb, state;
	struct btf_member_info in, out;
	uint32_t fn, st;

	if (!btf)
		return;
	fn = btf_find(btf, "nf_hookfn", BTF_KIND_TYPEDEF);
	if (fn == BTF_NONE || !btf_param_at(btf, fn, 1, &skb) ||
	    !btf_param_at(btf, fn, 2, &state))
		return;
	nf_type_var(btf, skb.type, pd->vars[1]);
	nf_type_var(btf, state.type, pd->vars[6]);
	st = btf_find(btf, "nf_hook_state", BTF_KIND_STRUCT);
	if (st == BTF_NONE || !btf_member_find(btf, st, "in", &in) ||
	    !btf_member_find(btf, st, "out", &out))
		return;
	for (int i = 2; i <= 5; i++)
		nf_type_var(btf, i % 2 ? out.type : in.type, pd->vars[i]);
}

static int
netfilter_match(struct elab *e, struct node *point)
{
	struct pdata_netfilter *pd = arena_alloc(e->s->arena, sizeof(*pd));
	int n = point->u.point.ncomps;
	struct context_var *verdict;

	pd->priority = "0";
	for (int i = 1; i < n; i++) {
		const char *arg = pp_arg_string(point, i);
		const char **slot = pp_is(point, i, "hook") ? &pd->hook :
				    pp_is(point, i, "pf") ? &pd->pf :
				    pp_is(point, i, "priority") ? &pd->priority :
				    NULL;
		const struct nf_name *names = slot == &pd->hook ? nf_hooks :
			slot == &pd->pf ? nf_pfs : nf_priorities;

		if (!slot)
			return nf_error(e, point, "expected .hook(\"NAME\"), .pf(\"NAME\") or .priority(\"N\")");
		if (!arg)
			return nf_error(e, point, "each component takes a string: .hook(\"NF_INET_LOCAL_IN\"), .pf(\"NFPROTO_IPV4\"), .priority(\"N\")");
		*slot = nf_value(e, names, arg, slot == &pd->priority);
		/* guru mode passes other names to the module's C as they
		 * are, a kernel's own hook or family tapc does not list */
		if (!*slot && e->s->opts.guru && c_identifier(arg))
			*slot = arg;
		if (!*slot)
			return nf_error(e, point, arena_printf(e->s->arena,
					"unknown %s '%s'", slot == &pd->hook ?
					"netfilter hook" : slot == &pd->pf ?
					"protocol family" : "priority", arg));
	}
	if (!pd->hook || !pd->pf)
		return nf_error(e, point, "a netfilter probe needs both .hook(\"NAME\") and .pf(\"NAME\")");
	pd->vars = arena_alloc(e->s->arena, sizeof(*pd->vars) * 10);
	nf_var(e, pd, "hooknum", NF_SLOT_HOOKNUM, "unsigned int");
	nf_var(e, pd, "skb", NF_SLOT_SKB, "struct sk_buff *");
	nf_var(e, pd, "in", NF_SLOT_IN, "struct net_device *");
	nf_var(e, pd, "out", NF_SLOT_OUT, "struct net_device *");
	nf_var(e, pd, "indev", NF_SLOT_IN, "struct net_device *");
	nf_var(e, pd, "outdev", NF_SLOT_OUT, "struct net_device *");
	nf_var(e, pd, "state", NF_SLOT_STATE, "struct nf_hook_state *");
	nf_var(e, pd, "pf", NF_SLOT_PF, "u8");
	verdict = nf_var(e, pd, "verdict", NF_SLOT_VERDICT, "unsigned int");
	verdict->writable = true;	/* with -g, as in SystemTap */
	nf_type_vars(e, point, pd);
	elab_add_probe(e, point, NULL, pd);
	return 1;
}

static struct context_var *
netfilter_context(struct elab *e, struct derived_probe *dp, const char *name)
{
	struct pdata_netfilter *pd = dp->pdata;

	(void)e;
	for (int i = 0; i < pd->nvars; i++)
		if (strcmp(pd->vars[i]->name, name) == 0)
			return pd->vars[i];
	return NULL;
}

static int
netfilter_list(struct elab *e, struct derived_probe *dp,
	       struct context_var ***out)
{
	struct pdata_netfilter *pd = dp->pdata;

	(void)e;
	*out = pd->vars;
	return pd->nvars;
}

/* ---- code generation ---- */

static int nnetfilters;		/* rows of __tap_netfilters */

/* May assume the records __tap_probe_N. */
static void
netfilter_tables(struct cg *g, enum backend b)
{
	struct program *p = g->prog;

	nnetfilters = 0;
	if (b != BACKEND_KMOD)
		return;
	for (int i = 0; i < p->nprobes; i++) {
		struct derived_probe *dp = p->probes[i];
		const struct pdata_netfilter *pd = dp->pdata;

		if (dp->provider != &provider_netfilter)
			continue;
		cg_table_row(g, "__tap_netfilters", dp->index,
			     cg_fmt(g, "{ .probe = %s, .pf = %s, .hooknum = %s, .priority = %s },",
				    cg_probe_record(g, dp), pd->pf, pd->hook,
				    pd->priority));
	}
	cg_blank(&g->w);
	nnetfilters = cg_table_write(g, "__tap_netfilters",
				     "struct tap_netfilter_probe");
}

static void
netfilter_desc(struct cg *g, enum backend b)
{
	if (b == BACKEND_KMOD)
		cg_desc_array(g, "netfilters", "__tap_netfilters", nnetfilters);
}

/* Each variable is its slot of c->probe_data. */
static const char *
netfilter_target_expr(struct cg *g, enum backend b,
		      const struct derived_probe *dp,
		      const struct context_var *cv, struct node *n)
{
	(void)b; (void)dp; (void)n;
	return cg_fmt(g, "(((int64_t *)c->probe_data)[%d])", cv->arg_index);
}

static const char *const netfilter_shapes[] = {
	"netfilter.hook(STRING).pf(STRING)",
	"netfilter.hook(STRING).pf(STRING).priority(STRING)",
	"netfilter.pf(STRING).hook(STRING)",
	"netfilter.pf(STRING).hook(STRING).priority(STRING)",
	NULL,
};

const struct provider provider_netfilter = {
	.name = "netfilter",
	.claims = netfilter_claims,
	.match = netfilter_match,
	/* privilege left unset (stapdev): a hook sees every user's packets
	 * and, in guru mode, decides their fate */
	.context = netfilter_context,
	.list_context = netfilter_list,
	.shapes = netfilter_shapes,
	.kernel_only = true,
	.emit_tables = netfilter_tables,
	.emit_desc = netfilter_desc,
	.target_expr = netfilter_target_expr,
};
