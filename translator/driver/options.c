/*
 * options.c -- tapc's command line, parsed with getopt_long into s->opts.
 *
 * Takes argc/argv; produces struct options (session.h) with every value
 * checked: pass numbers, PIDs, module names, -D/-G/-B forms. The options and
 * their meaning follow stap's, so a SystemTap user's command lines work; the
 * first non-option is the script file (unless -e, -l or -L gave the script),
 * the rest become $1..$N. "-" as the file means standard input.
 *
 * It also keeps the list of options tapc accepts but cannot act on yet (the
 * tables right below), so the driver can refuse them with a clear message
 * instead of silently ignoring them.
 *
 * Must not: read the script, look at the kernel, or exit the process.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "translator/driver/options.h"
#include "translator/driver/remote.h"
#include "translator/common/diag_registry.h"
#include "translator/driver/preflight.h"
#include "translator/debuginfo/cache_dir.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

/* ------------------------------------------------------------------------
 * NOT SUPPORTED YET
 *
 * Options the parser accepts and stores but whose features do not exist
 * yet. When a feature lands, delete its line (and its pass from
 * pass_supported). options_check_supported() reports every entry that the
 * command line used; --version lists the passes that are supported.
 * ------------------------------------------------------------------------ */

static const bool pass_supported[6] = {
	[1] = true,		/* parse */
	[2] = true,		/* elaborate */
	[3] = true,		/* translate */
	[4] = true,		/* build */
	[5] = true,		/* run */
};

/* One line per option that cannot be acted on yet. */
static const struct unsupported_option {
	const char *option;	/* as the user writes it */
	enum option_feature {
		F_TARGET_COMMAND, F_TARGET_PID, F_OUTPUT_FILE, F_BULK,
		F_BUFFER_SIZE, F_FILE_LIMITS, F_GLOBALS, F_TIME_LIMIT, F_VM,
		F_MAKE_OPTIONS, F_KEEP_BUILD, F_LIST, F_LIST_VARS,
		F_DUMP_FUNCTIONS, F_DUMP_PROBE_TYPES, F_DUMP_PROBE_ALIASES,
		F_TARGET_USER, F_BULK_IN_VM,
	} feature;
} unsupported_options[] = {
	{ "-S with --vm, -b or --target=user", F_FILE_LIMITS },
	/* the per-CPU files would stay in the guest */
	{ "-b with --vm", F_BULK_IN_VM },
};

/* Whether the command line in `o` asked for feature `f`. */
static bool
feature_given(const struct options *o, enum option_feature f)
{
	switch (f) {
	case F_TARGET_COMMAND: return o->target_command != NULL;
	case F_TARGET_PID: return o->target_pid > 0;
	case F_OUTPUT_FILE: return o->output_file != NULL;
	case F_BULK: return o->bulk_mode;
	case F_BUFFER_SIZE: return o->buffer_mb > 0;
	/* taprun rotates the files; the VM's output and the user
	 * target's do not go through it */
	case F_FILE_LIMITS:
		return o->cpu_spec && (o->vm || o->bulk_mode ||
				       o->target == TARGET_USER);
	case F_GLOBALS: return o->nglobals > 0;
	case F_TIME_LIMIT: return o->time_limit > 0;
	case F_VM: return o->vm;
	case F_MAKE_OPTIONS: return o->make_options != NULL;
	case F_KEEP_BUILD: return o->keep_build;
	case F_LIST: return o->list_pattern && !o->list_vars;
	case F_LIST_VARS: return o->list_pattern && o->list_vars;
	case F_DUMP_FUNCTIONS: return o->dump_functions;
	case F_DUMP_PROBE_TYPES: return o->dump_probe_types;
	case F_DUMP_PROBE_ALIASES: return o->dump_probe_aliases;
	case F_TARGET_USER: return o->target == TARGET_USER;
	case F_BULK_IN_VM: return o->bulk_mode && o->vm;
	}
	return false;
}

/* ---------------------------------------------------------------------- */

/* Linux's MODULE_NAME_LEN is 64 - sizeof(unsigned long); one byte is the
 * terminating NUL. */
#define MODULE_NAME_MAX 55
#define BUFFER_MB_MAX 4095

static const char *const pass_names[6] = {
	[1] = "parse", [2] = "elaborate", [3] = "translate",
	[4] = "build", [5] = "run",
};

/* Long-only options get codes past any char. */
enum {
	OPT_VM = 256,
	OPT_TARGET,
	OPT_COMPATIBLE,
	OPT_PRIVILEGE,
	OPT_DUMP_FUNCTIONS,
	OPT_DUMP_PROBE_TYPES,
	OPT_DUMP_PROBE_ALIASES,
	OPT_LDD,
	OPT_ALL_MODULES,
	OPT_EXPLAIN,
	OPT_RUNTIME,
	OPT_BPF,
	OPT_DYNINST,
	OPT_SKIP_BADVARS,
	OPT_CHECK_VERSION,
	OPT_DISABLE_CACHE,
	OPT_JSON,
	OPT_INFO,
	OPT_SIGN_MODULE,
	OPT_REMOTE,
	OPT_REMOTE_PREFIX,
	OPT_REMOTE_MERGE,
	OPT_MERGE_PART,
	OPT_STAGE_BUILD,
};

/* Leading '-': non-options come back in order as code 1, so the script file
 * and its arguments are seen where they stand whatever POSIXLY_CORRECT says.
 * Then ':': a missing value comes back as ':' and we word the message. */
static const char short_options[] = "-:e:p:vkm:r:I:D:guwWc:x:o:bs:S:G:l:L:tT:B:hVd:F";

static const struct option long_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "vm", no_argument, NULL, OPT_VM },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "compatible", required_argument, NULL, OPT_COMPATIBLE },
	{ "privilege", required_argument, NULL, OPT_PRIVILEGE },
	{ "dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS },
	{ "dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES },
	{ "dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES },
	{ "ldd", no_argument, NULL, OPT_LDD },
	{ "all-modules", no_argument, NULL, OPT_ALL_MODULES },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "bpf", no_argument, NULL, OPT_BPF },
	{ "dyninst", no_argument, NULL, OPT_DYNINST },
	{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
	{ "check-version", no_argument, NULL, OPT_CHECK_VERSION },
	{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "sign-module", optional_argument, NULL, OPT_SIGN_MODULE },
	{ "remote", required_argument, NULL, OPT_REMOTE },
	{ "remote-prefix", no_argument, NULL, OPT_REMOTE_PREFIX },
	{ "remote-merge", no_argument, NULL, OPT_REMOTE_MERGE },
	/* internal: remote.c's child builds of --remote-merge's halves */
	{ "merge-part", required_argument, NULL, OPT_MERGE_PART },
	/* internal: a module's kbuild directory without the build, for a
	 * test suite that builds many modules in one kbuild run */
	{ "stage-build", required_argument, NULL, OPT_STAGE_BUILD },
	{ NULL, 0, NULL, 0 },
};

/* What parsing needs besides s->opts: capacities of the growing arrays and
 * which ways of giving the script were used. */
struct parse_state {
	struct session *s;
	int args_cap, remote_cap, include_cap, define_cap, global_cap, sym_file_cap;
	int script_sources;	/* -e, -l, -L seen: at most one allowed */
	bool want_help, want_version, want_info;
	const char *explain_id;	/* --explain ID */
};

void
options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->last_pass = 5;
	o->target = TARGET_KERNEL;
}

/* ---- value checks ---- */

static bool
is_identifier(const char *p, size_t len)
{
	if (len == 0 || !(isalpha((unsigned char)p[0]) || p[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(isalnum((unsigned char)p[i]) || p[i] == '_'))
			return false;
	return true;
}

/* A whole decimal number in [min, max]; no sign, no trailing junk. */
static bool
parse_number(const char *text, long min, long max, long *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* A -D or -B value lands in C source or on make's command line, so it is
 * kept to characters that need no quoting anywhere. */
static bool
is_plain_value(const char *p)
{
	if (*p == '-' || *p == '+')
		p++;
	if (!*p)
		return false;
	for (; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
		      *p == '-'))
			return false;
	return true;
}

/* ---- growing arrays ---- */

static void
push_arg(struct parse_state *ps, const char *arg)
{
	struct options *o = &ps->s->opts;

	o->args = arena_grow(ps->s->arena, o->args, sizeof(*o->args),
			     &ps->args_cap, o->nargs + 1);
	o->args[o->nargs++] = arg;
}

static void
push_include(struct parse_state *ps, const char *dir)
{
	struct options *o = &ps->s->opts;

	o->include_dirs = arena_grow(ps->s->arena, o->include_dirs,
				     sizeof(*o->include_dirs),
				     &ps->include_cap, o->ninclude_dirs + 1);
	o->include_dirs[o->ninclude_dirs++] = dir;
}

/* --merge-part=remote|local: not for users (not in --help); remote.c
 * builds the two halves of a --remote-merge script with it. */
static bool
opt_merge_part(struct parse_state *ps, const char *arg)
{
	struct options *o = &ps->s->opts;

	if (strcmp(arg, "remote") == 0)
		o->merge_part = MERGE_REMOTE;
	else if (strcmp(arg, "local") == 0)
		o->merge_part = MERGE_LOCAL;
	else {
		diag_fatal_noloc(&ps->s->diag, "invalid --merge-part '%s': expected remote or local", arg);
		return false;
	}
	return true;
}

/* --remote URL, repeatable (remote.c). */
static bool
opt_remote(struct parse_state *ps, const char *url)
{
	struct options *o = &ps->s->opts;
	const char *problem = remote_url_problem(url);

	if (problem) {
		diag_fatal_noloc(&ps->s->diag, "invalid --remote '%s': %s", url, problem);
		return false;
	}
	o->remotes = arena_grow(ps->s->arena, o->remotes, sizeof(*o->remotes),
				&ps->remote_cap, o->nremotes + 1);
	o->remotes[o->nremotes++] = url;
	return true;
}

/* -d PATH: a file whose symbols user backtraces name. */
static void
push_sym_file(struct parse_state *ps, const char *path)
{
	struct options *o = &ps->s->opts;

	o->sym_files = arena_grow(ps->s->arena, o->sym_files,
				  sizeof(*o->sym_files), &ps->sym_file_cap,
				  o->nsym_files + 1);
	o->sym_files[o->nsym_files++] = path;
}

/* ---- one handler per option that needs more than a store ---- */

static bool
opt_pass(struct parse_state *ps, const char *arg)
{
	long n;

	if (!parse_number(arg, 1, 5, &n)) {
		diag_fatal_noloc(&ps->s->diag, "-p takes a pass number from 1 to 5");
		return false;
	}
	ps->s->opts.last_pass = (int)n;
	return true;
}

static bool
opt_script_source(struct parse_state *ps, int c, const char *arg)
{
	struct options *o = &ps->s->opts;

	if (ps->script_sources++) {
		diag_fatal_noloc(&ps->s->diag, "only one of -e, -l and -L may be given, and only once");
		return false;
	}
	if (c == 'e') {
		o->script_text = arg;
		return true;
	}
	o->list_pattern = arg;
	o->list_vars = c == 'L';
	return true;
}

static bool
opt_module_name(struct parse_state *ps, const char *arg)
{
	size_t len = strlen(arg);

	if (!is_identifier(arg, len)) {
		diag_fatal_noloc(&ps->s->diag, "module name '%s' is not valid: use letters, digits and '_', not starting with a digit", arg);
		return false;
	}
	if (len > MODULE_NAME_MAX) {
		diag_fatal_noloc(&ps->s->diag, "module name '%s' is too long: %zu characters, at most %d", arg, len, MODULE_NAME_MAX);
		return false;
	}
	ps->s->opts.module_name = arg;
	return true;
}

/* -D NAME[=VALUE]: a macro for the generated C. */
static bool
opt_define(struct parse_state *ps, const char *arg)
{
	struct options *o = &ps->s->opts;
	const char *eq = strchr(arg, '=');
	size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);

	if (!is_identifier(arg, name_len) || (eq && !is_plain_value(eq + 1))) {
		diag_fatal_noloc(&ps->s->diag, "-D takes NAME or NAME=VALUE with a C identifier as NAME and a plain number or word as VALUE, not '%s'", arg);
		return false;
	}
	o->defines = arena_grow(ps->s->arena, o->defines, sizeof(*o->defines),
				&ps->define_cap, o->ndefines + 1);
	o->defines[o->ndefines].name =
		arena_strndup(ps->s->arena, arg, name_len);
	o->defines[o->ndefines].value = eq ? eq + 1 : NULL;
	o->ndefines++;
	return true;
}

/* -G VAR=VALUE: a global's starting value, handed to the module at load. */
static bool
opt_global(struct parse_state *ps, const char *arg)
{
	struct options *o = &ps->s->opts;
	const char *eq = strchr(arg, '=');

	if (!eq || !is_identifier(arg, (size_t)(eq - arg))) {
		diag_fatal_noloc(&ps->s->diag, "-G takes VAR=VALUE with a global's name as VAR, not '%s'", arg);
		return false;
	}
	o->globals = arena_grow(ps->s->arena, o->globals, sizeof(*o->globals),
				&ps->global_cap, o->nglobals + 1);
	o->globals[o->nglobals].name =
		arena_strndup(ps->s->arena, arg, (size_t)(eq - arg));
	o->globals[o->nglobals].value = eq + 1;
	o->nglobals++;
	return true;
}

/* -B OPT: one make argument for kbuild, NAME or NAME=VALUE. */
static bool
opt_make_option(struct parse_state *ps, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);

	if (!is_identifier(arg, name_len) || (eq && !is_plain_value(eq + 1))) {
		diag_fatal_noloc(&ps->s->diag, "-B takes a make variable as NAME or NAME=VALUE, not '%s'", arg);
		return false;
	}
	ps->s->opts.make_options = arg;
	return true;
}

static bool
opt_pid(struct parse_state *ps, const char *arg)
{
	long pid;

	if (!parse_number(arg, 1, INT_MAX, &pid)) {
		diag_fatal_noloc(&ps->s->diag, "-x takes a process ID (a positive number), not '%s'", arg);
		return false;
	}
	ps->s->opts.target_pid = (int)pid;
	return true;
}

static bool
opt_buffer_size(struct parse_state *ps, const char *arg)
{
	long mb;

	if (!parse_number(arg, 1, BUFFER_MB_MAX, &mb)) {
		diag_fatal_noloc(&ps->s->diag, "-s takes a buffer size in megabytes from 1 to %d, not '%s'", BUFFER_MB_MAX, arg);
		return false;
	}
	ps->s->opts.buffer_mb = (int)mb;
	return true;
}

/* -S SIZE[,N]: output files of SIZE megabytes, at most N of them. */
static bool
opt_file_limits(struct parse_state *ps, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char size[32];
	size_t size_len = comma ? (size_t)(comma - arg) : strlen(arg);
	long v;

	if (size_len >= sizeof(size))
		size_len = sizeof(size) - 1;
	memcpy(size, arg, size_len);
	size[size_len] = '\0';
	if (!parse_number(size, 1, INT_MAX, &v) ||
	    (comma && !parse_number(comma + 1, 1, INT_MAX, &v))) {
		diag_fatal_noloc(&ps->s->diag, "-S takes SIZE[,N]: a file size in megabytes and a number of files, both positive, not '%s'", arg);
		return false;
	}
	ps->s->opts.cpu_spec = arg;
	return true;
}

static bool
opt_time_limit(struct parse_state *ps, const char *arg)
{
	long secs;

	if (!parse_number(arg, 1, INT_MAX, &secs)) {
		diag_fatal_noloc(&ps->s->diag, "-T takes a number of seconds (a positive number), not '%s'", arg);
		return false;
	}
	ps->s->opts.time_limit = (int)secs;
	return true;
}

static bool
opt_target(struct parse_state *ps, const char *arg)
{
	if (strcmp(arg, "kernel") == 0)
		ps->s->opts.target = TARGET_KERNEL;
	else if (strcmp(arg, "user") == 0)
		ps->s->opts.target = TARGET_USER;
	else {
		diag_fatal_noloc(&ps->s->diag, "--target takes 'kernel' or 'user', not '%s'", arg);
		return false;
	}
	ps->s->opts.target_given = true;
	return true;
}

/* --runtime=MODE (and stap's short forms --bpf, --dyninst): SystemTap's
 * choice of back end.  kernel builds a module; bpf runs the kernel-side
 * handlers as BPF programs and the rest in user space (runtime/bpf);
 * dyninst is refused by name rather than as an unknown option, so that a
 * command line copied from SystemTap's examples says what is missing. */
static bool
opt_runtime(struct parse_state *ps, const char *arg)
{
	if (strcmp(arg, "kernel") == 0) {
		ps->s->opts.target = TARGET_KERNEL;
		ps->s->opts.target_given = true;
		return true;
	}
	if (strcmp(arg, "bpf") == 0) {
		ps->s->opts.target = TARGET_BPF;
		ps->s->opts.target_given = true;
		return true;
	}
	if (strcmp(arg, "dyninst") == 0)
		diag_fatal_noloc(&ps->s->diag, "--runtime=dyninst: SystemTap's Dyninst runtime is not supported; --target=user runs a script in user space, without Dyninst's process probes");
	else
		diag_fatal_noloc(&ps->s->diag, "--runtime takes kernel, bpf or dyninst, not '%s'", arg);
	return false;
}

/* --sign-module[=KEYDIR]: sign the module with the key pair in KEYDIR
 * (sign_key.c), made there if missing. */
static bool
opt_sign_module(struct parse_state *ps, const char *arg)
{
	if (arg && !*arg) {
		diag_fatal_noloc(&ps->s->diag, "--sign-module= needs a directory for the key pair, or no '='");
		return false;
	}
	ps->s->opts.sign_module = true;
	ps->s->opts.sign_key_dir = arg;
	return true;
}

/* --compatible=VER: a SystemTap version such as 4.8 or 3.3.1. */
static bool
opt_compatible(struct parse_state *ps, const char *arg)
{
	const char *p = arg;
	int parts = 0;

	while (isdigit((unsigned char)*p)) {
		while (isdigit((unsigned char)*p))
			p++;
		parts++;
		if (*p != '.')
			break;
		p++;
	}
	if (*p || parts < 2) {
		diag_fatal_noloc(&ps->s->diag, "--compatible takes a SystemTap version such as 4.8, not '%s'", arg);
		return false;
	}
	ps->s->opts.compatible = arg;
	return true;
}

const char *
privilege_name(enum privilege p)
{
	switch (privilege_level(p)) {
	case PRIV_STAPUSR: return "stapusr";
	case PRIV_STAPSYS: return "stapsys";
	case PRIV_UNSET: case PRIV_STAPDEV: break;
	}
	return "stapdev";
}

static bool
opt_privilege(struct parse_state *ps, const char *arg)
{
	for (enum privilege p = PRIV_STAPUSR; p <= PRIV_STAPDEV; p++) {
		if (strcmp(arg, privilege_name(p)) == 0) {
			ps->s->opts.privilege = p;
			return true;
		}
	}
	diag_fatal_noloc(&ps->s->diag, "--privilege takes stapusr, stapsys or stapdev, not '%s'", arg);
	return false;
}

/* The word getopt just stepped past, up to any '=': how the user spelled a
 * long option. */
static const char *
long_spelling(char **argv, char *buf, size_t size)
{
	const char *word = argv[optind - 1];

	snprintf(buf, size, "%.*s", (int)strcspn(word, "="), word);
	return buf;
}

/* Word a getopt error ('?' or ':') about the option it was reading. */
static void
report_getopt_error(struct parse_state *ps, int c, char **argv)
{
	struct diag *d = &ps->s->diag;
	bool is_long = optind > 0 && strncmp(argv[optind - 1], "--", 2) == 0;
	char spelled[64];

	if (is_long)
		long_spelling(argv, spelled, sizeof(spelled));
	else
		snprintf(spelled, sizeof(spelled), "-%c", optopt);
	if (c == ':')
		diag_fatal_noloc(d, "option '%s' needs a value", spelled);
	else if (is_long && optopt)
		diag_fatal_noloc(d, "option '%s' takes no value", spelled);
	else
		diag_fatal_noloc(d, "unknown option '%s'", spelled);
}

/* Options whose empty value can only be a mistake, such as an unset shell
 * variable: "-r $KREL". */
static const char nonempty_options[] = "rIcolLm";

static bool
handle_option(struct parse_state *ps, int c, const char *arg)
{
	struct options *o = &ps->s->opts;

	if (arg && !*arg && c > 1 && c < 256 && strchr(nonempty_options, c)) {
		diag_fatal_noloc(&ps->s->diag, "option '-%c' needs a value, not an empty string", c);
		return false;
	}
	switch (c) {
	case 1: push_arg(ps, arg); return true;
	case 'e': case 'l': case 'L': return opt_script_source(ps, c, arg);
	case 'p': return opt_pass(ps, arg);
	case 'v': o->verbose++; return true;
	case 'k': o->keep_build = true; return true;
	case 'm': return opt_module_name(ps, arg);
	case 'r': o->kernel_release = arg; return true;
	case 'I': push_include(ps, arg); return true;
	case 'D': return opt_define(ps, arg);
	case 'g': o->guru = true; return true;
	case 'u': o->unoptimized = true; return true;
	case 'w': o->suppress_warnings = true; return true;
	case 'W': o->warnings_as_errors = true; return true;
	case 'c': o->target_command = arg; return true;
	case 'x': return opt_pid(ps, arg);
	case 'd': push_sym_file(ps, arg); return true;
	case OPT_LDD: o->ldd = true; return true;
	/* stap needs --all-modules to name addresses inside modules the
	 * script does not probe; tapc's kernel symbols come from kallsyms at
	 * run time, which always covers every loaded module, so the option
	 * asks for what is already done. */
	case OPT_ALL_MODULES: return true;
	case 'o': o->output_file = arg; return true;
	case 'b': o->bulk_mode = true; return true;
	case 's': return opt_buffer_size(ps, arg);
	case 'S': return opt_file_limits(ps, arg);
	case 'G': return opt_global(ps, arg);
	case 't': o->timing = true; return true;
	case 'F': o->flight_recorder = true; return true;
	case 'T': return opt_time_limit(ps, arg);
	case 'B': return opt_make_option(ps, arg);
	case 'h': ps->want_help = true; return true;
	case 'V': ps->want_version = true; return true;
	case OPT_EXPLAIN: ps->explain_id = arg; return true;
	case OPT_INFO: ps->want_info = true; return true;
	case OPT_SIGN_MODULE: return opt_sign_module(ps, arg);
	case OPT_VM: o->vm = true; return true;
	case OPT_REMOTE: return opt_remote(ps, arg);
	case OPT_REMOTE_PREFIX: o->remote_prefix = true; return true;
	case OPT_REMOTE_MERGE: o->remote_merge = true; return true;
	case OPT_MERGE_PART: return opt_merge_part(ps, arg);
	case OPT_STAGE_BUILD: o->stage_dir = arg; return true;
	case OPT_SKIP_BADVARS: o->skip_badvars = true; return true;
	case OPT_CHECK_VERSION: o->check_version = true; return true;
	case OPT_DISABLE_CACHE: cache_disable(); return true;
	case OPT_JSON: o->json_output = true; return true;
	case OPT_TARGET: return opt_target(ps, arg);
	case OPT_RUNTIME: return opt_runtime(ps, arg);
	case OPT_BPF: return opt_runtime(ps, "bpf");
	case OPT_DYNINST: return opt_runtime(ps, "dyninst");
	case OPT_COMPATIBLE: return opt_compatible(ps, arg);
	case OPT_PRIVILEGE: return opt_privilege(ps, arg);
	case OPT_DUMP_FUNCTIONS: o->dump_functions = true; return true;
	case OPT_DUMP_PROBE_TYPES: o->dump_probe_types = true; return true;
	case OPT_DUMP_PROBE_ALIASES: o->dump_probe_aliases = true; return true;
	}
	return false;
}

/* -F: the module is left running in the kernel by taprun -F, so only a
 * module run on this machine can be one.  Without -o nothing may need
 * taprun to stay; with -o FILE (stap's file flight recorder) taprun
 * stays, in the background, so -S, -T and -x work as in a plain run,
 * and only a -c command, which would lose its terminal, cannot. */
static const char *
flight_file_clash(const struct options *o)
{
	if (o->target_command)
		return "-c (taprun goes on in the background, away from the command's terminal; -x PID names a process that runs already)";
	if (o->bulk_mode)
		return "-b";
	return NULL;
}

static bool
check_flight_recorder(struct parse_state *ps)
{
	const struct options *o = &ps->s->opts;
	const char *clash = NULL;

	if (o->vm)
		clash = "--vm (the VM powers off when the run ends; a flight recorder must outlive it)";
	else if (o->target == TARGET_USER)
		clash = "--target=user (a program, not a module left in the kernel)";
	else if (o->target == TARGET_BPF)
		clash = "--runtime=bpf (its user-space half ends with tapc)";
	else if (o->output_file) {
		clash = flight_file_clash(o);
		if (clash)
			diag_fatal_noloc(&ps->s->diag, "-F -o cannot be used with %s", clash);
		return !clash;
	} else if (o->target_command || o->target_pid)
		clash = "-c and -x (a detached script outlives any command)";
	else if (o->time_limit)
		clash = "-T (nobody is there to stop a detached script on time)";
	else if (o->bulk_mode)
		clash = "-b";
	if (clash) {
		diag_fatal_noloc(&ps->s->diag, "-F cannot be used with %s", clash);
		return false;
	}
	return true;
}

/* Combinations that make no sense, checked once everything is read. */
static bool
check_combinations(struct parse_state *ps)
{
	struct options *o = &ps->s->opts;
	struct diag *d = &ps->s->diag;
	bool dumping = o->dump_functions || o->dump_probe_types ||
		       o->dump_probe_aliases;

	if (o->target_command && o->target_pid) {
		diag_fatal_noloc(d, "-c and -x cannot be used together: -c starts the target process, -x names one that runs already");
		return false;
	}
	if (o->remote_merge && o->nremotes == 0) {
		diag_fatal_noloc(d, "--remote-merge needs --remote HOST: it merges the global statistics and arrays of the hosts' runs");
		return false;
	}
	if (o->cpu_spec && !o->output_file) {
		diag_fatal_noloc(d, "-S needs -o FILE: it makes FILE.1, FILE.2, ... of at most SIZE megabytes each");
		return false;
	}
	if (o->flight_recorder && !check_flight_recorder(ps))
		return false;
	if (o->stage_dir && (o->last_pass != 4 || o->target != TARGET_KERNEL)) {
		diag_fatal_noloc(d, "--stage-build needs -p4 and the kernel target");
		return false;
	}
	if (o->guru && privilege_level(o->privilege) != PRIV_STAPDEV) {
		diag_fatal_noloc(d, "-g (guru mode) needs --privilege=stapdev, not --privilege=%s", privilege_name(o->privilege));
		return false;
	}
	if (!o->script_file && !o->script_text && !o->list_pattern &&
	    !dumping) {
		diag_fatal_noloc(d, "no script given: name a script file ('-' for standard input) or use -e SCRIPT");
		return false;
	}
	return true;
}

/* --explain ID: the table's text for ID on stdout. */
static bool
explain(struct session *s, const char *id)
{
	if (diag_explain(stdout, id))
		return true;
	diag_fatal_noloc(&s->diag, "'%s' is not a diagnostic id; ids are printed in brackets after a message, like [E_NO_MATCH]", id);
	return false;
}

static void
print_usage_hint(struct session *s)
{
	if (s->diag.out)
		fputs("Try 'tapc --help' for the list of options.\n",
		      s->diag.out);
}

/* Run getopt over argv; false on the first bad option or value. Every
 * non-option goes to o->args in order; which of them is the script file is
 * decided afterwards, as stap does, so "FILE -e SCRIPT" gives $1 = FILE. */
static bool
read_options(struct parse_state *ps, int argc, char **argv)
{
	int c;

	optind = 0;		/* glibc: start afresh, also on a second call */
	opterr = 0;		/* we word the messages ourselves */
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		if (c == '?' || c == ':') {
			report_getopt_error(ps, c, argv);
			return false;
		}
		if (!handle_option(ps, c, optarg))
			return false;
	}
	/* After "--": everything left is positional. */
	for (int i = optind; i < argc; i++)
		push_arg(ps, argv[i]);
	return true;
}

/* Without -e, -l or -L the first non-option is the script file. */
static void
take_script_file(struct parse_state *ps)
{
	struct options *o = &ps->s->opts;

	if (ps->script_sources || o->nargs == 0)
		return;
	o->script_file = o->args[0];
	o->args++;
	o->nargs--;
}

bool
options_parse(struct session *s, int argc, char **argv, int *exit_code)
{
	struct parse_state ps = { .s = s };

	options_init(&s->opts);
	if (!read_options(&ps, argc, argv))
		goto usage;
	if (ps.want_help) {
		options_print_help(stdout);
		*exit_code = 0;
		return false;
	}
	if (ps.want_version) {
		options_print_version(stdout);
		*exit_code = 0;
		return false;
	}
	if (ps.want_info) {
		*exit_code = preflight_print_info(stdout);
		return false;
	}
	if (ps.explain_id) {
		*exit_code = explain(s, ps.explain_id) ? 0 : 1;
		return false;
	}
	take_script_file(&ps);
	if (!check_combinations(&ps))
		goto usage;
	/* Listing probes is pass 2's work, as in stap. */
	if ((s->opts.list_pattern || s->opts.dump_functions ||
	     s->opts.dump_probe_types || s->opts.dump_probe_aliases) &&
	    s->opts.last_pass > 2)
		s->opts.last_pass = 2;
	s->diag.no_warnings = s->opts.suppress_warnings;
	s->diag.warnings_are_errors = s->opts.warnings_as_errors;
	return true;

usage:
	print_usage_hint(s);
	*exit_code = 1;
	return false;
}

/* Whether release `krel` is the running kernel's: --runtime=bpf -r KREL
 * elaborates against KREL's BTF, but runs only where it runs. */
static bool
bpf_release_is_running(const char *krel)
{
	struct utsname u;

	return uname(&u) == 0 && strcmp(u.release, krel) == 0;
}

/* Say that `pass` does not exist yet, and which passes do. */
static void
report_pass_unsupported(struct session *s, int pass)
{
	int last = 0;

	while (last < 5 && pass_supported[last + 1])
		last++;
	if (last == 1)
		diag_fatal_noloc(&s->diag, "pass %d (%s) is not supported yet: only pass 1 works so far (-p1)", pass, pass_names[pass]);
	else
		diag_fatal_noloc(&s->diag, "pass %d (%s) is not supported yet: passes 1 to %d work so far (-p1 to -p%d)", pass, pass_names[pass], last, last);
}

bool
options_check_supported(struct session *s)
{
	const size_t n = sizeof(unsupported_options) /
			 sizeof(unsupported_options[0]);
	int pass = s->opts.last_pass;
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		if (feature_given(&s->opts, unsupported_options[i].feature)) {
			diag_fatal_noloc(&s->diag, "option '%s' is not supported yet", unsupported_options[i].option);
			ok = false;
		}
	}
	/* Module-only options would be ignored by --runtime=bpf, which
	 * runs on the running kernel, in this process's session. */
	if (s->opts.target == TARGET_BPF) {
		const struct { bool given; const char *what; } module_only[] = {
			{ s->opts.vm, "--vm (it boots a kernel to load a module)" },
			{ s->opts.bulk_mode, "-b (the module's per-CPU files)" },
			{ s->opts.buffer_mb > 0, "-s (the module's buffer size)" },
			{ s->opts.make_options != NULL, "-B (kbuild's options)" },
			{ s->opts.timing, "-t (the per-probe timing report is the module's)" },
		};
		for (size_t i = 0; i < sizeof(module_only) / sizeof(module_only[0]); i++)
			if (module_only[i].given) {
				diag_fatal_noloc(&s->diag, "%s is for the kernel-module backend, not --runtime=bpf",
						 module_only[i].what);
				ok = false;
			}
		/* -r KREL elaborates against that kernel's BTF and builds
		 * its program (CO-RE: relocated where it loads) */
		if (s->opts.kernel_release && pass == 5 &&
		    !bpf_release_is_running(s->opts.kernel_release)) {
			diag_fatal_noloc(&s->diag, "--runtime=bpf runs programs on the running kernel; -r %s names another: build with -p4 and run the program on that kernel",
					 s->opts.kernel_release);
			ok = false;
		}
	}
	/* Only when the options are fine: "-c is not supported" says it all. */
	if (ok && !pass_supported[pass]) {
		report_pass_unsupported(s, pass);
		ok = false;
	}
	return ok;
}

/* ---- --help and --version ---- */

/*
 * One line per option; the description starts at column 24 so that the
 * longest option (--dump-probe-aliases) still fits with two spaces.
 */
static const char help_text[] =
"Usage: tapc [OPTIONS] FILE [ARGS...]       run the script in FILE ('-': stdin)\n"
"   or: tapc [OPTIONS] -e SCRIPT [ARGS...]  run the script given as text\n"
"   or: tapc [OPTIONS] -l PROBE             list probe points matching PROBE\n"
"   or: tapc [OPTIONS] -L PROBE             ... with their context variables\n"
"   or: tapc --dump-functions | --dump-probe-types | --dump-probe-aliases\n"
"   or: tapc --explain ID                   explain diagnostic ID, e.g. E_TYPE\n"
"   or: tapc --info                         what this machine offers a tracer\n"
"\n"
"ARGS are the script's $1..$N (as numbers) and @1..@N (as strings).\n"
"\n"
"Script:\n"
"  -e SCRIPT             take the script from this argument, not from a file\n"
"  -I DIR                look for tapset files in DIR too\n"
"  -D NAME[=VALUE]       define a C macro in the generated module\n"
"  -g                    guru mode: allow embedded C and writing kernel data\n"
"  -u                    unoptimized: keep unused code and variables\n"
"  -w                    do not print warnings\n"
"  -W                    treat every warning as an error\n"
"  --skip-badvars        read a context variable the probe lacks as 0, with a\n"
"                        warning, instead of refusing the script\n"
"  --disable-cache       neither use nor fill the cache (modules, kernel BTF)\n"
"  --compatible=VER      read the script as SystemTap VER did (default " TAPC_COMPAT_VERSION ")\n"
"  --check-version       warn where the script uses code that depends on the\n"
"                        SystemTap version (inside %( systemtap_v ... %))\n"
"  --privilege=LEVEL     build for users of group stapusr, stapsys or stapdev\n"
"                        (default): refuse the probes and functions LEVEL\n"
"                        may not use; -g needs stapdev\n"
"\n"
"Passes:\n"
"  -p NUM                stop after pass NUM (1-5): parse elaborate C build run\n"
"  -v                    tell more about what each pass does; repeat for more\n"
"  -k                    keep the build directory instead of removing it\n"
"\n"
"Target and build:\n"
"  -r KREL|DIR           build for kernel release KREL, or the kernel tree DIR\n"
"  --target=KIND         build a kernel module (kernel) or a program (user)\n"
"  --runtime=MODE        SystemTap's back end: kernel (the default) or bpf\n"
"                        (--bpf: BPF programs, no module; a subset of the\n"
"                        language, runtime/bpf/README.md); dyninst refused\n"
"  --vm                  run the module in a virtual machine booting the kernel\n"
"  --remote [ssh://][USER@]HOST[:PORT]\n"
"                        run on HOST over ssh (repeatable): one build per\n"
"                        kernel release, the module and loader copied there\n"
"  --remote-prefix       prefix each remote output line with \"N: \", N the\n"
"                        index of its --remote (from 0)\n"
"  --remote-merge        add up the hosts' global statistics and arrays, then\n"
"                        run the end probes once, here, over them (tapc(1))\n"
"  -m NAME               call the module NAME (C identifier, at most 55 chars)\n"
"                        and leave NAME.ko, without debug sections, here\n"
"  --sign-module[=DIR]   sign the module with tapc's key pair in DIR (default\n"
"                        ~/.local/share/tapc; made if missing) for kernels\n"
"                        that load only signed modules\n"
"  -B OPT                give NAME or NAME=VALUE to the kernel's make\n"
"\n"
"Running:\n"
"  -c CMD                arm the probes, run CMD, stop when CMD exits\n"
"  -x PID                make target() return PID\n"
"  -d PATH               name and unwind user addresses in PATH (a program or\n"
"                        library) in ubacktrace() and usymname()\n"
"  --ldd                 and in the shared libraries of probed programs\n"
"  --all-modules         name addresses in every kernel module (always done)\n"
"  -o FILE               write the script's output to FILE\n"
"  -S SIZE[,N]           with -o FILE: go on in FILE.1, FILE.2, ... when a file\n"
"                        would pass SIZE megabytes; keep only the last N\n"
"  -b                    bulk mode: write one output file per CPU\n"
"  -s NUM                use NUM megabytes of output buffer per CPU\n"
"  -G VAR=VALUE          set global VAR to VALUE when the script starts\n"
"  -T SECONDS            stop the script after SECONDS\n"
"  -t                    time each probe: after the end probes, print hits and\n"
"                        min/avg/max cycles per probe, as stap -t (tapc(1))\n"
"  -F                    flight recorder: arm the probes and detach; the script\n"
"                        runs on, its newest output kept in the kernel (taprun\n"
"                        -A NAME attaches, -A -o FILE saves, -d NAME stops);\n"
"                        with -o FILE: taprun goes on in the background writing\n"
"                        FILE and prints its pid (kill PID stops the script)\n"
"  --json                print arrays, aggregates, histograms and the end-of-run\n"
"                        autoprint as JSON, one document a line (see tapc(1))\n"
"\n"
"Listing:\n"
"  -l PROBE              list the probe points that match PROBE\n"
"  -L PROBE              the same, with the context variables of each\n"
"  --dump-functions      list the functions of the tapset library\n"
"  --dump-probe-types    list the kinds of probe point tapc knows\n"
"  --dump-probe-aliases  list the probe aliases of the tapset library\n"
"\n"
"Other:\n"
"  --                    end of tapc's options; what follows goes to the script\n"
"  --explain ID          explain diagnostic ID (the [E_...] or [W_...] after a\n"
"                        message): its meaning, a typical cause, the fix\n"
"  --info                say what this machine offers: module loading (lockdown,\n"
"                        signing), BTF, debuginfo, headers, tracefs, kprobes,\n"
"                        BPF; and which ways of running a script work here\n"
"  -h, --help            print this help and exit\n"
"  -V, --version         print the version and enabled features and exit\n"
"\n"
"See tapc(1) for more.\n";

void
options_print_help(FILE *out)
{
	fputs(help_text, out);
}

/* Whether the options in `o` pass the NOT SUPPORTED YET table. */
static bool
all_supported(const struct options *o)
{
	const size_t n = sizeof(unsupported_options) /
			 sizeof(unsupported_options[0]);

	for (size_t i = 0; i < n; i++)
		if (feature_given(o, unsupported_options[i].feature))
			return false;
	return true;
}

/* The features line is derived from the tables at the top, so it changes
 * by itself when an entry is deleted there. */
void
options_print_version(FILE *out)
{
	struct options user = { .target = TARGET_USER };
	struct options vm = { .vm = true };

	fprintf(out, "tapc %s (SystemTap-compatible language %s)\n",
		PACKAGE_VERSION, TAPC_COMPAT_VERSION);
	fputs("enabled features:", out);
	for (int pass = 1; pass <= 5; pass++)
		if (pass_supported[pass])
			fprintf(out, " %s", pass_names[pass]);
	if (all_supported(&user))
		fputs(" user-target", out);
	if (all_supported(&vm))
		fputs(" vm", out);
	fputc('\n', out);
}
