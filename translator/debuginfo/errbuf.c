/*
 * errbuf.c -- formatting a failure's reason into the caller's buffer (see
 * errbuf.h).
 */
#include "translator/debuginfo/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

void
errbuf_printf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
