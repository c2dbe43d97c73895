/*
 * sign_key.h -- --sign-module: tapc's module-signing key pair and the
 * kernel's sign-file.
 *
 * The key pair (signing_key.pem, the private key, mode 0600; and
 * signing_key.x509, its certificate in DER, what `mokutil --import`
 * takes) lives in KEYDIR: --sign-module=KEYDIR, else
 * $XDG_DATA_HOME/tapc (~/.local/share/tapc).  tapc makes it with openssl
 * the first time and keeps it, so that a key enrolled once in a
 * machine's MOK list stays good for every module signed afterwards.
 */
#ifndef TAPC_DRIVER_SIGN_KEY_H
#define TAPC_DRIVER_SIGN_KEY_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* The directory the key pair is in (not made yet). */
const char *sign_key_dir(struct session *s);

/* Sign the module file `ko` in place with the key pair (made if there is
 * none) and the target kernel's sign-file, hashing with the kernel's
 * CONFIG_MODULE_SIG_HASH.  False with a diagnostic. */
bool sign_key_sign_module(struct session *s, const char *ko);

#endif
