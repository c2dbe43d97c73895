/*
 * kbuild_replay.c -- building a module by the commands kbuild ran for
 * the previous one (see kbuild_replay.h for why).
 *
 * The steps file: a first line "tapc-kbuild-steps 1", then one line per
 * target in kbuild's order, "TARGET<TAB>PREFIX<TAB>COMMAND", where the
 * build directory is @DIR@ and the module name @NAME@ in all three, and
 * PREFIX is how the kernel's .cmd files start ("cmd_" before 6.7,
 * "savedcmd_" after).  A .cmd file holds a command escaped for make: $
 * as $$ and # as $(pound); the steps file holds it as the shell runs it.
 */
#include "translator/build/kbuild_replay.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "translator/debuginfo/cache_dir.h"
#include "translator/driver/spawn.h"

#define STEPS_MAGIC "tapc-kbuild-steps 1\n"

/* kbuild's targets for one module, in the order it makes them; TARGET
 * with %s for the module name.  .module-common.o is 6.12's (an object
 * of scripts/module-common.c in every external module's directory). */
static const struct replay_target {
	const char *target;
	bool optional;
} replay_targets[] = {
	{ "%s_script.o", false },
	{ "%s.mod", false },
	{ "%s.o", false },
	{ "modules.order", false },
	{ "Module.symvers", false },
	{ ".module-common.o", true },
	{ "%s.mod.o", false },
	{ "%s.ko", false },
};
#define N_TARGETS (sizeof(replay_targets) / sizeof(replay_targets[0]))

/* Every occurrence of `from` in `text` replaced by `to` (malloc'd). */
static char *
replace_all(const char *text, const char *from, const char *to)
{
	size_t flen = strlen(from), tlen = strlen(to), n = 0;
	const char *p;
	char *out, *o;

	for (p = text; (p = strstr(p, from)); p += flen)
		n++;
	out = o = malloc(strlen(text) + n * (tlen > flen ? tlen - flen : 0) + 1);
	if (!out)
		return NULL;
	while ((p = strstr(text, from))) {
		memcpy(o, text, p - text);
		o += p - text;
		memcpy(o, to, tlen);
		o += tlen;
		text = p + flen;
	}
	strcpy(o, text);
	return out;
}

/* A .cmd file's command as the shell runs it: $$ is $, $(pound) is #. */
static void
unescape_make(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '$' && s[1] == '$') {
			*o++ = '$';
			s += 2;
		} else if (strncmp(s, "$(pound)", 8) == 0) {
			*o++ = '#';
			s += 8;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
}

static const char *
target_name(char *buf, size_t len, const struct replay_target *t,
	    const char *name)
{
	snprintf(buf, len, t->target, name);
	return buf;
}

/* The command of DIR/.TARGET.cmd and its prefix ("cmd_" or "savedcmd_"),
 * or false when there is no such file or it is not as expected. */
static bool
read_cmd(const char *dir, const char *target, char **cmd, const char **prefix)
{
	char path[4096], *line = NULL, *eq;
	size_t cap = 0;
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/.%s.cmd", dir, target);
	if (!(f = fopen(path, "r")))
		return false;
	if (getline(&line, &cap, f) > 0 && (eq = strstr(line, " := "))) {
		line[strcspn(line, "\n")] = 0;
		*prefix = strncmp(line, "savedcmd_", 9) == 0 ? "savedcmd_" :
			  strncmp(line, "cmd_", 4) == 0 ? "cmd_" : NULL;
		if (*prefix) {
			*cmd = strdup(eq + 4);
			unescape_make(*cmd);
			ok = true;
		}
	}
	free(line);
	fclose(f);
	return ok;
}

/* Whether every .cmd file in DIR is one of the targets (or the cached
 * runtime object's): a kbuild that makes something else is not ours. */
static bool
only_known_cmds(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool ok = d != NULL;

	while (ok && (e = readdir(d))) {
		char buf[512];
		size_t len = strlen(e->d_name);
		bool known = strcmp(e->d_name, ".tap_rt.o.cmd") == 0;

		if (e->d_name[0] != '.' || len < 5 ||
		    strcmp(e->d_name + len - 4, ".cmd") != 0)
			continue;
		for (size_t i = 0; i < N_TARGETS && !known; i++) {
			target_name(buf, sizeof(buf), &replay_targets[i], name);
			known = len == strlen(buf) + 5 &&
				strncmp(e->d_name + 1, buf, len - 5) == 0;
		}
		ok = known;
	}
	if (d)
		closedir(d);
	return ok;
}

/* Whether kbuild's log of the build (its quiet lines, "  CC [M]  x.o")
 * shows only compiles, links and modpost, the steps whose commands the
 * .cmd files hold.  The module's BTF ("  BTF [M] ") is a command kbuild
 * keeps in no .cmd file: kbuild.c turns it off, and 6.1's headers have
 * no vmlinux anyway (kbuild says "Skipping BTF generation"); a build
 * where pahole did run is not replayed. */
static bool
only_known_steps(const char *log)
{
	static const char *const known[] = { "  CC [M]  ", "  LD [M]  ",
					     "  MODPOST ", "  CC      " };
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(log, "r");
	bool ok = f != NULL, btf = false, btf_skipped = false;

	while (ok && getline(&line, &cap, f) > 0) {
		bool is_step = line[0] == ' ' && line[1] == ' ' &&
			       line[2] >= 'A' && line[2] <= 'Z';

		if (strncmp(line, "Skipping BTF generation for ", 28) == 0)
			btf_skipped = true;
		if (strncmp(line, "  BTF [M] ", 10) == 0) {
			btf = true;
			continue;
		}
		ok = !is_step;
		for (size_t i = 0; !ok && i < sizeof(known) / sizeof(known[0]); i++)
			ok = strncmp(line, known[i], strlen(known[i])) == 0;
	}
	free(line);
	if (f)
		fclose(f);
	return ok && (!btf || btf_skipped);
}

/* Only a name of tapc's own (tap_ and 16 hex digits) is recorded: it
 * cannot occur in a command but as the name, so replacing it is safe. */
static bool
own_name(const char *name)
{
	if (strncmp(name, "tap_", 4) != 0 || strlen(name) != 20)
		return false;
	return strspn(name + 4, "0123456789abcdef") == 16;
}

void
kbuild_replay_record(struct session *s, const char *dir, const char *name,
		     const char *log, const char *steps)
{
	char *text = NULL, tmp[4096];
	size_t len = 0;
	FILE *f;
	bool ok = own_name(name) && only_known_cmds(dir, name) &&
		  only_known_steps(log);

	if (!ok)
		return;
	f = open_memstream(&text, &len);
	fputs(STEPS_MAGIC, f);
	for (size_t i = 0; i < N_TARGETS && ok; i++) {
		char buf[512], *cmd, *a, *b;
		const char *prefix;

		target_name(buf, sizeof(buf), &replay_targets[i], name);
		if (!read_cmd(dir, buf, &cmd, &prefix)) {
			ok = replay_targets[i].optional;
			continue;
		}
		a = replace_all(cmd, dir, "@DIR@");
		b = a ? replace_all(a, name, "@NAME@") : NULL;
		ok = b && !strchr(b, '\n') && !strchr(b, '\t');
		if (ok)
			fprintf(f, "%s\t%s\t%s\n",
				replay_targets[i].target[0] == '%' ?
				arena_printf(s->arena, "@NAME@%s",
					     replay_targets[i].target + 2) :
				replay_targets[i].target, prefix, b);
		free(cmd);
		free(a);
		free(b);
	}
	fclose(f);
	/* through a temporary file in the build directory and cache_store(),
	 * as the runtime object goes in */
	snprintf(tmp, sizeof(tmp), "%s/kbuild-steps", dir);
	if (ok) {
		FILE *out = fopen(tmp, "w");

		ok = out && fputs(text, out) >= 0;
		if (out && fclose(out) != 0)
			ok = false;
		if (ok && cache_store(tmp, steps, 0600) && s->opts.verbose)
			fprintf(stderr, "tapc: kbuild's commands kept: %s\n", steps);
	}
	free(text);
}

/* Remove what a failed replay made, so that kbuild starts clean. */
static void
remove_outputs(const char *dir, const char *name)
{
	char buf[512], path[4096];

	for (size_t i = 0; i < N_TARGETS; i++) {
		target_name(buf, sizeof(buf), &replay_targets[i], name);
		snprintf(path, sizeof(path), "%s/%s", dir, buf);
		unlink(path);
		snprintf(path, sizeof(path), "%s/.%s.cmd", dir, buf);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/%s.mod.c", dir, name);
	unlink(path);
}

/* The architecture's directory name, from the first command's
 * "-I.../arch/NAME/include": kbuild exports it as SRCARCH, which objtool
 * reads (6.12 refuses to run without it). */
static const char *
srcarch(const char *cmd, char *buf, size_t len)
{
	const char *a = strstr(cmd, "/arch/");
	size_t n;

	if (!a)
		return NULL;
	a += 6;
	n = strspn(a, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (n == 0 || n >= len || strncmp(a + n, "/include", 8) != 0)
		return NULL;
	memcpy(buf, a, n);
	buf[n] = 0;
	return buf;
}

/* Run one step: COMMAND with the placeholders filled, in KDIR. */
static bool
run_step(const char *cmd, const char *kdir, const char *arch,
	 const char *log)
{
	char *line = malloc(strlen(cmd) + strlen(kdir) + 64);
	char *argv[] = { "sh", "-c", line, NULL };
	int rc;

	if (!line)
		return false;
	/* kdir from the kernel's build link: no quote in it */
	sprintf(line, "cd '%s' && SRCARCH=%s && export SRCARCH && %s", kdir,
		arch, cmd);
	rc = strchr(kdir, '\'') ? 1 : spawn_wait(argv, log);
	free(line);
	return rc == 0;
}

bool
kbuild_replay_build(struct session *s, const char *dir, const char *name,
		    const char *kdir, const char *steps, const char *log)
{
	const char *env = getenv("TAPC_KBUILD_REPLAY");
	char *line = NULL, path[4096], archbuf[32];
	const char *arch = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	bool ok = true, any = false;

	if ((env && strcmp(env, "0") == 0) || !steps || !cache_trusted(steps) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_") != strlen(name) ||
	    !(f = fopen(steps, "r")))
		return false;
	if (getline(&line, &cap, f) <= 0 || strcmp(line, STEPS_MAGIC) != 0)
		ok = false;
	while (ok && (n = getline(&line, &cap, f)) > 0) {
		char *target, *prefix, *cmd, *a = NULL, *b = NULL;

		line[strcspn(line, "\n")] = 0;
		target = line;
		prefix = strchr(target, '\t');
		cmd = prefix ? strchr(prefix + 1, '\t') : NULL;
		if (!cmd) {
			ok = false;
			break;
		}
		*prefix++ = 0;
		*cmd++ = 0;
		a = replace_all(cmd, "@DIR@", dir);
		b = a ? replace_all(a, "@NAME@", name) : NULL;
		if (!arch && b)
			arch = srcarch(b, archbuf, sizeof(archbuf));
		ok = b && arch && run_step(b, kdir, arch, log);
		/* modpost reads each object's .cmd for the versions of the
		 * symbols it exports (5.19+): the script's object needs one,
		 * as kbuild would have written it */
		if (ok && strcmp(target, "@NAME@_script.o") == 0) {
			FILE *c;

			snprintf(path, sizeof(path), "%s/.%s_script.o.cmd", dir,
				 name);
			c = fopen(path, "w");
			ok = c && fprintf(c, "%s%s/%s_script.o := %s\n", prefix,
					  dir, name, b) > 0;
			if (c && fclose(c) != 0)
				ok = false;
		}
		any = true;
		free(a);
		free(b);
	}
	free(line);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s.ko", dir, name);
	ok = ok && any && access(path, R_OK) == 0;
	if (!ok) {
		if (s->opts.verbose)
			fprintf(stderr, "tapc: replaying kbuild's commands failed (see %s); running kbuild\n",
				log);
		remove_outputs(dir, name);
	} else if (s->opts.verbose) {
		fprintf(stderr, "tapc: built by kbuild's commands of %s\n",
			steps);
	}
	return ok;
}
