#include "BuildInfo.h"

#ifndef OPENCLAW_COMMIT
#define OPENCLAW_COMMIT ""
#endif

const char *openclaw_build_commit(void) { return OPENCLAW_COMMIT; }
