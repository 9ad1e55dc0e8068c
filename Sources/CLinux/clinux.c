#include <errno.h>
#include "clinux.h"

int clinux_errno(void) { return errno; }
