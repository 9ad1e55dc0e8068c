#ifndef PUCKD_CLINUX_UMBRELLA_H
#define PUCKD_CLINUX_UMBRELLA_H
// Umbrella header of the CLinux module: list every header here. (An umbrella *directory* works too,
// but clang's module cache then misses headers added later and incremental builds fail with
// "cannot find 'clinux_…' in scope" until .build is cleaned.)
#include "clinux.h"
#include "clinux_console.h"
#include "clinux_device.h"
#include "clinux_socket.h"
#include "clinux_gpio.h"
#include "clinux_i2c.h"
#include "clinux_resolver.h"
#include "clinux_serial.h"
#endif
