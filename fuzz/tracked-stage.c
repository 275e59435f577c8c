/* libcommon/stage.c and stage-out.c with exit() and allocations tracked:
 * see track.h. */
#include <config.h>
#define TRACK_RENAME
#include "track.h"
#include "../libcommon/stage.c"
#include "../libcommon/stage-out.c"
