/*
 * elab.h -- the state pass 2 shares among its files (elaborate.c,
 * resolve.c, types.c, optimize.c) and with the providers. Not for pass 3,
 * which reads only struct program (sema.h).
 */
#ifndef TAPC_SEMA_ELAB_H
#define TAPC_SEMA_ELAB_H

#include "translator/sema/sema.h"
#include "translator/driver/session.h"

struct provider;
struct kernel_target;
struct glob_node;
struct name_index;

struct elab {
	struct session *s;
	struct program *prog;
	/* everything declared, user file first, then the library */
	struct node **aliases;
	int naliases, cap_aliases;
	struct node **functions;
	int nfunctions, cap_functions;
	struct node **globals;
	int nglobals, cap_globals;
	/* the same functions and globals by name (elab_declare_global adds
	 * to both), and the symbols resolve.c made for them */
	struct name_index *functions_by_name, *globals_by_name;
	struct name_index *function_syms, *global_syms;
	/* the derived probe being made: its origin, written point, body */
	struct node *cur_origin;
	struct node *cur_body;
	struct node *cur_cond;
	const char *cur_written;
	struct node *cur_point;		/* the point as the user wrote it */
	struct node *priv_refused;	/* the last such point privilege.c
					 * refused, to report it once */
	const char *cur_alias;		/* outermost alias name matched */
	int alias_depth;
	bool cur_optional;		/* the user's point ends in '?' */
	/* listing mode (-l/-L): points that fail quietly */
	bool listing;
	/* the first point whose expansion a provider cut short, and where
	 * (elab_expansion_capped), for -l to say so after its list */
	const struct node *capped_point;
	int capped_at;
	/* point_glob.c: the known component names, built on first use */
	struct glob_node *glob_tree;
	/* resolve.c: @entry outside a .return probe, reported only if it
	 * survives the elision of statements without effect */
	struct node **stray_entries;
	int nstray_entries, cap_stray_entries;
	/* --check-version: the aliases already warned about */
	struct node **version_warned;
	int nversion_warned, cap_version_warned;
};

/* Providers: add a derived probe for concrete `point` with `pdata`. The
 * body and origin come from the probe being elaborated. */
struct derived_probe *elab_add_probe(struct elab *e, struct node *point,
				     const char *name, void *pdata);
/* Providers: `point` matches more than `max` probe points and only the
 * first `max` were added.  Warns (W_TOO_MANY_PROBES) and remembers it:
 * held diagnostics of a listing are dropped, so -l says it again. */
void elab_expansion_capped(struct elab *e, const struct node *point,
			   int max);
struct context_var *elab_new_context_var(struct elab *e, const char *name,
					 enum type type, const char *c_type);

/* The target kernel, or NULL with an error reported at `at` saying what
 * is missing. */
struct kernel_target *elab_kernel(struct elab *e, struct loc at);

/* Declare global `g` (an N_GLOBAL pass 2 made itself). */
void elab_declare_global(struct elab *e, struct node *g);

/* A fresh elaboration of the session's user file and library. */
struct elab *elab_new(struct session *s);
/* elaborate.c: derive the probes of one N_PROBE; false after errors. */
bool elab_derive_probe(struct elab *e, struct node *probe);

/* entry_split.c: @entry in .return probes whose family needs an entry
 * half added (before resolve_program). */
void entry_split_program(struct elab *e);
/* resolve.c: bind names in every probe and pulled-in function. */
bool resolve_program(struct elab *e);
/* resolve.c, after optimize_dead_code (or resolve_program with -u):
 * report the @entry outside a .return probe that is still there; false
 * if there is one.  SystemTap elides an unused @entry before judging it. */
bool resolve_check_stray_entries(struct elab *e);
/* privilege.c: whether --privilege allows `p`'s probes at concrete
 * `pt` (before p->match): 1 if so; 0 to drop it quietly (the user's
 * point is optional); -1 after reporting it. */
int privilege_check_point(struct elab *e, const struct provider *p,
			  struct node *pt);
/* privilege.c, after resolve_program: the calls, embedded expressions
 * and @casts the probes reach that need more than --privilege. */
bool privilege_check_program(struct elab *e);
/* checks.c: formats, regexes, arrays changed inside their foreach. */
bool checks_run(struct elab *e);
/* types.c: infer and check types. */
bool types_infer(struct elab *e);
/* optimize.c (unless -u): before types, elide dead stores and statements
 * without effect; after, drop unused globals and fold constants; last,
 * elide probes left empty. */
void optimize_pure_statements(struct elab *e);
void optimize_fold_early(struct elab *e);
void optimize_dead_code(struct elab *e);
void optimize_program(struct elab *e);
void optimize_empty_probes(struct elab *e);

/* Levenshtein distance, for "did you mean". */
int elab_edit_distance(const char *a, const char *b);

#endif
