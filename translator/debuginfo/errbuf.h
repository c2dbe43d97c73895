/*
 * errbuf.h -- the one way debuginfo's functions say why they failed: a
 * message formatted into the caller's buffer (err, errlen), which may be
 * NULL or empty when the caller does not want it.
 */
#ifndef TAPC_DEBUGINFO_ERRBUF_H
#define TAPC_DEBUGINFO_ERRBUF_H

#include <stddef.h>

void errbuf_printf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
