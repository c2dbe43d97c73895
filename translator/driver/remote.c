/*
 * remote.c -- `tapc --remote`: probe each host, build once per kernel
 * release, copy, run everywhere at once, stream back, clean up
 * (remote.h).
 *
 * Everything goes through the user's `ssh` so that its configuration,
 * agent and known_hosts apply; files travel as `ssh HOST 'cat > FILE'`
 * rather than scp, which needs an SFTP server that small servers
 * (dropbear) lack.  The remote side is a POSIX sh snippet: the loader
 * runs in the background while `cat` waits for the end of ssh's stdin
 * (through fd 3, saved first: sh gives a background job /dev/null as
 * its stdin; its stdout and stderr go to /dev/null, so that a `cat` left
 * waiting after a normal end holds none of the session's output
 * channels, which an OpenSSH server waits on before closing);
 * when tapc closes that (on ^C) or the connection drops, the snippet
 * sends the loader SIGTERM, which runs the end probes and unloads the
 * module, as ^C does locally, and then removes the files.
 *
 * --remote-merge: the hosts' module is the script without its end
 * probes, writing its globals out as merge lines at the end
 * (runtime/core/merge.h); a program built here from the same script's
 * end probes (translator/codegen/codegen_merge.c) adds every host's
 * lines into its globals and runs the end probes once.  Those lines are
 * taken out of the hosts' output as it streams in, never printed.
 */
#include "translator/driver/remote.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "translator/driver/paths.h"

/* One --remote target and what became of it. */
struct remote_host {
	int index;		/* its place on the command line: "N: " */
	const char *url;	/* as given */
	const char *dest;	/* [USER@]HOST for ssh */
	const char *port;	/* or NULL */
	const char *krel;	/* its uname -r */
	const char *failure;	/* why it did not run, or NULL */
	const char *ko;		/* the module built for krel */
	const char *dir;	/* its remote working directory */
	pid_t pid;		/* the running ssh */
	int in_fd;		/* ssh's stdin: closing it stops the run */
	int out_fd, err_fd;	/* its stdout and stderr */
	char *out_part, *err_part;	/* an unfinished line of each */
	int status;		/* exit status of the run */
	bool done;
	char *merge;		/* --remote-merge: its lines (malloc'd) */
	size_t merge_len;
	FILE *merge_f;		/* ... being written */
};

/* ---------------------------------------------------------------------- */
/* The URL */

const char *
remote_url_problem(const char *url)
{
	const char *p = url;

	if (strncmp(p, "ssh://", 6) == 0)
		p += 6;
	else if (strstr(p, "://"))
		return "only ssh:// URLs are supported";
	if (*p == '\0' || *p == '@' || *p == ':' || strchr(p, '/') ||
	    strchr(p, ' '))
		return "expected [ssh://][USER@]HOST[:PORT]";
	const char *at = strchr(p, '@');
	const char *host = at ? at + 1 : p;
	if (*host == '\0' || *host == ':' || (at && strchr(host, '@')))
		return "expected [ssh://][USER@]HOST[:PORT]";
	const char *colon = strrchr(p, ':');
	if (colon && !strchr(colon, ']')) {
		char *end;
		long port = strtol(colon + 1, &end, 10);
		if (colon[1] == '\0' || *end || port < 1 || port > 65535)
			return "the port must be a number from 1 to 65535";
	}
	return NULL;
}

static void
parse_url(struct session *s, struct remote_host *h)
{
	const char *p = h->url;

	if (strncmp(p, "ssh://", 6) == 0)
		p += 6;
	const char *colon = strrchr(p, ':');
	if (colon && !strchr(colon, ']')) {
		h->dest = arena_printf(s->arena, "%.*s", (int)(colon - p), p);
		h->port = arena_strdup(s->arena, colon + 1);
	} else {
		h->dest = arena_strdup(s->arena, p);
	}
}

bool
remote_check_options(struct session *s)
{
	const struct options *o = &s->opts;
	const struct { bool given; const char *what; } clash[] = {
		{ o->kernel_release != NULL, "-r (each host's own kernel is built for)" },
		{ o->vm, "--vm" },
		{ o->target != TARGET_KERNEL, "--target=user or --runtime=bpf (--remote runs kernel modules)" },
		{ o->module_name != NULL, "-m (hosts of different kernels would need one NAME.ko each)" },
		{ o->sign_module, "--sign-module" },
		{ o->output_file != NULL, "-o" },
		{ o->bulk_mode, "-b" },
		{ o->cpu_spec != NULL, "-S" },
		{ o->target_command != NULL, "-c" },
		{ o->target_pid != 0, "-x" },
		{ o->list_pattern != NULL, "-l/-L" },
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(clash) / sizeof(clash[0]); i++)
		if (clash[i].given) {
			diag_fatal_noloc(&s->diag, "%s cannot be used with --remote", clash[i].what);
			ok = false;
		}
	return ok;
}

/* ---------------------------------------------------------------------- */
/* Running ssh and friends */

/* ssh's argv for `h` running `command`, in a NULL-terminated array of
 * at least 12 slots. */
static int
ssh_argv(const char **argv, const struct remote_host *h, const char *command)
{
	int n = 0;

	argv[n++] = "ssh";
	argv[n++] = "-o";
	argv[n++] = "BatchMode=yes";
	argv[n++] = "-o";
	argv[n++] = "ConnectTimeout=15";
	if (h->port) {
		argv[n++] = "-p";
		argv[n++] = h->port;
	}
	argv[n++] = "-e";
	argv[n++] = "none";
	argv[n++] = h->dest;
	argv[n++] = command;
	argv[n] = NULL;
	return n;
}

/*
 * Run argv with stdin from `in_path` (or /dev/null); its stdout (and its
 * stderr, with `merge`) is returned in *out, arena-allocated, NUL
 * ended.  Returns the exit status, 128+N for a signal, -1 if it could
 * not start.
 */
static int
run_capture(struct session *s, const char **argv, const char *in_path,
	    bool merge, char **out)
{
	int pfd[2];
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open(in_path ? in_path : "/dev/null", O_RDONLY);
		if (in < 0)
			_exit(126);
		dup2(in, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		if (merge)
			dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	char chunk[4096];
	ssize_t r;
	while ((r = read(pfd[0], chunk, sizeof(chunk))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		fwrite(chunk, 1, (size_t)r, mem);
	}
	close(pfd[0]);
	fclose(mem);
	*out = arena_strdup(s->arena, buf ? buf : "");
	free(buf);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* The last non-empty line of `text`, for a one-line reason. */
static const char *
last_line(struct session *s, const char *text)
{
	const char *end = text + strlen(text);

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if (start == end)
		return "no message";
	return arena_printf(s->arena, "%.*s", (int)(end - start), start);
}

static void
fail(struct session *s, struct remote_host *h, const char *fmt, const char *a,
     const char *b)
{
	h->failure = arena_printf(s->arena, fmt, a, b);
}

/* ---------------------------------------------------------------------- */
/* Step 1: what each host runs and whether it loads modules */

/*
 * The same /proc and /sys checks as host_caps.c's for modules, lockdown
 * and signing, done by the host's sh.  Prints the release on the first
 * line, then "refused: WHY" lines.
 */
static const char probe_snippet[] =
	"uname -r; "
	"if [ ! -e /proc/modules ]; then echo 'refused: this kernel has no module support (no /proc/modules)'; fi; "
	"if [ \"$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)\" = 1 ]; then echo 'refused: module loading is switched off until reboot (kernel.modules_disabled = 1)'; fi; "
	"if [ \"$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)\" = Y ]; then echo 'refused: module.sig_enforce is on: the kernel loads only signed modules'; fi; "
	"l=$(cat /sys/kernel/security/lockdown 2>/dev/null); case \"$l\" in *'[integrity]'*|*'[confidentiality]'*) echo \"refused: lockdown is on ($l): the kernel loads only signed modules\";; esac; "
	"if [ \"$(id -u)\" != 0 ]; then echo 'refused: loading a module needs root there (log in as root@HOST)'; fi";

static void
probe_host(struct session *s, struct remote_host *h)
{
	const char *argv[16];
	char *out;

	ssh_argv(argv, h, probe_snippet);
	int rc = run_capture(s, argv, NULL, true, &out);
	if (rc != 0) {
		fail(s, h, "cannot reach it over ssh: %s%s", last_line(s, out),
		     rc == 255 ? "" : " (the probe failed)");
		return;
	}
	char *nl = strchr(out, '\n');
	if (!nl || nl == out) {
		fail(s, h, "its uname -r said nothing%s%s", "", "");
		return;
	}
	*nl = '\0';
	h->krel = out;
	char *refused = strstr(nl + 1, "refused: ");
	if (refused) {
		char *end = strchr(refused, '\n');
		if (end)
			*end = '\0';
		fail(s, h, "it will not load the module: %s%s", refused + 9, "");
	}
}

/* ---------------------------------------------------------------------- */
/* Step 2: one build per kernel release */

/* Whether an argv word is one of --remote's own, and how many words it
 * takes. */
static int
remote_words(const char *arg)
{
	if (strcmp(arg, "--remote") == 0)
		return 2;
	if (strncmp(arg, "--remote=", 9) == 0 || strcmp(arg, "--remote-prefix") == 0 ||
	    strcmp(arg, "--remote-merge") == 0)
		return 1;
	return 0;
}

/* Whether an argv word is -p (2 words) / -pN (1). */
static int
pass_words(const char *arg)
{
	if (strcmp(arg, "-p") == 0)
		return 2;
	if (strncmp(arg, "-p", 2) == 0 && arg[2] >= '1' && arg[2] <= '5' && !arg[3])
		return 1;
	return 0;
}

/* Run `tapc -p4 -r KREL [--merge-part=PART] ARGS...` (ARGS: ours less
 * --remote and -p) and return the module (or, for the end probes of
 * --remote-merge, the program) it printed, or NULL after saying why. */
static const char *
build_for(struct session *s, int argc, char **argv, const char *krel,
	  const char *part)
{
	const char **cargv = arena_alloc(s->arena, sizeof(char *) * (size_t)(argc + 8));
	int n = 0;
	char *out;

	cargv[n++] = "/proc/self/exe";
	cargv[n++] = "-p4";
	cargv[n++] = "-r";
	cargv[n++] = krel;
	if (part)
		cargv[n++] = part;
	for (int i = 1; i < argc; i++) {
		/* The script file and its arguments follow getopt's rules;
		 * only our own words are dropped. */
		int skip = remote_words(argv[i]);
		if (!skip)
			skip = pass_words(argv[i]);
		if (skip) {
			i += skip - 1;
			continue;
		}
		cargv[n++] = argv[i];
	}
	cargv[n] = NULL;
	int rc = run_capture(s, cargv, NULL, false, &out);
	if (rc != 0)
		return NULL;
	char *nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	return out[0] ? out : NULL;
}

static bool
headers_installed(struct session *s, const char *krel)
{
	struct stat st;
	const char *build = arena_printf(s->arena, "/lib/modules/%s/build", krel);

	return stat(build, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Build for every distinct release among the reachable hosts; -v says
 * how many builds served which hosts. */
static void
build_all(struct session *s, int argc, char **argv, struct remote_host *hosts,
	  int n)
{
	int builds = 0;

	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		if (h->failure || h->ko)
			continue;
		if (!headers_installed(s, h->krel)) {
			fail(s, h, "it runs kernel %s, whose headers are not installed here (install linux-headers-%s)",
			     h->krel, h->krel);
			for (int j = i + 1; j < n; j++)
				if (!hosts[j].failure && strcmp(hosts[j].krel, h->krel) == 0)
					hosts[j].failure = h->failure;
			continue;
		}
		const char *ko = build_for(s, argc, argv, h->krel,
					   s->opts.remote_merge ? "--merge-part=remote" : NULL);
		builds++;
		char *sharing = NULL;
		size_t len = 0;
		FILE *names = open_memstream(&sharing, &len);
		for (int j = i; j < n; j++) {
			if (hosts[j].failure || strcmp(hosts[j].krel, h->krel) != 0)
				continue;
			if (ko)
				hosts[j].ko = ko;
			else
				fail(s, &hosts[j], "building the module for its kernel %s failed (above)%s", h->krel, "");
			fprintf(names, "%s%s", j == i ? "" : ", ", hosts[j].url);
		}
		fclose(names);
		if (s->opts.verbose && ko)
			fprintf(stderr, "tapc: build %d, for kernel %s: %s; used by %s\n",
				builds, h->krel, ko, sharing);
		free(sharing);
	}
	if (s->opts.verbose) {
		int ready = 0;
		for (int i = 0; i < n; i++)
			ready += hosts[i].ko != NULL;
		fprintf(stderr, "tapc: %d build%s (one per kernel release, cached or not) for %d host%s\n",
			builds, builds == 1 ? "" : "s", ready, ready == 1 ? "" : "s");
	}
}

/* ---------------------------------------------------------------------- */
/* Step 3: copy */

static bool
copy_file(struct session *s, struct remote_host *h, const char *local,
	  const char *remote_path, const char *mode)
{
	const char *argv[16];
	char *out;
	const char *cmd = arena_printf(s->arena, "cat > %s && chmod %s %s",
				       remote_path, mode, remote_path);

	ssh_argv(argv, h, cmd);
	int rc = run_capture(s, argv, local, true, &out);
	if (rc != 0) {
		fail(s, h, "copying %s there failed: %s", local, last_line(s, out));
		return false;
	}
	return true;
}

static void
remove_remote_dir(struct session *s, struct remote_host *h)
{
	const char *argv[16];
	char *out;

	ssh_argv(argv, h, arena_printf(s->arena, "rm -rf %s", h->dir));
	run_capture(s, argv, NULL, true, &out);
}

static void
copy_to(struct session *s, struct remote_host *h)
{
	const char *argv[16];
	char *out;

	ssh_argv(argv, h, "mktemp -d /tmp/tapc-remote.XXXXXX");
	int rc = run_capture(s, argv, NULL, true, &out);
	char *nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	if (rc != 0 || out[0] != '/' || strchr(out, '\'')) {
		fail(s, h, "cannot make a directory there: %s%s", last_line(s, out), "");
		return;
	}
	h->dir = out;
	const char *base = strrchr(h->ko, '/');
	base = base ? base + 1 : h->ko;
	if (!copy_file(s, h, paths_taprun_static(),
		       arena_printf(s->arena, "%s/taprun", h->dir), "755") ||
	    !copy_file(s, h, h->ko,
		       arena_printf(s->arena, "%s/%s", h->dir, base), "644"))
		remove_remote_dir(s, h);
}

/* ---------------------------------------------------------------------- */
/* Every host at once */

/*
 * Run step(s, h) for every host not yet failed, each in a child process
 * of its own, so that N hosts cost about what one does; each child
 * hands back what step set (krel, failure, dir) as "K:", "F:", "D:"
 * lines on a pipe.  None of them holds a newline (last_line() and
 * uname -r's first line).
 */
static void
for_each_host_at_once(struct session *s, struct remote_host *hosts, int n,
		      void (*step)(struct session *, struct remote_host *))
{
	int fds[n];
	pid_t pids[n];

	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < n; i++) {
		int p[2];
		pids[i] = -1;
		fds[i] = -1;
		if (hosts[i].failure)
			continue;
		if (pipe(p) < 0 || (pids[i] = fork()) < 0) {
			step(s, &hosts[i]);	/* no child: do it here */
			continue;
		}
		if (pids[i] == 0) {
			close(p[0]);
			FILE *f = fdopen(p[1], "w");
			step(s, &hosts[i]);
			if (hosts[i].krel)
				fprintf(f, "K:%s\n", hosts[i].krel);
			if (hosts[i].failure)
				fprintf(f, "F:%s\n", hosts[i].failure);
			if (hosts[i].dir)
				fprintf(f, "D:%s\n", hosts[i].dir);
			fclose(f);
			_exit(0);
		}
		close(p[1]);
		fds[i] = p[0];
	}
	for (int i = 0; i < n; i++) {
		if (fds[i] < 0)
			continue;
		FILE *f = fdopen(fds[i], "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		bool said = false;
		while ((len = getline(&line, &cap, f)) > 0) {
			if (line[len - 1] == '\n')
				line[--len] = '\0';
			const char *value = arena_strdup(s->arena, line + 2);
			said = true;
			if (line[0] == 'K')
				hosts[i].krel = value;
			else if (line[0] == 'F')
				hosts[i].failure = value;
			else if (line[0] == 'D')
				hosts[i].dir = value;
		}
		free(line);
		fclose(f);
		int status;
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (!said)
			hosts[i].failure = "the process that reached it died";
	}
}

/* ---------------------------------------------------------------------- */
/* Step 4: run everywhere, stream back */

static volatile sig_atomic_t stop_requests;

static void
on_stop_signal(int sig)
{
	(void)sig;
	stop_requests++;
}

/* text inside a single-quoted sh word: each ' as '\'' */
static void
put_quoted(FILE *f, const char *text)
{
	for (const char *c = text; *c; c++) {
		if (*c == '\'')
			fputs("'\\''", f);
		else
			fputc(*c, f);
	}
}

/* The loader's command line on the host, inside the snippet that stops
 * it when ssh's stdin ends and removes the directory after. */
static const char *
run_command(struct session *s, const struct remote_host *h)
{
	const struct options *o = &s->opts;
	const char *base = strrchr(h->ko, '/');
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);

	base = base ? base + 1 : h->ko;
	fprintf(f, "exec 3<&0; cd '%s' || exit 125; ./taprun", h->dir);
	if (o->verbose > 1)
		fputs(" -v", f);
	if (o->time_limit > 0)
		fprintf(f, " -T %d", o->time_limit);
	if (o->buffer_mb > 0)
		fprintf(f, " -s %d", o->buffer_mb);
	for (int i = 0; i < o->nglobals; i++) {
		/* -G values are checked identifiers and numbers/strings;
		 * single-quote them for the remote sh. */
		fputs(" '-G", f);
		put_quoted(f, o->globals[i].name);
		fputc('=', f);
		put_quoted(f, o->globals[i].value);
		fputc('\'', f);
	}
	/* remote_id(), remote_uri(): what they return on this host */
	fprintf(f, " --remote-id=%d '--remote-uri=", h->index);
	put_quoted(f, h->url);
	fputc('\'', f);
	fprintf(f, " ./%s </dev/null 3<&- & p=$!; "
		"(cat <&3; kill -TERM $p) >/dev/null 2>&1 & w=$!; exec 3<&-; "
		"wait $p; rc=$?; kill $w 2>/dev/null; cd /; rm -rf '%s'; exit $rc",
		base, h->dir);
	fclose(f);
	const char *copy = arena_strdup(s->arena, cmd);
	free(cmd);
	return copy;
}

static bool
start_run(struct session *s, struct remote_host *h)
{
	const char *argv[16];
	int in[2], out[2], err[2];

	ssh_argv(argv, h, run_command(s, h));
	if (pipe(in) < 0 || pipe(out) < 0 || pipe(err) < 0)
		return false;
	fflush(stdout);
	fflush(stderr);
	h->pid = fork();
	if (h->pid < 0)
		return false;
	if (h->pid == 0) {
		/* Its own process group: the terminal's ^C comes to tapc,
		 * which stops the run through stdin, so that the host's end
		 * probes still print. */
		setpgid(0, 0);
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		for (int i = 0; i < 2; i++) {
			close(in[i]);
			close(out[i]);
			close(err[i]);
		}
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "cannot run ssh: %s\n", strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	h->in_fd = in[1];
	h->out_fd = out[0];
	h->err_fd = err[0];
	fcntl(h->in_fd, F_SETFD, FD_CLOEXEC);
	fcntl(h->out_fd, F_SETFD, FD_CLOEXEC);
	fcntl(h->err_fd, F_SETFD, FD_CLOEXEC);
	return true;
}

/* Write complete lines of `data` to `to`, each prefixed under
 * --remote-prefix; keep an unfinished last line in *part (malloc'd:
 * a long run's output must not pile up in the arena).  At the end of
 * the stream (len 0) flush what is left. */
static void
relay(struct session *s, struct remote_host *h, FILE *to, char **part,
      const char *data, size_t len)
{
	size_t old = *part ? strlen(*part) : 0;
	char *text = malloc(old + len + 1);
	char *line, *nl;

	if (!text)
		return;
	if (old)
		memcpy(text, *part, old);
	memcpy(text + old, data, len);
	text[old + len] = '\0';
	free(*part);
	*part = NULL;
	line = text;
	while ((nl = strchr(line, '\n')) || (len == 0 && *line)) {
		/* --remote-merge: the module's merge lines are for tapc */
		if (h->merge_f && to == stdout && nl &&
		    strncmp(line, "\036M", 2) == 0) {
			fwrite(line, 1, (size_t)(nl - line + 1), h->merge_f);
			line = nl + 1;
			continue;
		}
		if (s->opts.remote_prefix)
			fprintf(to, "%d: ", h->index);
		if (nl) {
			fwrite(line, 1, (size_t)(nl - line + 1), to);
			line = nl + 1;
		} else {
			fprintf(to, "%s\n", line);
			line += strlen(line);
		}
	}
	fflush(to);
	if (*line)
		*part = strdup(line);
	free(text);
}

static void
stop_all(struct remote_host *hosts, int n, int requests)
{
	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		if (!h->pid || h->done)
			continue;
		if (h->in_fd >= 0) {
			close(h->in_fd);
			h->in_fd = -1;
		}
		/* A second ^C: stop waiting for the hosts' end probes.
		 * Dropping the connection still stops the loader there. */
		if (requests > 1)
			kill(h->pid, SIGTERM);
	}
}

/* A stop asked for before the run began (during the probes, builds or
 * copies): the hosts not failed yet are not run, and what was copied
 * there is removed.  True if so. */
static bool
stopped_before_run(struct session *s, struct remote_host *hosts, int n)
{
	if (!stop_requests)
		return false;
	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		if (h->failure)
			continue;
		if (h->dir)
			remove_remote_dir(s, h);
		h->failure = "not run: tapc was stopped (SIGINT or SIGTERM) before the run began";
	}
	return true;
}

static void
run_all(struct session *s, struct remote_host *hosts, int n)
{
	int seen_requests = 0;

	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		h->in_fd = h->out_fd = h->err_fd = -1;
		if (h->failure)
			continue;
		if (s->opts.remote_merge)
			h->merge_f = open_memstream(&h->merge, &h->merge_len);
		if (!start_run(s, h))
			fail(s, h, "cannot start ssh: %s%s", strerror(errno), "");
	}
	for (;;) {
		struct pollfd pfd[2 * n];
		struct remote_host *owner[2 * n];
		int np = 0;

		if (stop_requests != seen_requests) {
			seen_requests = stop_requests;
			stop_all(hosts, n, seen_requests);
		}
		for (int i = 0; i < n; i++) {
			if (hosts[i].out_fd >= 0) {
				owner[np] = &hosts[i];
				pfd[np++] = (struct pollfd){ .fd = hosts[i].out_fd, .events = POLLIN };
			}
			if (hosts[i].err_fd >= 0) {
				owner[np] = &hosts[i];
				pfd[np++] = (struct pollfd){ .fd = hosts[i].err_fd, .events = POLLIN };
			}
		}
		if (np == 0)
			break;
		if (poll(pfd, (nfds_t)np, -1) < 0)
			continue;	/* EINTR: a stop request */
		for (int k = 0; k < np; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct remote_host *h = owner[k];
			bool is_out = pfd[k].fd == h->out_fd;
			char buf[4096];
			ssize_t r = read(pfd[k].fd, buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				relay(s, h, is_out ? stdout : stderr,
				      is_out ? &h->out_part : &h->err_part, "", 0);
				close(pfd[k].fd);
				if (is_out)
					h->out_fd = -1;
				else
					h->err_fd = -1;
				continue;
			}
			relay(s, h, is_out ? stdout : stderr,
			      is_out ? &h->out_part : &h->err_part, buf, (size_t)r);
		}
	}
	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		int status;
		if (!h->pid)
			continue;
		while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
			;
		if (h->in_fd >= 0)
			close(h->in_fd);
		h->done = true;
		h->status = WIFEXITED(status) ? WEXITSTATUS(status)
					      : 128 + WTERMSIG(status);
	}
}

/* ---------------------------------------------------------------------- */
/* --remote-merge: the end probes, here */

/* Build the end-probe program from the script elaborated for the first
 * host that can be built for; NULL after the child said why (a script
 * shape the merge cannot take: codegen_merge.c's E_REMOTE_MERGE). */
static const char *
build_end_program(struct session *s, int argc, char **argv,
		  struct remote_host *hosts, int n)
{
	for (int i = 0; i < n; i++)
		if (!hosts[i].failure && headers_installed(s, hosts[i].krel))
			return build_for(s, argc, argv, hosts[i].krel,
					 "--merge-part=local");
	return NULL;
}

/* Every host's lines into one file, the end program run over it.
 * Returns its exit status. */
static int
merge_and_end(struct session *s, const char *program, struct remote_host *hosts,
	      int n)
{
	char path[] = "/tmp/tapc-merge.XXXXXX";
	int fd = mkstemp(path), merged = 0, status = 1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		fprintf(stderr, "tapc: error: --remote-merge: cannot write %s: %s\n",
			path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		const char *end;

		if (!h->merge)
			continue;
		end = strstr(h->merge, "\036M.end\n");
		if (!end) {
			fprintf(stderr, "tapc: error: remote %d (%s): its globals did not arrive (the script there stopped before its end, after an error or a lost connection); merged without them\n",
				h->index, h->url);
			continue;
		}
		fwrite(h->merge, 1, (size_t)(end - h->merge), f);
		fputs(end + strlen("\036M.end\n"), f);
		merged++;
	}
	if (fclose(f) != 0) {
		unlink(path);
		return 1;
	}
	if (merged) {
		const char **argv = arena_alloc(s->arena, sizeof(char *) * (size_t)(2 * s->opts.nglobals + 4));
		int k = 0;
		pid_t pid;

		argv[k++] = program;
		argv[k++] = "-M";
		argv[k++] = path;
		for (int i = 0; i < s->opts.nglobals; i++) {
			argv[k++] = "-G";
			argv[k++] = arena_printf(s->arena, "%s=%s", s->opts.globals[i].name,
						 s->opts.globals[i].value);
		}
		argv[k] = NULL;
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0) {
			execv(program, (char *const *)argv);
			fprintf(stderr, "tapc: cannot run %s: %s\n", program, strerror(errno));
			_exit(127);
		}
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		status = pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (s->opts.verbose)
		fprintf(stderr, "tapc: --remote-merge: the globals of %d host%s merged, end probes run here (exit status %d)\n",
			merged, merged == 1 ? "" : "s", status);
	unlink(path);
	return merged ? status : 1;
}

/* The end program's build directory ($TMPDIR/tapcXXXXXX, build_user.c),
 * unless the program is the cache's copy. */
static void
remove_end_program(struct session *s, const char *program)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *dir = arena_strdup(s->arena, program);
	char *slash = strrchr(dir, '/');
	const char *prefix = arena_printf(s->arena, "%s/tapc", tmp);
	char *out;

	if (!slash)
		return;
	*slash = '\0';
	if (strncmp(dir, prefix, strlen(prefix)) != 0 ||
	    strchr(dir + strlen(tmp) + 1, '/') || strchr(dir, '\''))
		return;
	const char *argv[] = { "rm", "-rf", dir, NULL };
	if (run_capture(s, argv, NULL, true, &out) != 0)
		fprintf(stderr, "tapc: warning: cannot remove %s\n", dir);
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------------- */

int
remote_run(struct session *s, int argc, char **argv)
{
	int n = s->opts.nremotes;
	struct remote_host *hosts = arena_alloc(s->arena, sizeof(*hosts) * (size_t)n);
	/* SA_RESTART: the children's pipes are read with stdio; poll()
	 * in run_all() still returns EINTR, which is what wakes it */
	struct sigaction act = { .sa_handler = on_stop_signal, .sa_flags = SA_RESTART },
			 old_int, old_term;
	bool ran = false;
	int status = 0;

	/* From the start, not only while the hosts run: a SIGINT or SIGTERM
	 * during the builds or copies must still stop everything (and a
	 * shell's background job has SIGINT ignored until this). */
	sigaction(SIGINT, &act, &old_int);
	sigaction(SIGTERM, &act, &old_term);
	memset(hosts, 0, sizeof(*hosts) * (size_t)n);
	for (int i = 0; i < n; i++) {
		hosts[i].index = i;
		hosts[i].url = s->opts.remotes[i];
		parse_url(s, &hosts[i]);
	}
	for_each_host_at_once(s, hosts, n, probe_host);
	for (int i = 0; i < n; i++)
		if (s->opts.verbose && hosts[i].krel)
			fprintf(stderr, "tapc: %s: kernel %s\n", hosts[i].url,
				hosts[i].krel);
	const char *end_program = NULL;
	if (s->opts.remote_merge) {
		/* first: a script the merge cannot take stops here, once */
		end_program = build_end_program(s, argc, argv, hosts, n);
		if (!end_program) {
			fprintf(stderr, "tapc: error: --remote-merge: no program for the end probes (above, or no host could be built for)\n");
			status = 1;
			for (int i = 0; i < n; i++)
				if (!hosts[i].failure)
					hosts[i].failure = "not run: the end probes could not be built";
		}
	}
	if (!s->opts.remote_merge || end_program)
		build_all(s, argc, argv, hosts, n);
	if (s->opts.last_pass < 5) {
		for (int i = 0; i < n; i++)
			if (hosts[i].ko)
				printf("%s: %s\n", hosts[i].url, hosts[i].ko);
		if (end_program)
			printf("--remote-merge end probes: %s\n", end_program);
	} else if ((!s->opts.remote_merge || end_program) &&
		   !stopped_before_run(s, hosts, n)) {
		for_each_host_at_once(s, hosts, n, copy_to);
		if (!stopped_before_run(s, hosts, n)) {
			run_all(s, hosts, n);
			ran = true;
		}
	}
	fflush(stdout);
	if (end_program && ran) {
		double t0 = now_ms();
		for (int i = 0; i < n; i++)
			if (hosts[i].merge_f) {
				fclose(hosts[i].merge_f);
				hosts[i].merge_f = NULL;
			}
		if (merge_and_end(s, end_program, hosts, n) != 0)
			status = 1;
		if (s->opts.verbose)
			fprintf(stderr, "tapc: --remote-merge: merging and the end probes here took %.0f ms\n",
				now_ms() - t0);
		for (int i = 0; i < n; i++)
			free(hosts[i].merge);
	}
	if (end_program && s->opts.last_pass == 5)
		remove_end_program(s, end_program);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	for (int i = 0; i < n; i++) {
		struct remote_host *h = &hosts[i];
		if (h->failure) {
			fprintf(stderr, "tapc: error: remote %d (%s): %s\n",
				h->index, h->url, h->failure);
			status = 1;
		} else if (s->opts.last_pass == 5) {
			if (h->status != 0)
				status = 1;
			if (h->status == 255)
				fprintf(stderr, "tapc: remote %d (%s): the ssh connection failed (exit status 255)\n",
					h->index, h->url);
			else
				fprintf(stderr, "tapc: remote %d (%s): exit status %d\n",
					h->index, h->url, h->status);
		}
	}
	return status;
}
