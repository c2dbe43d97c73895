/*
 * options.h -- tapc's command line: parsing it into the session's options,
 * and saying which of the options tapc accepts cannot be acted on yet.
 *
 * Takes argc/argv as main() got them; fills s->opts (struct options in
 * session.h). Every value is checked here, so later passes may trust what
 * they read. Messages go to the session's diagnostics as "tapc: error: ...".
 * Must not: read files, look at the kernel or run anything.
 */
#ifndef TAPC_DRIVER_OPTIONS_H
#define TAPC_DRIVER_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "translator/driver/session.h"

/* Defaults: stop after pass 5 (run), kernel target, nothing else set. */
void options_init(struct options *o);

/*
 * Parse the command line into s->opts. s->arena and s->diag must be set up;
 * -w and -W are also copied into s->diag.
 *
 * Returns true when the driver should go on. Returns false when it should
 * exit with *exit_code: 0 after --help, --version or --explain ID (printed
 * on stdout), 1 after a usage error or an unknown --explain id (already
 * reported; a usage error with a hint to try --help).
 */
bool options_parse(struct session *s, int argc, char **argv, int *exit_code);

/*
 * Report every option given in s->opts whose feature tapc does not have yet
 * ("tapc: error: option '-c' is not supported yet"), and a last pass that
 * is not implemented yet. Returns false if there was any.
 */
bool options_check_supported(struct session *s);

/* The text of --help and --version. */
void options_print_help(FILE *out);
void options_print_version(FILE *out);

#endif
