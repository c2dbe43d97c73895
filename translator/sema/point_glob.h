/*
 * point_glob.h -- wildcards in probe-point component names (point_glob.c):
 * `kerne*.funct*("vfs_read").*`, `*sys**pen`, `foo.*`.
 */
#ifndef TAPC_SEMA_POINT_GLOB_H
#define TAPC_SEMA_POINT_GLOB_H

#include <stdbool.h>

#include "translator/parse/ast.h"

struct elab;

/* One concrete point a wildcard point expands to. */
struct pp_glob_match {
	struct node *point;	/* names filled in; components after
				 * `prefix` are the user's (a suffix for an
				 * alias, which may still hold wildcards) */
	struct node *alias;	/* the N_ALIAS reached, or NULL: a
				 * provider's point */
	struct node *alias_name;/* which of the alias's names */
	int prefix;		/* components the alias name covers */
};

/* Where matching got least far, for the no-match diagnostic. */
struct pp_glob_miss {
	struct loc at;		/* the component no known name matched */
	const char *hint;	/* "known here: ..." or NULL */
};

/* Whether a component name of `point` holds '*', '?' or '['. */
bool pp_glob_in_names(const struct node *point);

/* The concrete points `point` expands to, in `*out`; how many. With
 * none, `miss` says where and what was known there. */
int pp_glob_expand(struct elab *e, const struct node *point,
		   struct pp_glob_match **out, struct pp_glob_miss *miss);

#endif
