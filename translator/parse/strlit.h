/*
 * strlit.h -- the bytes a string literal stands for. Literals keep their
 * escapes as written in the tree ("a\n" is a backslash and an n); passes
 * that need the bytes (format checks, regex checks, code generation) ask
 * here.
 */
#ifndef TAPC_PARSE_STRLIT_H
#define TAPC_PARSE_STRLIT_H

#include <stddef.h>

#include "translator/common/arena.h"

/* \n \t \r \a \b \f \v \xHH \OOO and \<any> (that character). */
const char *strlit_unescape(struct arena *a, const char *raw, size_t *len);

#endif
