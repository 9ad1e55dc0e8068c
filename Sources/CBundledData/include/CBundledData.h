#ifndef PUCKD_CBUNDLEDDATA_UMBRELLA_H
#define PUCKD_CBUNDLEDDATA_UMBRELLA_H
// Umbrella header of the CBundledData module: list every header here (see CLinux.h for why).
#include "bundled_data.h"
#include "board_profiles.h"
#include "build_date.h"
#endif
