// libgpiod v1 (Debian 12 / Raspberry Pi OS bookworm: libgpiod-dev 1.6.3). v2 is an incompatible API:
// every gpiod call lives in one Swift file (Sources/Hardware/GPIOChipLibgpiod.swift).
#include <gpiod.h>
