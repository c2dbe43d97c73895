/*
 * taprun.h -- the loader's internal interfaces: module insertion and
 * removal (module.c), the ctl conversation (ctl.c), the relay readers
 * (relay.c), the -c target (target.c), who may load a module
 * (privilege.c), whose processes a stapusr module sees (owner.c), the
 * flight recorder (flight.c, daemon.c), and messages (taprun.c).
 *
 * Internal functions return 0 or a negative errno and have already said
 * what went wrong, in the form "taprun: WHERE: WHAT: WHY".
 */
#ifndef TAPRUN_H
#define TAPRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "runtime/linux/tap_protocol.h"

#define TAPRUN_DEBUGFS		"/sys/kernel/debug"

__attribute__((format(printf, 1, 2))) void taprun_err(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void taprun_verbose(const char *fmt, ...);
extern int taprun_verbosity;

/* module.c */
int taprun_module_name(const char *path, char *name, size_t size);
int taprun_module_insert(const char *path, const char *name,
			 const char *params);
int taprun_module_remove(const char *name);
int taprun_params_add(char **params, const char *assignment);

/* session_lock.c */
struct taprun_lock {
	int fd;				/* flock()ed for the session, or -1 */
	long stale_pid;			/* a dead owner's pid, or 0 */
	char path[128];
};
int taprun_session_lock(struct taprun_lock *lock, const char *name);
int taprun_session_reclaim(const struct taprun_lock *lock, const char *name);
void taprun_session_unlock(struct taprun_lock *lock, bool module_removed);
/* The lock names this process from now on (-F -o's background one). */
void taprun_session_lock_owner(struct taprun_lock *lock);

/* modinfo.c */
int taprun_modinfo_get(const char *path, const char *key, char *out,
		       size_t size);
bool taprun_modinfo_has_param(const char *path, const char *name);
int taprun_modinfo_each(const char *path, const char *prefix,
			int (*fn)(const char *value, void *ctx), void *ctx);

/* privilege.c */
/* 1, 2, 3 for "stapusr", "stapsys", "stapdev"; 0 for anything else. */
int taprun_privilege_rank(const char *level);
/* The highest rank among the groups of `group_file` (/etc/group's format)
 * named after a level whose gid is in gids[]; 0 for none. */
int taprun_privilege_of_groups(const char *group_file, const gid_t *gids,
			       int ngids);
/* 0 if the real user may load `module` (by its tap_privilege .modinfo),
 * else -EPERM, said. */
int taprun_check_privilege(const char *module);

/* owner.c */
/* The user whose processes a stapusr module may see: the real uid, or
 * SUDO_UID when the real uid is 0. */
uid_t taprun_owner_uid(void);
/* Appends __tap_owner_uid=UID to params when `module` is built for
 * stapusr; 0 or -ENOMEM. */
int taprun_owner_param(const char *module, char **params);

/* ksyms.c */
int taprun_ksyms_param(const char *module, char **params);

/* timezone.c */
int taprun_tz_params(const char *module, char **params);

/* ctl.c */
struct taprun_ctl {
	int fd;
	char buf[8192];		/* bytes read, not yet parsed */
	size_t have;
};
struct taprun_msg {
	struct tap_msg_hdr hdr;
	char payload[TAP_MSG_MAX_PAYLOAD + 1];	/* NUL-terminated copy */
};
int taprun_ctl_open(struct taprun_ctl *ctl, const char *name);
void taprun_ctl_close(struct taprun_ctl *ctl);
int taprun_ctl_send(struct taprun_ctl *ctl, unsigned int type,
		    const void *payload, size_t len);
int taprun_ctl_request(struct taprun_ctl *ctl, unsigned int type);
int taprun_ctl_fill(struct taprun_ctl *ctl);
bool taprun_ctl_next(struct taprun_ctl *ctl, struct taprun_msg *msg);
int taprun_ctl_hello(struct taprun_ctl *ctl, const char *name);

/* relay.c: one file per CPU, trace<cpu>; arrays indexed by CPU */
struct taprun_relay {
	int nfiles;			/* highest CPU with an open file + 1 */
	int cap;			/* entries in fd[] and out[] */
	int *fd;			/* trace<cpu>, -1 when absent */
	int *out;			/* where each one's data goes */
	int main_out;			/* stdout or -o FILE (not -b) */
	const char *outfile;		/* -o FILE, or NULL */
	bool bulk;			/* -b: FILE_<cpu> per CPU */
	bool own_out;			/* out[]/main_out are files we opened */
	bool broken;			/* output failed: read and discard */
	bool stdio_follows;		/* stdout/stderr are the -o file */
	unsigned int switches;		/* switch_file() calls: FILE.<n> */
	unsigned long long limit;	/* -S SIZE in bytes; 0: no limit */
	unsigned int keep;		/* -S SIZE,N: files kept; 0: all */
	unsigned long long file_bytes;	/* in the current -o file */
	unsigned int generation;	/* bumped when a file is opened */
	unsigned long long bytes;
	char dir[256];			/* debugfs tap_<module> */
};
int taprun_relay_open(struct taprun_relay *r, const char *name,
		      const char *outfile, bool bulk);
int taprun_relay_scan(struct taprun_relay *r);
void taprun_relay_close(struct taprun_relay *r);
int taprun_relay_read_all(struct taprun_relay *r);
int taprun_relay_read_dry(struct taprun_relay *r);
int taprun_relay_switch(struct taprun_relay *r);
/* -S SIZE[,N]: rotate -o FILE at SIZE megabytes, keep the last N. */
void taprun_relay_limit(struct taprun_relay *r, unsigned long long bytes,
			unsigned int keep);

/* target.c */
/* A uid or gid from sudo's environment (NAME); false if absent or
 * malformed. */
bool taprun_sudo_id(const char *name, unsigned long *out);
pid_t taprun_target_fork(const char *cmd, int *release_fd);
int taprun_target_release(int release_fd);
void taprun_target_drop_sudo(void);

/* stdin.c */
/* The module's __stdin procfs file opened for writing, or -1 (none). */
int taprun_stdin_open(const char *name);
/* Reads stdin and writes it to procfs_fd a byte at a time: -1 at the
 * end of the input (stop polling it), else 0. */
int taprun_stdin_forward(int procfs_fd);

/* flight.c: -F, -A, -d */
enum taprun_mode {
	TAPRUN_RUN,		/* load, run, unload */
	TAPRUN_FLIGHT,		/* -F: load, arm, detach */
	TAPRUN_ATTACH,		/* -A NAME: take over a detached session */
	TAPRUN_STOP,		/* -d NAME: take it over and stop it */
};
int taprun_flight_find(const char *name);
void taprun_flight_explain_open(const char *name, int err);
int taprun_flight_detach(struct taprun_ctl *ctl, const char *name);
void taprun_flight_say_detached(const char *name);
int taprun_flight_attach(struct taprun_ctl *ctl, const char *name);

/* daemon.c: -F -o FILE, the file flight recorder */
char *taprun_daemon_abspath(const char *path);
int taprun_daemon_start(const char *name, struct taprun_relay *r,
			struct taprun_lock *lock);

/* system.c */
void taprun_system_run(const char *cmd);

#endif /* TAPRUN_H */
