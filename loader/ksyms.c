/*
 * ksyms.c -- resolving the kernel symbols a module asks for.
 *
 * Takes: the module's "tap_ksym=NAME" .modinfo strings (runtime/linux/
 * ksyms.h) and this kernel's /proc/kallsyms.  Produces: the module
 * parameter __tap_ksyms="NAME:hexaddr,...", appended to the parameters.
 * A symbol of a module that is not loaded is passed as 0: the module
 * places it when that module loads (runtime/linux/ksyms.c), as a probe on
 * an absent module waits for it.
 * Must not: pass a zero address for a symbol that exists -- kallsyms shows
 * zeros when kptr_restrict hides them, and that is an error to explain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loader/taprun.h"


struct taprun_ksyms {
	char *names[TAP_MAX_KSYMS];
	unsigned long addrs[TAP_MAX_KSYMS];
	bool module_seen[TAP_MAX_KSYMS];	/* "mod:sym": mod is loaded */
	int n;
};

/* Whether "mod:sym" names module `mod`. */
static bool
taprun_ksyms_of_module(const char *want, const char *mod)
{
	size_t len = strlen(mod);

	return strncmp(want, mod, len) == 0 && want[len] == ':';
}

static int
taprun_ksyms_want(const char *value, void *ctx)
{
	struct taprun_ksyms *k = ctx;

	if (k->n == TAP_MAX_KSYMS) {
		taprun_err("kallsyms: the module asks for more than %d symbols", TAP_MAX_KSYMS);
		return -E2BIG;
	}
	k->names[k->n] = strdup(value);
	return k->names[k->n++] ? 0 : -ENOMEM;
}

/* One pass over /proc/kallsyms; the first entry of a name wins. */
static int
taprun_ksyms_resolve(struct taprun_ksyms *k)
{
	char line[512], name[256], type;
	unsigned long addr;
	FILE *f;
	int i;

	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		int err = errno;
		taprun_err("kallsyms: cannot open /proc/kallsyms: %s", strerror(err));
		return -err;
	}
	while (fgets(line, sizeof(line), f)) {
		char mod[64], full[322];
		int got = sscanf(line, "%lx %c %255s [%63[^]]]", &addr, &type,
				 name, mod);
		if (got < 3)
			continue;
		/* a module's symbol is asked for as "module:name" */
		if (got == 4)
			snprintf(full, sizeof(full), "%s:%s", mod, name);
		for (i = 0; i < k->n; i++) {
			if (got == 4 && taprun_ksyms_of_module(k->names[i], mod))
				k->module_seen[i] = true;
			if (!k->addrs[i] &&
			    strcmp(got == 4 ? full : name, k->names[i]) == 0)
				k->addrs[i] = addr ? addr : 1;	/* 1: hidden */
		}
	}
	fclose(f);
	for (i = 0; i < k->n; i++) {
		if (!k->addrs[i] && strchr(k->names[i], ':') &&
		    !k->module_seen[i]) {
			taprun_verbose("kallsyms: %s: its module is not loaded; placed when it loads", k->names[i]);
			continue;
		}
		if (!k->addrs[i]) {
			if (strchr(k->names[i], ':'))
				taprun_err("kallsyms: %s: no such symbol in its module", k->names[i]);
			else
				taprun_err("kallsyms: %s: no such symbol in this kernel", k->names[i]);
			return -ENOENT;
		}
		if (k->addrs[i] == 1) {
			taprun_err("kallsyms: addresses are hidden (kernel.kptr_restrict); run as root with CAP_SYSLOG");
			return -EPERM;
		}
	}
	return 0;
}

static int
taprun_ksyms_build(const struct taprun_ksyms *k, char **params)
{
	size_t size = 32, used;
	char *s;
	int i, ret;

	for (i = 0; i < k->n; i++)
		size += strlen(k->names[i]) + 20;
	s = malloc(size);
	if (!s)
		return -ENOMEM;
	used = snprintf(s, size, "__tap_ksyms=");
	for (i = 0; i < k->n; i++)
		used += snprintf(s + used, size - used, "%s%s:%lx", i ? "," : "",
				 k->names[i], k->addrs[i]);
	ret = taprun_params_add(params, s);
	free(s);
	return ret;
}

int
taprun_ksyms_param(const char *module, char **params)
{
	struct taprun_ksyms k = { .n = 0 };
	int ret, i;

	ret = taprun_modinfo_each(module, "tap_ksym=", taprun_ksyms_want, &k);
	if (ret == -ENOENT || ret == -ENOEXEC) {
		ret = 0;	/* asks for nothing (or not ours to read) */
		goto out;
	}
	if (ret)
		goto out;
	ret = taprun_ksyms_resolve(&k);
	if (!ret && k.n)
		ret = taprun_ksyms_build(&k, params);
	if (!ret)
		taprun_verbose("resolved %d kernel symbols", k.n);
out:
	for (i = 0; i < k.n; i++)
		free(k.names[i]);
	return ret;
}
