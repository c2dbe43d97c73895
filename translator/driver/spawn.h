/*
 * spawn.h -- running the programs tapc drives (make, taprun, the VM
 * tools): fork, exec, wait, with output sent to a log file or inherited.
 */
#ifndef TAPC_DRIVER_SPAWN_H
#define TAPC_DRIVER_SPAWN_H

/* Run argv[0] (searched in PATH) with `argv`. With `log`, stdout and
 * stderr go to that file; else they are inherited. Returns the exit
 * status, 128+N for a signal, -1 if it could not start (errno set). While
 * waiting, SIGINT and SIGTERM are left to the child. */
int spawn_wait(char *const argv[], const char *log);

/* Print the last `lines` lines of `path` to stderr. */
void spawn_show_log_tail(const char *path, int lines);

#endif
