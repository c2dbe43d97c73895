/*
 * header_types.h -- the types of C header files, for SystemTap's
 * @cast(p, "type", "<sys/un.h>"): the headers are compiled into an
 * object with DWARF (a C file that only includes them, `gcc -g -c` with
 * every declared type kept), which the DWARF reader (dwarf.h) then
 * searches like any other file.
 *
 * Objects are kept in the cache (cache_dir.h, "headers/") under a hash
 * of the header list, with the list of files the compiler read; one is
 * compiled again when any of those files is newer.  Without a cache root
 * the object goes to a temporary directory removed at exit.
 *
 * User-space headers only (found where the compiler finds them,
 * /usr/include): "kernel<linux/fs.h>" names the kernel's own types,
 * which the kernel's BTF or DWARF already has.
 */
#ifndef TAPC_DEBUGINFO_HEADER_TYPES_H
#define TAPC_DEBUGINFO_HEADER_TYPES_H

#include <stdbool.h>
#include <stddef.h>

/* Whether @cast's module string is a list of user-space headers:
 * "<sys/un.h>", "<sys/socket.h><sys/un.h>". */
bool hdr_is_header_list(const char *module);

/* The object holding the types of header list `module` (malloc'd path),
 * compiled now or found in the cache; NULL with the reason in err (a bad
 * list, or the compiler's first error lines). */
char *hdr_types_object(const char *module, char *err, size_t errlen);

#endif
