/*
 * privilege.c -- whether the user who runs taprun may load a module, by
 * the --privilege level tapc recorded in it.
 *
 * Takes: the module's "tap_privilege=" .modinfo string (tapc writes
 * stapusr, stapsys or stapdev; a module without one, or with a word taprun
 * does not know, counts as stapdev) and the real user's groups.
 * Produces: 0, or -EPERM after saying which groups would allow it.  As
 * with SystemTap's staprun: root (real uid 0, so also under sudo) may load
 * every module; any other user needs the group named after the module's
 * level or a higher one (stapusr < stapsys < stapdev).
 *
 * Must not: be taken for more than it is.  The level is what the module
 * says of itself, so this keeps users to what their groups allow only for
 * modules tapc built.  Letting untrusted users load modules would also
 * need taprun installed setuid root with its other paths made safe for
 * that (-o FILE, -c CMD) and the modules signed or taken from a trusted
 * place; taprun does none of that (doc/taprun.8), and refuses to run
 * without root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

#define TAPRUN_MAX_GROUPS	256

/* The levels, lowest first; a level's rank is its index + 1. */
static const char *const taprun_levels[] = { "stapusr", "stapsys", "stapdev" };
#define TAPRUN_NLEVELS	((int)(sizeof(taprun_levels) / sizeof(taprun_levels[0])))

int
taprun_privilege_rank(const char *level)
{
	for (int i = 0; i < TAPRUN_NLEVELS; i++)
		if (strcmp(level, taprun_levels[i]) == 0)
			return i + 1;
	return 0;
}

/* Whether gids[] holds `gid`. */
static bool
taprun_has_gid(const gid_t *gids, int ngids, gid_t gid)
{
	for (int i = 0; i < ngids; i++)
		if (gids[i] == gid)
			return true;
	return false;
}

/*
 * Read by hand, not with getgrnam(): taprun is also a static binary,
 * where glibc's NSS functions are not available (as in target.c).
 */
int
taprun_privilege_of_groups(const char *group_file, const gid_t *gids,
			   int ngids)
{
	char line[4096], *name, *gid, *p;
	FILE *f = fopen(group_file, "re");
	int best = 0, rank;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		p = line;
		name = strsep(&p, ":");
		if (!p || !strsep(&p, ":") || !(gid = strsep(&p, ":")) ||
		    !*gid)
			continue;	/* not name:password:gid:... */
		rank = taprun_privilege_rank(name);
		if (rank > best &&
		    taprun_has_gid(gids, ngids, (gid_t)strtoul(gid, NULL, 10)))
			best = rank;
	}
	fclose(f);
	return best;
}

/* "stapsys or stapdev": the groups that allow a module of `rank`. */
static void
taprun_groups_allowing(int rank, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = rank - 1; i < TAPRUN_NLEVELS && used < size; i++)
		used += snprintf(out + used, size - used, "%s%s",
				 i == rank - 1 ? "" :
				 i == TAPRUN_NLEVELS - 1 ? " or " : ", ",
				 taprun_levels[i]);
}

int
taprun_check_privilege(const char *module)
{
	char level[64], allowing[64];
	gid_t gids[TAPRUN_MAX_GROUPS];
	int ngids, need, have;

	if (taprun_modinfo_get(module, "tap_privilege", level, sizeof(level)))
		snprintf(level, sizeof(level), "stapdev");
	need = taprun_privilege_rank(level);
	if (!need) {
		taprun_verbose("%s: unknown tap_privilege '%s': taken as stapdev", module, level);
		need = TAPRUN_NLEVELS;
		snprintf(level, sizeof(level), "stapdev");
	}
	taprun_verbose("%s: built for --privilege=%s", module, level);
	if (getuid() == 0)
		return 0;
	ngids = getgroups(TAPRUN_MAX_GROUPS - 1, gids);
	if (ngids < 0)
		ngids = 0;
	gids[ngids++] = getgid();
	have = taprun_privilege_of_groups("/etc/group", gids, ngids);
	if (have >= need)
		return 0;
	taprun_groups_allowing(need, allowing, sizeof(allowing));
	taprun_err("%s: built for --privilege=%s: uid %u may not load it (needs root or group %s)",
		   module, level, (unsigned)getuid(), allowing);
	return -EPERM;
}
