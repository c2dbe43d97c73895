/*
 * core.h - every public header of the portable runtime core, for generated
 * code and the user-space runtime that want all of it.  Declares nothing
 * of its own.
 */
#ifndef TAP_CORE_CORE_H
#define TAP_CORE_CORE_H

#include "platform.h"
#include "error.h"
#include "value.h"
#include "buf.h"
#include "arith.h"
#include "stat.h"
#include "map.h"
#include "format.h"
#include "tapstring.h"
#include "json.h"
#include "merge.h"
#include "fp.h"
#include "match.h"

#endif /* TAP_CORE_CORE_H */
