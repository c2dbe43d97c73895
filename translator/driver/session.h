/*
 * session.h -- the state of one tapc run, handed to every pass.
 *
 * The session holds the options from the command line, the arena every pass
 * allocates from, the diagnostics sink, and the results passes hand on to
 * each other (the parsed files, the elaborated program). A pass reads what
 * earlier passes produced and adds its own result; it never reaches into
 * another pass's private state.
 */
#ifndef TAPC_DRIVER_SESSION_H
#define TAPC_DRIVER_SESSION_H

#include <stdbool.h>

#include "translator/common/arena.h"
#include "translator/common/diag.h"

struct node;
struct file_ast;
struct kernel_target;
struct program;
struct macro_table;

/* TARGET_BPF: kernel-side handlers as BPF, the rest in user space
 * (--runtime=bpf, runtime/bpf/README.md). */
enum target_kind { TARGET_KERNEL, TARGET_USER, TARGET_BPF };

/*
 * --privilege: who may run the module, ordered from least to most trusted
 * (SystemTap's groups).  stapusr may probe only what cannot reveal or
 * change another user's data (begin/end, timers, the user's own
 * processes); stapsys adds the kernel's probe families but not guru mode;
 * stapdev may do everything.  PRIV_UNSET (a zeroed field) means stapdev:
 * the level of a run without --privilege, and what a provider that names
 * no level needs (sema/privilege.c).
 */
enum privilege { PRIV_UNSET, PRIV_STAPUSR, PRIV_STAPSYS, PRIV_STAPDEV };

/* The level `p` stands for: PRIV_UNSET is PRIV_STAPDEV. */
static inline enum privilege
privilege_level(enum privilege p)
{
	return p == PRIV_UNSET ? PRIV_STAPDEV : p;
}

/* "stapusr", "stapsys" or "stapdev" (options.c). */
const char *privilege_name(enum privilege p);

/*
 * --remote-merge splits a script in two (codegen_merge.c): the hosts'
 * module runs every probe but the end probes and writes its globals out
 * at the end (MERGE_REMOTE); a program here loads the merged globals and
 * runs the end probes (MERGE_LOCAL).  remote.c builds each half with a
 * child tapc given the internal --merge-part=remote|local.
 */
enum merge_part { MERGE_NONE, MERGE_REMOTE, MERGE_LOCAL };

/* One -D NAME[=VALUE]. */
struct define_opt {
	const char *name, *value;
};

/* One -G var=value. */
struct global_opt {
	const char *name, *value;
};

struct options {
	int last_pass;			/* -p N: stop after this pass (1..5) */
	const char *script_file;	/* FILE, or NULL with -e */
	const char *script_text;	/* -e SCRIPT */
	const char **args;		/* $1..$N / @1..@N */
	int nargs;
	int verbose;			/* -v, repeatable */
	bool keep_build;		/* -k */
	const char *module_name;	/* -m NAME */
	const char *kernel_release;	/* -r KREL (or a build directory) */
	const char **include_dirs;	/* -I DIR, repeatable */
	int ninclude_dirs;
	struct define_opt *defines;	/* -D NAME=VALUE */
	int ndefines;
	bool guru;			/* -g */
	bool unoptimized;		/* -u */
	bool skip_badvars;		/* --skip-badvars */
	bool check_version;		/* --check-version */
	bool suppress_warnings;		/* -w */
	bool warnings_as_errors;	/* -W */
	const char *target_command;	/* -c CMD */
	int target_pid;			/* -x PID */
	const char **sym_files;		/* -d PATH: symbols for ubacktrace */
	int nsym_files;
	bool ldd;			/* --ldd: and the libraries they use */
	const char *output_file;	/* -o FILE */
	bool bulk_mode;			/* -b */
	int buffer_mb;			/* -s NUM */
	const char *cpu_spec;		/* -S size[,n] */
	struct global_opt *globals;	/* -G var=value */
	int nglobals;
	const char *list_pattern;	/* -l / -L */
	bool list_vars;			/* -L */
	bool timing;			/* -t */
	bool flight_recorder;		/* -F: taprun -F, detach once armed */
	int time_limit;			/* -T SECONDS */
	bool vm;			/* --vm */
	const char **remotes;		/* --remote URL, repeatable */
	int nremotes;
	bool remote_prefix;		/* --remote-prefix */
	bool remote_merge;		/* --remote-merge */
	enum merge_part merge_part;	/* --merge-part (remote.c's builds) */
	const char *stage_dir;		/* --stage-build=DIR (test batches) */
	enum target_kind target;	/* --target=kernel|user, --runtime=bpf */
	bool target_given;		/* ... said on the command line, not
					 * left for preflight.c to choose */
	const char *compatible;		/* --compatible=VERSION */
	const char *make_options;	/* -B */
	bool json_output;		/* --json: arrays, aggregates and
					 * autoprint as JSON lines */
	bool dump_functions;		/* --dump-functions */
	bool dump_probe_types;		/* --dump-probe-types */
	bool dump_probe_aliases;	/* --dump-probe-aliases */
	bool sign_module;		/* --sign-module[=KEYDIR] */
	const char *sign_key_dir;	/* its KEYDIR, or NULL: the default */
	enum privilege privilege;	/* --privilege; PRIV_UNSET if not
					 * given (stapdev) */
};

/* What the preprocessor's %( %) conditions test, and the target's tick
 * rate (timer.jiffies), filled in by the driver from the kernel
 * translated for (kernel_facts.h) before pass 1. */
struct kernel_facts {
	const char *kernel_release;	/* kernel_vr: "6.1.0-57-amd64" */
	const char *kernel_version;	/* kernel_v: "6.1.0" */
	const char *arch;		/* "x86_64" */
	const char *runtime;		/* "kernel" or "user" */
	unsigned hz;			/* CONFIG_HZ, jiffies a second; 0
					 * when the target's is unknown */
	/* CONFIG_* lookup: value ("y", "m", "\"str\"") or NULL if unset. */
	const char *(*config_lookup)(void *ctx, const char *name);
	void *config_ctx;
};

struct session {
	struct options opts;
	struct arena *arena;
	struct diag diag;
	struct kernel_facts facts;
	struct kernel_target *kernel;	/* the target kernel, if installed */
	const char *kernel_error;	/* why not, if not */
	struct file_ast *user_file;	/* the script the user gave */
	struct file_ast **library;	/* tapset files, parsed */
	int nlibrary;
	bool library_loaded;
	const char **library_paths;	/* real paths of the library's files */
	int nlibrary_paths;
	struct macro_table *macros;	/* the library's @defines */
	struct program *program;	/* pass 2's result */
	/* with --check-version: the preprocessor conditionals that test
	 * systemtap_v, from '%(' to the '%:' or '%)' that ends the branch
	 * taken (preproc.c), for pass 2 to name what it uses inside them */
	struct version_range {
		struct loc from, to;
	} *version_ranges;
	int nversion_ranges, cap_version_ranges;
};

#define TAPC_COMPAT_VERSION "4.8"	/* the SystemTap version we emulate */

#endif
