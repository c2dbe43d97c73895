/* btfdump.c -- a developer's window on what translator/debuginfo sees.
 *
 *   btfdump [-r KREL|TREE] [-f FILE] [-m MODULE] [-C CACHEDIR] COMMAND [ARG...]
 *     kernel              release, version, arch, paths, a few CONFIG_s
 *     tracepoints [GLOB]  tracepoints matching a kernel.trace() spec, with
 *                         typed arguments ("sched:*", "sched_*", "*")
 *     func NAME...        a function's prototype from BTF
 *     type NAME...        a struct/union/typedef with member offsets
 *     functions GLOB      kprobe-able function names matching GLOB
 *
 * -f FILE reads BTF from a file (raw, ELF or vmlinuz) instead of a kernel
 * target; -m MODULE looks at a module's (split) BTF instead of vmlinux's.
 * Prints to stdout; exits 1 on an error.  Not installed.
 */
#include "translator/debuginfo/btf.h"
#include "translator/debuginfo/kallsyms.h"
#include "translator/debuginfo/kernel.h"
#include "translator/debuginfo/tracepoints.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(void)
{
	fprintf(stderr, "usage: btfdump [-r KREL|TREE] [-f BTF-FILE] [-m MODULE] [-C CACHEDIR] "
		"kernel | tracepoints [GLOB] | func NAME... | type NAME... | functions GLOB\n");
	exit(2);
}

static const char *
kind_name(int kind)
{
	static const char *const names[] = {
		"void", "int", "ptr", "array", "struct", "union", "enum",
		"fwd", "typedef", "volatile", "const", "restrict", "func",
		"func_proto", "var", "datasec", "float", "decl_tag",
		"type_tag", "enum64",
	};

	return kind >= 0 && (size_t)kind < sizeof(names) / sizeof(names[0])
	       ? names[kind] : "?";
}

static void
dump_kernel(struct kernel_target *kt)
{
	static const char *const configs[] = {
		"CONFIG_SMP", "CONFIG_PREEMPT_RT", "CONFIG_DEBUG_INFO_BTF",
		"CONFIG_KPROBES", "CONFIG_LOCALVERSION", "CONFIG_HZ",
	};
	size_t i;

	printf("release   %s%s\n", kernel_release(kt),
	       kernel_is_running(kt) ? " (running)" : "");
	printf("version   %s (code %u; release says %s)\n", kernel_version(kt),
	       kernel_version_code(kt), kernel_release_version(kt));
	printf("arch      %s (%s)\n", kernel_arch(kt), kernel_srcarch(kt));
	printf("build     %s\n", kernel_build_dir(kt) ? kernel_build_dir(kt) : "-");
	printf("source    %s\n", kernel_source_dir(kt) ? kernel_source_dir(kt) : "-");
	printf("image     %s\n", kernel_image(kt) ? kernel_image(kt) : "-");
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		const char *v = kernel_config(kt, configs[i]);

		printf("%-22s %s\n", configs[i], v ? v : "(not set)");
	}
}

static bool
print_tracepoint(const struct tracepoint *tp, void *ctx)
{
	int i;

	printf("%s:%s", *tp->system ? tp->system : "?", tp->name);
	for (i = 0; i < tp->nargs; i++) {
		const struct tp_arg *a = &tp->args[i];

		printf("%s%s%s%s", i ? ", " : "(", a->type_text,
		       a->type_text[strlen(a->type_text) - 1] == '*' ? "" : " ",
		       a->name);
	}
	printf("%s\n", tp->nargs ? ")" : "()");
	return true;
}

static int
dump_tracepoints(struct tracepoints *tps, const char *glob)
{
	size_t tracefs, headers, unknown;
	size_t n = tracepoints_foreach(tps, glob, print_tracepoint, NULL);

	tracepoints_system_stats(tps, &tracefs, &headers, &unknown);
	fprintf(stderr, "%zu of %zu tracepoints (systems from tracefs %zu, headers %zu, unknown %zu)\n",
		n, tracepoints_count(tps), tracefs, headers, unknown);
	return n ? 0 : 1;
}

static int
dump_funcs(struct btf *btf, char **names, int n)
{
	char buf[2048];
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		uint32_t id = btf_find(btf, names[i], BTF_KIND_FUNC);

		if (!id) {
			printf("%s: no such function in BTF\n", names[i]);
			rc = 1;
			continue;
		}
		btf_func_snprint(btf, id, buf, sizeof(buf));
		printf("%s\n", buf);
	}
	return rc;
}

static void
dump_members(struct btf *btf, uint32_t id)
{
	struct btf_member_info m;
	char buf[1024];
	int i;

	for (i = 0; btf_member_at(btf, id, i, &m); i++) {
		btf_type_snprint(btf, m.type, m.name, buf, sizeof(buf));
		if (m.bitfield_size)
			printf("  %-48s /* bit %u, %u bits */\n", buf,
			       m.bit_offset, m.bitfield_size);
		else
			printf("  %-48s /* offset %u, size %lld */\n", buf,
			       m.bit_offset / 8, (long long)btf_sizeof(btf, m.type));
	}
}

static int
dump_types(struct btf *btf, char **names, int n)
{
	char buf[1024];
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		uint32_t id = btf_find(btf, names[i], BTF_KIND_STRUCT);

		if (!id)
			id = btf_find(btf, names[i], BTF_KIND_UNION);
		if (!id)
			id = btf_find(btf, names[i], BTF_KIND_ANY);
		if (!id) {
			printf("%s: no such type in BTF\n", names[i]);
			rc = 1;
			continue;
		}
		btf_type_snprint(btf, id, NULL, buf, sizeof(buf));
		printf("%s (id %u, %s, size %lld)", buf, id,
		       kind_name(btf_kind_of(btf, id)), (long long)btf_sizeof(btf, id));
		if (btf_resolve(btf, id) != id) {
			btf_type_snprint(btf, btf_resolve(btf, id), NULL, buf, sizeof(buf));
			printf(" = %s", buf);
		}
		printf("\n");
		dump_members(btf, id);
	}
	return rc;
}

static bool
print_function(const struct ksym *sym, void *ctx)
{
	const char *why = NULL;
	enum ksym_probeable p = ksym_check(ctx, sym, &why);

	printf("%s%s%s%s\n", sym->name, sym->copies > 1 ? " (several)" : "",
	       p != KSYM_PROBEABLE ? " -- " : "", why ? why : "");
	return true;
}

/* What the commands look at: a kernel target, or a BTF of our own (-f),
 * or a module's BTF within the target (-m). */
struct dump {
	struct kernel_target *kt;
	struct btf *btf;
	char err[BTF_ERRLEN];
};

static int
cmd_tracepoints(struct dump *d, const char *glob)
{
	struct tp_sources src = {
		.source_dir = d->kt ? kernel_source_dir(d->kt) : NULL,
		.srcarch = d->kt ? kernel_srcarch(d->kt) : NULL,
	};
	bool own = !d->kt || d->btf;
	struct tracepoints *tps = own ? tracepoints_load(d->btf, &src, d->err, sizeof(d->err))
				      : kernel_tracepoints(d->kt, d->err, sizeof(d->err));
	int rc;

	if (!tps)
		return -1;
	rc = dump_tracepoints(tps, glob ? glob : "*");
	if (own)
		tracepoints_free(tps);
	return rc;
}

static int
cmd_functions(struct dump *d, const char *glob)
{
	bool own = !d->kt || d->btf;
	struct ksym_table *ks = own ? ksym_load_btf(d->btf, d->err, sizeof(d->err))
				    : kernel_functions(d->kt, d->err, sizeof(d->err));
	int rc;

	if (!ks)
		return -1;
	rc = ksym_foreach(ks, glob, 0, print_function, ks) ? 0 : 1;
	fprintf(stderr, "(function names from %s)\n", ksym_source(ks));
	if (own)
		ksym_free(ks);
	return rc;
}

/* 0 or 1 as the command's exit status, -1 for an error in d->err. */
static int
run_command(struct dump *d, const char *cmd, char **args, int nargs)
{
	if (strcmp(cmd, "kernel") == 0 && d->kt) {
		dump_kernel(d->kt);
		return 0;
	}
	if (strcmp(cmd, "tracepoints") == 0)
		return cmd_tracepoints(d, nargs ? args[0] : NULL);
	if (strcmp(cmd, "functions") == 0 && nargs)
		return cmd_functions(d, args[0]);
	if (strcmp(cmd, "func") == 0 || strcmp(cmd, "type") == 0) {
		struct btf *btf = d->btf ? d->btf : kernel_btf(d->kt, d->err, sizeof(d->err));

		if (!btf)
			return -1;
		return cmd[0] == 'f' ? dump_funcs(btf, args, nargs)
				     : dump_types(btf, args, nargs);
	}
	usage();
	return 2;
}

int
main(int argc, char **argv)
{
	const char *release = NULL, *file = NULL, *module = NULL;
	struct kernel_paths paths = { 0 };
	struct btf_load_opts opts = { 0 };
	struct dump d = { 0 };
	struct btf *own_btf = NULL;
	const char *cmd;
	int c, rc = -1;

	while ((c = getopt(argc, argv, "r:f:m:C:h")) != -1) {
		switch (c) {
		case 'r': release = optarg; break;
		case 'm': module = optarg; break;
		case 'f': file = optarg; break;
		case 'C': paths.cache_dir = opts.cache_dir = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	cmd = argv[optind++];
	if (file)
		d.btf = own_btf = btf_load_path(file, &opts, d.err, sizeof(d.err));
	else if ((d.kt = kernel_target_open(release, &paths, d.err, sizeof(d.err))) && module)
		d.btf = kernel_module_btf(d.kt, module, d.err, sizeof(d.err));
	if ((file || module) ? d.btf != NULL : d.kt != NULL)
		rc = run_command(&d, cmd, argv + optind, argc - optind);
	if (rc < 0)
		fprintf(stderr, "btfdump: %s\n", d.err);
	kernel_target_free(d.kt);
	btf_free(own_btf);
	return rc < 0 ? 1 : rc;
}
