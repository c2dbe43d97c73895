/*
 * flight.c -- the flight recorder's side of taprun: leaving a session
 * running (-F, and Ctrl-\ while attached) and finding one again (-A, -d).
 *
 * Takes: the module name and an open, greeted ctl.  Produces: DETACH and
 * ATTACH sent (tap_protocol.h), the words a user acts on when detaching
 * ("To reconnect, type taprun -A NAME"), and a clear error when NAME is
 * not loaded, is not a tapc module, or is not a detached session.
 * Must not: remove a module; the session loop in taprun.c decides that.
 *
 * While detached the module's relay buffers overwrite their oldest
 * sub-buffer when full; the records overwritten are counted by the module
 * and reported apart from records lost (taprun.c's closing lines).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "loader/taprun.h"

/* 0 when module `name` is loaded and has a tapc ctl file; else said. */
int
taprun_flight_find(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (access(path, F_OK) != 0) {
		taprun_err("no module %s is loaded (taprun -F MODULE.ko starts a flight recorder)", name);
		return -ENOENT;
	}
	return 0;
}

/* A ctl that would not open: say why in the terms of -A and -d. */
void
taprun_flight_explain_open(const char *name, int err)
{
	if (err == -EBUSY)
		taprun_err("module %s has a taprun attached already", name);
	else if (err == -ENOENT)
		taprun_err("module %s is not a tapc module (it has no tap_%s/ctl)", name, name);
}

/* DETACH: the module runs on, overwriting its oldest output.  A
 * session that is ending (exit() in a begin probe, say) refuses with
 * -EINVAL: the caller then stays and sees it end, as a plain run. */
int
taprun_flight_detach(struct taprun_ctl *ctl, const char *name)
{
	int ret = taprun_ctl_request(ctl, TAP_MSG_DETACH);

	if (ret == -EINVAL) {
		taprun_verbose("module %s: the script is ending; not detaching", name);
		return ret;
	}
	if (ret) {
		taprun_err("ctl: the module refused DETACH: %s", strerror(-ret));
		return ret;
	}
	taprun_verbose("detached from module %s", name);
	return 0;
}

void
taprun_flight_say_detached(const char *name)
{
	fprintf(stderr, "\nDisconnecting from module %s: it runs on as a flight recorder.\n"
		"To reconnect, type \"taprun -A %s\"; to stop it, \"taprun -d %s\".\n",
		name, name, name);
}

/* ATTACH: take over a detached session; -EINVAL when it is not one. */
int
taprun_flight_attach(struct taprun_ctl *ctl, const char *name)
{
	int ret;

	ret = taprun_ctl_request(ctl, TAP_MSG_ATTACH);
	if (ret == -EINVAL)
		taprun_err("module %s is not a detached flight recorder (started with taprun -F)", name);
	else if (ret)
		taprun_err("ctl: module %s refused ATTACH: %s", name, strerror(-ret));
	return ret;
}
