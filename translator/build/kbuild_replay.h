/*
 * kbuild_replay.h -- a module built again by the commands kbuild ran for
 * the previous one, without kbuild.
 *
 * A make of an external module with the runtime object cached costs
 * ~1.2 CPU-s of which only ~0.6 is the script's compile: the rest is
 * kbuild reading the kernel's Makefiles, which run some 35 compiler
 * probes (cc-option and friends) on every make, and the pahole version
 * script five times.  Every command kbuild runs for a target is recorded
 * in that target's .cmd file, so after one ordinary build the commands
 * (compile, link, modpost, the .mod.c compile, the final link) are kept
 * beside the runtime object, with the build directory and module name as
 * placeholders, and a later build of another script for the same kernel,
 * limits and runtime runs just those: the same commands, in the order
 * kbuild ran them, in the kernel's build directory.
 *
 * Only a build whose .cmd files are exactly the known set, and whose log
 * shows no step but compiles, links and modpost, is recorded (6.1's,
 * 6.1-rt's and 6.12's kbuild, with module BTF off as kbuild.c builds:
 * pahole's run for it is in no .cmd file), and a step that fails sends
 * the build back to kbuild, so an unknown kbuild costs time, never a
 * different module.  TAPC_KBUILD_REPLAY=0 in the environment turns
 * replay off.
 */
#ifndef TAPC_BUILD_KBUILD_REPLAY_H
#define TAPC_BUILD_KBUILD_REPLAY_H

#include <stdbool.h>

#include "translator/driver/session.h"

/* After a successful kbuild of module `name` in `dir`, whose output is
 * in `log`: keep its commands in the file `steps` (a cache path).
 * Quietly does nothing when the build is not one it knows how to replay
 * (another set of .cmd files, or a step the log shows that no .cmd file
 * holds, as pahole's run for the module's BTF would be). */
void kbuild_replay_record(struct session *s, const char *dir,
			  const char *name, const char *log,
			  const char *steps);

/* Build module `name` in `dir` (sources, Kbuild and tap_rt.o written)
 * by the commands in `steps`, run in `kdir`, output to `log`.  True when
 * DIR/NAME.ko was made; false (and the partial outputs removed) when
 * there are no usable steps or one failed: then run kbuild. */
bool kbuild_replay_build(struct session *s, const char *dir, const char *name,
			 const char *kdir, const char *steps, const char *log);

#endif
