/*
 * libcommon/tsvr.c, tsvr-field.c and tsvw.c with exit() and allocations
 * tracked: see track.h.
 */
#include <config.h>
#define TRACK_RENAME
#include "track.h"
#include "../libcommon/tsvr.c"
#include "../libcommon/tsvr-field.c"
#include "../libcommon/tsvw.c"
