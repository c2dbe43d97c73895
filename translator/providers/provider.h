/*
 * provider.h -- probe providers: one ops struct per probe family, holding
 * everything the family does, and the registry that lists them.
 *
 * Elaboration hands every concrete probe point (aliases already expanded)
 * to the provider that claims its first components; the provider expands
 * wildcards into derived probes (elab_add_probe), keeps its parameters in
 * dp->pdata (its own struct, which only the provider's files read) and
 * answers for every later question about those probes: which context
 * variables they offer, whether they are .return probes, which C they
 * need on each backend, what goes into the module cache key and which
 * files --vm must copy into the guest.  Nothing outside translator/
 * providers/ tests what kind of probe a derived probe is: passes call
 * these hooks.  Adding a family is one file plus one line in
 * provider_registry[] (registry.c).
 *
 * Every hook may be NULL unless marked "required"; the registry helpers
 * below supply the default each comment names.
 */
#ifndef TAPC_PROVIDERS_PROVIDER_H
#define TAPC_PROVIDERS_PROVIDER_H

#include <stdbool.h>
#include <stdint.h>

#include "translator/parse/ast.h"
#include "translator/sema/sema.h"

struct elab;
struct cg;
struct hash;
struct session;
struct ta_access;

/* What the emit hooks write C for.  --runtime=bpf uses BACKEND_USER for
 * the probes that run in user space and the bpf_* hooks below for the
 * rest. */
enum backend {
	BACKEND_KMOD,		/* a kernel module (runtime/linux) */
	BACKEND_USER,		/* a user-space program (runtime/user) */
};

/* Where a probe runs with --runtime=bpf (translator/codegen/bpf_*.c). */
enum bpf_place {
	BPF_PLACE_NONE,		/* not on BPF: the caller reports it */
	BPF_PLACE_USER,		/* begin, end, error, timer.s/ms: the user
				 * program's runtime/user session */
	BPF_PLACE_KERNEL,	/* a BPF program (bpf_attach filled in) */
};

/* How a kernel-side probe's BPF program is attached. */
struct bpf_attach {
	const char *section;	/* libbpf's SEC(): "raw_tp/sys_enter" */
	const char *ctx_type;	/* the program's argument type */
	const char *guard;	/* C condition on `ctx` the event must meet
				 * (the syscall number), or NULL */
	const char *what;	/* the kernel mechanism, for messages; for
				 * BPF_PLACE_USER "begin", "end" or "timer" */
	/* Section "raw_tp/NAME": the classic tracepoint of the same event
	 * ("tracepoint/CAT/NAME"), whose program gets the event's format
	 * record (the TP_STRUCT fields) as `rec`, of classic_ctx_type,
	 * instead of the TP_PROTO arguments; and `guard` read from it.
	 * NULL when the event's subsystem is unknown.  The program has
	 * the form only if each context variable it reads has a
	 * bpf_classic_expr (bpf_emit.c). */
	const char *classic_section;
	const char *classic_ctx_type;
	const char *classic_guard;
	/* Section "kprobe/NAME" or "kretprobe/NAME": the same probe as a
	 * BPF trampoline ("fentry/NAME", "fexit/NAME"), whose context is
	 * the argument array (__u64 *); bpf_target_expr then reads each
	 * variable as `(__fentry ? from the array : from the registers)`
	 * and user_bpf.c chooses the form at run time.  NULL: kprobe only. */
	const char *fentry_section;
	/* Section "perf_event": the user program opens a cpu-clock
	 * sampling event of this period and attaches the program to it,
	 * on every CPU (timer.profile) or on the first online CPU only
	 * (timer.hz: one timer, as the module's hrtimer is one). */
	unsigned long long perf_period_ns;
	bool perf_every_cpu;
	/* Section "uprobe"/"uretprobe": the user program attaches it at
	 * this file offset of this ELF file, in every process running it
	 * (or only uprobe_pid), bumping the USDT semaphore at
	 * uprobe_ref_ctr_offset when not 0. */
	const char *uprobe_path;
	unsigned long long uprobe_offset, uprobe_ref_ctr_offset;
	int uprobe_pid;
	bool uprobe_return;
	/* A program whose return value is a verdict (BPF LSM): a frame
	 * member holding it (ret_frame_member), the statement that sets it
	 * once the frame `f` is found (ret_init), and how the program
	 * returns before that (ret_early) and after (ret_stmt), on every
	 * way out -- the end, an error, `next`.  NULL: "return 0;". */
	const char *ret_frame_member, *ret_init, *ret_early, *ret_stmt;
};

struct provider {
	const char *name;		/* "timer" */

	/* ---- elaboration (pass 2) ---- */

	/* Required: whether this provider owns `point` (by its first
	 * components).  The first provider in the registry that claims a
	 * point gets it, so claims must not overlap. */
	bool (*claims)(const struct node *point);
	/*
	 * Required: expand `point` into derived probes with
	 * elab_add_probe(). Returns how many were added: 0 when nothing
	 * matched (the caller reports it unless the point is optional), -1
	 * after reporting an error.
	 */
	int (*match)(struct elab *e, struct node *point);
	/* The context variable `name` (without '$') of `dp`, or NULL
	 * (default: none). */
	struct context_var *(*context)(struct elab *e, struct derived_probe *dp,
				       const char *name);
	/* Every context variable of `dp`, for -L and for hints (default:
	 * none). */
	int (*list_context)(struct elab *e, struct derived_probe *dp,
			    struct context_var ***out);
	/*
	 * Whether `dp` fires when a function returns and has an entry half
	 * that runs when it was entered: the one test for "a .return probe".
	 * Then @entry(...) is allowed in it, its values are saved by an
	 * entry handler the emit hooks register, and parameters ($argN,
	 * $$parms, $$vars) read in it are their values at entry.  Default:
	 * false.
	 */
	bool (*is_return)(const struct derived_probe *dp);
	/*
	 * For a family whose .return probes have no entry half of their
	 * own: whether `dp` is such a probe, and adding a probe on the
	 * entry of the same event, with the body and origin of e->cur_*
	 * (elab_add_probe).  Then each @entry(x) in `dp` is a value the
	 * entry half saves per thread (sema/entry_split.c).  Default: none.
	 */
	bool (*needs_entry_half)(const struct derived_probe *dp);
	void (*add_entry_half)(struct elab *e, struct derived_probe *dp);
	/* $$name of `dp` (without "$$") when the provider knows it as a
	 * constant string ($$name of a .plt stub), else NULL. */
	const char *(*meta_string)(const struct derived_probe *dp,
				   const char *name);
	/* @var(...) in `dp`: its access, or NULL after an error.  Default:
	 * the kernel's debug information (dwacc_atvar). */
	struct ta_access *(*atvar)(struct elab *e, struct derived_probe *dp,
				   struct node *n);
	/* Why `dp`'s parameters are unknown (no debug information for its
	 * function), for a hint; NULL when they are known or there are none. */
	const char *(*untyped_reason)(const struct derived_probe *dp);
	/* Probe-point shapes the family answers ("timer.ms(NUMBER)"), the
	 * vocabulary wildcards in component names are matched against and
	 * --dump-probe-types lists: `shapes`, then every `shape_heads`
	 * entry joined with every `shape_tails` entry. NULL-terminated. */
	const char *const *shapes;
	const char *const *shape_heads, *const *shape_tails;

	/* ---- limits ---- */

	bool kernel_only;		/* --target=user refuses its probes */
	/*
	 * The lowest --privilege that may use the family's probes: stapusr
	 * only for what cannot show or change another user's data, stapsys
	 * for the kernel's events.  PRIV_UNSET (left out) means stapdev, so
	 * a new family is refused below stapdev until it says otherwise.
	 */
	enum privilege privilege;
	/* The level for one concrete `point`, when the family's points
	 * differ (timer.profile samples every task: stapsys); default:
	 * `privilege`.  Asked before match, so it sees only the point. */
	enum privilege (*point_privilege)(const struct node *point);

	/* ---- code generation (pass 3) ----
	 *
	 * Hooks see every probe of the program and pick their own (those with
	 * dp->provider == the provider; cg_probes_of()).  They are called in
	 * registry order, once per phase, after the handlers probe_N and the
	 * records __tap_probe_N (struct tap_probe, runtime/core/abi.h) are
	 * written; output may use both. */

	/* C the tables point at: callbacks, helpers, per-probe records.
	 * Rows for a table another family writes are added here
	 * (cg_table_row). */
	void (*emit_code)(struct cg *g, enum backend b);
	/* The registration tables, after every family's emit_code and the
	 * entry handlers of .return probes (probe_N_entry). */
	void (*emit_tables)(struct cg *g, enum backend b);
	/* Lines inside `struct tap_module_desc tap_module = { ... }`:
	 * designated initializers of the family's fields, each line ending
	 * in ','. */
	void (*emit_desc)(struct cg *g, enum backend b);
	/* A C int64_t expression for context variable `cv` of `dp` in `dp`'s
	 * handler (c is its struct tap_context *), or NULL when the family
	 * cannot read it (the caller reports it).  $target accesses that
	 * debug information typed (n->u.target.access) never get here. */
	const char *(*target_expr)(struct cg *g, enum backend b,
				   const struct derived_probe *dp,
				   const struct context_var *cv,
				   struct node *n);
	/* `lhs op val` for a context variable pass 2 marked script_value (a
	 * string the handler hands over): a C expression whose value is the
	 * string stored; NULL when the family has none. */
	const char *(*value_store)(struct cg *g, enum backend b,
				   const struct derived_probe *dp,
				   struct node *lhs, enum op op, const char *val);

	/* ---- the BPF backend (translator/codegen/bpf_*.c) ----
	 *
	 * Where `dp` runs; for BPF_PLACE_KERNEL fills *att (strings from
	 * the arena).  NULL: BPF_PLACE_NONE. */
	enum bpf_place (*bpf_place)(const struct derived_probe *dp,
				    struct arena *a, struct bpf_attach *att);
	/* A BPF C int64_t expression for context variable `cv` of `dp`
	 * in its program (ctx is the program's argument), or NULL when the
	 * family cannot read it on BPF (the caller reports it). */
	const char *(*bpf_target_expr)(struct arena *a,
				       const struct derived_probe *dp,
				       const struct context_var *cv);
	/* The BPF C lvalue a handler assigns context variable `cv` of
	 * `dp` through (a writable one, with -g), or NULL: not on BPF. */
	const char *(*bpf_target_lvalue)(struct arena *a,
					 const struct derived_probe *dp,
					 const struct context_var *cv);
	/* The same read from the classic tracepoint's format record
	 * (`rec`, bpf_attach.classic_section) when the record carries the
	 * value with the same meaning, else NULL: the probe then has no
	 * classic form if it reads `cv`.  NULL hook: no variable has one. */
	const char *(*bpf_classic_expr)(struct arena *a,
					const struct derived_probe *dp,
					const struct context_var *cv);

	/* ---- build (pass 4) and --vm ---- */

	/* What the module cache key must cover besides the script and the
	 * options: files the probes were resolved against. */
	void (*hash_inputs)(struct session *s, struct hash *h);
	/* Files the probes need in the guest at their host paths; how many
	 * (*out from the session arena). */
	int (*guest_files)(struct session *s, const char ***out);
};

/* The registry, in the order providers are asked. */
extern const struct provider *const provider_registry[];
const struct provider *provider_for(const struct node *point);

/* The hooks with their defaults, for the passes. */
struct context_var *provider_context(struct elab *e, struct derived_probe *dp,
				     const char *name);
int provider_list_context(struct elab *e, struct derived_probe *dp,
			  struct context_var ***out);
bool provider_is_return(const struct derived_probe *dp);
const char *provider_meta_string(const struct derived_probe *dp,
				 const char *name);
struct ta_access *provider_atvar(struct elab *e, struct derived_probe *dp,
				 struct node *n);
const char *provider_untyped_reason(const struct derived_probe *dp);
bool provider_kernel_only(const struct derived_probe *dp);
enum bpf_place provider_bpf_place(const struct derived_probe *dp,
				  struct arena *a, struct bpf_attach *att);
/* The lowest --privilege allowed to use `point`, which `p` claims. */
enum privilege provider_privilege(const struct provider *p,
				  const struct node *point);
void provider_hash_inputs(struct session *s, struct hash *h);
int provider_guest_files(struct session *s, const char ***out);
/* Calls fn once per shape of every provider, given as `head` alone (tail
 * NULL) or as the two dotted halves `head`.`tail`; a component's
 * argument is written "(STRING)" or "(NUMBER)". */
void provider_shapes_each(void (*fn)(const char *head, const char *tail,
				     void *ctx), void *ctx);

/* For bpf_target_expr: argument cv->arg_index of the BPF program's u64
 * argument array `array` ("ctx->args", "ctx"), narrowed to its C type's
 * size and signedness as a module's callback gets it; NULL for a
 * variable that is not a plain integer argument. */
const char *provider_bpf_arg(struct arena *a, const struct context_var *cv,
			     const char *array);

/* Helpers for providers reading points. */
bool pp_is(const struct node *point, int i, const char *name);
const char *pp_name(const struct node *point, int i);
const struct node *pp_arg(const struct node *point, int i);
bool pp_arg_number(const struct node *point, int i, int64_t *out);
const char *pp_arg_string(const struct node *point, int i);
/* Whether components i.. of point are a return suffix or nothing: none,
 * .return, or .return.maxactive(N) with 0 < N <= INT_MAX (how many
 * returns a kretprobe tracks at once).  Sets *is_return and *maxactive
 * (0: the kernel's default).  One spelling for every family that has
 * returns on kretprobes (kprobe.c, kfunc.c, syscall.c). */
bool pp_return_suffix(const struct node *point, int i, bool *is_return,
		      int64_t *maxactive);
/* Whether two component arguments (number or string literals, or
 * NULL for none) are the same. */
bool pp_args_equal(const struct node *a, const struct node *b);
const char *pp_to_string(struct arena *a, const struct node *point);

#endif
