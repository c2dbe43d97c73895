/*
 * taprun.c -- load a tapc probe module, run the session, unload it.
 *
 *   taprun [-v] [-o FILE [-S SIZE[,N]]] [-b] [-s MB] [-c CMD | -x PID]
 *          [-T SECS] [-G VAR=VALUE]... MODULE.ko [VAR=VALUE]...
 *   taprun MODULE.ko [OPTIONS] ...     (options after the module, as staprun)
 *   taprun -F [-s MB] [-G VAR=VALUE]... MODULE.ko   (flight recorder: detach)
 *   taprun -F -o FILE [-S SIZE[,N]] [-T SECS] [-x PID] ... MODULE.ko
 *                                      (file flight recorder: background)
 *   taprun -A [-o FILE] NAME           (attach; with -o: dump the ring, detach)
 *   taprun -d NAME                     (stop a detached session, remove it)
 *   taprun -h | --help | -V | --version
 *
 * Takes: the module and options above.  Produces: the script's output on
 * stdout (or -o/-b files), its errors and warnings on stderr, exit status 1
 * when the script reported any ERROR (as staprun: even one MAXERRORS
 * tolerated), errors stopped it (MAXSKIPPED, overload) or the session
 * failed, else 0.  The module is inserted
 * with finit_module, the session is driven over the ctl file (see
 * runtime/linux/tap_protocol.h) and the relay files are read until the
 * module reports STOPPED; SIGINT, SIGTERM, SIGHUP, -T and the end of the -c
 * command ask the module to stop (a second signal stops waiting).
 * -F leaves the module running once its probes are armed (flight.c says
 * how it detaches and how -A and -d take the session over again); -F -o
 * FILE instead goes on with the session in the background (daemon.c).
 * Must not: exit without removing the module, whatever the path, except
 * a flight recorder's, which is left running on purpose.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "loader/taprun.h"

#define TAPRUN_POLL_MS		100	/* relay poll only wakes on full buffers */
#define TAPRUN_RESCAN_MS	1000	/* how soon a new CPU's file is read */
#define TAPRUN_STOP_GRACE_MS	30000	/* how long a stopping module may take */

int taprun_verbosity;

#define TAPRUN_MAX_ASSIGNS	256

struct taprun_opts {
	const char *module;
	char *params;		/* for finit_module: declared parameters */
	const char *assigns[TAPRUN_MAX_ASSIGNS];	/* -G and VAR=VALUE */
	int nassigns;
	const char *outfile;
	char *abs_outfile;	/* -F -o: outfile made absolute */
	bool bulk;
	const char *cmd;
	pid_t target;
	double timeout;
	unsigned long long file_limit;	/* -S SIZE, bytes */
	unsigned int file_keep;		/* -S SIZE,N */
	enum taprun_mode mode;		/* run, -F, -A, -d */
};

struct taprun_session {
	struct taprun_opts *o;
	char name[64];
	struct taprun_ctl ctl;
	struct taprun_relay relay;
	struct taprun_lock lock;	/* who owns the module name */
	int sigfd;
	int stdin_fd;		/* the module's __stdin, or -1 (stdin.c) */
	int release_fd;		/* -c child held until START is done */
	pid_t child;
	bool child_done;
	bool started;		/* STARTED received */
	bool armed;		/* ... saying the probes are armed */
	bool exit_sent;
	bool stopped;		/* STOPPED received */
	bool detached;		/* DETACH sent: the module runs on */
	bool detach_refused;	/* the session was ending already */
	bool backgrounded;	/* -F -o: this is the background process */
	unsigned long long lost_before;	/* counts.lost when -A attached */
	int signals;
	int status;		/* the exit status */
	long long exit_deadline_ms;	/* for -T; 0 none */
	long long stop_deadline_ms;	/* after EXIT; 0 none */
	struct tap_msg_counts counts;
	char start_blob[TAP_MSG_MAX_PAYLOAD - sizeof(struct tap_msg_start)];
	size_t start_blob_len;
};

void
taprun_err(const char *fmt, ...)
{
	va_list ap;

	fputs("taprun: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
taprun_verbose(const char *fmt, ...)
{
	va_list ap;

	if (!taprun_verbosity)
		return;
	fputs("taprun: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static long long
taprun_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void
taprun_usage(FILE *f)
{
	fputs("usage: taprun [OPTIONS] MODULE.ko [VAR=VALUE]... (options may also follow MODULE.ko)\n", f);
}

static void
taprun_help(void)
{
	taprun_usage(stdout);
	fputs("Load a probe module built by tapc, run the script, print what it prints,\n"
	      "and remove the module when the script ends (or on Ctrl-C).\n"
	      "\n"
	      "  -c CMD         run CMD (with sh -c) once the probes are armed; stop when it\n"
	      "                 exits; target() is its process id\n"
	      "  -x PID         target() is PID\n"
	      "  -o FILE        write the script's output to FILE\n"
	      "  -b             bulk mode: one output file per CPU (FILE_cpuN with -o)\n"
	      "  -s MB          MB megabytes of output buffer per CPU (1-4095)\n"
	      "  -S SIZE[,N]    with -o FILE: go on in FILE.1, FILE.2, ... when a file\n"
	      "                 would pass SIZE megabytes; keep only the last N files\n"
	      "  -T SECS        stop the script after SECS seconds\n"
	      "  -G VAR=VALUE   set global VAR of the script (also VAR=VALUE after MODULE)\n"
	      "  --remote-id=N, --remote-uri=DEST\n"
	      "                 what remote_id() and remote_uri() return (tapc --remote\n"
	      "                 gives them: this host's place and destination)\n"
	      "  -F             flight recorder: arm the probes, then detach and leave the\n"
	      "                 script running, its output in a ring in the kernel where\n"
	      "                 the newest overwrites the oldest; with -o FILE: go on in\n"
	      "                 the background writing FILE (print its pid; kill PID\n"
	      "                 stops the script)\n"
	      "  -A NAME        attach to flight recorder NAME: print its ring, then its\n"
	      "                 output as it comes; Ctrl-C stops the script, Ctrl-\\ detaches;\n"
	      "                 with -o FILE: write the ring to FILE and detach\n"
	      "  -d NAME        stop flight recorder NAME (its ring and end probes' output\n"
	      "                 are printed) and remove the module\n"
	      "  -v             say what taprun does; repeat for more\n"
	      "  -h, --help     print this help and exit\n"
	      "  -V, --version  print taprun's version and exit\n"
	      "\n"
	      "Exit status: 0, or 1 when the script reported an error or the run failed,\n"
	      "2 for a bad command line.  Must run as root.  See taprun(8).\n", stdout);
}

static int
taprun_assign_add(struct taprun_opts *o, const char *assignment)
{
	const char *eq = strchr(assignment, '=');

	if (!eq || eq == assignment) {
		taprun_err("-G %s: expected VAR=VALUE", assignment);
		return -EINVAL;
	}
	if (o->nassigns == TAPRUN_MAX_ASSIGNS) {
		taprun_err("-G %s: more than %d assignments", assignment, TAPRUN_MAX_ASSIGNS);
		return -E2BIG;
	}
	o->assigns[o->nassigns++] = assignment;
	return 0;
}

/* --remote-id/--remote-uri: tapsets/remote.stp's global, set at START
 * if the script has it ("?": no error if not, unlike -G). */
static int
taprun_remote_add(struct taprun_opts *o, const char *global, const char *value)
{
	size_t size = strlen(global) + strlen(value) + 3;
	char *a;

	if (o->nassigns == TAPRUN_MAX_ASSIGNS) {
		taprun_err("--remote-*: more than %d assignments", TAPRUN_MAX_ASSIGNS);
		return -E2BIG;
	}
	if (!(a = malloc(size)))
		return -ENOMEM;
	snprintf(a, size, "?%s=%s", global, value);
	o->assigns[o->nassigns++] = a;	/* lives as long as taprun */
	return 0;
}

/*
 * A -G the module declares as a parameter goes to finit_module; any other
 * goes to START, and the runtime sets it through the script's table of
 * globals (and says so if there is no such global).
 */
static int
taprun_split_assigns(struct taprun_opts *o, char *blob, size_t size,
		     size_t *len)
{
	char name[128];
	const char *a, *eq;
	size_t n;
	int i;

	*len = 0;
	for (i = 0; i < o->nassigns; i++) {
		a = o->assigns[i];
		eq = strchr(a, '=');
		if (a[0] == '?')	/* --remote-*: always at START */
			goto start;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
		/* taprun's own parameters: -G __tap_owner_uid=0 would let a
		 * stapusr user see root's processes, -G __tap_ksyms=...
		 * hand the module addresses of the user's choosing */
		if (strncmp(name, "__tap_", 6) == 0) {
			taprun_err("-G %s: the module parameters named __tap_* are taprun's own", a);
			return -EINVAL;
		}
		if (taprun_modinfo_has_param(o->module, name)) {
			if (taprun_params_add(&o->params, a))
				return -EINVAL;
			continue;
		}
start:
		n = strlen(a) + 1;
		if (*len + n > size) {
			taprun_err("-G: the assignments do not fit in %zu bytes", size);
			return -E2BIG;
		}
		memcpy(blob + *len, a, n);
		*len += n;
	}
	return 0;
}

/* -s MB: the module's relay buffer per CPU, a runtime module parameter. */
static int
taprun_bufsize_param(struct taprun_opts *o, const char *arg)
{
	char param[64], *end;
	long mb = strtol(arg, &end, 10);

	if (*end || mb < 1 || mb > 4095) {
		taprun_err("-s %s: expected a buffer size in megabytes, 1 to 4095", arg);
		return -EINVAL;
	}
	snprintf(param, sizeof(param), "__tap_bufsize_mb=%ld", mb);
	return taprun_params_add(&o->params, param);
}

/* -S SIZE[,N]: output files of at most SIZE megabytes, the last N kept. */
static int
taprun_file_limits(struct taprun_opts *o, const char *arg)
{
	char *end;
	unsigned long mb = strtoul(arg, &end, 10), keep = 0;

	if (end != arg && *end == ',') {
		const char *n = end + 1;
		keep = strtoul(n, &end, 10);
		if (end == n || keep == 0)
			end = (char *)"x";
	}
	if (*end || mb == 0 || mb > 1024 * 1024 || keep > 1000000 ||
	    !isdigit((unsigned char)arg[0])) {
		taprun_err("-S %s: expected SIZE[,N]: megabytes per output file and how many files to keep, both positive", arg);
		return -EINVAL;
	}
	o->file_limit = (unsigned long long)mb << 20;
	o->file_keep = (unsigned int)keep;
	return 0;
}

/* -F -o FILE runs the session in the background (daemon.c): -x, -T,
 * -S are a plain run's; a -c command would lose its terminal. */
static const char *
taprun_file_flight_clash(const struct taprun_opts *o)
{
	if (o->cmd)
		return "-c (taprun goes to the background, away from the command's terminal; -x PID names a process that runs already)";
	if (o->bulk)
		return "-b";
	return NULL;
}

/* What -F, -A and -d leave no room for, refused by name. */
static int
taprun_check_mode(const struct taprun_opts *o)
{
	static const char *const flags[] = {
		[TAPRUN_FLIGHT] = "-F", [TAPRUN_ATTACH] = "-A",
		[TAPRUN_STOP] = "-d",
	};
	const char *clash = NULL;

	if (o->mode == TAPRUN_RUN)
		return 0;
	if (o->mode == TAPRUN_FLIGHT && o->outfile) {
		clash = taprun_file_flight_clash(o);
		if (clash) {
			taprun_err("-F -o cannot be used with %s", clash);
			return -EINVAL;
		}
		return 0;
	}
	if (o->cmd || o->target)
		clash = "-c and -x (a detached script outlives any command)";
	else if (o->timeout > 0)
		clash = "-T (nobody is there to stop a detached script on time)";
	else if (o->bulk)
		clash = "-b";
	else if (o->file_limit)
		clash = "-S";
	else if (o->mode == TAPRUN_STOP && o->outfile)
		clash = "-o";
	else if (o->mode != TAPRUN_FLIGHT && (o->nassigns || o->params))
		clash = "-G, -s and VAR=VALUE (the module is loaded already)";
	if (clash) {
		taprun_err("%s cannot be used with %s", flags[o->mode], clash);
		return -EINVAL;
	}
	return 0;
}

static int
taprun_parse_args(int argc, char **argv, struct taprun_opts *o)
{
	int opt, i;
	char *end;

	static const struct option long_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "remote-id", required_argument, NULL, 'R' },
		{ "remote-uri", required_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 },
	};

	/* No '+': options may follow the module, as staprun's do
	 * (taprun mod.ko -c CMD); everything after "--" is the module and
	 * its assignments. */
	while ((opt = getopt_long(argc, argv, "vo:bs:S:c:x:T:G:FAdhV", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'v': taprun_verbosity++; break;
		case 'F': o->mode = TAPRUN_FLIGHT; break;
		case 'A': o->mode = TAPRUN_ATTACH; break;
		case 'd': o->mode = TAPRUN_STOP; break;
		case 'o': o->outfile = optarg; break;
		case 'b': o->bulk = true; break;
		case 's':
			if (taprun_bufsize_param(o, optarg))
				return -EINVAL;
			break;
		case 'S':
			if (taprun_file_limits(o, optarg))
				return -EINVAL;
			break;
		case 'c': o->cmd = optarg; break;
		case 'x':
			o->target = strtol(optarg, &end, 10);
			if (*end || o->target <= 0) {
				taprun_err("-x %s: not a process id", optarg);
				return -EINVAL;
			}
			break;
		case 'T':
			o->timeout = strtod(optarg, &end);
			if (*end || o->timeout <= 0) {
				taprun_err("-T %s: not a positive number of seconds", optarg);
				return -EINVAL;
			}
			break;
		case 'G':
			if (taprun_assign_add(o, optarg))
				return -EINVAL;
			break;
		case 'R':
			strtol(optarg, &end, 10);
			if (!*optarg || *end) {
				taprun_err("--remote-id %s: not a number", optarg);
				return -EINVAL;
			}
			/* fall through */
		case 'U':
			if (taprun_remote_add(o, opt == 'R' ? "__remote_id" :
					      "__remote_uri", optarg))
				return -EINVAL;
			break;
		case 'h': taprun_help(); exit(0);
		case 'V':
			printf("taprun (tapc) %s, ctl protocol %u\n",
			       PACKAGE_VERSION, (unsigned)TAP_PROTOCOL_VERSION);
			exit(0);
		default: taprun_usage(stderr); return -EINVAL;
		}
	}
	if (optind >= argc) {
		taprun_usage(stderr);
		return -EINVAL;
	}
	if (o->file_limit && (!o->outfile || o->bulk)) {
		taprun_err("-S needs -o FILE (and no -b): it rotates that file");
		return -EINVAL;
	}
	if (o->cmd && o->target) {
		taprun_err("-c and -x exclude each other");
		return -EINVAL;
	}
	o->module = argv[optind];
	for (i = optind + 1; i < argc; i++)
		if (taprun_assign_add(o, argv[i]))
			return -EINVAL;
	return taprun_check_mode(o);
}

static int
taprun_check_platform(void)
{
	struct stat st;

	if (geteuid() != 0) {
		taprun_err("must be run as root (loading a kernel module needs CAP_SYS_MODULE)");
		return -EPERM;
	}
	if (stat("/proc/modules", &st) != 0 && errno == ENOENT &&
	    stat("/proc/self", &st) == 0) {
		taprun_err("this kernel cannot load modules; run it in a VM with `tapc --vm`");
		return -ENOSYS;
	}
	return 0;
}

static int
taprun_signals_block(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		taprun_err("signalfd: %s", strerror(errno));
		return -errno;
	}
	signal(SIGPIPE, SIG_IGN);
	return fd;
}

static void
taprun_request_exit(struct taprun_session *s, const char *why)
{
	if (s->exit_sent || s->stopped)
		return;
	taprun_verbose("asking the module to stop (%s)", why);
	s->exit_sent = true;
	s->stop_deadline_ms = taprun_now_ms() + TAPRUN_STOP_GRACE_MS;
	taprun_ctl_send(&s->ctl, TAP_MSG_EXIT, NULL, 0);
}

static void
taprun_reap_child(struct taprun_session *s)
{
	int wstatus;

	if (s->child <= 0 || s->child_done)
		return;
	if (waitpid(s->child, &wstatus, WNOHANG) == s->child) {
		s->child_done = true;
		/* 127 is what exec failures and the shell's "not found" exit
		 * with: the command never ran, so the run failed. */
		if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127) {
			taprun_err("-c: the command could not be started: %s", s->o->cmd);
			s->status = 1;
		} else if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) != SIGINT &&
			   WTERMSIG(wstatus) != SIGTERM && WTERMSIG(wstatus) != SIGHUP) {
			/* Not the script's error, but said: a command that
			 * crashed or was killed is not a mystery.  The stop
			 * signals (Ctrl-C reaches the whole group) are not. */
			taprun_err("-c: the command was killed by signal %d (%s)",
				   WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)));
		}
		taprun_request_exit(s, "-c command ended");
	}
}

static void taprun_detach(struct taprun_session *s);

static void
taprun_handle_signals(struct taprun_session *s)
{
	struct signalfd_siginfo si;

	while (read(s->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			taprun_reap_child(s);
			continue;
		}
		/* Ctrl-\: an attached flight recorder is left running
		 * again, as staprun does; otherwise a stop signal. */
		if (si.ssi_signo == SIGQUIT && s->o->mode == TAPRUN_ATTACH) {
			taprun_detach(s);
			continue;
		}
		if (++s->signals > 1) {
			taprun_err("second signal: not waiting for the module any more");
			s->stop_deadline_ms = taprun_now_ms();
		}
		taprun_request_exit(s, strsignal(si.ssi_signo));
	}
}

static void
taprun_release_child(struct taprun_session *s)
{
	if (s->release_fd < 0)
		return;
	taprun_target_release(s->release_fd);
	s->release_fd = -1;
}

static void
taprun_handle_msg(struct taprun_session *s, const struct taprun_msg *m)
{
	const struct tap_msg_status *st = (const void *)m->payload;

	switch (m->hdr.type) {
	case TAP_MSG_STARTED:
		s->started = true;
		s->armed = !st->status;
		if (st->status) {
			taprun_err("module %s could not arm its probes: %s", s->name, strerror(-st->status));
			s->status = 1;
		}
		taprun_release_child(s);
		break;
	case TAP_MSG_ERROR:
		/* A script error makes the status 1 even when MAXERRORS
		 * lets the script run on, as staprun does; whether it ends
		 * the script is the module's to say (STOPPED). */
		fprintf(stderr, "ERROR: %s\n", m->payload);
		s->status = 1;
		break;
	case TAP_MSG_WARNING:
		fprintf(stderr, "WARNING: %s\n", m->payload);
		break;
	case TAP_MSG_SYSTEM:
		/* the output read so far comes before the command's */
		taprun_relay_read_all(&s->relay);
		taprun_system_run(m->payload);
		break;
	case TAP_MSG_SWITCH_FILE:
		if (taprun_relay_switch(&s->relay))
			s->status = 1;
		break;
	case TAP_MSG_DRAIN:
		taprun_relay_read_dry(&s->relay);
		taprun_ctl_send(&s->ctl, TAP_MSG_DRAINED, NULL, 0);
		break;
	case TAP_MSG_COUNTS:
		memcpy(&s->counts, m->payload,
		       m->hdr.len < sizeof(s->counts) ? m->hdr.len : sizeof(s->counts));
		/* The count, should an ERROR message itself be lost. */
		if (s->counts.errors)
			s->status = 1;
		break;
	case TAP_MSG_STOPPED:
		s->stopped = true;
		if (st->status)
			s->status = 1;
		break;
	default:
		taprun_verbose("ignoring message type %u", m->hdr.type);
	}
}

/* The messages the module has queued: ATTACH's and DETACH's COUNTS are
 * there as soon as the request returns. */
static void
taprun_ctl_take(struct taprun_session *s)
{
	struct taprun_msg m;

	taprun_ctl_fill(&s->ctl);
	while (taprun_ctl_next(&s->ctl, &m))
		taprun_handle_msg(s, &m);
}

/* Detached again: output lost while this taprun read (the buffers full
 * because it read too slowly) is said, as a plain run's closing line
 * would; what is overwritten from now on is the next reader's to say. */
static void
taprun_report_detach_losses(struct taprun_session *s)
{
	taprun_ctl_take(s);
	if (s->counts.lost > s->lost_before)
		fprintf(stderr, "WARNING: Number of output records lost (buffers full): %llu\n", (unsigned long long)(s->counts.lost - s->lost_before));
}

static void
taprun_report_counts(const struct taprun_session *s)
{
	const struct tap_msg_counts *n = &s->counts;

	/* SystemTap's summary line, as runtime/user prints it. */
	if (n->errors || n->skipped)
		fprintf(stderr, "WARNING: Number of errors: %llu, skipped probes: %llu\n", (unsigned long long)n->errors, (unsigned long long)n->skipped);
	if (n->missed)
		fprintf(stderr, "WARNING: Number of probe hits the kernel missed: %llu\n", (unsigned long long)n->missed);
	if (n->lost)
		fprintf(stderr, "WARNING: Number of output records lost (buffers full): %llu\n", (unsigned long long)n->lost);
	if (n->warnings)
		fprintf(stderr, "WARNING: Number of messages from the module not delivered: %llu\n", (unsigned long long)n->warnings);
	/* By design, and apart from the losses: while detached the ring
	 * keeps the newest output (taprun(8), FLIGHT RECORDER). */
	if (n->overwritten)
		fprintf(stderr, "WARNING: Number of output records overwritten in the flight recorder's ring while detached: %llu\n", (unsigned long long)n->overwritten);
}

static int
taprun_poll_timeout(const struct taprun_session *s)
{
	long long now = taprun_now_ms(), t = TAPRUN_POLL_MS;

	if (s->exit_deadline_ms && !s->exit_sent && s->exit_deadline_ms - now < t)
		t = s->exit_deadline_ms - now;
	return t < 0 ? 0 : (int)t;
}

/* The poll set: ctl, signals, stdin (fd -1, ignored by poll, when it
 * goes nowhere), and every relay file open so far.  Grows with the
 * relay's files (CPUs coming online); NULL when out of memory. */
static struct pollfd *
taprun_poll_set(const struct taprun_session *s, struct pollfd *p, int *n)
{
	struct pollfd *grown = realloc(p, (3 + s->relay.nfiles) * sizeof(*p));
	int i;

	if (!grown) {
		free(p);
		taprun_err("poll: no memory for %d files", 3 + s->relay.nfiles);
		return NULL;
	}
	p = grown;
	p[0] = (struct pollfd){ .fd = s->ctl.fd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	p[2] = (struct pollfd){ .fd = s->stdin_fd >= 0 ? STDIN_FILENO : -1,
				.events = POLLIN };
	*n = 3;
	/* Relay files wake us on full sub-buffers; the timeout covers the
	 * partly filled ones. */
	for (i = 0; i < s->relay.nfiles; i++)
		if (s->relay.fd[i] >= 0)
			p[(*n)++] = (struct pollfd){ .fd = s->relay.fd[i],
						     .events = POLLIN };
	return p;
}

/*
 * -F -o FILE once armed: this process goes on in the background
 * (daemon.c; the one that started it returns to the shell).  If it
 * cannot, the script is stopped here rather than left in front.
 */
static void
taprun_background(struct taprun_session *s)
{
	if (s->backgrounded || s->exit_sent || s->stopped)
		return;
	s->backgrounded = true;
	if (taprun_daemon_start(s->name, &s->relay, &s->lock) == 0)
		return;
	s->status = 1;
	taprun_request_exit(s, "cannot go to the background");
}

/*
 * Leave the session running (-F once armed, Ctrl-\ while attached): what
 * the buffers hold now is printed first, then the module is told to run
 * on alone.  A session that is stopping already is not left: the loop
 * goes on to its end as usual.
 */
static void
taprun_detach(struct taprun_session *s)
{
	if (s->exit_sent || s->stopped || s->detached || s->detach_refused)
		return;
	taprun_relay_read_dry(&s->relay);
	if (taprun_flight_detach(&s->ctl, s->name) == 0)
		s->detached = true;
	else
		s->detach_refused = true;	/* ending: see it to its end */
}

/* The session loop: until STOPPED, a detach, or the module stops
 * answering. */
static int
taprun_loop(struct taprun_session *s)
{
	struct pollfd *p = NULL;
	struct taprun_msg m;
	long long next_scan = 0;
	unsigned int generation = s->relay.generation - 1;
	int ret = 0, n = 0;

	while (!s->stopped && !s->detached) {
		/* a CPU brought online makes its trace file then */
		if (taprun_now_ms() >= next_scan) {
			taprun_relay_scan(&s->relay);
			next_scan = taprun_now_ms() + TAPRUN_RESCAN_MS;
		}
		if (generation != s->relay.generation) {
			p = taprun_poll_set(s, p, &n);
			if (!p)
				return -ENOMEM;
			generation = s->relay.generation;
		}
		ret = poll(p, n, taprun_poll_timeout(s));
		if (ret < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		ret = taprun_relay_read_all(&s->relay);
		if (ret < 0) {
			if (ret != -EPIPE)
				s->status = 1;
			taprun_request_exit(s, "output failed");
		}
		if (p[1].revents & POLLIN)
			taprun_handle_signals(s);
		if (s->stdin_fd >= 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    taprun_stdin_forward(s->stdin_fd) < 0) {
			close(s->stdin_fd);	/* the end of the input */
			s->stdin_fd = p[2].fd = -1;
		}
		taprun_reap_child(s);
		ret = taprun_ctl_fill(&s->ctl);
		if (ret) {
			taprun_err("ctl: module %s went away", s->name);
			goto out;
		}
		while (!s->stopped && taprun_ctl_next(&s->ctl, &m))
			taprun_handle_msg(s, &m);
		/* -F -o goes to the background even after an early script
		 * error: one MAXERRORS lets pass leaves the script running,
		 * and its errors land in FILE from then on. */
		if (s->o->mode == TAPRUN_FLIGHT && s->o->outfile && s->armed)
			taprun_background(s);
		else if (s->o->mode == TAPRUN_FLIGHT && s->started && !s->status)
			taprun_detach(s);
		if (s->exit_deadline_ms && taprun_now_ms() >= s->exit_deadline_ms)
			taprun_request_exit(s, "-T time is up");
		if (s->exit_sent && taprun_now_ms() >= s->stop_deadline_ms) {
			taprun_err("module %s did not stop; unloading it anyway", s->name);
			ret = -ETIMEDOUT;
			goto out;
		}
	}
	if (!s->detached)
		taprun_relay_read_dry(&s->relay);
	ret = 0;
out:
	free(p);
	return ret;
}

/* A refused START leaves its reasons as ERROR messages: show them. */
static void
taprun_ctl_drain_errors(struct taprun_session *s)
{
	struct taprun_msg m;

	taprun_ctl_fill(&s->ctl);
	while (taprun_ctl_next(&s->ctl, &m))
		if (m.hdr.type == TAP_MSG_ERROR)
			fprintf(stderr, "ERROR: %s\n", m.payload);
}

static int
taprun_start(struct taprun_session *s)
{
	char payload[TAP_MSG_MAX_PAYLOAD];
	struct tap_msg_start start = { .target_pid = s->o->target };
	int ret;

	if (s->child > 0)
		start.target_pid = s->child;
	if (s->o->timeout > 0)
		s->exit_deadline_ms = taprun_now_ms() + (long long)(s->o->timeout * 1000);
	/* The begin probes run inside this write: their output is complete
	 * when it returns, and goes out before anything the armed probes
	 * print. */
	memcpy(payload, &start, sizeof(start));
	memcpy(payload + sizeof(start), s->start_blob, s->start_blob_len);
	ret = taprun_ctl_send(&s->ctl, TAP_MSG_START, payload,
			      sizeof(start) + s->start_blob_len);
	if (ret) {
		taprun_ctl_drain_errors(s);
		return ret;
	}
	taprun_relay_read_dry(&s->relay);
	return taprun_ctl_send(&s->ctl, TAP_MSG_ARM, NULL, 0);
}

/* Insert, talk, read, and always remove: one cleanup label per resource. */
static int
taprun_run(struct taprun_session *s)
{
	bool removed;
	int ret;

	ret = taprun_split_assigns(s->o, s->start_blob, sizeof(s->start_blob),
				   &s->start_blob_len);
	if (!ret)
		ret = taprun_ksyms_param(s->o->module, &s->o->params);
	if (!ret)
		ret = taprun_tz_params(s->o->module, &s->o->params);
	if (!ret)
		ret = taprun_owner_param(s->o->module, &s->o->params);
	if (ret)
		return ret;
	ret = taprun_session_lock(&s->lock, s->name);
	if (ret)
		return ret;
	ret = taprun_session_reclaim(&s->lock, s->name);
	if (ret) {		/* still loaded: the file keeps naming it */
		taprun_session_unlock(&s->lock, false);
		return ret;
	}
	ret = taprun_module_insert(s->o->module, s->name, s->o->params);
	if (ret) {
		taprun_session_unlock(&s->lock, true);
		return ret;
	}
	ret = taprun_ctl_open(&s->ctl, s->name);
	if (ret)
		goto out_module;
	ret = taprun_ctl_hello(&s->ctl, s->name);
	if (ret)
		goto out_ctl;
	ret = taprun_relay_open(&s->relay, s->name, s->o->outfile, s->o->bulk);
	if (ret)
		goto out_ctl;
	taprun_relay_limit(&s->relay, s->o->file_limit, s->o->file_keep);
	ret = taprun_start(s);
	if (ret)
		goto out_relay;
	s->stdin_fd = taprun_stdin_open(s->name);
	ret = taprun_loop(s);
	if (s->stdin_fd >= 0)
		close(s->stdin_fd);
	if (s->detached)
		goto out_detached;
	taprun_report_counts(s);
out_relay:
	taprun_relay_close(&s->relay);
out_ctl:
	taprun_ctl_close(&s->ctl);
out_module:
	removed = taprun_module_remove(s->name) == 0;
	if (!removed && !ret)
		ret = -EBUSY;
	taprun_session_unlock(&s->lock, removed);
	return ret;

out_detached:
	/* Nobody owns the running module now: the lock file goes, so that
	 * no later run takes it for one left by a dead taprun. */
	taprun_report_detach_losses(s);
	taprun_relay_close(&s->relay);
	taprun_ctl_close(&s->ctl);
	taprun_session_unlock(&s->lock, true);
	taprun_flight_say_detached(s->name);
	return ret;
}

/*
 * -A -o FILE: the ring as it is now, into FILE, and detach again.  The
 * COUNTS that ATTACH answers with give the records overwritten so far.
 */
static int
taprun_dump(struct taprun_session *s)
{
	int n;

	if (s->stopped)
		return taprun_loop(s);	/* ended while detached: finish it */
	n = taprun_relay_read_dry(&s->relay);
	if (n < 0 || taprun_flight_detach(&s->ctl, s->name))
		return n < 0 ? n : -EIO;
	s->detached = true;
	fprintf(stderr, "taprun: %d bytes of module %s's ring written to %s (%llu older records were overwritten); it runs on: \"taprun -A %s\" attaches, \"taprun -d %s\" stops it\n",
		n, s->name, s->o->outfile, (unsigned long long)s->counts.overwritten, s->name, s->name);
	return 0;
}

/*
 * -A and -d: take over a session left running by taprun -F.  -A prints
 * the ring and then the output as it comes, until the script ends, a
 * signal stops it (Ctrl-C: as staprun -A, the script stops) or Ctrl-\
 * detaches again; -d stops it at once.  A session that ends here is
 * removed, as any other.
 */
static int
taprun_attach_run(struct taprun_session *s)
{
	bool removed;
	int ret;

	ret = taprun_session_lock(&s->lock, s->name);
	if (ret)
		return ret;
	ret = taprun_flight_find(s->name);
	if (!ret) {
		ret = taprun_ctl_open(&s->ctl, s->name);
		if (ret)
			taprun_flight_explain_open(s->name, ret);
	}
	if (ret) {
		taprun_session_unlock(&s->lock, true);
		return ret;
	}
	ret = taprun_ctl_hello(&s->ctl, s->name);
	if (!ret)
		ret = taprun_flight_attach(&s->ctl, s->name);
	if (ret) {
		taprun_ctl_close(&s->ctl);
		taprun_session_unlock(&s->lock, true);
		return ret;
	}
	s->started = true;
	taprun_ctl_take(s);
	s->lost_before = s->counts.lost;
	ret = taprun_relay_open(&s->relay, s->name,
				s->o->mode == TAPRUN_ATTACH ? s->o->outfile : NULL,
				false);
	if (ret) {
		/* the session must not be left unread and not overwriting */
		taprun_flight_detach(&s->ctl, s->name);
		s->detached = true;
	} else if (s->o->outfile) {
		ret = taprun_dump(s);
	} else {
		if (s->o->mode == TAPRUN_STOP)
			taprun_request_exit(s, "-d");
		ret = taprun_loop(s);
	}
	if (s->detached) {
		taprun_report_detach_losses(s);
		taprun_relay_close(&s->relay);
		taprun_ctl_close(&s->ctl);
		taprun_session_unlock(&s->lock, true);
		if (!s->o->outfile)
			taprun_flight_say_detached(s->name);
		return ret;
	}
	taprun_report_counts(s);
	taprun_relay_close(&s->relay);
	taprun_ctl_close(&s->ctl);
	removed = taprun_module_remove(s->name) == 0;
	if (!removed && !ret)
		ret = -EBUSY;
	taprun_session_unlock(&s->lock, removed);
	return ret;
}

int
main(int argc, char **argv)
{
	struct taprun_opts o = { 0 };
	struct taprun_session s = { .o = &o, .release_fd = -1, .sigfd = -1,
				    .stdin_fd = -1 };
	int ret;

	if (taprun_parse_args(argc, argv, &o))
		return 2;
	if (o.mode == TAPRUN_ATTACH || o.mode == TAPRUN_STOP) {
		/* NAME, or the module file it was loaded from */
		if (taprun_module_name(o.module, s.name, sizeof(s.name)) ||
		    taprun_check_platform())
			return 1;
		/* Ctrl-C and Ctrl-\ are how -A is driven: a shell that
		 * started it in the background ignores both (POSIX, without
		 * job control), and `kill -INT` must still reach it. */
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		s.sigfd = taprun_signals_block();
		if (s.sigfd < 0)
			return 1;
		ret = taprun_attach_run(&s);
		return ret ? 1 : s.status;
	}
	if (taprun_module_name(o.module, s.name, sizeof(s.name)) ||
	    taprun_check_privilege(o.module) || taprun_check_platform())
		return 1;
	if (o.mode == TAPRUN_FLIGHT && o.outfile) {
		/* kill PID must reach the background process, whatever a
		 * shell without job control made it ignore */
		o.outfile = o.abs_outfile = taprun_daemon_abspath(o.outfile);
		if (!o.outfile)
			return 1;
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	s.sigfd = taprun_signals_block();
	if (s.sigfd < 0)
		return 1;
	if (o.cmd) {
		s.child = taprun_target_fork(o.cmd, &s.release_fd);
		if (s.child < 0)
			return 1;
	}
	ret = taprun_run(&s);
	if (s.release_fd >= 0)	/* never released: it exits without running */
		close(s.release_fd);
	if (ret)
		s.status = 1;
	free(o.params);
	free(o.abs_outfile);
	return s.status;
}
