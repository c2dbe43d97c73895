/*
 * sign_key.c -- tapc's module-signing key pair, and signing a module with
 * the kernel's own scripts/sign-file (sign_key.h).
 *
 * sign-file comes from the target kernel's build tree (scripts/sign-file;
 * Debian's headers link scripts/ to the linux-kbuild package), else from
 * any /usr/lib/linux-kbuild-VERSION/scripts; the hash is the kernel's
 * CONFIG_MODULE_SIG_HASH (sha256 if the .config is not at hand).  The key
 * is made once with `openssl req -x509`: an RSA key and a self-signed
 * certificate whose key usage is digital signatures and code signing,
 * the form MOK enrolment and the kernel's module keyrings accept.
 */
#include "translator/driver/sign_key.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "translator/debuginfo/kernel.h"
#include "translator/driver/spawn.h"

#define KEY_FILE "signing_key.pem"
#define CERT_FILE "signing_key.x509"

const char *
sign_key_dir(struct session *s)
{
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (s->opts.sign_key_dir)
		return s->opts.sign_key_dir;
	if (data && *data == '/')
		return arena_printf(s->arena, "%s/tapc", data);
	return arena_printf(s->arena, "%s/.local/share/tapc",
			    home && *home ? home : "/root");
}

/* mkdir -p with mode 0700 for the directories made. */
static bool
make_dirs(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return false;
		*p = '/';
	}
	return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* The key pair in `dir`, made when missing; false with a diagnostic. */
static bool
ensure_key(struct session *s, const char *dir, const char *key,
	   const char *cert)
{
	if (access(key, R_OK) == 0 && access(cert, R_OK) == 0)
		return true;
	if (access(key, F_OK) == 0 || access(cert, F_OK) == 0) {
		diag_fatal_noloc(&s->diag, "%s has only half of a signing key pair (%s, %s): remove the one there, or name another directory with --sign-module=KEYDIR", dir, KEY_FILE, CERT_FILE);
		return false;
	}
	if (!make_dirs(dir)) {
		diag_fatal_noloc(&s->diag, "cannot make %s for the signing key: %s", dir, strerror(errno));
		return false;
	}
	const char *log = arena_printf(s->arena, "%s/openssl.log", dir);
	const char *argv[] = {
		"openssl", "req", "-new", "-x509", "-newkey", "rsa:4096",
		"-nodes", "-utf8", "-sha256", "-days", "36500", "-batch",
		"-subj", "/CN=tapc module signing key/",
		"-addext", "basicConstraints=critical,CA:FALSE",
		"-addext", "keyUsage=digitalSignature",
		"-addext", "extendedKeyUsage=codeSigning",
		"-outform", "DER", "-out", cert, "-keyout", key, NULL,
	};
	mode_t old = umask(077);	/* the private key: 0600 from birth */
	int rc = spawn_wait((char *const *)argv, log);
	umask(old);
	if (rc != 0) {
		diag_fatal_noloc(&s->diag, "openssl could not make the signing key in %s%s", dir, rc < 0 ? ": openssl is not installed" : "; its output:");
		if (rc > 0)
			spawn_show_log_tail(log, 10);
		unlink(key);
		unlink(cert);
		return false;
	}
	unlink(log);
	chmod(key, 0600);
	chmod(cert, 0600);
	fprintf(stderr, "tapc: made a module-signing key: %s (private, keep it safe) and %s\n", key, cert);
	return true;
}

/* The kernel's sign-file, or NULL. */
static const char *
find_sign_file(struct session *s)
{
	const char *build = s->kernel ? kernel_build_dir(s->kernel) : NULL;
	const char *found = NULL;
	glob_t g;

	if (build) {
		const char *p = arena_printf(s->arena, "%s/scripts/sign-file", build);
		if (access(p, X_OK) == 0)
			return p;
	}
	if (glob("/usr/lib/linux-kbuild-*/scripts/sign-file", 0, NULL, &g) == 0) {
		for (size_t i = g.gl_pathc; i-- > 0 && !found;)	/* newest last */
			if (access(g.gl_pathv[i], X_OK) == 0)
				found = arena_strdup(s->arena, g.gl_pathv[i]);
		globfree(&g);
	}
	return found;
}

/* CONFIG_MODULE_SIG_HASH without its quotes, or sha256. */
static const char *
sig_hash(struct session *s)
{
	const char *v = s->kernel ? kernel_config(s->kernel, "MODULE_SIG_HASH") : NULL;
	size_t n;

	if (!v || (n = strlen(v)) < 3 || v[0] != '"' || v[n - 1] != '"')
		return "sha256";
	return arena_strndup(s->arena, v + 1, n - 2);
}

bool
sign_key_sign_module(struct session *s, const char *ko)
{
	const char *dir = sign_key_dir(s);
	const char *key = arena_printf(s->arena, "%s/%s", dir, KEY_FILE);
	const char *cert = arena_printf(s->arena, "%s/%s", dir, CERT_FILE);
	const char *sign_file = find_sign_file(s);

	if (!sign_file) {
		diag_fatal_noloc(&s->diag, "--sign-module: the kernel's sign-file is not installed (scripts/sign-file of the kernel's build tree; Debian: the linux-kbuild package of the kernel's headers)");
		return false;
	}
	if (!ensure_key(s, dir, key, cert))
		return false;
	const char *argv[] = { sign_file, sig_hash(s), key, cert, ko, NULL };
	int rc = spawn_wait((char *const *)argv, NULL);
	if (rc != 0) {
		diag_fatal_noloc(&s->diag, "%s could not sign %s (exit status %d)", sign_file, ko, rc);
		return false;
	}
	if (s->opts.verbose)
		fprintf(stderr, "tapc: signed %s (%s) with %s\n", ko, sig_hash(s), key);
	fprintf(stderr, "tapc: a machine that loads only signed modules (Secure Boot, module.sig_enforce) must trust this key: enrol it once with `mokutil --import %s`, reboot and confirm the enrolment in the MOK manager\n", cert);
	return true;
}
