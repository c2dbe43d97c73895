/*
 * module.c -- putting the probe module into the kernel and taking it out.
 *
 * Takes: the .ko path and the module parameters (-G var=value).  Produces:
 * the loaded module (finit_module) or a message that says why not, in the
 * terms a user can act on: not root, a kernel that cannot load modules, a
 * module of that name already loaded, a module built for another kernel,
 * a kernel that wants a signature the module lacks or a key it trusts.
 * Must not: leave the module loaded on a path that reports failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include "loader/taprun.h"

/*
 * The name the kernel will use: .modinfo's name= (kbuild writes it), else
 * the file name, where kbuild turns '-' into '_'.
 */
int
taprun_module_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t len, i;

	if (taprun_modinfo_get(path, "name", name, size) == 0 && name[0])
		return 0;
	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".ko") == 0)
		len -= 3;
	if (len == 0 || len >= size || len >= 56) {
		taprun_err("%s: not a usable module file name", path);
		return -EINVAL;
	}
	for (i = 0; i < len; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[len] = '\0';
	return 0;
}

/* Append "var=value" to the parameter string, quoting values with blanks. */
int
taprun_params_add(char **params, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	size_t old = *params ? strlen(*params) : 0;
	size_t need = old + strlen(assignment) + 4;
	char *p;

	if (!eq || eq == assignment) {
		taprun_err("-G %s: expected VAR=VALUE", assignment);
		return -EINVAL;
	}
	p = realloc(*params, need);
	if (!p)
		return -ENOMEM;
	if (strpbrk(eq + 1, " \t"))
		snprintf(p + old, need - old, "%s%.*s\"%s\"", old ? " " : "",
			 (int)(eq - assignment + 1), assignment, eq + 1);
	else
		snprintf(p + old, need - old, "%s%s", old ? " " : "",
			 assignment);
	*params = p;
	return 0;
}

/* Say which kernel the module was built for when that is the problem. */
static void
taprun_explain_vermagic(const char *path, int err)
{
	char vermagic[256], *sp;
	struct utsname u;

	if (taprun_modinfo_get(path, "vermagic", vermagic, sizeof(vermagic)) == 0 &&
	    uname(&u) == 0) {
		sp = strchr(vermagic, ' ');
		if (sp)
			*sp = '\0';
		if (strcmp(vermagic, u.release) != 0) {
			taprun_err("%s: built for kernel %s, this is %s: rebuild it with `tapc -r %s`", path, vermagic, u.release, u.release);
			return;
		}
	}
	taprun_err("%s: the kernel rejected the module (see dmesg): %s", path, strerror(err));
}

/* Whether `path` ends in the marker sign-file appends after the
 * signature: the kernel's own test for "a signed module". */
static bool
taprun_module_signed(const char *path)
{
	static const char marker[] = "~Module signature appended~\n";
	char tail[sizeof(marker) - 1];
	FILE *f = fopen(path, "rb");
	bool ok;

	if (!f)
		return false;
	ok = fseek(f, -(long)sizeof(tail), SEEK_END) == 0 &&
	     fread(tail, 1, sizeof(tail), f) == sizeof(tail) &&
	     memcmp(tail, marker, sizeof(tail)) == 0;
	fclose(f);
	return ok;
}

/* A refused signature (EKEYREJECTED, ENOKEY; EPERM under lockdown):
 * unsigned, or signed by a key this kernel does not trust.  Both need
 * the user to act differently, so the message tells which. */
static void
taprun_explain_signature(const char *path, int err)
{
	if (!taprun_module_signed(path)) {
		taprun_err("%s: this kernel requires signed modules (module.sig_enforce, Secure Boot or lockdown) and the module is not signed: build it with `tapc --sign-module` and enrol tapc's key on this machine (`mokutil --import ~/.local/share/tapc/signing_key.x509`, reboot, confirm in the MOK manager)", path);
		return;
	}
	taprun_err("%s: this kernel requires signed modules and does not trust the key that signed this one (%s): enrol that key on this machine with `mokutil --import signing_key.x509` (the certificate beside the key tapc signed with, default ~/.local/share/tapc), reboot and confirm in the MOK manager", path, strerror(err));
}

static bool
taprun_lockdown_active(void)
{
	char line[256];
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	bool active = false;

	if (f) {
		active = fgets(line, sizeof(line), f) && !strstr(line, "[none]");
		fclose(f);
	}
	return active;
}

static void
taprun_insert_explain(const char *path, const char *name, int err)
{
	switch (err) {
	case ENOSYS:
		taprun_err("this kernel cannot load modules; run it in a VM with `tapc --vm`");
		break;
	case EEXIST:
		taprun_err("module %s is already loaded (another taprun running? a flight recorder: `taprun -A %s` attaches, `taprun -d %s` stops it; else remove it with `rmmod %s`)", name, name, name, name);
		break;
	case EPERM:
		if (taprun_lockdown_active() && !taprun_module_signed(path)) {
			taprun_explain_signature(path, err);
			break;
		}
		taprun_err("%s: not permitted to load modules (need root and CAP_SYS_MODULE; lockdown or modules_disabled may forbid it)", path);
		break;
	case ENOEXEC:
	case EINVAL:
		taprun_explain_vermagic(path, err);
		break;
	case ENOKEY:
	case EKEYREJECTED:
		taprun_explain_signature(path, err);
		break;
	default:
		taprun_err("%s: cannot load module: %s", path, strerror(err));
	}
}

int
taprun_module_insert(const char *path, const char *name, const char *params)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		taprun_err("%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	taprun_verbose("inserting %s as %s with \"%s\"", path, name,
		       params ? params : "");
	if (syscall(SYS_finit_module, fd, params ? params : "", 0) != 0) {
		ret = -errno;
		taprun_insert_explain(path, name, errno);
	}
	close(fd);
	return ret;
}

/*
 * delete_module refuses while files of the module are still open, and the
 * kernel drops those references a moment after close(): retry briefly.
 */
int
taprun_module_remove(const char *name)
{
	int tries, err = 0;

	for (tries = 0; tries < 50; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0) {
			taprun_verbose("removed module %s", name);
			return 0;
		}
		err = errno;
		if (err != EAGAIN && err != EBUSY)
			break;
		usleep(100 * 1000);
	}
	taprun_err("cannot remove module %s: %s (try `rmmod %s`)", name,
		   strerror(err), name);
	return -err;
}
